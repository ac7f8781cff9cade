"""CP-SAT's solver, set up for a first solution or for enumeration, and its search run in a
background thread, so that the caller's thread stays interruptible:
``solve`` blocks until the search ends, and Python handles Ctrl-C only between bytecodes of the
main thread. Solutions pass to a consumer through a bounded channel."""

from __future__ import annotations

import queue
import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

from nqueens.core.strategies import AUTO

if TYPE_CHECKING:
    from nqueens.engines.cpsat.without_pandas import cp_model


_POLL_SECONDS = 0.05


class BackgroundSearch:
    """One ``solver.solve`` call in a daemon thread, waited for in interruptible steps."""

    def __init__(
        self,
        solver: cp_model.CpSolver,
        model: cp_model.CpModel,
        callback: cp_model.CpSolverSolutionCallback | None = None,
        on_end: Callable[[], object] | None = None,
        on_stop: Callable[[], object] = lambda: None,
    ) -> None:
        from nqueens.engines.cpsat.without_pandas import cp_model

        self._solver = solver
        self._on_stop = on_stop
        self._model = model
        self._callback = callback
        self._on_end = on_end
        self._error: BaseException | None = None
        self.status: cp_model.CpSolverStatus = cp_model.UNKNOWN
        self.stopped = False
        self.solved = False  # solve() returned: only then may the solver's statistics be read
        # Waiting is done on this event, not on Thread.join: a join interrupted by Ctrl-C can leave
        # the thread marked as finished while it still runs (CPython gh-90882).
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cp-sat-search", daemon=True)

    def _run(self) -> None:
        try:
            self.status = self._solver.solve(self._model, self._callback)
            self.solved = True
        except BaseException as error:  # re-raised in the caller's thread by wait()
            self._error = error
        finally:
            if self._on_end is not None:
                self._on_end()
            self._done.set()

    def start(self) -> None:
        """Start the search; it is stopped at interpreter exit at the latest.

        A solver thread still running when the interpreter exits aborts it (SIGABRT), and a
        stop signal can land anywhere, even before the caller could ask for a stop.
        """
        weakref.finalize(self, _halt, self._solver, self._done, self._thread, self._on_stop)
        self._thread.start()

    @property
    def started(self) -> bool:
        """True once the search thread was started (it may have ended since)."""
        return self._thread.ident is not None

    def wait(self) -> None:
        """Block until the search ends; Ctrl-C stops it first, then propagates."""
        try:
            while not self._done.wait(_POLL_SECONDS):
                pass
        except KeyboardInterrupt:
            self.stop()
            raise
        self._raise_error()

    def stop(self) -> None:
        """Ask the solver to stop and wait until it has."""
        self.stopped = True
        _halt(self._solver, self._done, self._thread, self._on_stop)
        self._thread.join()

    @property
    def finished(self) -> bool:
        """True when the search ran to its end: every solution found, or none exists."""
        from nqueens.engines.cpsat.without_pandas import cp_model

        return not self.stopped and self.status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)

    def _raise_error(self) -> None:
        from nqueens.engines.cpsat.without_pandas import cp_model

        if self._error is not None:
            raise self._error
        if self.status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT rejected the model: {self._model.validate()}")


def _halt(
    solver: cp_model.CpSolver,
    done: threading.Event,
    thread: threading.Thread,
    on_stop: Callable[[], object],
) -> None:
    """Stop a search and wait for its end (at once if its thread never started).

    ``on_stop`` releases a callback that may be waiting for a consumer. The solver is asked
    repeatedly: a request made before it has started its search would be lost.
    """
    on_stop()
    while thread.ident is not None and not done.wait(_POLL_SECONDS):
        solver.stop_search()


_STREAM_BUFFER = 256  # solutions the solver may run ahead of a slow consumer
_END = object()  # put on the queue by the search thread when the search is over


class _Channel:
    """The bounded hand-over of solutions from the search thread to the consumer."""

    def __init__(self) -> None:
        self._queue: queue.Queue[object] = queue.Queue(maxsize=_STREAM_BUFFER)
        self.closing = threading.Event()

    def offer(self, item: object) -> bool:
        """Hand an item over, waiting while the buffer is full; False once the consumer left."""
        while not self.closing.is_set():
            try:
                self._queue.put(item, timeout=_POLL_SECONDS)
                return True
            except queue.Full:
                continue
        return False

    def finish(self) -> None:
        """Tell the consumer that the search is over."""
        self.offer(_END)

    def take(self) -> object:
        """The next item, waiting for it in interruptible steps."""
        while True:
            try:
                return self._queue.get(timeout=_POLL_SECONDS)
            except queue.Empty:
                continue


def _stop(channel: _Channel, search: BackgroundSearch) -> None:
    """Stop a stream's search and join its thread (idempotent; also run for dropped streams)."""
    channel.closing.set()
    if search.started:
        search.stop()


def first_solution_solver(time_limit: float | None, seed: int | None = None) -> cp_model.CpSolver:
    """A CP-SAT solver for one solution: default parallel search, quiet, Ctrl-C left to Python.

    ``seed`` seeds its randomised search; its workers still race, so runs may differ.
    """
    from nqueens.engines.cpsat.without_pandas import cp_model

    solver = cp_model.CpSolver()
    params = solver.parameters
    params.log_search_progress = False
    # Python's own handler must see Ctrl-C; the solver is stopped through stop_search instead.
    params.catch_sigint_signal = False
    if time_limit is not None:
        params.max_time_in_seconds = time_limit
    if seed is not None:
        params.random_seed = seed
    return solver


def enumeration_solver(time_limit: float | None, *, strategy: str) -> cp_model.CpSolver:
    """A CP-SAT solver that enumerates solutions one by one.

    A named strategy is followed exactly (fixed search): when every branch is explored anyway, a
    fixed order beats CP-SAT's automatic search, while to find a few solutions of a board too
    large to exhaust, ``auto`` is far faster (``nqueens bench`` measures both).
    """
    from nqueens.engines.cpsat.without_pandas import cp_model

    solver = first_solution_solver(time_limit)
    params = solver.parameters
    params.enumerate_all_solutions = True
    # Several workers on one model lose or repeat solutions while enumerating (see
    # docs/explanation/engines.md).
    params.num_workers = 1
    # To enumerate, CP-SAT excludes each solution it finds with a clause and searches again; the
    # periodic clause vivification of inprocessing then costs more than it saves
    # (benchmarks/enumeration.py times both).
    params.use_sat_inprocessing = False
    # Presolve loses solutions: with the lex-leader constraints and the first columns fixed it
    # declares solvable subproblems infeasible (benchmarks/cpsat_presolve.py holds the smallest
    # model). Without it the count is exact, at some cost in time (benchmarks/enumeration.py).
    params.cp_model_presolve = False
    if strategy != AUTO:
        params.search_branching = cp_model.FIXED_SEARCH
    return solver

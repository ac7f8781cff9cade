"""Running the CP-SAT model: enumerate, count, or find one solution.

CP-SAT's ``solve`` blocks until the search ends, and Python only handles Ctrl-C between bytecodes of
the main thread. So every search runs in a background thread while the caller's thread waits in
short, interruptible steps; Ctrl-C, a closed consumer or a time limit then stop the solver cleanly
through ``CpSolver.stop_search``, and what was found so far is still reported.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import replace

from ortools.sat.python import cp_model

from nqueens.callbacks import StreamingCallback
from nqueens.engines.streams import EngineStream
from nqueens.model import build_model
from nqueens.puzzle import Puzzle
from nqueens.results import FirstResult, SearchInterrupted, Solution, Stats, Status
from nqueens.strategies import AUTO, FIRST_MIN

_POLL_SECONDS = 0.05
_STREAM_BUFFER = 256  # solutions the solver may run ahead of a slow consumer


def first_solution_solver(time_limit: float | None) -> cp_model.CpSolver:
    """A CP-SAT solver for one solution: default parallel search, quiet, Ctrl-C left to Python."""
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.log_search_progress = False
    # Python's own handler must see Ctrl-C; the solver is stopped through stop_search instead.
    params.catch_sigint_signal = False
    if time_limit is not None:
        params.max_time_in_seconds = time_limit
    return solver


def enumeration_solver(time_limit: float | None, *, strategy: str) -> cp_model.CpSolver:
    """A CP-SAT solver that enumerates solutions one by one.

    A named strategy is followed exactly (fixed search): when every branch is explored anyway,
    the guide's first-min order is about twice as fast as CP-SAT's automatic search (measured:
    every solution for N = 11 in 0.70 s against 1.50 s). To find a few solutions of a board too
    large to exhaust, ``auto`` is far faster (first-min does not reach a first solution for
    N = 40 in minutes).
    """
    solver = first_solution_solver(time_limit)
    params = solver.parameters
    params.enumerate_all_solutions = True
    # Several workers on one model lose or repeat solutions while enumerating
    # (measured: 720 of the 724 solutions for N = 10 with two workers).
    params.num_workers = 1
    # To enumerate, CP-SAT excludes each solution it finds with a clause and searches again; the
    # periodic clause vivification of inprocessing then costs more than it saves (measured by
    # benchmarks/enumeration.py: every solution for N = 12 in 1.62 s without it against 2.54 s
    # with it, first-fail-mid; N = 11 first-min in 0.44 s against 0.71 s).
    params.use_sat_inprocessing = False
    if strategy != AUTO:
        params.search_branching = cp_model.FIXED_SEARCH
    return solver


class BackgroundSearch:
    """One ``solver.solve`` call in a daemon thread, waited for in interruptible steps."""

    def __init__(
        self,
        solver: cp_model.CpSolver,
        model: cp_model.CpModel,
        callback: cp_model.CpSolverSolutionCallback | None = None,
        on_end: Callable[[], object] | None = None,
    ) -> None:
        self._solver = solver
        self._model = model
        self._callback = callback
        self._on_end = on_end
        self._error: BaseException | None = None
        self.status: cp_model.CpSolverStatus = cp_model.UNKNOWN
        self.stopped = False
        # Waiting is done on this event, not on Thread.join: a join interrupted by Ctrl-C can leave
        # the thread marked as finished while it still runs (CPython gh-90882).
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cp-sat-search", daemon=True)

    def _run(self) -> None:
        try:
            self.status = self._solver.solve(self._model, self._callback)
        except BaseException as error:  # re-raised in the caller's thread by wait()
            self._error = error
        finally:
            if self._on_end is not None:
                self._on_end()
            self._done.set()

    def start(self) -> None:
        self._thread.start()

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
        """Ask the solver to stop and wait until it has.

        Asked repeatedly: a request made before the solver has started its search would be lost.
        """
        self.stopped = True
        while not self._done.wait(_POLL_SECONDS):
            self._solver.stop_search()
        self._thread.join()

    @property
    def finished(self) -> bool:
        """True when the search ran to its end: every solution found, or none exists."""
        return not self.stopped and self.status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)

    def _raise_error(self) -> None:
        if self._error is not None:
            raise self._error
        if self.status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT rejected the model: {self._model.validate()}")


def _status(search: BackgroundSearch, *, reached_limit: bool = False) -> Status:
    """How a finished search ended, from the solver's status and who stopped it."""
    if reached_limit:
        return Status.LIMIT
    if search.stopped:
        return Status.INTERRUPTED
    return Status.COMPLETE if search.finished else Status.TIME_LIMIT


def _stats(n: int, solver: cp_model.CpSolver | None, solutions: int, status: Status) -> Stats:
    """Statistics of a search; ``solver`` is None for a search that never started."""
    if solver is None:
        return Stats(n=n, solutions=0, conflicts=0, branches=0, wall_time=0.0, status=status)
    return Stats(
        n=n,
        solutions=solutions,
        conflicts=solver.num_conflicts,
        branches=solver.num_branches,
        wall_time=solver.wall_time,
        status=status,
    )


def find_first(
    n: int,
    *,
    strategy: str = AUTO,
    time_limit: float | None = None,
    puzzle: Puzzle | None = None,
) -> FirstResult:
    """Look for one solution; ``auto`` is CP-SAT's default (parallel) search."""
    queens_model = build_model(n, strategy=strategy, puzzle=puzzle)
    solver = first_solution_solver(time_limit)
    if strategy != AUTO:
        solver.parameters.search_branching = cp_model.FIXED_SEARCH
    search = BackgroundSearch(solver, queens_model.model)
    search.start()
    try:
        search.wait()
    except KeyboardInterrupt:
        stats = replace(_stats(n, solver, 0, Status.INTERRUPTED), strategy=strategy)
        raise SearchInterrupted(stats) from None
    solution = None
    if search.status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        solution = Solution(rows=tuple(solver.value(queen) for queen in queens_model.queens))
    status = _status(search)
    if solution is not None:
        status = Status.COMPLETE  # the one solution asked for was found
    stats = _stats(n, solver, int(solution is not None), status)
    return FirstResult(solution=solution, stats=replace(stats, strategy=strategy))


_END = object()  # put on the queue by the search thread when the search is over


class CpSatSolutionStream(EngineStream):
    """Every solution for an n x n board, as an iterator that yields each one as CP-SAT finds it.

    The solver runs ahead of the consumer by at most a small buffer, so memory stays flat however
    many solutions there are. ``stats`` tells how the search ended once the stream is exhausted or
    closed. Use it as a context manager, or call ``close()``, to stop a search early. With
    ``unique``, only the lexicographically smallest solution of each symmetry class is yielded.
    ``strategy`` is the search strategy (see :func:`enumeration_solver`).
    """

    def __init__(
        self,
        n: int,
        *,
        limit: int | None = None,
        time_limit: float | None = None,
        unique: bool = False,
        strategy: str = FIRST_MIN,
        puzzle: Puzzle | None = None,
    ) -> None:
        self.n = n
        self._unique = unique
        self._strategy = strategy
        queens_model = build_model(n, strategy=strategy, break_symmetry=unique, puzzle=puzzle)
        self._solver = enumeration_solver(time_limit, strategy=strategy)
        self._queue: queue.Queue[object] = queue.Queue(maxsize=_STREAM_BUFFER)
        self._closing = threading.Event()
        self._callback = StreamingCallback(queens_model.queens, self._offer, limit)
        self._search = BackgroundSearch(
            self._solver, queens_model.model, self._callback, on_end=lambda: self._offer(_END)
        )
        self._started = False
        self._delivered = 0

    def _offer(self, item: object) -> bool:
        """Hand an item to the consumer, waiting while the buffer is full; False once closed."""
        while not self._closing.is_set():
            try:
                self._queue.put(item, timeout=_POLL_SECONDS)
                return True
            except queue.Full:
                continue
        return False

    def __next__(self) -> Solution:
        if self._stats is not None:
            raise StopIteration
        if not self._started:
            self._started = True
            self._search.start()
        item = self._next_item()
        if item is _END:
            self._search.wait()
            self._end(_status(self._search, reached_limit=self._callback.reached_limit))
            raise StopIteration
        assert isinstance(item, Solution)
        self._delivered += 1
        return item

    def _next_item(self) -> object:
        try:
            while True:
                try:
                    return self._queue.get(timeout=_POLL_SECONDS)
                except queue.Empty:
                    continue
        except KeyboardInterrupt:
            self.close()
            raise

    def _end(self, status: Status) -> None:
        """Stop the search thread if it still runs, and keep how the search ended."""
        if status is Status.INTERRUPTED:
            self._closing.set()
            if self._started:
                self._search.stop()
        solver = self._solver if self._started else None
        stats = replace(_stats(self.n, solver, self._delivered, status), strategy=self._strategy)
        self._stats = replace(stats, unique=self._delivered) if self._unique else stats

"""The cp-sat engine: the OR-Tools guide's CP-SAT model, to enumerate, count or find one solution.

CP-SAT's ``solve`` blocks until the search ends, and Python only handles Ctrl-C between bytecodes of
the main thread. So every search runs in a background thread while the caller's thread waits in
short, interruptible steps; Ctrl-C, a closed consumer or a time limit then stop the solver cleanly
through ``CpSolver.stop_search``, and what was found so far is still reported.

To count, symmetry breaking keeps one solution per class under the 8 symmetries of the square
(lex-leader constraints, see :mod:`nqueens.engines.cpsat.model`) and weights it by its class size,
and the search is split by the rows of the queens of the first columns (one to four, more as the
board grows) into independent subproblems. The OR-Tools maintainers recommend such splitting over
several CP-SAT workers on one model, which can report a solution twice or miss one while
enumerating. OR-Tools is imported when a search runs, not with this module.
"""

from __future__ import annotations

import queue
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from nqueens.core.board import Puzzle
from nqueens.core.clock import seconds_until
from nqueens.core.results import FirstResult, SearchInterrupted, Solution, Stats, Status
from nqueens.core.strategies import (
    AUTO,
    FIRST_FAIL_MID,
    FIRST_MIN,
    MAX_UNBOUNDED_ENUMERATION_N,
    STRATEGIES,
)
from nqueens.engines.base import (
    FIRST,
    SOLVE,
    Engine,
    Request,
    Subcount,
    Subproblem,
    SubproblemInterrupted,
)
from nqueens.engines.streams import EngineStream

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

NAME = "cp-sat"

_POLL_SECONDS = 0.05
_STREAM_BUFFER = 256  # solutions the solver may run ahead of a slow consumer


WORKERS_FROM_OPEN_COLUMNS = 10
"""Where counting on every core starts to pay for its worker processes (N = 10: even)."""


def first_solution_solver(time_limit: float | None, seed: int | None = None) -> cp_model.CpSolver:
    """A CP-SAT solver for one solution: default parallel search, quiet, Ctrl-C left to Python.

    ``seed`` seeds its randomised search; its workers still race, so runs may differ.
    """
    from ortools.sat.python import cp_model

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
    from ortools.sat.python import cp_model

    solver = first_solution_solver(time_limit)
    params = solver.parameters
    params.enumerate_all_solutions = True
    # Several workers on one model lose or repeat solutions while enumerating (README, "Counting
    # fast").
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
        from ortools.sat.python import cp_model

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
        from ortools.sat.python import cp_model

        return not self.stopped and self.status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)

    def _raise_error(self) -> None:
        from ortools.sat.python import cp_model

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


def _status(search: BackgroundSearch, *, reached_limit: bool = False) -> Status:
    """How a finished search ended, from the solver's status and who stopped it."""
    if reached_limit:
        return Status.LIMIT
    if search.stopped:
        return Status.INTERRUPTED
    return Status.COMPLETE if search.finished else Status.TIME_LIMIT


def _stats(
    n: int,
    solver: cp_model.CpSolver | None,
    solutions: int,
    status: Status,
    *,
    strategy: str,
    unique: int | None = None,
) -> Stats:
    """Statistics of a search; ``solver`` is None for a search whose solve() never returned
    (a stop signal can land before the search thread got to it), whose statistics cannot be read."""
    return Stats(
        n=n,
        solutions=solutions,
        conflicts=solver.num_conflicts if solver is not None else 0,
        branches=solver.num_branches if solver is not None else 0,
        wall_time=solver.wall_time if solver is not None else 0.0,
        status=status,
        unique=unique,
        strategy=strategy,
    )


def find_first(
    n: int,
    *,
    strategy: str = AUTO,
    deadline: float | None = None,
    puzzle: Puzzle | None = None,
    seed: int | None = None,
) -> FirstResult:
    """Look for one solution by the ``deadline`` (time.monotonic()); ``auto`` is CP-SAT's
    default (parallel) search."""
    from ortools.sat.python import cp_model

    from nqueens.engines.cpsat.model import build_model

    queens_model = build_model(n, strategy=strategy, puzzle=puzzle)
    solver = first_solution_solver(seconds_until(deadline), seed)
    if strategy != AUTO:
        solver.parameters.search_branching = cp_model.FIXED_SEARCH
    search = BackgroundSearch(solver, queens_model.model)
    search.start()
    try:
        search.wait()
    except KeyboardInterrupt:
        raise SearchInterrupted(
            _stats(n, solver if search.solved else None, 0, Status.INTERRUPTED, strategy=strategy)
        ) from None
    solution = None
    if search.status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        solution = Solution(rows=tuple(solver.value(queen) for queen in queens_model.queens))
    status = _status(search)
    if solution is not None:
        status = Status.COMPLETE  # the one solution asked for was found
    stats = _stats(n, solver, int(solution is not None), status, strategy=strategy)
    return FirstResult(solution=solution, stats=stats)


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
        deadline: float | None = None,
        unique: bool = False,
        strategy: str = FIRST_MIN,
        puzzle: Puzzle | None = None,
    ) -> None:
        from nqueens.engines.cpsat.callbacks import StreamingCallback
        from nqueens.engines.cpsat.model import build_model

        self.n = n
        self._unique = unique
        self._strategy = strategy
        queens_model = build_model(n, strategy=strategy, break_symmetry=unique, puzzle=puzzle)
        self._solver = enumeration_solver(seconds_until(deadline), strategy=strategy)
        # The search thread sees only the channel, never the stream: a stream its consumer drops
        # (``for s in solve(12): break``) can then be collected, and its finalizer stops the
        # search and joins the thread. A solver thread still running when the interpreter exits
        # aborts it (SIGABRT), so the finalizer also runs at exit.
        self._channel = _Channel()
        self._callback = StreamingCallback(queens_model.queens, self._channel.offer, limit)
        self._search = BackgroundSearch(
            self._solver,
            queens_model.model,
            self._callback,
            on_end=self._channel.finish,
            on_stop=self._channel.closing.set,
        )
        self._started = False
        self._delivered = 0
        weakref.finalize(self, _stop, self._channel, self._search)

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
            return self._channel.take()
        except KeyboardInterrupt:
            self.close()
            raise

    def _end(self, status: Status) -> None:
        """Stop the search thread if it still runs, and keep how the search ended."""
        _stop(self._channel, self._search)
        solver = self._solver if self._search.solved else None
        unique = self._delivered if self._unique else None
        self._stats = _stats(
            self.n, solver, self._delivered, status, strategy=self._strategy, unique=unique
        )


@dataclass(frozen=True)
class CpSatSubproblem(Subproblem):
    """Count the solutions whose first queens are in ``leading_rows``."""

    n: int = 0
    leading_rows: tuple[int, ...] = ()
    symmetry: bool = True
    strategy: str = FIRST_FAIL_MID
    puzzle: Puzzle | None = None


def leading_columns(n: int) -> int:
    """How many columns' queens each subproblem fixes: one up to N = 12, one more every 2 sizes.

    CP-SAT enumerates by excluding each solution it finds with a clause and searching again, so a
    subproblem costs more than in proportion to its solutions, while each one also pays for its
    own model. Fixing one more column pays off once a subproblem holds some 10,000 solutions
    (``benchmarks/enumeration.py`` measures each depth). Larger boards are only counted until a
    time limit, and more columns would just multiply the subproblems, so they fix one.
    """
    if n > MAX_UNBOUNDED_ENUMERATION_N:
        return 1
    return max(1, (n - 9) // 2)


def subproblems(
    request: Request, deadline: float | None, columns: int | None = None
) -> list[CpSatSubproblem]:
    """One subproblem per placement of the queens of the first columns, largest first.

    ``columns`` says how many columns to fix (default: :func:`leading_columns`). Only placements
    where no two of these queens attack each other are kept. With symmetry breaking the
    lexicographic leader has its first queen in the upper half (rows 0 .. (n-1)/2). First rows 1
    and 2 hold most of the work and the last rows the least; starting with the big ones keeps the
    workers evenly loaded.
    """
    n = request.n
    symmetry = request.symmetry and request.puzzle is None
    strategy = request.strategy or FIRST_FAIL_MID
    first_rows = range((n + 1) // 2) if symmetry else range(n)
    placements: list[tuple[int, ...]] = [
        (row,) for row in sorted(first_rows, key=lambda row: abs(row - 1.5))
    ]
    for col in range(1, min(columns or leading_columns(n), n)):
        placements = [
            (*placed, row)
            for placed in placements
            for row in range(n)
            if all(abs(row - earlier) not in (0, col - c) for c, earlier in enumerate(placed))
        ]
    return [
        CpSatSubproblem(NAME, deadline, n, rows, symmetry, strategy, request.puzzle)
        for rows in placements
    ]


def count_subproblem(task: CpSatSubproblem) -> Subcount:
    """Solve one subproblem; Ctrl-C raises SubproblemInterrupted with its partial count."""
    from nqueens.engines.cpsat.callbacks import ClassCountingCallback, CountingCallback
    from nqueens.engines.cpsat.model import build_model

    time_limit = None
    if task.deadline is not None:
        time_limit = task.deadline - time.time()
        if time_limit <= 0:
            return Subcount(0, 0 if task.symmetry else None, 0, 0, complete=False)
    queens_model = build_model(
        task.n,
        strategy=task.strategy,
        break_symmetry=task.symmetry,
        leading_rows=task.leading_rows,
        puzzle=task.puzzle,
    )
    solver = enumeration_solver(time_limit, strategy=task.strategy)
    callback: ClassCountingCallback | CountingCallback = (
        ClassCountingCallback(queens_model.queens) if task.symmetry else CountingCallback()
    )
    search = BackgroundSearch(solver, queens_model.model, callback)
    search.start()

    def found(complete: bool) -> Subcount:
        unique = callback.unique_count if isinstance(callback, ClassCountingCallback) else None
        conflicts, branches = (
            (solver.num_conflicts, solver.num_branches) if search.solved else (0, 0)
        )
        return Subcount(callback.solution_count, unique, conflicts, branches, complete)

    try:
        search.wait()
    except KeyboardInterrupt:
        raise SubproblemInterrupted(found(complete=False)) from None
    return found(complete=search.finished)


class CpSatEngine(Engine):
    """The guide's CP-SAT model: lex-leader symmetry breaking and split subproblems to count."""

    name = NAME
    summary = "Google's CP-SAT constraint solver, on every core"
    unique = True
    strategies = STRATEGIES
    max_n = 1_000
    # CP-SAT's memory grows fast with N (the README's table of limits).
    max_n_reason = "runs out of memory"
    stat_names = ("conflicts", "branches")
    splits = True

    def wants_workers(self, request: Request) -> bool:
        # Below ten open columns, starting the worker processes costs more than they save.
        given = len(request.puzzle.queens) if request.puzzle is not None else 0
        return request.n - given >= WORKERS_FROM_OPEN_COLUMNS

    def memory_needed(self, request: Request) -> int:
        # OR-Tools once loaded, then what CP-SAT's parallel workers took at N = 1,000 and
        # 2,000 within 5 s (the README's table of limits), fitted.
        return int(0.5e9 + 2.2e9 * (request.n / 1000) ** 1.1)

    def strategy_for(self, request: Request) -> str | None:
        if request.strategy is not None:
            return request.strategy
        if request.command == FIRST:
            return AUTO
        # Solutions of a board too large to list whole (so --limit is given): CP-SAT's automatic
        # search finds them far sooner. Smaller boards keep the documented order, limit or not.
        if request.n > MAX_UNBOUNDED_ENUMERATION_N:
            return AUTO
        # Exhausting the tree a fixed order is fastest: listing keeps the guide's, which yields
        # the boards in lexicographic order; counting takes first-fail with middle values
        # (benchmarks/enumeration.py compares them).
        return FIRST_MIN if request.command == SOLVE else FIRST_FAIL_MID

    def solve(self, request: Request) -> EngineStream:
        return CpSatSolutionStream(
            request.n,
            limit=request.limit,
            deadline=request.deadline,
            unique=request.unique,
            strategy=self.strategy_for(request) or AUTO,
            puzzle=request.puzzle,
        )

    def first(self, request: Request) -> FirstResult:
        return find_first(
            request.n,
            strategy=self.strategy_for(request) or AUTO,
            deadline=request.deadline,
            puzzle=request.puzzle,
            seed=request.seed,
        )

    def subproblems(self, request: Request, deadline: float | None) -> list[CpSatSubproblem]:
        chosen = replace(request, strategy=self.strategy_for(request))
        return subproblems(chosen, deadline)

    def count_subproblem(self, task: Subproblem) -> Subcount:
        assert isinstance(task, CpSatSubproblem)
        return count_subproblem(task)

    def prepare(self, request: Request) -> None:
        import nqueens.engines.cpsat.callbacks
        import nqueens.engines.cpsat.model  # noqa: F401  (OR-Tools, loaded before workers are forked)


ENGINE = CpSatEngine()

"""The cp-sat engine: the OR-Tools guide's CP-SAT model, to enumerate, count or find one solution.

CP-SAT's ``solve`` blocks until the search ends, and Python only handles Ctrl-C between bytecodes of
the main thread. So every search runs in a background thread while the caller's thread waits in
short, interruptible steps; Ctrl-C, a closed consumer or a time limit then stop the solver cleanly
through ``CpSolver.stop_search``, and what was found so far is still reported.

To count, symmetry breaking keeps one solution per class under the 8 symmetries of the square
(lex-leader constraints, see ``nqueens.engines.cpsat.model``) and weights it by its class size,
and the search is split by the rows of the queens of the first columns (one to four, more as the
board grows) into independent subproblems. The OR-Tools maintainers recommend such splitting over
several CP-SAT workers on one model, which can report a solution twice or miss one while
enumerating. OR-Tools is imported when a search runs, not with this module.
"""

from __future__ import annotations

import weakref
from dataclasses import replace
from typing import TYPE_CHECKING

from nqueens.core.board import Board
from nqueens.core.clock import seconds_until
from nqueens.core.geometry import RULES
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
)
from nqueens.engines.cpsat.solver import (
    _END,
    BackgroundSearch,
    _Channel,
    _stop,
    enumeration_solver,
    first_solution_solver,
)
from nqueens.engines.cpsat.split import (
    NAME as NAME,  # the engine's name, which its subproblems carry
)
from nqueens.engines.cpsat.split import (
    STAT_NAMES as STAT_NAMES,
)
from nqueens.engines.cpsat.split import (
    CpSatSubproblem,
    count_subproblem,
    subproblems,
)
from nqueens.engines.streams import EngineStream

if TYPE_CHECKING:
    from nqueens.engines.cpsat.without_pandas import cp_model


WORKERS_FROM_OPEN_COLUMNS = 10
"""Where counting on every core starts to pay for its worker processes (N = 10: even)."""


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
        engine=NAME,
        counter_names=STAT_NAMES,
        unique=unique,
        strategy=strategy,
    )


def find_first(
    board: Board,
    *,
    strategy: str = AUTO,
    deadline: float | None = None,
    seed: int | None = None,
) -> FirstResult:
    """Look for one solution by the ``deadline`` (time.monotonic()); ``auto`` is CP-SAT's
    default (parallel) search."""
    from nqueens.engines.cpsat.model import build_model
    from nqueens.engines.cpsat.without_pandas import cp_model

    n = board.n
    queens_model = build_model(board, strategy=strategy)
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


class CpSatSolutionStream(EngineStream):
    """Every solution for an n x n board, as an iterator that yields each one as CP-SAT finds it.

    The solver runs ahead of the consumer by at most a small buffer, so memory stays flat however
    many solutions there are. ``stats`` tells how the search ended once the stream is exhausted or
    closed. Use it as a context manager, or call ``close()``, to stop a search early. With
    ``unique``, only the lexicographically smallest solution of each symmetry class is yielded.
    ``strategy`` is the search strategy (see ``enumeration_solver``).
    """

    def __init__(
        self,
        board: Board,
        *,
        limit: int | None = None,
        deadline: float | None = None,
        unique: bool = False,
        strategy: str = FIRST_MIN,
    ) -> None:
        from nqueens.engines.cpsat.callbacks import StreamingCallback
        from nqueens.engines.cpsat.model import build_model

        self.n = board.n
        self._unique = unique
        self._strategy = strategy
        queens_model = build_model(board, strategy=strategy, break_symmetry=unique)
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

    def _step(self) -> Solution:
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


class CpSatEngine(Engine):
    """The OR-Tools guide's CP-SAT model, with lex-leader symmetry breaking and split
    subproblems to count."""

    name = NAME
    summary = "Google's CP-SAT constraint solver, on every core"
    rules = frozenset(RULES)
    unique = True
    strategies = STRATEGIES
    max_n = 1_000
    solutions_per_second = 4e3
    # CP-SAT's memory grows fast with N (docs/reference/limits.md).
    max_n_reason = "runs out of memory"
    stat_names = STAT_NAMES
    splits = True
    count_rank = 4
    excluded_diagonals_rank = 3

    def takes_seed(self, strategy: str | None) -> bool:
        return True  # its workers' searches are randomised, whatever the strategy

    def wants_workers(self, request: Request) -> bool:
        # Below ten open columns, starting the worker processes costs more than they save.
        return request.board.free_columns >= WORKERS_FROM_OPEN_COLUMNS

    def memory_needed(self, request: Request) -> int:
        # OR-Tools once loaded, then what CP-SAT's parallel workers took at N = 1,000 and
        # 2,000 within 5 s (docs/reference/limits.md), fitted.
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
        # Exhausting the tree a fixed order is fastest: listing keeps the OR-Tools guide's, which
        # yields the boards in lexicographic order; counting takes first-fail with middle values
        # (benchmarks/enumeration.py compares them).
        return FIRST_MIN if request.command == SOLVE else FIRST_FAIL_MID

    def solve(self, request: Request) -> EngineStream:
        return CpSatSolutionStream(
            request.board,
            limit=request.limit,
            deadline=request.deadline,
            unique=request.unique,
            strategy=self.strategy_for(request) or AUTO,
        )

    def first(self, request: Request) -> FirstResult:
        return find_first(
            request.board,
            strategy=self.strategy_for(request) or AUTO,
            deadline=request.deadline,
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

"""The original OR-Tools CP solver (``pywrapcp``), as the OR-Tools guide's second program uses it.

Same three AllDifferent constraints; the search is a decision builder (``Phase``) iterated with
``NewSearch`` / ``NextSolution`` / ``EndSearch``. Its statistics are failures and branches. A
custom search limit, checked by the solver as it goes, stops the search on Ctrl-C (or SIGTERM,
SIGHUP) or when the consumer has had enough, and ``TimeLimit`` enforces a time limit. OR-Tools
is imported when a search runs, not with this module.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator

from nqueens.core import signals
from nqueens.core.board import Board
from nqueens.core.geometry import RULES
from nqueens.core.results import Solution, Stats, Status
from nqueens.core.strategies import AUTO, FIRST_FAIL_MID, FIRST_MIN, MAX_UNBOUNDED_ENUMERATION_N
from nqueens.engines.base import FIRST, SOLVE, Engine, Request
from nqueens.engines.cp.model import decision_builder, queens_on
from nqueens.engines.streams import EngineStream

NAME = "cp"
STAT_NAMES = ("failures", "branches")
"""What the engine's two counters count, as statistics and JSON name them."""

MAX_AUTO_N = 500
"""The auto strategy (impact-based search) ignores the time limit while it initialises, which
takes far longer than a limit on larger boards (docs/reference/limits.md)."""


class CpSearch:
    """One search on the original CP solver, yielding solutions as ``NextSolution`` finds them."""

    def __init__(
        self,
        board: Board,
        *,
        strategy: str,
        deadline: float | None,
        seed: int | None = None,
    ) -> None:
        from ortools.constraint_solver import pywrapcp

        self.n = board.n
        self.deadline = deadline
        self.solver = pywrapcp.Solver(f"{board.n}-queens")
        self.queens = queens_on(self.solver, board)
        self.strategy = strategy
        self._builder = decision_builder(self.solver, self.queens, strategy, seed)
        self._stop = threading.Event()
        # One limit for Ctrl-C and the deadline, read on the clock that end_status reads: the
        # solver's own TimeLimit keeps time its own way, and may stop a hair before the deadline.
        self._monitors = [self.solver.CustomLimit(self._should_stop)]
        self._started = time.monotonic()

    def _should_stop(self) -> bool:
        return self._stop.is_set() or (
            self.deadline is not None and time.monotonic() >= self.deadline
        )

    def solutions(self) -> Generator[Solution, None, None]:
        """Each solution in turn; a stop signal ends the search at its next check and propagates."""
        with signals.redirected(self._stop.set):
            self.solver.NewSearch(self._builder, self._monitors)
            try:
                while self.solver.NextSolution():
                    yield Solution(rows=tuple(queen.Value() for queen in self.queens))
            finally:
                self.solver.EndSearch()
        if self._stop.is_set():
            raise KeyboardInterrupt

    @property
    def wall_time(self) -> float:
        return time.monotonic() - self._started

    def end_status(self) -> Status:
        """Once NextSolution has returned False: the tree was exhausted, or the time ran out."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return Status.TIME_LIMIT
        return Status.COMPLETE

    def stats(self, solutions: int, status: Status) -> Stats:
        return Stats(
            n=self.n,
            solutions=solutions,
            conflicts=self.solver.Failures(),
            branches=self.solver.Branches(),
            wall_time=self.wall_time,
            status=status,
            engine=NAME,
            counter_names=STAT_NAMES,
            strategy=self.strategy,
        )


class CpSolutionStream(EngineStream):
    """Solutions from the original CP solver, with the same interface as the CP-SAT stream."""

    def __init__(self, search: CpSearch) -> None:
        self.n = search.n
        self._search = search
        self._solutions = search.solutions()

    def _next_solution(self) -> Solution | None:
        try:
            return next(self._solutions)
        except StopIteration:
            self._end(self._search.end_status())
            return None

    def _end(self, status: Status) -> None:
        self._solutions.close()
        self._stats = self._search.stats(self._delivered, status)


class CpEngine(Engine):
    """The OR-Tools guide's second program: the same model on the original CP solver."""

    name = NAME
    summary = "OR-Tools' classic constraint solver, which follows the --strategy you pick"
    strategies = (FIRST_MIN, FIRST_FAIL_MID, AUTO)
    rules = frozenset(RULES)
    max_n = 10_000
    solutions_per_second = 2e4
    max_n_reason = "builds a model too large to be useful"
    stat_names = STAT_NAMES

    def memory_needed(self, request: Request) -> int:
        # OR-Tools once loaded, then the search's growth with N², fitted to what it took at
        # N = 5,000 and 10,000 (first-fail-mid, first solution; benchmarks/large.py).
        return int(0.5e9 + 1.9e9 * (request.n / 10_000) ** 2)

    def refusal(self, request: Request) -> str | None:
        if request.strategy == AUTO and request.command != FIRST:
            return (
                "the cp engine's auto strategy (impact-based search with restarts) can report a "
                "solution twice, so it only finds first solutions"
            )
        if request.strategy == AUTO and request.n > MAX_AUTO_N:
            return (
                "the cp engine's auto strategy ignores time limits while it starts up on large "
                f"boards; it takes N up to {MAX_AUTO_N}"
            )
        return None

    def strategy_for(self, request: Request) -> str | None:
        if request.strategy is not None:
            return request.strategy
        listing = request.command == SOLVE and request.limit is None
        if listing and request.n <= MAX_UNBOUNDED_ENUMERATION_N:
            return FIRST_MIN  # the OR-Tools guide's order: boards come out in lexicographic order
        # First-fail with middle values finds solutions of large boards at once (first-min none
        # for N = 50 in 5 s) and exhausts the tree faster (benchmarks/enumeration.py).
        return FIRST_FAIL_MID

    def takes_seed(self, strategy: str | None) -> bool:
        # The solver's own search draws on its seed once it runs long (a hard puzzle); the
        # named orders make no random choice.
        return strategy == AUTO

    def solve(self, request: Request) -> EngineStream:
        strategy = self.strategy_for(request) or FIRST_FAIL_MID
        search = CpSearch(
            request.board, strategy=strategy, deadline=request.deadline, seed=request.seed
        )
        return CpSolutionStream(search)


ENGINE = CpEngine()

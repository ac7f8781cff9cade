"""The blog post's 0-1 integer linear program, through OR-Tools' linear solver wrapper.

N² binary variables ``x[r][c]`` (a queen on row r, column c); every row and every column sums to
exactly 1; every diagonal in both directions sums to at most 1; maximize the number of queens. The
post solved it with GLPK, which the ortools wheel does not link: SCIP (default), CBC and HiGHS do.

A MIP solver returns one optimum, not all of them. To enumerate, each solution found is cut off
by a no-good constraint (at most N-1 of its N squares may hold a queen) and the program is solved
again, until it is infeasible: exact, one solve per solution, so only for small boards. OR-Tools
is imported when a search runs, not with this module.
"""

from __future__ import annotations

import threading
import time

from nqueens.engines.base import FIRST, Engine, Request
from nqueens.engines.streams import EngineStream
from nqueens.known_counts import how_many
from nqueens.puzzle import Puzzle
from nqueens.results import Solution, Stats, Status

NAME = "mip"

BACKENDS = {"scip": "SCIP", "cbc": "CBC", "highs": "HIGHS"}
"""MIP backends linked into the ortools wheel (GLPK, the blog post's, is not)."""

_POLL_SECONDS = 0.05

MAX_ENUMERATION_N = 10
"""One MIP solve per solution: N = 10 (724 solutions) takes minutes already."""


class MipSolutionStream(EngineStream):
    """Solutions of the 0-1 program, one solve each, every earlier one cut off by a no-good."""

    def __init__(
        self,
        n: int,
        *,
        backend: str,
        limit: int | None,
        time_limit: float | None,
        puzzle: Puzzle | None = None,
    ) -> None:
        self.n = n
        self._backend = backend
        self._limit = limit
        self._time_limit = time_limit
        from ortools.linear_solver import pywraplp

        solver = pywraplp.Solver.CreateSolver(BACKENDS[backend])
        if solver is None:
            raise RuntimeError(f"the {backend} MIP solver is not available in this ortools build")
        solver.SuppressOutput()
        if backend == "scip":
            # SCIP would catch Ctrl-C itself, print to stdout and report the stop as a time limit.
            solver.SetSolverSpecificParametersAsString("misc/catchctrlc = FALSE")
        if backend == "highs":
            # HiGHS prints a banner to stdout on every solve unless told not to; the call reports
            # failure, yet it takes effect (checked by the tests).
            solver.SetSolverSpecificParametersAsString("output_flag=false")
        self._solver = solver
        self._squares = [[solver.BoolVar(f"x_{r}_{c}") for c in range(n)] for r in range(n)]
        squares = self._squares
        for i in range(n):
            solver.Add(sum(squares[i][c] for c in range(n)) == 1)  # row i
            solver.Add(sum(squares[r][i] for r in range(n)) == 1)  # column i
        for diagonal in _diagonals(n):
            solver.Add(sum(squares[r][c] for r, c in diagonal) <= 1)
        if puzzle is not None:
            for row, col in puzzle.queens:
                solver.Add(squares[row][col] == 1)
            for row, col in puzzle.blocked:
                solver.Add(squares[row][col] == 0)
        solver.Maximize(sum(squares[r][c] for r in range(n) for c in range(n)))
        self._started = time.monotonic()
        self._iterations = 0
        self._nodes = 0

    def _next_solution(self) -> Solution | None:
        if self._time_limit is not None:
            remaining = self._time_limit - (time.monotonic() - self._started)
            if remaining <= 0:
                self._end(Status.TIME_LIMIT)
                return None
            self._solver.SetTimeLimit(max(1, round(remaining * 1000)))
        from ortools.linear_solver import pywraplp

        status = self._solve()
        self._iterations += self._solver.iterations()
        self._nodes += self._solver.nodes()
        if status == pywraplp.Solver.INFEASIBLE:
            self._end(Status.COMPLETE)
            return None
        if status not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            self._end(Status.TIME_LIMIT)
            return None
        rows = tuple(
            next(r for r in range(self.n) if self._squares[r][c].solution_value() > 0.5)
            for c in range(self.n)
        )
        # No-good: this placement may not come back.
        self._solver.Add(sum(self._squares[r][c] for c, r in enumerate(rows)) <= self.n - 1)
        return Solution(rows=rows)

    def _solve(self) -> int:
        """One solve in a helper thread, so that a stop signal can interrupt it at once."""
        outcome: list[int] = []
        worker = threading.Thread(target=lambda: outcome.append(self._solver.Solve()), daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(_POLL_SECONDS)
        except KeyboardInterrupt:
            while worker.is_alive():  # a backend that cannot be interrupted finishes its solve
                self._solver.InterruptSolve()
                worker.join(_POLL_SECONDS)
            raise
        return outcome[0]

    def _end(self, status: Status) -> None:
        self._stats = Stats(
            n=self.n,
            solutions=self._delivered,
            conflicts=self._iterations,
            branches=self._nodes,
            wall_time=time.monotonic() - self._started,
            status=status,
            engine=NAME,
            backend=self._backend,
        )


class MipEngine(Engine):
    """The blog post's 0-1 program: one MIP solve per solution, cut off by no-goods."""

    name = NAME
    summary = "the blog post's 0-1 integer program (--mip-solver)"
    max_n = 200
    max_n_reason = "builds N² binary variables"
    stat_names = ("iterations", "nodes")

    def memory_needed(self, request: Request) -> int:
        # OR-Tools once loaded, and about 10 kB a binary variable with its constraints.
        return int(0.5e9 + 10_000 * request.n**2)

    def refusal(self, request: Request) -> str | None:
        if request.command != FIRST and request.limit is None and request.n > MAX_ENUMERATION_N:
            return (
                f"the mip engine enumerates with one MIP solve per solution, and "
                f"{how_many(request.n)}"
            )
        return None

    def solve(self, request: Request) -> EngineStream:
        return MipSolutionStream(
            request.n,
            backend=request.mip_solver,
            limit=request.limit,
            time_limit=request.time_limit,
            puzzle=request.puzzle,
        )


ENGINE = MipEngine()


def _diagonals(n: int) -> list[list[tuple[int, int]]]:
    """Every diagonal of two or more squares, in both directions, as (row, col) lists."""
    down = [[(r, r - d) for r in range(n) if 0 <= r - d < n] for d in range(-(n - 1), n)]
    up = [[(r, s - r) for r in range(n) if 0 <= s - r < n] for s in range(2 * n - 1)]
    return [diagonal for diagonal in down + up if len(diagonal) > 1]

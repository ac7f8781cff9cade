"""The 0-1 integer-programming article's program, on SCIP, CBC or HiGHS (OR-Tools) or GLPK.

N² binary variables ``x[r][c]`` (a queen on row r, column c); every row and every column sums to
exactly 1; every diagonal in both directions sums to at most 1; maximize the number of queens. The
post solved it with GLPK, which nqueens reaches through the ``swiglpk`` wheel; OR-Tools' linear
solver wrapper links the others.

A MIP solver returns one optimum, not all of them. To enumerate, each solution found is cut off
by a no-good constraint (at most N-1 of its N squares may hold a queen) and the program is solved
again, until it is infeasible: exact, one solve per solution, so only for small boards. The
solvers are imported when a search runs, not with this module.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple, Protocol

from nqueens.core.board import Board, knight_pairs
from nqueens.core.geometry import RULES, SUM, SUPERQUEENS, TORUS
from nqueens.core.known_counts import how_many
from nqueens.core.results import Solution, Square, Stats, Status
from nqueens.engines.base import FIRST, Engine, EngineOption, Request
from nqueens.engines.streams import EngineStream

NAME = "mip"
STAT_NAMES = ("iterations", "nodes")
"""What the engine's two counters count, as statistics and JSON name them."""

BACKENDS = {"scip": "SCIP", "cbc": "CBC", "highs": "HIGHS", "glpk": "GLPK"}
"""MIP backends: the first three linked into the ortools wheel, GLPK (the blog's) via swiglpk."""

MAX_ENUMERATION_N = 10
"""One MIP solve per solution: N = 10 (724 solutions) takes minutes already."""

MAX_FIRST_N = 100
"""The largest board the mip engine looks for a first solution of without a time limit: beyond
it the solvers' times grow without a pattern, from seconds to more than ten minutes (see
docs/reference/limits.md)."""

_POLL_SECONDS = 0.05

ABANDON_SECONDS = 0.1
"""How long a solve asked to stop may take to do so before it is left to finish on its own."""


class Program(Protocol):
    """One backend's 0-1 program: solve it, cut a solution off, say how much work it did."""

    iterations: int  # simplex iterations, added up over the solves
    nodes: int  # branch-and-bound nodes, added up (0 where the backend does not report them)

    def solve(self, seconds: float | None) -> list[Square] | bool:
        """The queens of an optimal solution; False if none is left, True if stopped first."""
        ...

    def forbid(self, queens: list[Square]) -> None:
        """Cut off a solution: at most N-1 of its squares may hold a queen."""
        ...


class Constraint(NamedTuple):
    """One constraint of the program: ``low <= sum of the cells' variables <= high``.

    A cell is a square's index ``row * N + col`` (0-based), its variable's place in the program.
    """

    name: str
    cells: Sequence[int]
    low: int
    high: int


def constraints(board: Board) -> Iterator[Constraint]:
    """The board's constraints, each named for a person reading the program."""
    n = board.n
    for i in range(n):
        yield Constraint(f"row_{i + 1}", range(i * n, (i + 1) * n), 1, 1)
    for i in range(n):
        yield Constraint(f"column_{i + 1}", range(i, n * n, n), 1, 1)
    for name, cells in _diagonals(n, wrapped=TORUS in board.rules):
        yield Constraint(name, cells, 0, 1)
    if SUPERQUEENS in board.rules:  # two squares a knight's move apart: at most one queen
        pairs = {
            (row, col, row - difference, other)
            for col, other, difference in knight_pairs(board)
            for row in range(max(0, difference), min(n, n + difference))
        }
        for row, col, other_row, other in sorted(pairs):
            name = f"knight_{row + 1}_{col + 1}_{other_row + 1}_{other + 1}"
            yield Constraint(name, [row * n + col, other_row * n + other], 0, 1)
    for row, col in board.queens:
        yield Constraint(f"queen_{row + 1}_{col + 1}", [row * n + col], 1, 1)
    for row, col in board.blocked:
        yield Constraint(f"blocked_{row + 1}_{col + 1}", [row * n + col], 0, 0)
    for excluded in board.excluded:
        row, col = excluded.topmost(n)
        way = "rising" if excluded.kind == SUM else "falling"
        cells = [r * n + c for r, c in excluded.squares(n)]
        yield Constraint(f"excluded_{way}_{row + 1}_{col + 1}", cells, 0, 0)


class OrToolsProgram:
    """The program on a MIP solver linked into OR-Tools (SCIP, CBC, HiGHS)."""

    def __init__(self, n: int, backend: str, constraints: Iterable[Constraint]) -> None:
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
        self._cells = [solver.BoolVar(f"x_{r}_{c}") for r in range(n) for c in range(n)]
        # Coefficients set one by one: a third of the time of summing Python expressions.
        for _, cells, low, high in constraints:
            constraint = solver.Constraint(low, high)
            for cell in cells:
                constraint.SetCoefficient(self._cells[cell], 1)
        objective = solver.Objective()
        for variable in self._cells:
            objective.SetCoefficient(variable, 1)
        objective.SetMaximization()
        self.n = n
        self.iterations = 0
        self.nodes = 0

    def solve(self, seconds: float | None) -> list[Square] | bool:
        from ortools.linear_solver import pywraplp

        deadline = limit = None
        started = time.monotonic()
        if seconds is not None:
            limit = max(1, round(seconds * 1000))
            self._solver.SetTimeLimit(limit)
            deadline = started + seconds
        status = self._solve_interruptibly(deadline)
        if status is None:  # left to finish on its own: the solver is not to be touched again
            return True
        # CBC stopped by its time limit can call the program infeasible (1 solve in 8 at 1 ms on
        # a loaded machine): only a solve that ended before its limit proves there is no more.
        timed_out = limit is not None and time.monotonic() - started >= limit / 1000
        self.iterations += self._solver.iterations()
        self.nodes += self._solver.nodes()
        if status == pywraplp.Solver.INFEASIBLE and not timed_out:
            return False
        if status not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            return True
        return [
            divmod(cell, self.n)
            for cell, variable in enumerate(self._cells)
            if variable.solution_value() > 0.5
        ]

    def _solve_interruptibly(self, deadline: float | None) -> int | None:
        """One solve in a helper thread, so that a stop signal or the deadline ends it at once.

        SCIP's own time limit does not cover its presolve on large boards, and CBC takes no
        interruption at all during its own (20 s on N = 200): a solve still running
        ABANDON_SECONDS after it was asked to stop is left to finish in its thread, its solver
        never touched again, and None is returned, as for a stop.
        """
        outcome: list[int] = []
        worker = threading.Thread(target=lambda: outcome.append(self._solver.Solve()), daemon=True)
        worker.start()
        asked_at = None
        try:
            while worker.is_alive():
                worker.join(_POLL_SECONDS)
                if deadline is not None and time.monotonic() > deadline:
                    self._solver.InterruptSolve()
                    asked_at = asked_at or time.monotonic()
                    if time.monotonic() - asked_at > ABANDON_SECONDS:
                        return None
        except KeyboardInterrupt:
            self._solver.InterruptSolve()
            worker.join(ABANDON_SECONDS)
            raise
        return outcome[0]

    def forbid(self, queens: list[Square]) -> None:
        self._solver.Add(sum(self._cells[r * self.n + c] for r, c in queens) <= self.n - 1)


class MipSolutionStream(EngineStream):
    """Solutions of the 0-1 program, one solve each, every earlier one cut off by a no-good."""

    def __init__(
        self,
        board: Board,
        *,
        backend: str,
        deadline: float | None,
    ) -> None:
        n = self.n = board.n
        self._backend = backend
        self._deadline = deadline
        self._started = time.monotonic()
        self._built = True
        self._program: Program
        if backend == "glpk":
            from nqueens.engines.mip.glpk import GlpkProgram

            self._program = GlpkProgram(n, self._until_deadline(constraints(board)))
        else:
            self._program = OrToolsProgram(n, backend, self._until_deadline(constraints(board)))

    def _until_deadline(self, constraints: Iterator[Constraint]) -> Iterator[Constraint]:
        """The constraints, until the deadline passes: building a large program counts against
        the time limit, and a program left unfinished is never solved."""
        for constraint in constraints:
            if self._deadline is not None and time.monotonic() > self._deadline:
                self._built = False
                return
            yield constraint

    def _next_solution(self) -> Solution | None:
        remaining = None
        if self._deadline is not None:
            remaining = self._deadline - time.monotonic()
            if remaining <= 0 or not self._built:
                self._end(Status.TIME_LIMIT)
                return None
        found = self._program.solve(remaining)
        if found is False:
            self._end(Status.COMPLETE)
            return None
        if found is True:
            self._end(Status.TIME_LIMIT)
            return None
        self._program.forbid(found)
        rows = [0] * self.n
        for row, col in found:
            rows[col] = row
        return Solution(rows=tuple(rows))

    def _end(self, status: Status) -> None:
        self._stats = Stats(
            n=self.n,
            solutions=self._delivered,
            conflicts=self._program.iterations,
            branches=self._program.nodes,
            wall_time=time.monotonic() - self._started,
            status=status,
            engine=NAME,
            counter_names=STAT_NAMES,
            backend=self._backend,
        )


class MipEngine(Engine):
    """The 0-1 integer-programming article's program: one MIP solve per solution, cut off by
    no-goods."""

    name = NAME
    summary = "a 0-1 integer program for a MIP solver (see --mip-solver); small boards"
    options = (
        EngineOption(
            "mip_solver",
            "MIP solver",
            tuple(BACKENDS),
            "scip",
            "The mip engine's solver: scip, cbc, highs (in ortools) or glpk.",
        ),
    )
    rules = frozenset(RULES)
    max_n = 200
    solutions_per_second = 8
    max_n_reason = "builds N² binary variables"
    stat_names = STAT_NAMES

    def memory_needed(self, request: Request) -> int:
        # OR-Tools once loaded, and about 10 kB a binary variable with its constraints.
        return int(0.5e9 + 10_000 * request.n**2)

    def refusal(self, request: Request) -> str | None:
        if request.command != FIRST and request.limit is None and request.n > MAX_ENUMERATION_N:
            return "the mip engine enumerates with one MIP solve per solution, and " + (
                how_many(request.n) if request.board.plain else f"N = {request.n} is large"
            )
        if request.command == FIRST and request.time_limit is None and request.n > MAX_FIRST_N:
            return (
                f"the mip engine's solvers take minutes or more to a first solution beyond N = "
                f"{MAX_FIRST_N}, and nothing would stop them: give it a time limit"
            )
        return None

    def solve(self, request: Request) -> EngineStream:
        return MipSolutionStream(
            request.board,
            backend=self.option(request, "mip_solver"),
            deadline=request.deadline,
        )


ENGINE = MipEngine()


def _diagonals(n: int, *, wrapped: bool = False) -> Iterator[tuple[str, Sequence[int]]]:
    """Every diagonal of two or more squares, in both directions, as cells, named by the way it
    runs and its topmost square (1-based); on a torus (``wrapped``) each of the N diagonals of a
    direction starts in row 1 and goes on from the other side. Along a diagonal the cell grows
    by N + 1 (falling to the right) or N - 1 (rising)."""
    if wrapped:
        if n > 1:
            for c in range(n):
                yield f"falling_1_{c + 1}", [r * n + (c + r) % n for r in range(n)]
            for c in range(n):
                yield f"rising_1_{c + 1}", [r * n + (c - r) % n for r in range(n)]
        return
    for d in range(2 - n, n - 1):  # row - col = d
        row, col = max(d, 0), max(-d, 0)
        yield f"falling_{row + 1}_{col + 1}", range(row * n + col, n * n, n + 1)[: n - abs(d)]
    for s in range(1, 2 * n - 2):  # row + col = s
        row, col = max(0, s - n + 1), min(s, n - 1)
        length = min(s, 2 * n - 2 - s) + 1
        yield f"rising_{row + 1}_{col + 1}", range(row * n + col, n * n, n - 1)[:length]

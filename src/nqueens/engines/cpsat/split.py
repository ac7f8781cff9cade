"""A CP-SAT count cut into independent subproblems by the rows of the queens of its first
columns, each counted on its own model: several processes count them at once."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from nqueens.core.board import Board
from nqueens.core.strategies import (
    FIRST_FAIL_MID,
    MAX_UNBOUNDED_ENUMERATION_N,
)
from nqueens.engines.base import (
    Request,
    Subcount,
    Subproblem,
    SubproblemInterrupted,
)
from nqueens.engines.cpsat.solver import (
    BackgroundSearch,
    enumeration_solver,
)

if TYPE_CHECKING:
    pass


NAME = "cp-sat"
STAT_NAMES = ("conflicts", "branches")
"""What the engine's two counters count, as statistics and JSON name them."""


@dataclass(frozen=True)
class CpSatSubproblem(Subproblem):
    """Count the solutions whose first queens are in ``leading_rows``."""

    board: Board
    leading_rows: tuple[int, ...] = ()
    symmetry: bool = True
    strategy: str = FIRST_FAIL_MID


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

    ``columns`` says how many columns to fix (default: ``leading_columns``). Only placements
    where no two of these queens attack each other are kept. With symmetry breaking the
    lexicographic leader has its first queen in the upper half (rows 0 .. (n-1)/2). First rows 1
    and 2 hold most of the work and the last rows the least; starting with the big ones keeps the
    workers evenly loaded.
    """
    n = request.n
    symmetry = request.symmetry and request.board.symmetric
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
        CpSatSubproblem(NAME, deadline, request.board, rows, symmetry, strategy)
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
        task.board,
        strategy=task.strategy,
        break_symmetry=task.symmetry,
        leading_rows=task.leading_rows,
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

"""The OR-Tools guide's model on the original CP solver: what the cp engine searches and ``explain``
narrates, built in one place so that the two always search the same thing.

One integer variable per column, its value the queen's row, and three AllDifferent constraints:
on the rows, and on ``row + col`` and ``row - col``, the two diagonals (taken modulo N on a
torus); superqueens add a constraint between columns a knight's move apart. A board's given
queens fix their columns, blocked squares and excluded diagonals remove values. OR-Tools is
imported by the caller, which hands the solver in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nqueens.core.board import Board, knight_pairs
from nqueens.core.geometry import SUPERQUEENS, TORUS
from nqueens.core.strategies import AUTO, FIRST_FAIL_MID, FIRST_MIN

if TYPE_CHECKING:
    from ortools.constraint_solver import pywrapcp


def queens_on(solver: pywrapcp.Solver, board: Board) -> list[pywrapcp.IntVar]:
    """The board's model in ``solver``: the queen of each column, as a row variable."""
    n = board.n
    queens = [solver.IntVar(0, n - 1, f"queen_col_{col}") for col in range(n)]
    solver.Add(solver.AllDifferent(queens))
    if TORUS in board.rules:  # the diagonals wrap around: the same expressions, modulo N
        solver.Add(solver.AllDifferent([(queens[col] + col) % n for col in range(n)]))
        solver.Add(solver.AllDifferent([(queens[col] - col + n) % n for col in range(n)]))
    else:
        solver.Add(solver.AllDifferent([queens[col] + col for col in range(n)]))
        solver.Add(solver.AllDifferent([queens[col] - col for col in range(n)]))
    if SUPERQUEENS in board.rules:
        for col, other, difference in knight_pairs(board):
            solver.Add(queens[col] - queens[other] != difference)
    for row, col in board.queens:
        solver.Add(queens[col] == row)
    for row, col in board.closed_squares():  # blocked, or on an excluded diagonal
        solver.Add(queens[col] != row)
    return queens


def decision_builder(
    solver: pywrapcp.Solver,
    queens: list[pywrapcp.IntVar],
    strategy: str,
    seed: int | None = None,
) -> pywrapcp.DecisionBuilder:
    """How the search walks the model: first-min (the OR-Tools guide's order), first-fail-mid,
    or auto (the solver's impact-based search, seeded by ``seed``)."""
    if strategy == FIRST_MIN:
        return solver.Phase(queens, solver.CHOOSE_FIRST_UNBOUND, solver.ASSIGN_MIN_VALUE)
    if strategy == FIRST_FAIL_MID:
        return solver.Phase(queens, solver.CHOOSE_MIN_SIZE_LOWEST_MIN, solver.ASSIGN_CENTER_VALUE)
    if strategy == AUTO:
        from ortools.constraint_solver import pywrapcp

        parameters = pywrapcp.DefaultPhaseParameters()
        parameters.display_level = parameters.NONE  # it would log to stderr
        if seed is not None:
            parameters.random_seed = seed
        return solver.DefaultPhase(queens, parameters)
    raise ValueError(f"unknown strategy {strategy!r}")

"""The CP-SAT model of the N-queens problem, as the OR-Tools guide builds it.

One integer variable per column holds the row of that column's queen, so no two queens can share a
column. Three AllDifferent constraints do the rest: on the rows themselves, and on ``rows[c] + c``
and ``rows[c] - c``, which are constant along each of the two diagonal directions.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model


@dataclass(frozen=True)
class QueensModel:
    """A built model and its variables: ``queens[c]`` is the row of the queen in column c."""

    model: cp_model.CpModel
    queens: list[cp_model.IntVar]

    @property
    def n(self) -> int:
        """The board size."""
        return len(self.queens)


def build_model(n: int) -> QueensModel:
    """Build the N-queens model for an ``n`` x ``n`` board."""
    model = cp_model.CpModel()
    queens = [model.new_int_var(0, n - 1, f"queen_col_{col}") for col in range(n)]
    model.add_all_different(queens)
    model.add_all_different(queens[col] + col for col in range(n))
    model.add_all_different(queens[col] - col for col in range(n))
    return QueensModel(model=model, queens=queens)

"""The CP-SAT model of the N-queens problem, as the OR-Tools guide builds it.

One integer variable per column holds the row of that column's queen, so no two queens can share a
column. Three AllDifferent constraints do the rest: on the rows themselves, and on ``rows[c] + c``
and ``rows[c] - c``, which are constant along each of the two diagonal directions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from nqueens.core.board import Board, knight_pairs
from nqueens.core.geometry import SUPERQUEENS, TORUS
from nqueens.core.strategies import FIRST_FAIL_MID, FIRST_MIN
from nqueens.core.symmetry import SYMMETRIES
from nqueens.engines.cpsat.without_pandas import cp_model


@dataclass(frozen=True)
class QueensModel:
    """A built model and its variables: ``queens[c]`` is the row of the queen in column c."""

    model: cp_model.CpModel
    queens: list[cp_model.IntVar]

    @property
    def n(self) -> int:
        """The board size."""
        return len(self.queens)


def build_model(
    board: Board,
    *,
    strategy: str = FIRST_MIN,
    break_symmetry: bool = False,
    leading_rows: Sequence[int] = (),
) -> QueensModel:
    """Build the N-queens model of a board.

    ``strategy`` adds the matching decision strategy (none for ``auto``). ``break_symmetry``
    keeps only the lexicographically smallest solution of each class under the 8 symmetries of
    the square (see ``add_lex_leader``). ``leading_rows`` fixes the queens of the first
    columns to these rows, which splits a search into independent subproblems. The board's given
    queens are kept, its blocked squares and excluded diagonals left empty.
    """
    n = board.n
    model = cp_model.CpModel()
    queens = [model.new_int_var(0, n - 1, f"queen_col_{col}") for col in range(n)]
    model.add_all_different(queens)
    if TORUS in board.rules:  # the diagonals wrap around: the same expressions, modulo N
        for name, sign in (("rising", 1), ("falling", -1)):
            wrapped = [model.new_int_var(0, n - 1, f"{name}_{col}") for col in range(n)]
            for col, diagonal in enumerate(wrapped):
                model.add_modulo_equality(diagonal, queens[col] + sign * col + n, n)
            model.add_all_different(wrapped)
    else:
        model.add_all_different(queens[col] + col for col in range(n))
        model.add_all_different(queens[col] - col for col in range(n))
    if SUPERQUEENS in board.rules:
        for col, other, difference in knight_pairs(board):
            model.add(queens[col] - queens[other] != difference)
    if break_symmetry:
        add_lex_leader(model, queens)
    for col, row in enumerate(leading_rows):
        model.add(queens[col] == row)
    for row, col in board.queens:
        model.add(queens[col] == row)
    for row, col in board.closed_squares():  # blocked, or on an excluded diagonal
        model.add(queens[col] != row)
    if strategy == FIRST_MIN:  # the OR-Tools guide's: columns left to right, lowest row first
        model.add_decision_strategy(queens, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
    elif strategy == FIRST_FAIL_MID:
        # The Oz tutorial's. CP-SAT tracks integer domains mostly by their bounds, so its
        # "smallest domain" is not quite the original solver's first-fail.
        model.add_decision_strategy(
            queens, cp_model.CHOOSE_MIN_DOMAIN_SIZE, cp_model.SELECT_MEDIAN_VALUE
        )
    return QueensModel(model=model, queens=queens)


LEX_ORDER = (
    "mirror left-right",
    "mirror top-bottom",
    "half turn",
    "transpose",
    "anti-transpose",
    "three-quarter turn",
    "quarter turn",
)
"""The order the images are constrained in: CP-SAT's search, and so its statistics, follow the
order of the constraints (the reflections first, as the model has always had them)."""


def add_lex_leader(model: cp_model.CpModel, queens: Sequence[cp_model.IntVar]) -> None:
    """Allow only solutions that are lexicographically no larger than any of their 7 images.

    Exactly one member of each symmetry class passes, so the solutions left are the unique
    solutions (OEIS A002562). Images that transpose the board use the inverse permutation,
    ``cols``, tied to ``queens`` by an inverse constraint; the images are those of
    ``nqueens.core.symmetry.SYMMETRIES``.
    """
    n = len(queens)
    last = n - 1
    cols = [model.new_int_var(0, last, f"col_of_row_{row}") for row in range(n)]
    model.add_inverse(queens, cols)
    by_line: list[cp_model.LinearExprT] = list(queens)
    by_row: list[cp_model.LinearExprT] = list(cols)
    for symmetry in sorted(SYMMETRIES[1:], key=lambda each: LEX_ORDER.index(each.name)):
        image = symmetry.image(by_line, by_row, lambda row: last - row)
        _add_lex_less_or_equal(model, by_line, image, symmetry.name.replace(" ", "_"))


def _add_lex_less_or_equal(
    model: cp_model.CpModel,
    left: Sequence[cp_model.LinearExprT],
    right: Sequence[cp_model.LinearExprT],
    name: str,
) -> None:
    """left <=lex right, through booleans ``prefix_equal``: the first i+1 entries of both are
    equal.

    Every boolean is fixed by the queens (an equivalence, not an implication): CP-SAT enumerates
    assignments of all variables, so a free helper would count one solution twice.
    """
    prefix_equal: cp_model.IntVar | None = None  # None: the empty prefix, always equal
    for i, (a, b) in enumerate(zip(left, right, strict=True)):
        compare = model.add(a <= b)
        if prefix_equal is not None:
            compare.only_enforce_if(prefix_equal)
        if i == len(left) - 1:
            break
        equal_here = model.new_bool_var(f"{name}_equal_{i}")
        model.add(a == b).only_enforce_if(equal_here)
        model.add(a != b).only_enforce_if(~equal_here)
        if prefix_equal is None:
            prefix_equal = equal_here
            continue
        longer = model.new_bool_var(f"{name}_same_{i}")
        model.add_bool_and([prefix_equal, equal_here]).only_enforce_if(longer)
        model.add_bool_or([~prefix_equal, ~equal_here]).only_enforce_if(~longer)
        prefix_equal = longer

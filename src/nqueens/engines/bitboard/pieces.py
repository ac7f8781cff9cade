"""The bitboard engine's subproblems: what each kind of piece of a count holds."""

from __future__ import annotations

from dataclasses import dataclass

from nqueens.core.geometry import SUPERQUEENS, TORUS, knight_squares
from nqueens.engines.base import Subproblem
from nqueens.engines.bitboard import _search

LineRow = tuple[int, int]
"""A queen in the search's coordinates: (line, row), a line being a column or a row."""


PLAIN = "plain"
"""Every solution counts once."""
CORNER = "corner"
"""Line 0's queen in the corner, line 1's on row ``first_row``: each solution stands for 8."""
INSIDE = "inside"
"""Line 0's queen on row ``first_row``, nearer a corner than any edge queen: classes counted."""
LONE = "lone"
"""Boards under 4 x 4 counted with symmetry: only N = 1 has a solution, its own class."""
EDGES = "edges"
"""The canonical constellations ``span[0]`` to ``span[1] - 1`` of a plain board, counted by the C
module with their images, their symmetry classes too."""


@dataclass(frozen=True)
class BitSubproblem(Subproblem):
    """Count the solutions that keep the ``fixed`` queens and leave ``blocked`` squares empty,
    under the symmetry rules of ``kind`` (PLAIN, CORNER, INSIDE or LONE) and the board's
    ``rules`` (torus, superqueens); or (EDGES) a ``span`` of a plain board's constellations,
    with ``fixed`` queens on their first free lines where one is cut finer."""

    n: int = 0
    kind: str = PLAIN
    first_row: int = 0
    fixed: tuple[LineRow, ...] = ()
    blocked: tuple[LineRow, ...] = ()
    rules: frozenset[str] = frozenset()
    span: tuple[int, int] = (0, 0)


def rule_flags(rules: frozenset[str]) -> int:
    """A board's rules as the C search takes them: its TORUS and KNIGHT flags."""
    return (_search.TORUS if TORUS in rules else 0) | (
        _search.KNIGHT if SUPERQUEENS in rules else 0
    )


def line_masks(task: BitSubproblem) -> tuple[list[int], int, int]:
    """The rows each line of ``task`` may not take (its blocked squares, the rows and diagonals
    of its fixed queens, and what its kind of symmetry rules out), and the rows that must all be
    taken by the end of a line (that line, and the rows; -1 and 0 for none)."""
    n = task.n
    torus, knight = TORUS in task.rules, SUPERQUEENS in task.rules
    full = (1 << n) - 1
    blocked_rows = [0] * n
    need_line, need_rows = -1, 0
    for line, row in task.blocked:
        blocked_rows[line] |= 1 << row
    k = task.first_row
    if task.kind == CORNER:  # row 1 lies beyond line k: the transposed board is larger
        for line in range(2, k):
            blocked_rows[line] |= 1 << 1
    if task.kind == INSIDE:  # every edge queen at least k squares from a corner
        sides = 1 | 1 << (n - 1)
        for line in range(1, k):
            blocked_rows[line] |= sides
        need_line, need_rows = n - 1 - k, sides
        near_corners = (1 << k) - 1
        blocked_rows[n - 1] |= near_corners | near_corners << (n - k)
    for line, row in task.fixed:
        bit = 1 << row
        for other in range(n):
            # A fixed line takes only its row, which no other line may take; earlier lines
            # may not attack it either (later ones learn of it as the search passes it).
            blocked_rows[other] |= full & ~bit if other == line else bit
            distance = line - other
            if other != line and (torus or distance > 0):
                for attacked in (row - distance, row + distance):
                    if torus or 0 <= attacked < n:
                        blocked_rows[other] |= 1 << attacked % n
        if knight:
            for other, attacked in knight_squares((line, row), n, task.rules):
                if 0 <= other < n and 0 <= attacked < n and other != line:
                    blocked_rows[other] |= 1 << attacked
    return blocked_rows, need_line, need_rows

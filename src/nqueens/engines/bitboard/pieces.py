"""The bitboard engine's subproblems: what each kind of piece of a count holds."""

from __future__ import annotations

from dataclasses import dataclass

from nqueens.engines.base import Subproblem

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

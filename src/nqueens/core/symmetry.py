"""The 8 symmetries of the square (rotations and reflections) acting on solutions.

A solution ``rows`` maps to another solution under each symmetry. Those that use the transpose
are written with the inverse permutation ``cols`` (``cols[r]`` is the column of the queen in row
``r``). A class of solutions is represented by its lexicographically smallest member, which is
what the symmetry-breaking model in ``nqueens.engines.cpsat.model`` keeps.
"""

from __future__ import annotations

from collections.abc import Sequence


def inverse(rows: Sequence[int]) -> tuple[int, ...]:
    """``cols`` with ``cols[rows[c]] == c``: the board read by rows instead of by columns."""
    cols = [0] * len(rows)
    for col, row in enumerate(rows):
        cols[row] = col
    return tuple(cols)


def images(rows: Sequence[int]) -> list[tuple[int, ...]]:
    """The solution under each of the 8 symmetries, identity first."""
    n = len(rows)
    last = n - 1
    cols = inverse(rows)
    return [
        tuple(rows),
        tuple(rows[last - c] for c in range(n)),  # mirror left-right
        tuple(last - rows[c] for c in range(n)),  # mirror top-bottom
        tuple(last - rows[last - c] for c in range(n)),  # rotate 180
        cols,  # transpose (main diagonal)
        tuple(last - cols[last - c] for c in range(n)),  # anti-transpose
        tuple(cols[last - c] for c in range(n)),  # rotate 90
        tuple(last - cols[c] for c in range(n)),  # rotate 270
    ]


def class_size(rows: Sequence[int]) -> int:
    """How many distinct solutions the class of ``rows`` holds: 8, 4 or 2 (1 for N = 1)."""
    return len(set(images(rows)))

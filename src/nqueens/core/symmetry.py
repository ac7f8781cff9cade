"""The 8 symmetries of the square (rotations and reflections) acting on solutions.

A solution ``rows`` maps to another solution under each symmetry. Those that use the transpose
are written with the inverse permutation ``cols`` (``cols[r]`` is the column of the queen in row
``r``). A class of solutions is represented by its lexicographically smallest member, which is
what the symmetry-breaking model in ``nqueens.engines.cpsat.model`` keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

Value = TypeVar("Value")


@dataclass(frozen=True)
class Symmetry:
    """One symmetry of the square. It sends the square (line, row) (a line is a column, the
    index of ``rows``) to: the two swapped where ``swap``, then the line mirrored
    (N - 1 - line) where ``mirror_line``, the row where ``mirror_row``."""

    name: str
    swap: bool
    mirror_line: bool
    mirror_row: bool

    def image(
        self, rows: Sequence[Value], cols: Sequence[Value], mirrored: Callable[[Value], Value]
    ) -> list[Value]:
        """The solution ``rows`` (its inverse ``cols``) under this symmetry, row by line;
        ``mirrored`` turns a row into its mirror image. The values may be numbers or a model's
        variables."""
        last = len(rows) - 1
        read = cols if self.swap else rows
        image = [read[last - line if self.mirror_line else line] for line in range(len(rows))]
        return [mirrored(value) for value in image] if self.mirror_row else image


SYMMETRIES = (
    Symmetry("identity", swap=False, mirror_line=False, mirror_row=False),
    Symmetry("quarter turn", swap=True, mirror_line=False, mirror_row=True),
    Symmetry("half turn", swap=False, mirror_line=True, mirror_row=True),
    Symmetry("three-quarter turn", swap=True, mirror_line=True, mirror_row=False),
    Symmetry("mirror left-right", swap=False, mirror_line=True, mirror_row=False),
    Symmetry("mirror top-bottom", swap=False, mirror_line=False, mirror_row=True),
    Symmetry("transpose", swap=True, mirror_line=False, mirror_row=False),
    Symmetry("anti-transpose", swap=True, mirror_line=True, mirror_row=True),
)
"""The square's 8 symmetries, numbered as the compiled searches number them (``searches.h``
holds the same table; a test holds the two equal): 0 keeps, 1-3 turn by quarters, 4-7
reflect."""


def inverse(rows: Sequence[int]) -> tuple[int, ...]:
    """``cols`` with ``cols[rows[c]] == c``: the board read by rows instead of by columns."""
    cols = [0] * len(rows)
    for col, row in enumerate(rows):
        cols[row] = col
    return tuple(cols)


def images(rows: Sequence[int]) -> list[tuple[int, ...]]:
    """The solution under each of the 8 symmetries, in the order of ``SYMMETRIES`` (the
    identity first)."""
    last = len(rows) - 1
    cols = inverse(rows)
    return [tuple(each.image(rows, cols, lambda row: last - row)) for each in SYMMETRIES]


def class_size(rows: Sequence[int]) -> int:
    """How many distinct solutions the class of ``rows`` holds: 8, 4 or 2 (1 for N = 1)."""
    return len(set(images(rows)))

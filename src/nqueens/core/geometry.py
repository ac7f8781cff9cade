"""Squares, diagonals and how queens attack: the geometry of the board, with nothing given on it.

Squares inside the code are 0-based ``(row, col)``; people read and type them 1-based as
``ROW,COL`` (row 1 at the top, column 1 at the left), and every message here names them that way.
A diagonal is named by the square where it enters the board from the top or the left and the
way it runs: ``1,4/`` rises to the right, ``1,4\\`` falls.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from nqueens.core.errors import InputError, Square
from nqueens.core.validation import read_whole, shown


def square_name(square: Square) -> str:
    """``(2, 3)`` -> ``"3,4"``: the 1-based ROW,COL a person reads (and ``--queen`` takes), its
    numbers not grouped by thousands, whose commas would read as more coordinates."""
    return ",".join(str(at + 1) if at.bit_length() <= 64 else shown(at + 1) for at in square)


def parse_square(text: str) -> Square:
    """``"3,4"`` (1-based ROW,COL) -> ``(2, 3)``; InputError for anything malformed."""
    match = re.fullmatch(r"\s*(\+?[0-9]+)\s*,\s*(\+?[0-9]+)\s*", text)  # as N takes them
    if match is None:
        raise InputError(f"malformed square {text!r}: expected ROW,COL such as 3,4")
    row, col = read_whole(match.group(1)), read_whole(match.group(2))
    if row < 1 or col < 1:
        raise InputError(f"malformed square {text!r}: rows and columns count from 1")
    return row - 1, col - 1


TORUS, SUPERQUEENS = "torus", "superqueens"
RULES = {
    TORUS: "The board wraps around, so the diagonals go on from the other side: no two queens "
    "on one wrapped diagonal.",
    SUPERQUEENS: "Each queen also moves as a knight: no two queens a knight's move apart.",
}
"""The board rules beyond the plain one, with what each means. Both keep the 8 symmetries of
the square. On a torus a knight's move wraps around too."""

KNIGHT_MOVES = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


def knight_squares(square: Square, n: int, rules: frozenset[str]) -> set[Square]:
    """The squares a knight's move away from ``square`` on an n x n board: wrapped around on a
    torus (where a move may come back to the square itself, which is left out), and possibly off
    the board otherwise."""
    row, col = square
    if TORUS not in rules:
        return {(row + r, col + c) for r, c in KNIGHT_MOVES}
    return {((row + r) % n, (col + c) % n) for r, c in KNIGHT_MOVES} - {square}


Line = tuple[int, int, int, int]
"""A square's row, column, diagonal and anti-diagonal, by number (``lines_through``)."""

LINES = ("row", "column", "diagonal", "anti-diagonal")
"""The lines a queen attacks along, in the order ``lines_through`` numbers them: the diagonal
falls to the right (row - col), the anti-diagonal rises (row + col)."""


def lines_of(
    squares: Sequence[Square], n: int = 0, rules: frozenset[str] = frozenset()
) -> Iterator[list[int]]:
    """For each line of ``LINES`` in turn, the number of that line through each of ``squares``:
    two queens attack each other along a line where they have its number in common (and, for
    superqueens, a knight's move apart). On a torus the diagonals wrap around, so theirs are
    taken modulo n. A list at a time, so that a board of millions holds one."""
    yield [row for row, _ in squares]
    yield [col for _, col in squares]
    wrap = n if TORUS in rules else 0
    falling = [row - col for row, col in squares]
    yield [line % wrap for line in falling] if wrap else falling
    rising = [row + col for row, col in squares]
    yield [line % wrap for line in rising] if wrap else rising


def lines_through(square: Square, n: int = 0, rules: frozenset[str] = frozenset()) -> Line:
    """The number of each line of ``LINES`` through ``square``: ``lines_of`` one square, worked
    out without its lists, since attack checks call it for every pair of squares they weigh."""
    row, col = square
    falling, rising = row - col, row + col
    if TORUS in rules:
        return row, col, falling % n, rising % n
    return row, col, falling, rising


def attack(a: Square, b: Square, n: int = 0, rules: frozenset[str] = frozenset()) -> str | None:
    """How two queens on an n x n board attack each other under ``rules`` ("row", "column",
    "diagonal", "knight's move"), or None if they do not."""
    lines = zip(LINES, lines_through(a, n, rules), lines_through(b, n, rules), strict=True)
    shared = [kind for kind, of_a, of_b in lines if of_a == of_b]
    if shared:
        return "diagonal" if shared[0] == "anti-diagonal" else shared[0]
    if SUPERQUEENS in rules and a in knight_squares(b, n, rules):
        return "knight's move"
    return None


SUM = "sum"
"""A diagonal that rises to the right (/), numbered by row + col: ``Diagonal(SUM, 7)``."""

DIFFERENCE = "difference"
"""A diagonal that falls to the right (\\), numbered by row - col: ``Diagonal(DIFFERENCE, 0)``."""


class Diagonal(NamedTuple):
    """A whole diagonal: ``sum``, the squares with row + col = value (it rises to the right, /),
    or ``difference``, the squares with row - col = value (it falls to the right, \\)."""

    kind: str
    value: int

    def on_board(self, n: int) -> bool:
        """Whether an n x n board has this diagonal."""
        low, high = (0, 2 * n - 2) if self.kind == SUM else (1 - n, n - 1)
        return self.kind in (SUM, DIFFERENCE) and low <= self.value <= high

    def squares(self, n: int) -> list[Square]:
        """The diagonal's squares on an n x n board, top to bottom."""
        return [self._square(row) for row in self._rows(n)]

    def topmost(self, n: int) -> Square:
        """The diagonal's first square from the top, on a board that has it; found without
        walking the board's rows, which a board of hostile size has too many of."""
        return self._square(self._rows(n).start)

    def _rows(self, n: int) -> range:
        """The rows the diagonal crosses on an n x n board."""
        if self.kind == SUM:  # col = value - row, within 0 .. n - 1
            return range(max(0, self.value - n + 1), min(n, self.value + 1))
        return range(max(0, self.value), min(n, n + self.value))  # col = row - value

    def _square(self, row: int) -> Square:
        return (row, self.value - row) if self.kind == SUM else (row, row - self.value)


def diagonal_name(diagonal: Diagonal, n: int) -> str:
    """``1,4/`` or ``2,1\\``, 1-based: the diagonal's topmost square and the way it runs; a
    diagonal off the board is named as code writes it (``sum 40``)."""
    if not diagonal.on_board(n):
        return f"{diagonal.kind} {shown(diagonal.value)}"
    way = "/" if diagonal.kind == SUM else "\\"
    return f"{square_name(diagonal.topmost(n))}{way}"


def diagonal_through(square: Square, way: str) -> Diagonal:
    """The diagonal through ``square`` that rises (``/``) or falls (``\\``) to the right."""
    rising, falling = diagonals_of(square)
    return rising if way == "/" else falling


def zero_based(square: Square) -> str:
    """``(2, 3)`` -> ``"(2, 3)"``: a square as code writes it, for the API's messages."""
    return f"({shown(square[0])}, {shown(square[1])})"


def diagonal_shared(a: Square, b: Square) -> str:
    """The diagonal two queens on one share, as messages name it: a wrapped one where they are
    not on one of the board's own (only a torus joins them so)."""
    plain = abs(a[0] - b[0]) == abs(a[1] - b[1])
    return "diagonal" if plain else "wrapped diagonal"


def diagonals_of(square: Square) -> tuple[Diagonal, Diagonal]:
    """The two diagonals through ``square``."""
    row, col = square
    return Diagonal(SUM, row + col), Diagonal(DIFFERENCE, row - col)

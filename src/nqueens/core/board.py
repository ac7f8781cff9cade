"""Completion puzzles: queens already on the board, squares that must stay empty, and whole
diagonals that no queen may take (the Excluded Diagonals problem of Gent, Jefferson and
Nightingale, JAIR 2017).

Squares inside the code are 0-based ``(row, col)``; people read and type them 1-based as
``ROW,COL`` (row 1 at the top, column 1 at the left), and every message here names them that way.
A diagonal is named by the square where it enters the board from the top or the left and the
way it runs: ``1,4/`` rises to the right, ``1,4\\`` falls. Given queens are checked here, line by
line; board files are read and written in :mod:`nqueens.formats.boards`.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from nqueens.core.results import InputError, Square
from nqueens.core.validation import read_whole, shown, squares, tuples_of, whole_number

MAX_N = 10_000_000
"""The largest board nqueens takes, by ``first`` (local search keeps a few arrays of N numbers)
and ``verify``."""


def square_name(square: Square) -> str:
    """``(2, 3)`` -> ``"3,4"``: the 1-based ROW,COL a person reads (and ``--queen`` takes), its
    numbers not grouped by thousands, whose commas would read as more coordinates."""
    return ",".join(str(at + 1) if at.bit_length() <= 64 else shown(at + 1) for at in square)


def parse_square(text: str) -> Square:
    """``"3,4"`` (1-based ROW,COL) -> ``(2, 3)``; InputError for anything malformed."""
    match = re.fullmatch(r"\s*([0-9]+)\s*,\s*([0-9]+)\s*", text)
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


def knight_pairs(board: Board) -> list[tuple[int, int, int]]:
    """Where a knight's move joins two columns: ``(col, other, difference)`` for each pair of
    columns and each difference of their rows, ``rows[col] - rows[other]``, that the move makes
    (wrapped around on a torus)."""
    n, wraps = board.n, TORUS in board.rules
    pairs: set[tuple[int, int, int]] = set()
    for col in range(n):
        for apart, rows in ((1, 2), (2, 1)):
            other = (col + apart) % n if wraps else col + apart
            if other >= n or other == col:
                continue
            differences = {rows, -rows} if not wraps else {rows, -rows, rows - n, n - rows}
            pairs.update((col, other, d) for d in differences if -n < d < n and d != 0)
    return sorted(pairs)


def attack(a: Square, b: Square, n: int = 0, rules: frozenset[str] = frozenset()) -> str | None:
    """How two queens on an n x n board attack each other under ``rules`` ("row", "column",
    "diagonal", "knight's move"), or None if they do not."""
    rows, cols = a[0] - b[0], a[1] - b[1]
    if rows == 0:
        return "row"
    if cols == 0:
        return "column"
    wraps = TORUS in rules
    if abs(rows) == abs(cols) or (wraps and ((rows - cols) % n == 0 or (rows + cols) % n == 0)):
        return "diagonal"
    if SUPERQUEENS in rules and a in knight_squares(b, n, rules):
        return "knight's move"
    return None


SUM, DIFFERENCE = "sum", "difference"


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


def attacking_pairs(
    queens: Iterable[Square],
    name: Callable[[Square], str] = square_name,
    n: int = 0,
    rules: frozenset[str] = frozenset(),
) -> list[str]:
    """Every pair of queens on an n x n board that attack each other under ``rules``, in words
    naming their squares.

    Queens are grouped by the lines they stand on, and knight's moves looked up, so thousands of
    given queens that attack nothing are checked in linear time.
    """
    wrap = n if TORUS in rules else 0
    on_line: dict[tuple[str, int], list[Square]] = {}
    standing = sorted(set(queens))
    for square in standing:
        row, col = square
        falling, rising = row - col, row + col
        if wrap:
            falling, rising = falling % wrap, rising % wrap
        for line in (("row", row), ("column", col), ("diagonal", falling), ("anti", rising)):
            on_line.setdefault(line, []).append(square)
    pairs = {
        (a, b, f"share a {diagonal_shared(a, b) if kind in ('diagonal', 'anti') else kind}")
        for (kind, _), squares in on_line.items()
        for a, b in itertools.combinations(squares, 2)
    }
    if SUPERQUEENS in rules:
        placed = set(standing)
        for square in standing:
            for other in knight_squares(square, n, rules):
                if other in placed and square < other:
                    pairs.add((square, other, "are a knight's move apart"))
    return [f"queens {name(a)} and {name(b)} {how}" for a, b, how in sorted(pairs)]


def problems(
    n: int,
    queens: Iterable[Square],
    blocked: Iterable[Square],
    name: Callable[[Square], str],
    excluded: Iterable[Diagonal] = (),
    name_diagonal: Callable[[Diagonal], str] | None = None,
    rules: frozenset[str] = frozenset(),
) -> list[str]:
    """What makes given squares not a puzzle: squares or diagonals off the board, squares given
    twice, a queen on a blocked square or an excluded diagonal, queens that attack each other
    under ``rules``; each square named by ``name``, each diagonal by ``name_diagonal``."""
    queens, blocked, excluded = list(queens), list(blocked), list(excluded)
    if name_diagonal is None:
        name_diagonal = functools.partial(diagonal_name, n=n)
    found = []
    for square in [*queens, *blocked]:
        if not (0 <= square[0] < n and 0 <= square[1] < n):
            found.append(f"square {name(square)} is off the {n} x {n} board")
    for diagonal in excluded:
        if not diagonal.on_board(n):
            found.append(f"diagonal {name_diagonal(diagonal)} is off the {n} x {n} board")
    for kind, given in (("queen", queens), ("blocked square", blocked)):
        for square in sorted(s for s, times in Counter(given).items() if times > 1):
            found.append(f"{kind} {name(square)} is given twice")
    for square in sorted(set(queens) & set(blocked)):
        found.append(f"square {name(square)} is both a queen and blocked")
    closed = set(excluded)
    for square in sorted(set(queens)):
        for diagonal in diagonals_of(square):
            if diagonal in closed:
                found.append(
                    f"queen {name(square)} stands on the excluded diagonal "
                    f"{name_diagonal(diagonal)}"
                )
    on_board = {(row, col) for row, col in queens if 0 <= row < n and 0 <= col < n}
    return found + attacking_pairs(on_board, name, n, rules)


def diagonals_of(square: Square) -> tuple[Diagonal, Diagonal]:
    """The two diagonals through ``square``."""
    row, col = square
    return Diagonal(SUM, row + col), Diagonal(DIFFERENCE, row - col)


class BoardError(InputError):
    """What makes given squares not a puzzle. The message names squares as code writes them
    (0-based ``(row, col)``); :meth:`for_people` names them as people read them (``3,4``)."""

    def __init__(self, board: Board, found: list[str]) -> None:
        self._board = board
        super().__init__("; ".join(found), argument="board")

    def named(self, name: Callable[[Square], str]) -> list[str]:
        """The same problems, each square named by ``name``."""
        return self._board.problems(name)

    def for_people(self) -> str:
        """The same problems, each square named 1-based as ROW,COL."""
        return "; ".join(self.named(square_name))


@dataclass(frozen=True, init=False)
class Board:
    """An n x n board, with the queens that must be kept, the squares that must stay empty and
    the whole diagonals that no queen may take: everything a search is asked to respect. It is
    checked once, when made, and flows unchanged to the engine that searches it.

    Squares are 0-based ``(row, col)`` pairs; diagonals are :class:`Diagonal` values or
    ``("sum", row + col)`` and ``("difference", row - col)`` pairs; ``rules`` are names from
    :data:`RULES` (``"torus"``, ``"superqueens"``) that change how queens attack.
    """

    n: int
    queens: tuple[Square, ...]
    blocked: tuple[Square, ...]
    excluded: tuple[Diagonal, ...]
    rules: frozenset[str]

    def __init__(
        self,
        n: int,
        queens: Iterable[Square] = (),
        blocked: Iterable[Square] = (),
        excluded: Iterable[Diagonal | tuple[str, int]] = (),
        rules: Iterable[str] = (),
    ) -> None:
        parts = {
            "n": whole_number(n, "N", minimum=1),
            "queens": squares(queens, "queens"),
            "blocked": squares(blocked, "blocked squares"),
            "excluded": excluded_diagonals(excluded),
            "rules": _rules(rules),
        }
        for name, value in parts.items():
            object.__setattr__(self, name, value)
        found = self.problems(zero_based, _code_name)
        if found:
            raise BoardError(self, found)

    def problems(
        self, name: Callable[[Square], str], name_diagonal: Callable[[Diagonal], str] | None = None
    ) -> list[str]:
        """What makes the given squares not a puzzle, each square named by ``name``."""
        return problems(
            self.n, self.queens, self.blocked, name, self.excluded, name_diagonal, self.rules
        )

    @property
    def plain(self) -> bool:
        """True for the classic problem: nothing given, no rule beyond the queen's moves."""
        return not (self.constrained or self.rules)

    @property
    def title(self) -> str:
        """``N = 19``, or ``N = 19 (torus)`` under a rule: the board as messages name it."""
        rules = f" ({', '.join(sorted(self.rules))})" if self.rules else ""
        return f"N = {self.n}{rules}"

    @property
    def free_columns(self) -> int:
        """Columns without a given queen: what a search has left to fill."""
        return self.n - len(self.queens)

    @property
    def constrained(self) -> bool:
        """True when any square or diagonal is given."""
        return bool(self.queens or self.blocked or self.excluded)

    @property
    def symmetric(self) -> bool:
        """True when the board keeps the 8 symmetries of the square: nothing is given on it."""
        return not self.constrained

    @property
    def excluded_sums(self) -> frozenset[int]:
        """row + col of every excluded diagonal that rises to the right."""
        return frozenset(d.value for d in self.excluded if d.kind == SUM)

    @property
    def excluded_differences(self) -> frozenset[int]:
        """row - col of every excluded diagonal that falls to the right."""
        return frozenset(d.value for d in self.excluded if d.kind == DIFFERENCE)

    def closed_squares(self) -> tuple[Square, ...]:
        """The blocked squares and every square of an excluded diagonal, once each: what an
        engine that knows only squares must leave empty."""
        closed = set(self.blocked)
        for diagonal in set(self.excluded):
            closed.update(diagonal.squares(self.n))
        return tuple(sorted(closed))

    def allows(self, rows: tuple[int, ...]) -> bool:
        """Whether a solution keeps every given queen and leaves every blocked square and
        excluded diagonal empty."""
        sums, differences = self.excluded_sums, self.excluded_differences
        return (
            all(rows[col] == row for row, col in self.queens)
            and all(rows[col] != row for row, col in self.blocked)
            and not any(
                row + col in sums or row - col in differences for col, row in enumerate(rows)
            )
        )


def _code_name(diagonal: Diagonal) -> str:
    """A diagonal as code writes it, for the API's messages."""
    return f"Diagonal({diagonal.kind!r}, {shown(diagonal.value)})"


def _rules(value: object) -> frozenset[str]:
    """``value`` as board rules, each one of RULES."""
    if isinstance(value, str):
        value = (value,)
    found = set()
    for item, _ in tuples_of(value, "rules must be a list of names"):
        if not isinstance(item, str) or item not in RULES:
            raise InputError(
                f"unknown rule {shown(item)}; choose from {', '.join(RULES)}", argument="rules"
            )
        found.add(item)
    return frozenset(found)


def excluded_diagonals(value: object) -> tuple[Diagonal, ...]:
    """``value`` as excluded diagonals: Diagonal values, or ``("sum", row + col)`` and
    ``("difference", row - col)`` pairs."""
    result = []
    for item, pair in tuples_of(value, "excluded diagonals must be a list"):
        if (
            len(pair) != 2
            or pair[0] not in (SUM, DIFFERENCE)
            or isinstance(pair[1], bool)
            or not isinstance(pair[1], int)
        ):
            raise InputError(
                f"excluded diagonals must be ('sum', row + col) or ('difference', row - col), "
                f"not {shown(item)}"
            )
        result.append(Diagonal(pair[0], pair[1]))
    return tuple(result)

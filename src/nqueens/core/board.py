"""Completion puzzles: queens already on the board, squares that must stay empty, and whole
diagonals that no queen may take (the Excluded Diagonals problem of Gent, Jefferson and
Nightingale, JAIR 2017).

Squares inside the code are 0-based ``(row, col)``; people read and type them 1-based as
``ROW,COL`` (row 1 at the top, column 1 at the left), and every message here names them that way.
A diagonal is named by the square where it enters the board from the top or the left and the
way it runs: ``1,4/`` rises to the right, ``1,4\\`` falls. Given queens are checked here, line by
line; board files are read and written in ``nqueens.formats.boards``.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from nqueens.core.errors import InputError, Square
from nqueens.core.geometry import (
    DIFFERENCE,
    LINES,
    RULES,
    SUM,
    SUPERQUEENS,
    TORUS,
    Diagonal,
    diagonal_name,
    diagonal_shared,
    diagonals_of,
    knight_squares,
    lines_of,
    square_name,
    zero_based,
)
from nqueens.core.validation import shown, squares, tuples_of, whole_number

MAX_N = 10_000_000
"""The largest board nqueens takes, by ``first`` (local search keeps a few arrays of N numbers)
and ``verify``."""


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
    on_line: dict[tuple[str, int], list[Square]] = {}
    standing = sorted(set(queens))
    for kind, numbers in zip(LINES, lines_of(standing, n, rules), strict=True):
        for square, number in zip(standing, numbers, strict=True):
            on_line.setdefault((kind, number), []).append(square)
    diagonals = LINES[2:]
    pairs = {
        (a, b, f"share a {diagonal_shared(a, b) if kind in diagonals else kind}")
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


class BoardError(InputError):
    """What makes given squares not a puzzle. The message names squares as code writes them
    (0-based ``(row, col)``); ``for_people`` names them as people read them (``3,4``)."""

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

    Squares are 0-based ``(row, col)`` pairs; diagonals are ``Diagonal`` values or
    ``("sum", row + col)`` and ``("difference", row - col)`` pairs; ``rules`` are names from
    ``RULES`` (``"torus"``, ``"superqueens"``) that change how queens attack.
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

    def __str__(self) -> str:
        """The puzzle drawn as a ``--board`` file: ``Q`` given, ``#`` blocked (and every square
        of an excluded diagonal), ``.`` free; beyond N = 100, described in a line."""
        from nqueens.core.pictures import board_text

        return board_text(self)

    def to_svg(self, *, ascii_only: bool = False) -> str:
        """The puzzle as an SVG picture, as ``--svg`` draws it (up to N = 200: InputError
        beyond)."""
        from nqueens.core.pictures import board_svg

        return board_svg(self.n, self.queens, board=self, ascii_only=ascii_only)

    def _repr_svg_(self) -> str | None:
        """The picture a notebook shows (none beyond N = 200, where it shows the text)."""
        from nqueens.core.pictures import notebook_svg

        return notebook_svg(self.n, self.queens, self)

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

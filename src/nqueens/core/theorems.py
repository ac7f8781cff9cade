"""What is known of a board without a search: Pólya's theorems on the torus (1918), and lines
that given squares close.

A torus has a solution exactly when N is divisible by neither 2 nor 3. When it has, queens on a
wrapped line, ``row = slope * col mod N``, solve it for any slope that shares no factor with N
and whose neighbours ``slope - 1`` and ``slope + 1`` share none either (so that rows and both
kinds of wrapped diagonals all differ); a slope of 2 always does. Given squares only add
constraints, so a board that has no solution has none under them either. And a solution has a
queen in every row and column, and on a torus on every wrapped diagonal, so given squares that
close a whole one leave none.

These answers are for the searches nqueens picks itself (``auto``): an engine named by the user
searches as asked, so that engines can be compared and checked on these boards too.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple

from nqueens.core.board import Board
from nqueens.core.geometry import SUM, SUPERQUEENS, TORUS, Diagonal
from nqueens.core.results import Square

THEOREM = "theorem"
"""How statistics name an answer that no search gave (``Stats.engine``)."""

IN_SHORT = "a torus whose N is divisible by 2 or 3 has no solution"
"""The best known of them, for help."""

COUNTERS = ("searches", "nodes")
"""The two statistics of such an answer: both 0."""

_MOST_SQUARES_CHECKED = 1_000_000
"""How much a theorem may check before it leaves the board to a search: the squares of the lines
that given squares might close, or the given squares and excluded diagonals of the lines of
queens tried (one that keeps them is usually among the first tried)."""


def without_solution(board: Board) -> str | None:
    """Why ``board`` has no solution, in words, where a theorem says so; None otherwise."""
    if TORUS not in board.rules:
        return None
    factor = next((factor for factor in (2, 3) if board.n % factor == 0), None)
    if factor is None:
        return None
    return (
        f"N is divisible by {factor}, and a torus has solutions only when N is divisible by "
        "neither 2 nor 3 (Pólya's theorem)"
    )


def without_completion(board: Board) -> str | None:
    """Why the given squares leave no solution, in words, where they close a whole line that
    every solution fills: each square of a row or a column (on a torus, of a wrapped diagonal
    too) blocked or on an excluded diagonal. None otherwise.

    N queens in N rows, at most one in each, take one in each; so in N columns, and on a torus
    in the N wrapped diagonals of either direction."""
    closed = _closed_line(board)
    if closed is None:
        return None
    line, lines = closed
    given = " and ".join(
        what
        for what, present in (
            ("blocked squares", board.blocked),
            ("excluded diagonals", board.excluded),
        )
        if present
    )
    return (
        f"the {given} leave no square free on a whole {line}, and each of the N {lines} holds "
        "one of the N queens"
    )


class _Lines(NamedTuple):
    """A kind of line that every solution puts a queen on each of."""

    line: str  # how a message names one of them, and all of them
    lines: str
    of: Callable[[Square], int]  # the line a square is on
    squares: Callable[[int], Iterable[Square]]  # a line's N squares
    crossed: int  # the most squares of a line that excluded diagonals across it cover
    along: Counter[int]  # each line's squares on the excluded diagonals that run along it


def _closed_line(board: Board) -> tuple[str, str] | None:
    """The kind of line, singular and plural, that the given squares close one of; None if
    they close none (or too many lines could be closed for all to be checked)."""
    n, sums, differences = board.n, board.excluded_sums, board.excluded_differences
    blocked = frozenset(board.blocked)
    kinds = [
        _Lines(
            name,
            f"{name}s",
            functools.partial(_straight_line_of, axis),
            functools.partial(_straight_line, axis, n),
            len(sums) + len(differences),
            Counter(),
        )
        for axis, name in enumerate(("row", "column"))
    ]
    if TORUS in board.rules:  # a board's diagonal runs along a wrapped one, the other crosses
        for sign, direction, along, across in (
            (1, "rising", sums, differences),
            (-1, "falling", differences, sums),
        ):
            covered = Counter[int]()
            for value in along:  # the squares of the board's own diagonal
                covered[value % n] += n - abs(value - (n - 1)) if sign == 1 else n - abs(value)
            kinds.append(
                _Lines(
                    f"wrapped diagonal {direction} to the right",
                    f"wrapped diagonals {direction} to the right",
                    functools.partial(_wrapped_line_of, sign, n),
                    functools.partial(_wrapped_line, sign, n),
                    2 * len(across),
                    covered,
                )
            )
    for kind in kinds:
        most = kind.along.copy()  # squares that may be covered, some counted twice
        most.update(kind.of(square) for square in blocked)
        if kind.crossed >= n:
            candidates: Sequence[int] = range(n)
        else:
            candidates = [at for at, covered in most.items() if covered + kind.crossed >= n]
        if len(candidates) * n > _MOST_SQUARES_CHECKED:
            continue
        for at in candidates:
            if all(
                square in blocked or sum(square) in sums or square[0] - square[1] in differences
                for square in kind.squares(at)
            ):
                return kind.line, kind.lines
    return None


def _straight_line_of(axis: int, square: Square) -> int:
    """The row (``axis`` 0) or column (1) of ``square``."""
    return square[axis]


def _straight_line(axis: int, n: int, at: int) -> Iterator[Square]:
    """The squares of row ``at`` (``axis`` 0) or column ``at`` (1)."""
    return ((at, other) if axis == 0 else (other, at) for other in range(n))


def _wrapped_line_of(sign: int, n: int, square: Square) -> int:
    """The wrapped diagonal of ``square``: ``(row + col) mod n`` rising (``sign`` 1), ``(row -
    col) mod n`` falling (-1)."""
    return (square[0] + sign * square[1]) % n


def _wrapped_line(sign: int, n: int, at: int) -> Iterator[Square]:
    """The squares of wrapped diagonal ``at``, rising (``sign`` 1) or falling (-1)."""
    return ((row, sign * (at - row) % n) for row in range(n))


def unsolvable(board: Board) -> str | None:
    """Why ``board`` has no solution, or its given squares no completion, where a theorem says
    so; None otherwise."""
    return without_solution(board) or without_completion(board)


def line_of_queens(board: Board) -> tuple[int, ...] | None:
    """A solution of a torus whose queens lie on one wrapped line, ``row = slope * col + offset
    mod N``, keeping the given queens and leaving the blocked squares and excluded diagonals
    empty; None where the board is not a torus or no line tried solves it.

    A line moved anywhere on a torus is still a solution, so the lines tried pass through the
    first given queen, or start on every row where none is given."""
    n = board.n
    if TORUS not in board.rules or unsolvable(board):
        return None
    knight = SUPERQUEENS in board.rules
    given = len(board.queens) + len(board.blocked) + len(board.excluded)
    lines_checked = _MOST_SQUARES_CHECKED // (1 + given)
    slopes = (slope for slope in range(2, n) if _solves(slope, n, knight=knight))
    for slope in slopes:
        if board.queens:
            row, col = board.queens[0]
            offsets: Iterable[int] = ((row - slope * col) % n,)
        else:
            offsets = range(n)
        for offset in offsets:
            if lines_checked == 0:
                return None
            lines_checked -= 1
            if _keeps(board, slope, offset):
                return _line(slope, offset, n)
    return None


def _keeps(board: Board, slope: int, offset: int) -> bool:
    """Whether the line keeps every given queen and leaves every blocked square and excluded
    diagonal empty."""
    n = board.n
    return (
        all((slope * col + offset) % n == row for row, col in board.queens)
        and all((slope * col + offset) % n != row for row, col in board.blocked)
        and not any(_meets(diagonal, slope, offset, n) for diagonal in board.excluded)
    )


def _meets(diagonal: Diagonal, slope: int, offset: int, n: int) -> bool:
    """Whether the line puts a queen on ``diagonal``, the board's own, not wrapped.

    Along the diagonal ``row + sign * col`` stays its value, so the line meets it, wrapped, in
    the one column where ``(slope + sign) * col = value - offset mod n`` (``slope + sign``
    shares no factor with ``n``); the queen in that column is on the diagonal itself, or on its
    continuation past the board's edge."""
    sign = 1 if diagonal.kind == SUM else -1
    col = (diagonal.value - offset) * pow(slope + sign, -1, n) % n
    return (slope * col + offset) % n + sign * col == diagonal.value


def _line(slope: int, offset: int, n: int) -> tuple[int, ...]:
    """``(slope * col + offset) mod n`` for every column, built a run of rows ``slope`` apart at
    a time rather than a product per column: boards of millions are ``first``'s."""
    rows: list[int] = []
    start = offset
    while len(rows) < n:
        run = range(start, min(n, start + slope * (n - len(rows))), slope)
        rows.extend(run)
        start = run[-1] + slope - n
    return tuple(rows)


def _solves(slope: int, n: int, *, knight: bool) -> bool:
    """Whether queens at ``row = slope * col mod n`` never share a row or a wrapped diagonal (and,
    with ``knight``, are never a wrapped knight's move apart: two rows between neighbouring
    columns, or one row between columns two apart)."""
    if any(math.gcd(value, n) != 1 for value in (slope - 1, slope, slope + 1)):
        return False
    one_apart, two_apart = slope % n, 2 * slope % n
    return not knight or (one_apart not in (2, n - 2) and two_apart not in (1, n - 1))

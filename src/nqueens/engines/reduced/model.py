"""The reduced model of a puzzle: what its given queens, blocked squares and excluded diagonals
leave of the board, as the free columns and the candidate rows of each (one machine word), and
what the search needs beside it: which rows a queen attacks, the model cut into pieces whose
counts add up, and an estimate of the search's size."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, replace
from typing import Any

from nqueens.engines.base import Request

_SIZE_DESCENTS = 200  # random descents in an estimate of the search's size
PIECES = 64
"""A count is cut into about this many pieces, for every core and the progress bar."""


@dataclass(frozen=True)
class Reduction:
    """What given queens leave of a puzzle: its free columns and their candidate rows."""

    n: int
    columns: tuple[int, ...]  # the board's free columns
    rows: tuple[int, ...]  # the board's free rows; bit j of a mask is rows[j]
    allowed: tuple[int, ...]  # per free column, the free rows it may take (a mask)
    given: tuple[int, ...]  # rows[c] of the full board for the given queens, -1 elsewhere


NOTHING = Reduction(0, (), (), (), ())
"""The reduction of no board, as a default."""


def reduce(request: Request) -> Reduction:
    """Take the given queens' rows, columns and diagonals out, and blocked squares and excluded
    diagonals with them."""
    n = request.n
    board = request.board
    queens = board.queens
    blocked = set(board.blocked)
    given = [-1] * n
    for row, col in queens:
        given[col] = row
    used_rows = {row for row, _ in queens}
    sums = {row + col for row, col in queens} | board.excluded_sums
    differences = {row - col for row, col in queens} | board.excluded_differences
    rows = [row for row in range(n) if row not in used_rows]
    columns = [col for col in range(n) if given[col] < 0]
    masks = {}
    for col in columns:
        mask = 0
        for index, row in enumerate(rows):
            free_lines = (row + col) not in sums and (row - col) not in differences
            if free_lines and (row, col) not in blocked:
                mask |= 1 << index
        masks[col] = mask
    return Reduction(n, tuple(columns), tuple(rows), tuple(masks[c] for c in columns), tuple(given))


def attacks(reduction: Reduction) -> Any:
    """attack[i, j, k]: the rows of free column k that a queen on free row j of column i attacks
    (computed once per set of free rows and columns, and shared by the subproblems)."""
    return _attack_table(reduction.columns, reduction.rows)


@functools.lru_cache(maxsize=4)
def _attack_table(columns: tuple[int, ...], rows: tuple[int, ...]) -> Any:
    import numpy

    m = len(columns)
    attack = numpy.zeros((max(m, 1), max(m, 1), max(m, 1)), dtype=numpy.uint64)
    index_of = {row: index for index, row in enumerate(rows)}
    for i, col_i in enumerate(columns):
        for j, row_j in enumerate(rows):
            for k, col_k in enumerate(columns):
                if k == i:
                    continue
                mask = 0
                for row in (row_j + col_i - col_k, row_j - col_i + col_k):
                    if row in index_of:
                        mask |= 1 << index_of[row]
                attack[i, j, k] = mask
    return attack


def cut(reduction: Reduction, pieces: int = PIECES, levels: int = 3) -> list[Reduction]:
    """The reduction cut into pieces whose counts add up: the column with the fewest candidate
    rows takes each of them in turn, the other columns narrowed as the search would narrow them
    (a piece left with an empty column holds nothing and is dropped), for up to ``levels``
    columns or until there are ``pieces``."""
    attack = attacks(reduction)
    m = len(reduction.columns)
    found = [reduction.allowed]
    for _ in range(levels):
        if len(found) >= pieces:
            break
        deeper = []
        for allowed in found:
            open_columns = [k for k in range(m) if allowed[k].bit_count() > 1]
            if not open_columns:
                deeper.append(allowed)
                continue
            column = min(open_columns, key=lambda k: (allowed[k].bit_count(), k))
            for row in range(len(reduction.rows)):
                if allowed[column] >> row & 1 and (narrowed := place(attack, allowed, column, row)):
                    deeper.append(narrowed)
        found = deeper
    return [replace(reduction, allowed=allowed) for allowed in found]


def place(attack: Any, allowed: tuple[int, ...], column: int, row: int) -> tuple[int, ...] | None:
    """``allowed`` with free ``row`` given to free ``column``, and the other columns narrowed to
    the rows it leaves them (``attack`` as ``attacks`` makes it); None if that leaves one
    of them empty, a piece that holds nothing."""
    narrowed = tuple(
        1 << row if k == column else allowed[k] & ~(1 << row) & ~int(attack[column, row, k])
        for k in range(len(allowed))
    )
    return narrowed if all(narrowed) else None


def search_size(reduction: Reduction, beyond: float = float("inf")) -> float:
    """Knuth's estimate of the positions the search visits ("Estimating the efficiency of
    backtrack programs", 1975): the mean over random descents, each taking the column the search
    takes and one of its rows at random, of the sum of the products of the rows met on the way.
    The descents are drawn the same way every time; they stop as soon as the mean must be more
    than ``beyond``, which is then all the answer says."""
    attack = attacks(reduction)
    draw = random.Random(0)
    total = 0.0
    for _ in range(_SIZE_DESCENTS):
        total += _descent(attack, reduction.allowed, draw)
        if total > beyond * _SIZE_DESCENTS:
            break
    return total / _SIZE_DESCENTS


def _descent(attack: Any, allowed: tuple[int, ...], draw: random.Random) -> float:
    """One random descent of the search from ``allowed``: the positions it stands for."""
    positions = paths = 1.0
    open_columns = set(range(len(allowed)))
    while open_columns:
        column = min(open_columns, key=lambda k: (allowed[k].bit_count(), k))
        rows = [row for row in range(allowed[column].bit_length()) if allowed[column] >> row & 1]
        if not rows:
            break
        paths *= len(rows)
        positions += paths
        narrowed = place(attack, allowed, column, draw.choice(rows))
        if narrowed is None:
            break
        allowed = narrowed
        open_columns.discard(column)
    return positions

"""The model as CNF in DIMACS, for SAT solvers: the 0-1 program's constraints as clauses.

Variables 1 to N² are the squares, row by row: variable (r - 1) * N + c is a queen on row r,
column c (1-based). "At most one" of a row, a column or a diagonal is written with the product
encoding (Chen, "A new SAT encoding of the at-most-one constraint", 2010): about 2k binary
clauses and 2√k auxiliary variables for k squares, numbered after the squares; "exactly one"
adds the clause that one of them holds a queen. Clauses are written in blocks, by the package's
C module where it was built, so that a board of a million squares takes seconds and little
memory.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from nqueens.core.board import Board
from nqueens.engines.mip import constraints
from nqueens.export.base import Format, Target, commented, header, squares_named

if TYPE_CHECKING:
    import numpy as np

PAIRWISE_UP_TO = 6
"""Groups this small are written as one clause per pair: fewer clauses than the product
encoding's."""

BLOCK_LITERALS = 1 << 22
"""Literals gathered before they are written out: a few megabytes at a time."""

RUN = "minisat {file} model.txt; nqueens verify --dimacs {file} model.txt"


def write(board: Board, target: Target) -> None:
    """Write the CNF of ``board``."""
    import numpy as np

    n = board.n
    squares = n * n
    variables, clauses = squares, 0
    for _, cells, low, high in constraints(board):
        extra, count = _size(len(cells), low, high)
        variables += extra
        clauses += count
    lines = [
        f"Variables 1 to {squares} are the squares, row by row: variable (r - 1) * {n} + c is a",
        "queen on row r, column c (1-based); a model's true ones among them are its queens.",
        f"Variables {squares + 1} to {variables} are auxiliary, each decided by the squares:"
        if variables > squares
        else "There are no auxiliary variables:",
        "a model is one solution, and a solution one model.",
        "Exactly one queen per row and per column, at most one per diagonal (and knight's move",
        "under the superqueens rule). At most one is written in the product encoding (Chen",
        "2010); at most one on a diagonal as exactly one of its squares and a variable that",
        "says it is empty. Given queens are unit clauses, blocked squares and excluded",
        "diagonals negated ones.",
    ]
    head = header(board, "CNF in DIMACS", target, lines, RUN)
    target.stream.write(commented("c", head))
    target.stream.write(f"p cnf {variables} {clauses}\n".encode())
    pending: list[np.ndarray] = []
    size = 0
    for literals in _clauses(board, squares + 1):
        pending.append(literals)
        size += len(literals)
        if size >= BLOCK_LITERALS:
            target.stream.write(_text(np.concatenate(pending)))
            pending, size = [], 0
    if pending:
        target.stream.write(_text(np.concatenate(pending)))


def _size(k: int, low: int, high: int) -> tuple[int, int]:
    """The auxiliary variables and clauses of a constraint on k squares."""
    if high == 0:
        return 0, k
    if k == 1:
        return 0, low
    if low == 0 and k > PAIRWISE_UP_TO:  # exactly one of them or the "empty" variable
        extra, count = _at_most_one_size(k + 1)
        return extra + 1, count + 1
    extra, count = _at_most_one_size(k)
    return extra, count + low


@functools.cache
def _at_most_one_size(k: int) -> tuple[int, int]:
    if k <= PAIRWISE_UP_TO:
        return 0, k * (k - 1) // 2
    rows, columns = _grid(k)
    row_extra, row_clauses = _at_most_one_size(rows)
    column_extra, column_clauses = _at_most_one_size(columns)
    return rows + columns + row_extra + column_extra, 2 * k + row_clauses + column_clauses


def _grid(k: int) -> tuple[int, int]:
    """The product encoding's grid of k squares: p rows of q, p * q >= k."""
    rows = math.isqrt(k - 1) + 1
    return rows, -(-k // rows)


def _clauses(board: Board, first_free: int) -> Iterator[np.ndarray]:
    """The clauses of every constraint, as arrays of literals each clause ended by 0; auxiliary
    variables are numbered from ``first_free`` in the order ``write`` counted them."""
    import numpy as np

    next_free = first_free
    for _, cells, low, high in constraints(board):
        squares = _variables(cells)
        if high == 0:  # no queen on any of them
            yield np.column_stack([-squares, np.zeros_like(squares)]).ravel()
            continue
        if low == 0 and len(squares) > PAIRWISE_UP_TO:
            # At most one, as exactly one of the squares and a variable that says none holds
            # a queen: the product encoding's variables are then decided by the squares.
            squares = np.append(squares, next_free).astype(np.intc)
            next_free += 1
            low = 1
        if low == 1:  # one of them holds a queen
            yield np.append(squares, 0).astype(np.intc)
        if len(squares) > 1:
            blocks: list[np.ndarray] = []
            next_free = _at_most_one(squares, next_free, blocks)
            yield from blocks


def _variables(cells: Sequence[int]) -> np.ndarray:
    import numpy as np

    if isinstance(cells, range):
        return np.arange(cells.start + 1, cells.stop + 1, cells.step, dtype=np.intc)
    return np.asarray(cells, dtype=np.intc) + 1


def _at_most_one(literals: np.ndarray, next_free: int, out: list[np.ndarray]) -> int:
    """At most one of ``literals`` true: clauses appended to ``out``; the next free variable."""
    import numpy as np

    k = len(literals)
    if k <= PAIRWISE_UP_TO:
        first, second = _pairs(k)
        clauses = np.zeros((len(first), 3), dtype=np.intc)
        clauses[:, 0], clauses[:, 1] = -literals[first], -literals[second]
        out.append(clauses.ravel())
        return next_free
    rows, columns = _grid(k)
    on_row = np.arange(next_free, next_free + rows, dtype=np.intc)
    on_column = np.arange(next_free + rows, next_free + rows + columns, dtype=np.intc)
    next_free += rows + columns
    # A queen on a square puts one on its row of the grid and on its column: two queens differ
    # in one or the other, where at most one is allowed.
    row_of, column_of = _places(k, columns)
    clauses = np.zeros((k, 6), dtype=np.intc)
    clauses[:, 0] = clauses[:, 3] = -literals
    clauses[:, 1], clauses[:, 4] = on_row[row_of], on_column[column_of]
    out.append(clauses.ravel())
    next_free = _at_most_one(on_row, next_free, out)
    return _at_most_one(on_column, next_free, out)


@functools.cache
def _pairs(k: int) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    first, second = np.triu_indices(k, 1)
    return first, second


@functools.cache
def _places(k: int, columns: int) -> tuple[np.ndarray, np.ndarray]:
    """The row and the column of the product encoding's grid that each of k squares is on."""
    import numpy as np

    return np.divmod(np.arange(k), columns)


def _text(literals: np.ndarray) -> bytes:
    """Clauses as DIMACS lines."""
    import numpy as np

    try:
        from nqueens.formats._text import clauses
    except ImportError:  # no C compiler at install: the same lines, more slowly
        joined = " ".join(map(str, literals.tolist())) + " "
        return joined.replace(" 0 ", " 0\n").encode()
    return clauses(np.ascontiguousarray(literals, dtype=np.intc))


FORMAT = Format(
    name="dimacs",
    summary="CNF for SAT solvers (.cnf): a variable per square",
    suffixes=(".cnf", ".dimacs"),
    size=lambda n, rules: squares_named(n * n, rules),
    max_size=4 * 4_000**2,  # about 3 GB of clauses
    why="its clauses grow with N², about 190 MB at N = 1,000",
    write=write,
)

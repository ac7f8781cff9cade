"""The local search's kernel: min-conflicts repair of a permutation, as Sosic and Gu do it.

One source, compiled with numba where it can be (as the bitboard kernel), plain Python
otherwise. ``rows[c]`` is the row of column c's queen; rows form a permutation, so rows and
columns never conflict and only diagonals can. Conflicts are attacking pairs on the diagonals,
counted per diagonal in two arrays, plus a penalty for each queen on a blocked square. Given
queens sit in fixed columns and never move.

1. Start: the free rows are shuffled onto the free columns; then column by column, a row is
   swapped in from a random later column until the queen attacks none placed so far, which
   places almost every queen without conflict (the last few take what is left).
2. Repair: every queen in conflict is swapped with random partners until a swap lowers the
   conflicts. A pass that gains nothing makes one random swap to leave the local minimum.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy

from nqueens.engines.jit import compile_search, compiled_or_plain

GREEDY_TRIES = 64  # random partners tried for each queen of the start
GREEDY_TAIL = 32  # the last free columns take what is left: few conflict-free rows remain
REPAIR_TRIES = 64  # random partners tried for a queen in conflict before the next one
BLOCKED_PENALTY = 1 << 20  # a queen on a blocked square weighs as much as this many pairs

SearchFunction = Callable[..., int]


def search(
    n: int, rows: Any, fixed: Any, blocked: Any, seed: int, max_moves: int, counters: Any
) -> int:
    """Repair ``rows`` in place; returns the conflicts left (0: a solution).

    ``fixed[c]`` marks given queens (their rows are set in ``rows``); ``blocked`` holds the
    blocked squares as sorted codes ``row * n + col``. ``counters`` receives the swaps made and
    the moves tried. At most ``max_moves`` partners are tried, so the call returns in bounded time.
    """
    numpy.random.seed(seed)
    free_columns = numpy.zeros(n, dtype=numpy.int64)
    used_rows = numpy.zeros(n, dtype=numpy.int64)
    free = 0
    for col in range(n):
        if fixed[col]:
            used_rows[rows[col]] = 1
        else:
            free_columns[free] = col
            free += 1
    free_rows = numpy.zeros(free, dtype=numpy.int64)
    k = 0
    for row in range(n):
        if used_rows[row] == 0:
            free_rows[k] = row
            k += 1
    for i in range(free - 1, 0, -1):  # Fisher-Yates
        j = numpy.random.randint(0, i + 1)
        free_rows[i], free_rows[j] = free_rows[j], free_rows[i]
    for i in range(free):
        rows[free_columns[i]] = free_rows[i]

    sums = numpy.zeros(2 * n, dtype=numpy.int64)  # queens on each row + col diagonal
    differences = numpy.zeros(2 * n, dtype=numpy.int64)  # ... on each row - col + n - 1
    for col in range(n):
        if fixed[col]:
            sums[rows[col] + col] += 1
            differences[rows[col] - col + n - 1] += 1
    for i in range(free):
        col = free_columns[i]
        if free - i > GREEDY_TAIL:
            for _ in range(GREEDY_TRIES):
                k = i + numpy.random.randint(0, free - i)
                row = rows[free_columns[k]]
                if (
                    sums[row + col] == 0
                    and differences[row - col + n - 1] == 0
                    and not _blocked(blocked, row * n + col)
                ):
                    rows[free_columns[k]] = rows[col]
                    rows[col] = row
                    break
        sums[rows[col] + col] += 1
        differences[rows[col] - col + n - 1] += 1

    conflicts = 0
    for d in range(2 * n):
        conflicts += sums[d] * (sums[d] - 1) // 2 + differences[d] * (differences[d] - 1) // 2
    for col in range(n):
        if _blocked(blocked, rows[col] * n + col):
            conflicts += BLOCKED_PENALTY

    moves = 0
    swaps = 0
    while conflicts > 0 and moves < max_moves and free > 1:
        before = conflicts
        for i in range(free):
            col = free_columns[i]
            row = rows[col]
            if sums[row + col] + differences[row - col + n - 1] == 2 and not _blocked(
                blocked, row * n + col
            ):
                continue  # this queen attacks none
            for _ in range(REPAIR_TRIES):
                other = free_columns[numpy.random.randint(0, free)]
                if other == col:
                    continue
                moves += 1
                delta = _swap(n, rows, sums, differences, blocked, col, other)
                if delta < 0:
                    conflicts += delta
                    swaps += 1
                    break
                _swap(n, rows, sums, differences, blocked, col, other)  # undo
            if conflicts == 0 or moves >= max_moves:
                break
        if conflicts >= before and conflicts > 0:  # a local minimum: shake it
            col = free_columns[numpy.random.randint(0, free)]
            other = free_columns[numpy.random.randint(0, free)]
            if col != other:
                conflicts += _swap(n, rows, sums, differences, blocked, col, other)
                swaps += 1
    counters[0] += swaps
    counters[1] += moves
    return int(conflicts)


def _blocked(blocked: Any, code: int) -> bool:
    """Whether ``code`` is among the sorted blocked codes (binary search)."""
    low = 0
    high = len(blocked)
    while low < high:
        middle = (low + high) // 2
        if blocked[middle] < code:
            low = middle + 1
        else:
            high = middle
    return low < len(blocked) and blocked[low] == code


def _swap(n: int, rows: Any, sums: Any, differences: Any, blocked: Any, a: int, b: int) -> int:
    """Swap the rows of columns a and b; returns the change in conflicts."""
    row_a = rows[a]
    row_b = rows[b]
    delta = 0
    for row, col in ((row_a, a), (row_b, b)):
        sums[row + col] -= 1
        differences[row - col + n - 1] -= 1
        delta -= sums[row + col] + differences[row - col + n - 1]
        if _blocked(blocked, row * n + col):
            delta -= BLOCKED_PENALTY
    for row, col in ((row_b, a), (row_a, b)):
        delta += sums[row + col] + differences[row - col + n - 1]
        sums[row + col] += 1
        differences[row - col + n - 1] += 1
        if _blocked(blocked, row * n + col):
            delta += BLOCKED_PENALTY
    rows[a] = row_b
    rows[b] = row_a
    return int(delta)


@cache
def compiled() -> SearchFunction:
    """The numba-compiled search, or the plain one with a KernelFallbackWarning saying why."""

    def build() -> SearchFunction:
        return compile_search(
            search, lambda kernel: _run(kernel, 4, 0), helpers=("_blocked", "_swap")
        )

    return compiled_or_plain(build, search, "local search")


def _run(kernel: SearchFunction, n: int, seed: int) -> int:
    """A first call, which makes numba compile (or load) the kernel for these argument types."""
    rows = numpy.zeros(n, dtype=numpy.int64)
    fixed = numpy.zeros(n, dtype=numpy.bool_)
    blocked = numpy.zeros(0, dtype=numpy.int64)
    counters = numpy.zeros(2, dtype=numpy.int64)
    return kernel(n, rows, fixed, blocked, seed, 1000, counters)

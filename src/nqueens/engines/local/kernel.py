"""The local search's kernel: min-conflicts repair of a permutation, as Sosic and Gu do it.

One source, compiled with numba where it can be (as the bitboard kernel), plain Python
otherwise. ``rows[c]`` is the row of column c's queen; rows form a permutation, so rows and
columns never conflict and only diagonals can. Conflicts are attacking pairs on the diagonals,
counted per diagonal in two arrays, plus a penalty for each queen on a blocked square. Given
queens sit in fixed columns and never move. On a torus (``torus``) the diagonals are numbered
modulo n; for superqueens (``knight``) the pairs a knight's move apart are conflicts too, found
by looking at the columns one and two away. Each rule is True or None: numba compiles a kernel
for each combination and leaves out the code of a rule that is None.

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

from nqueens.engines.jit import compile_search, compiled_or_plain, rule

GREEDY_TRIES = 64  # random partners tried for each queen of the start
GREEDY_TAIL = 32  # the last free columns take what is left: few conflict-free rows remain
REPAIR_TRIES = 64  # random partners tried for a queen in conflict before the next one
BLOCKED_PENALTY = 1 << 20  # a queen on a blocked square weighs as much as this many pairs

# Where an attempt stands between two calls, in ``state``: the kernel does a bounded amount of
# work per call, so that the caller can look at the clock and at signals in between.
PHASE, POSITION, FREE, CONFLICTS, BEFORE, MOVES = range(6)
STATE_SIZE = 6
SETUP, SHUFFLE, LAY_OUT, START, REPAIR = range(5)  # the phases, in order
WORK_PER_N = 6
"""The kernel's scratch, ``work``: this many numbers per column of the board."""
LINEAR_STEPS = 16
"""A pass over memory does this many numbers for one step of the budget."""
UNFINISHED = -1
"""Returned when the call's budget of steps is spent before the attempt ended: call again."""

SearchFunction = Callable[..., int]


def search(
    n: int,
    rows: Any,
    fixed: Any,
    blocked: Any,
    seed: int,
    max_moves: int,
    counters: Any,
    work: Any,
    state: Any,
    budget: int,
    torus: bool | None,
    knight: bool | None,
) -> int:
    """Go on with one attempt for at most ``budget`` steps; returns the conflicts left when the
    attempt ended (0: a solution in ``rows``), or UNFINISHED.

    An attempt starts with ``state`` all zeros. ``fixed[c]`` marks given queens (their rows are
    set in ``rows``); ``blocked`` holds the blocked squares as sorted codes ``row * n + col``.
    ``work`` is scratch of WORK_PER_N n numbers kept between calls. ``counters`` receives the
    swaps made and the moves tried. At most ``max_moves`` partners are tried, then the attempt ends.
    """
    free_columns = work[:n]
    sums = work[n : 3 * n]  # queens on each rising diagonal: _rising(row, col)
    differences = work[3 * n : 5 * n]  # ... on each falling one: _falling(row, col)
    free_rows = work[5 * n :]
    if state[PHASE] == SETUP:
        numpy.random.seed(seed)
        state[FREE] = _free_lines(n, rows, fixed, free_columns, free_rows)
        state[POSITION] = max(state[FREE] - 1, 0)  # 0 free columns: every queen is given
        state[PHASE] = SHUFFLE
    free = state[FREE]
    steps = 0
    if state[PHASE] == SHUFFLE:  # Fisher-Yates, from the end
        i = state[POSITION]
        while i > 0 and steps < budget:
            j = numpy.random.randint(0, i + 1)
            free_rows[i], free_rows[j] = free_rows[j], free_rows[i]
            i -= 1
            steps += 1
        state[POSITION] = i
        if i == 0:
            state[PHASE] = LAY_OUT
        return UNFINISHED
    if state[PHASE] == LAY_OUT:  # a memory-bound pass over 2 n numbers, also cut in steps
        j = state[POSITION]
        end = min(2 * n, j + LINEAR_STEPS * budget)
        _lay_out(rows, free_columns, free_rows, free, sums, differences, j, end)
        state[POSITION] = end
        if end == 2 * n:
            _count_given(n, rows, fixed, sums, differences, torus)
            state[POSITION] = 0
            state[PHASE] = START
        return UNFINISHED
    if state[PHASE] == START:
        i = state[POSITION]
        while i < free and steps < budget:
            _place(n, rows, blocked, free_columns, free, sums, differences, i, torus)
            i += 1
            steps += 1
        state[POSITION] = i
        if i < free:
            return UNFINISHED
        conflicts = 0
        for d in range(2 * n):
            conflicts += sums[d] * (sums[d] - 1) // 2 + differences[d] * (differences[d] - 1) // 2
        knight_ends = 0
        for col in range(n):
            if _blocked(blocked, rows[col] * n + col):
                conflicts += BLOCKED_PENALTY
            if knight is not None:
                knight_ends += _knights(n, rows, rows[col], col, -1, torus)
        conflicts += knight_ends // 2  # each pair a knight's move apart, seen from both ends
        state[CONFLICTS] = conflicts
        state[BEFORE] = conflicts
        state[POSITION] = 0
        state[PHASE] = REPAIR
    conflicts = state[CONFLICTS]
    moves = state[MOVES]
    moves_before = moves
    i = state[POSITION]
    swaps = 0
    while conflicts > 0 and moves < max_moves and free > 1 and steps < budget:
        if i == free:  # a pass over every free column is over
            if conflicts >= state[BEFORE]:  # a local minimum: shake it
                col = free_columns[numpy.random.randint(0, free)]
                other = free_columns[numpy.random.randint(0, free)]
                if col != other:
                    conflicts += _swap(
                        n, rows, sums, differences, blocked, col, other, torus, knight
                    )
                    swaps += 1
            state[BEFORE] = conflicts
            i = 0
            continue
        col = free_columns[i]
        i += 1
        steps += 1
        row = rows[col]
        if (
            sums[_rising(row, col, n, torus)] + differences[_falling(row, col, n, torus)] == 2
            and not _blocked(blocked, row * n + col)
            and (knight is None or _knights(n, rows, row, col, -1, torus) == 0)
        ):
            continue  # this queen attacks none
        for _ in range(REPAIR_TRIES):
            other = free_columns[numpy.random.randint(0, free)]
            if other == col:
                continue
            moves += 1
            delta = _swap(n, rows, sums, differences, blocked, col, other, torus, knight)
            if delta < 0:
                conflicts += delta
                swaps += 1
                break
            _swap(n, rows, sums, differences, blocked, col, other, torus, knight)  # undo
    state[CONFLICTS] = conflicts
    state[MOVES] = moves
    state[POSITION] = i
    counters[0] += swaps
    counters[1] += moves - moves_before
    if conflicts > 0 and moves < max_moves and free > 1:
        return UNFINISHED
    return int(conflicts)


def _free_lines(n: int, rows: Any, fixed: Any, free_columns: Any, free_rows: Any) -> int:
    """List the columns and the rows that no given queen holds; returns how many are free."""
    used_rows = free_rows[:n]  # marks, overwritten by the free rows only where already read
    for row in range(n):
        used_rows[row] = 0
    free = 0
    for col in range(n):
        if fixed[col]:
            used_rows[rows[col]] = 1
        else:
            free_columns[free] = col
            free += 1
    k = 0
    for row in range(n):
        if used_rows[row] == 0:
            free_rows[k] = row
            k += 1
    return free


def _lay_out(
    rows: Any,
    free_columns: Any,
    free_rows: Any,
    free: int,
    sums: Any,
    differences: Any,
    begin: int,
    end: int,
) -> None:
    """Put the shuffled free rows on the free columns and clear the diagonals' counts, for the
    places from ``begin`` to ``end``."""
    for j in range(begin, end):
        if j < free:
            rows[free_columns[j]] = free_rows[j]
        sums[j] = 0
        differences[j] = 0


def _count_given(
    n: int, rows: Any, fixed: Any, sums: Any, differences: Any, torus: bool | None
) -> None:
    """Count the given queens on their diagonals."""
    for col in range(n):
        if fixed[col]:
            sums[_rising(rows[col], col, n, torus)] += 1
            differences[_falling(rows[col], col, n, torus)] += 1


def _rising(row: int, col: int, n: int, torus: bool | None) -> int:
    """The number of the diagonal through (row, col) that rises to the right."""
    if torus is not None:
        return (row + col) % n
    return row + col


def _falling(row: int, col: int, n: int, torus: bool | None) -> int:
    """The number of the diagonal through (row, col) that falls to the right."""
    if torus is not None:
        return (row - col + n) % n
    return row - col + n - 1


def _knights(n: int, rows: Any, row: int, col: int, skip: int, torus: bool | None) -> int:
    """How many knight's moves from (row, col) land on a queen, leaving column ``skip`` out."""
    found = 0
    for apart in (-2, -1, 1, 2):
        other = col + apart
        if torus is not None:
            other %= n
        elif other < 0 or other >= n:
            continue
        if other in (col, skip):
            continue
        rise = 3 - abs(apart)
        for target in (row - rise, row + rise):
            if torus is not None:
                target %= n
            if rows[other] == target:
                found += 1
    return found


def _place(
    n: int,
    rows: Any,
    blocked: Any,
    free_columns: Any,
    free: int,
    sums: Any,
    differences: Any,
    i: int,
    torus: bool | None,
) -> None:
    """The start's step for the i-th free column: a row is swapped in from a random later
    column until its queen attacks none placed so far (the last few take what is left)."""
    col = free_columns[i]
    if free - i > GREEDY_TAIL:
        for _ in range(GREEDY_TRIES):
            k = i + numpy.random.randint(0, free - i)
            row = rows[free_columns[k]]
            if (
                sums[_rising(row, col, n, torus)] == 0
                and differences[_falling(row, col, n, torus)] == 0
                and not _blocked(blocked, row * n + col)
            ):
                rows[free_columns[k]] = rows[col]
                rows[col] = row
                break
    sums[_rising(rows[col], col, n, torus)] += 1
    differences[_falling(rows[col], col, n, torus)] += 1


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


def _swap(
    n: int,
    rows: Any,
    sums: Any,
    differences: Any,
    blocked: Any,
    a: int,
    b: int,
    torus: bool | None,
    knight: bool | None,
) -> int:
    """Swap the rows of columns a and b; returns the change in conflicts."""
    row_a = rows[a]
    row_b = rows[b]
    delta = 0
    if knight is not None:  # the pairs a knight's move apart that a or b is in, a-b once
        delta -= _knights(n, rows, row_a, a, -1, torus) + _knights(n, rows, row_b, b, a, torus)
    for row, col in ((row_a, a), (row_b, b)):
        rising, falling = _rising(row, col, n, torus), _falling(row, col, n, torus)
        sums[rising] -= 1
        differences[falling] -= 1
        delta -= sums[rising] + differences[falling]
        if _blocked(blocked, row * n + col):
            delta -= BLOCKED_PENALTY
    for row, col in ((row_b, a), (row_a, b)):
        rising, falling = _rising(row, col, n, torus), _falling(row, col, n, torus)
        delta += sums[rising] + differences[falling]
        sums[rising] += 1
        differences[falling] += 1
        if _blocked(blocked, row * n + col):
            delta += BLOCKED_PENALTY
    rows[a] = row_b
    rows[b] = row_a
    if knight is not None:
        delta += _knights(n, rows, row_b, a, -1, torus) + _knights(n, rows, row_a, b, a, torus)
    return int(delta)


@cache
def compiled(torus: bool = False, knight: bool = False) -> SearchFunction:
    """The numba-compiled search for boards with these rules (compiled or loaded from the cache
    on first use), or the plain one with a KernelFallbackWarning saying why."""

    def build() -> SearchFunction:
        return compile_search(
            search,
            lambda kernel: _run(kernel, 4, 0, rule(torus), rule(knight)),
            helpers=(
                "_rising",
                "_falling",
                "_knights",
                "_blocked",
                "_swap",
                "_free_lines",
                "_lay_out",
                "_count_given",
                "_place",
            ),
        )

    return compiled_or_plain(build, search, "local search")


def _run(kernel: SearchFunction, n: int, seed: int, torus: bool | None, knight: bool | None) -> int:
    """A first call, which makes numba compile (or load) the kernel for these argument types."""
    rows = numpy.zeros(n, dtype=numpy.int64)
    fixed = numpy.zeros(n, dtype=numpy.bool_)
    blocked = numpy.zeros(0, dtype=numpy.int64)
    counters = numpy.zeros(2, dtype=numpy.int64)
    work = numpy.zeros(WORK_PER_N * n, dtype=numpy.int64)
    state = numpy.zeros(STATE_SIZE, dtype=numpy.int64)
    return kernel(n, rows, fixed, blocked, seed, 1000, counters, work, state, 1000, torus, knight)

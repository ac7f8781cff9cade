"""The reduced engine's kernel: a resumable bitmask search over the free part of a puzzle.

Free columns are indexed 0..m-1 and a column's candidate rows are bits of one word (bit j: the
j-th free row). ``attack[i, j, k]`` holds the rows of column k that a queen on row j of column i
attacks along a diagonal, so placing a queen narrows every other column with one AND. The column
with the fewest candidates left is searched next, and one left without any ends the branch at
once (forward checking).

The state (depth, the candidates still to try, the rows and columns chosen at each depth) lives in
arrays, so a search is resumed where it stopped: the caller looks at the clock and at Ctrl-C
between slices. One source, compiled with numba where it can be, plain Python otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy

from nqueens.engines.jit import compile_search, compiled_or_plain

DEPTH, DONE = 0, 1  # positions in the state array

SearchFunction = Callable[..., Any]


def search(
    m: int,
    attack: Any,
    available: Any,
    candidates: Any,
    chosen: Any,
    column_at: Any,
    assigned: Any,
    state: Any,
    out: Any,
    budget: int,
    counters: Any,
) -> int:
    """Go on with the search for at most ``budget`` placements; returns the solutions found.

    At each depth the column with the fewest candidate rows left is searched next. Each
    solution's rows (free-row indices per column) go to ``out`` until it is full (then the search
    pauses); with an empty ``out`` solutions are only counted. ``counters[0]`` adds up the
    placements made.
    """
    one = numpy.uint64(1)
    depth = state[DEPTH]
    found = 0
    placements = 0
    while placements < budget:
        if depth < 0:
            state[DONE] = 1
            break
        if depth == m:
            if len(out) > 0:
                for level in range(m):
                    out[found, column_at[level]] = chosen[level]
            found += 1
            depth -= 1
            if len(out) > 0 and found == len(out):
                break
            continue
        options = candidates[depth]
        if options == 0:
            depth -= 1
            continue
        row = 0
        while (options >> numpy.uint64(row)) & one == 0:
            row += 1
        candidates[depth] = options & (options - one)
        chosen[depth] = row
        placements += 1
        column = column_at[depth]
        done_columns = assigned[depth] | (one << numpy.uint64(column))
        taken = ~(one << numpy.uint64(row))
        best = -1
        fewest = 65
        for other in range(m):
            if (done_columns >> numpy.uint64(other)) & one:
                continue
            left = available[depth, other] & taken & ~attack[column, row, other]
            available[depth + 1, other] = left
            size = _popcount(left)
            if size < fewest:
                fewest = size
                best = other
                if size == 0:
                    break
        if fewest == 0:
            continue  # a column left without a row: this placement fails at once
        depth += 1
        if depth < m:
            assigned[depth] = done_columns
            column_at[depth] = best
            candidates[depth] = available[depth, best]
    state[DEPTH] = depth
    counters[0] += placements
    return found


def _popcount(word: Any) -> int:
    count = 0
    while word:
        word &= word - numpy.uint64(1)
        count += 1
    return count


def start(m: int, allowed: Any) -> tuple[Any, ...]:
    """The arrays of a search at its start: available, candidates, chosen, column_at, assigned
    and state; the first column searched is the one with the fewest candidate rows."""
    size = max(m, 1)
    available = numpy.zeros((m + 1, size), dtype=numpy.uint64)
    for column in range(m):
        available[0, column] = allowed[column]
    candidates = numpy.zeros(size, dtype=numpy.uint64)
    chosen = numpy.zeros(size, dtype=numpy.int64)
    column_at = numpy.zeros(size, dtype=numpy.int64)
    assigned = numpy.zeros(size + 1, dtype=numpy.uint64)
    if m > 0:
        first = min(range(m), key=lambda column: (int(allowed[column]).bit_count(), column))
        column_at[0] = first
        candidates[0] = allowed[first]
    state = numpy.zeros(2, dtype=numpy.int64)
    return available, candidates, chosen, column_at, assigned, state


@cache
def compiled() -> SearchFunction:
    """The numba-compiled search, or the plain one with a KernelFallbackWarning saying why."""

    def first_call(kernel: SearchFunction) -> None:
        attack = numpy.zeros((1, 1, 1), dtype=numpy.uint64)
        allowed = numpy.ones(1, dtype=numpy.uint64)
        out = numpy.zeros((0, 1), dtype=numpy.int64)
        counters = numpy.zeros(1, dtype=numpy.int64)
        kernel(1, attack, *start(1, allowed), out, 10, counters)

    def build() -> SearchFunction:
        return compile_search(search, first_call, helpers=("_popcount",))

    return compiled_or_plain(build, search, "reduced search")

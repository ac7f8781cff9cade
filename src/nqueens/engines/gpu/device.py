"""The gpu engine's kernel, compiled by numba's CUDA target (numba-cuda, the ``gpu`` extra).

The thread of a piece checks that the queens on its first two free lines fit, then finishes the
piece with bitmasks, iteratively, its stack in the thread's own memory, and adds what it found to
its constellation's total, in 64 bits.

Imported only when a count runs: importing it imports numba's CUDA target, which reads
NUMBA_ENABLE_CUDASIM then (1: run kernels on the CPU, as its simulator does). The kernel names
``cuda`` as a global, so that the simulator can stand in for it.
"""

from __future__ import annotations

from typing import Any

from numba import cuda as target
from numba import uint64

cuda: Any = target  # its device functions (grid, atomic, local) are made at run time

MAX_LINES = 32
"""The stack of a thread: one entry per line, for boards up to the C counter's 32."""


@cuda.jit  # type: ignore[untyped-decorator]
def count_pieces(n: int, blocked: Any, gaps: Any, lines: Any, totals: Any) -> None:
    """Thread t counts constellation t // n² with rows (t // n) % n and t % n on its first
    two free lines; ``blocked[c, i]`` are the rows the edge queens of constellation c take or
    attack on its free line i, ``gaps[c, i]`` the lines from there to the next one, and
    ``lines[c]`` how many free lines it has."""
    thread = cuda.grid(1)
    pieces = n * n
    constellation = thread // pieces
    if constellation >= lines.shape[0]:
        return
    one = uint64(1)
    full = (one << uint64(n)) - one
    free_lines = lines[constellation]
    first = one << uint64((thread // n) % n)
    if blocked[constellation, 0] & first:
        return
    if free_lines == 1:
        if thread % n == 0:
            cuda.atomic.add(totals, constellation, one)
        return
    shift = gaps[constellation, 0]
    cols = first
    ld = first << shift
    rd = first >> shift
    second = one << uint64(thread % n)
    if (cols | ld | rd | blocked[constellation, 1]) & second:
        return
    if free_lines == 2:
        cuda.atomic.add(totals, constellation, one)
        return
    shift = gaps[constellation, 1]
    avail = cuda.local.array(MAX_LINES, uint64)
    taken = cuda.local.array(MAX_LINES, uint64)
    left = cuda.local.array(MAX_LINES, uint64)
    right = cuda.local.array(MAX_LINES, uint64)
    taken[2] = cols | second
    left[2] = (ld | second) << shift
    right[2] = (rd | second) >> shift
    avail[2] = full & ~(taken[2] | left[2] | right[2] | blocked[constellation, 2])
    last = free_lines - 1
    found = uint64(0)
    depth = 2
    while depth >= 2:
        options = avail[depth]
        if options == 0:
            depth -= 1
            continue
        bit = options & (~options + one)
        avail[depth] = options ^ bit
        if depth == last:
            found += one
            continue
        shift = gaps[constellation, depth]
        next_taken = taken[depth] | bit
        next_left = (left[depth] | bit) << shift
        next_right = (right[depth] | bit) >> shift
        free = full & ~(next_taken | next_left | next_right | blocked[constellation, depth + 1])
        if free:
            depth += 1
            avail[depth] = free
            taken[depth] = next_taken
            left[depth] = next_left
            right[depth] = next_right
    if found:
        cuda.atomic.add(totals, constellation, found)

"""The gpu engine's kernel, compiled by numba's CUDA target (numba-cuda, the ``gpu`` extra).

A piece is a constellation with a row on each of its first few free lines. The threads of a
launch take pieces in turn from a shared counter until none is left, in one loop whose every
turn is a step of a search or the taking of a piece, so that a thread whose piece is done (most
fail on their first rows) takes the next one at once, rather than wait, in step with its warp,
for the warp's largest. A thread searches with bitmasks in 32-bit words, iteratively, with its
stack in its own memory, counts the rows of the last line by their bits rather than one by one,
and adds what it found to its constellation's total in 64 bits.

Imported only when a count runs: importing it imports numba's CUDA target, which reads
NUMBA_ENABLE_CUDASIM then (1: run kernels on the CPU, as its simulator does). The kernel names
``cuda`` as a global, so that the simulator can stand in for it.
"""

from __future__ import annotations

from typing import Any

from numba import cuda as target
from numba import uint32, uint64

cuda: Any = target  # its device functions (grid, atomic, local) are made at run time

MAX_LINES = 32
"""The stack of a thread: one entry per line, for boards up to the C counter's 32."""


@cuda.jit(cache=True)  # type: ignore[untyped-decorator]
def count_pieces(
    n: int, preset: int, blocked: Any, gaps: Any, lines: Any, totals: Any, taken_so_far: Any
) -> None:
    """Count every piece of the constellations of ``lines`` into ``totals``, a piece being a
    row on each of the first ``preset`` free lines (n ** preset pieces a constellation):
    ``blocked[c, i]`` are the rows the edge queens of constellation c take or attack on its free
    line i, ``gaps[c, i]`` the lines from there to the next one, and ``lines[c]`` how many free
    lines it has; ``taken_so_far[0]`` is the counter the threads take pieces from (zero)."""
    if lines.shape[0] == 0:
        return
    one = uint32(1)
    full = uint32(0xFFFFFFFF) >> uint32(32 - n)
    side = uint32(n)
    per_constellation = uint32(1)
    for _ in range(preset):  # in integers: numba's ** of two variables is a float power
        per_constellation = uint32(per_constellation * side)
    # unsigned, as the counter is (numba compares signed with unsigned as floats); under 2³²,
    # as kernel.count makes sure
    pieces = uint64(lines.shape[0]) * uint64(per_constellation)
    stack_avail = cuda.local.array(MAX_LINES, uint32)
    stack_taken = cuda.local.array(MAX_LINES, uint32)
    stack_left = cuda.local.array(MAX_LINES, uint32)
    stack_right = cuda.local.array(MAX_LINES, uint32)
    owner = -1
    found = uint64(0)
    searching = False
    # the piece being searched: its constellation's lines, and the words of its current line
    blocked_lines = blocked[0]
    line_gaps = gaps[0]
    last = depth = avail = taken = left = right = uint32(0)
    # One loop, each turn a step of the search or the taking of a piece: the threads of a warp
    # run in step, and in two nested loops those whose pieces were small would wait for the
    # warp's largest before taking another.
    while True:
        if not searching:
            piece = cuda.atomic.add(taken_so_far, 0, uint64(1))
            if piece >= pieces:
                break
            constellation = uint32(uint32(piece) // per_constellation)  # 32-bit divisions
            if constellation != owner:
                if found:
                    cuda.atomic.add(totals, owner, found)
                owner = constellation
                found = uint64(0)
            free_lines = lines[constellation]
            blocked_lines = blocked[constellation]
            line_gaps = gaps[constellation]
            rows_left = uint32(uint32(piece) % per_constellation)
            taken = left = right = uint32(0)
            fits = True
            for line in range(preset):
                row = uint32(rows_left % side)
                rows_left = uint32(rows_left // side)
                if line >= free_lines:
                    fits = fits and row == 0  # the same piece once, not n times
                    continue
                bit = uint32(one << uint32(row))
                if (taken | left | right | blocked_lines[line]) & bit:
                    fits = False
                    break
                shift = line_gaps[line]
                taken = uint32(taken | bit)
                left = uint32((left | bit) << shift)
                right = uint32((right | bit) >> shift)
            if not fits:
                continue
            if free_lines <= preset:
                found += uint64(1)
                continue
            avail = uint32(full & ~(taken | left | right | blocked_lines[preset]))
            last = uint32(free_lines - 1)
            if last == preset:
                found += uint64(cuda.popc(avail))
                continue
            # unsigned, so that numba indexes the stack without checking for negative indices
            depth = uint32(preset)
            searching = True
            continue
        if avail == 0:
            if depth == preset:
                searching = False
                continue
            depth = uint32(depth - one)
            avail = stack_avail[depth]
            taken = stack_taken[depth]
            left = stack_left[depth]
            right = stack_right[depth]
            continue
        bit = uint32(avail & (~avail + one))
        avail = uint32(avail ^ bit)
        shift = line_gaps[depth]
        next_taken = uint32(taken | bit)
        next_left = uint32((left | bit) << shift)
        next_right = uint32((right | bit) >> shift)
        below = uint32(depth + one)
        free = uint32(full & ~(next_taken | next_left | next_right | blocked_lines[below]))
        if below == last:
            found += uint64(cuda.popc(free))
            continue
        if free:
            stack_avail[depth] = avail
            stack_taken[depth] = taken
            stack_left[depth] = left
            stack_right[depth] = right
            depth = below
            avail = free
            taken = next_taken
            left = next_left
            right = next_right
    if found:
        cuda.atomic.add(totals, owner, found)

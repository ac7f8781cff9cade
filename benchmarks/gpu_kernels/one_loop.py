"""A candidate for the gpu engine's kernel, not used by it: the engine's kernel with one way
back to the top of its loop, weighed on a device by ``benchmarks/gpu_device.sh``.

The engine's kernel is written as one loop whose every turn is a step or the taking of a piece,
but its ``continue`` statements give the loop several ways back to its top, and the compiler
(LLVM's loop simplification) splits such a loop into nested ones: the disassembly for sm_90
shows an inner loop of steps down, which a lane leaves when its line has no row left, to wait
at the end of that loop, with its warp, until every other lane's descent has ended. Here every
branch of a turn falls through to the loop's one end, and the disassembly shows one loop:
a warp's turn runs the paths its lanes take (a step, a step back up, the taking of a piece),
and no lane waits longer than a turn.

The same pieces, arguments, totals and stack as :mod:`nqueens.engines.gpu.device`.
"""

from __future__ import annotations

from typing import Any

from numba import cuda as target
from numba import uint32, uint64

cuda: Any = target  # its device functions (grid, atomic, local) are made at run time

MAX_LINES = 32
"""A thread's stack: one entry per line, for boards up to the C counter's 32."""
THREADS_PER_BLOCK = 128
"""The threads of a block, whose stacks its shared memory holds side by side: 16 KB a block,
so that a multiprocessor's shared memory holds as many blocks as its registers allow."""


@cuda.jit(cache=True)  # type: ignore[untyped-decorator]
def count_pieces(
    n: int, preset: int, blocked: Any, gaps: Any, lines: Any, totals: Any, taken_so_far: Any
) -> None:
    """Count every piece of the constellations of ``lines`` into ``totals``, a piece being a
    row on each of the first ``preset`` free lines (n ** preset pieces a constellation):
    ``blocked[c, i]`` are the rows the edge queens of constellation c take or attack on its free
    line i, ``gaps[c, i]`` the lines from there to the next one, and ``lines[c]`` how many free
    lines it has; ``taken_so_far[0]`` is the counter the threads take pieces from (zero).

    A thread's stack holds one word a line, the rows still to try there with the one being
    tried: going back up a line, the search takes that row out of its rows and diagonals again,
    rather than load them. So the diagonals are 64-bit words with room on either side (the
    right-going ones shifted up by 32): the rows that count at a line are never shifted out on
    the way down, since the lines below are fewer than 32. The stacks are in shared memory,
    line by line across the block, so that the threads of a warp, each at its own line, read
    and write in as many banks.
    """
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
    stack = cuda.shared.array((MAX_LINES, THREADS_PER_BLOCK), uint32)
    thread = cuda.threadIdx.x
    owner = -1
    found = uint64(0)
    searching = False
    # the piece being searched: its constellation's lines, and the words of its current line
    blocked_lines = blocked[0]
    line_gaps = gaps[0]
    last = depth = avail = taken = uint32(0)
    left = right = uint64(0)
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
            taken = uint32(0)
            left = right = uint64(0)
            fits = True
            for line in range(preset):
                row = uint32(rows_left % side)
                rows_left = uint32(rows_left // side)
                if line >= free_lines:
                    fits = fits and row == 0  # the same piece once, not n times
                    continue
                bit = uint32(one << uint32(row))
                attacked = uint32(left) | uint32(right >> uint64(32))
                if (taken | attacked | blocked_lines[line]) & bit:
                    fits = False
                    break
                shift = uint64(line_gaps[line])
                taken = uint32(taken | bit)
                left = (left | uint64(bit)) << shift
                right = (right | (uint64(bit) << uint64(32))) >> shift
            if fits:
                if free_lines <= preset:
                    found += uint64(1)
                else:
                    attacked = uint32(left) | uint32(right >> uint64(32))
                    avail = uint32(full & ~(taken | attacked | blocked_lines[preset]))
                    last = uint32(free_lines - 1)
                    if last == preset:
                        found += uint64(cuda.popc(avail))
                    else:
                        depth = uint32(preset)
                        searching = True
        elif avail == 0:
            if depth == preset:
                searching = False
            else:
                depth = uint32(depth - one)
                tried = stack[depth, thread]  # the rows left here, with the one that was tried
                bit = uint32(tried & (~tried + one))
                avail = uint32(tried ^ bit)
                shift = uint64(line_gaps[depth])
                taken = uint32(taken ^ bit)
                left = (left >> shift) ^ uint64(bit)
                right = (right << shift) ^ (uint64(bit) << uint64(32))
        else:
            bit = uint32(avail & (~avail + one))
            shift = uint64(line_gaps[depth])
            next_left = (left | uint64(bit)) << shift
            next_right = (right | (uint64(bit) << uint64(32))) >> shift
            below = uint32(depth + one)
            attacked = uint32(next_left) | uint32(next_right >> uint64(32))
            free = uint32(full & ~(taken | bit | attacked | blocked_lines[below]))
            if below == last:
                found += uint64(cuda.popc(free))
                avail = uint32(avail ^ bit)
            elif free:
                stack[depth, thread] = avail
                depth = below
                avail = free
                taken = uint32(taken | bit)
                left = next_left
                right = next_right
            else:
                avail = uint32(avail ^ bit)
    if found:
        cuda.atomic.add(totals, owner, found)

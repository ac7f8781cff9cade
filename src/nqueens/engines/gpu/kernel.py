"""The gpu engine's kernel, compiled by numba's CUDA target (numba-cuda, the ``gpu`` extra).

A piece is a constellation with a row on each of its first few free lines. The threads of a
launch take pieces in turn from a shared counter until none is left. A thread searches with
bitmasks, iteratively, and keeps every line's whole state on a stack in the block's shared
memory (rows left, rows taken, both diagonals: four 32-bit words), as ygch/n_queens does, so
that every turn of its one loop is the same work for every thread of a warp: take the top
line's lowest row, write back what is left, drop the line when nothing is, and push the line
below unless it is the last, whose rows are counted by their bits, or has no row; going back up
costs nothing. Only the taking of a piece branches. It adds what it found to its
constellation's total in 64 bits.

Imported only when a count runs: importing it imports numba's CUDA target, which reads
NUMBA_ENABLE_CUDASIM then (1: run kernels on the CPU, as its simulator does). The kernel names
``cuda`` as a global, so that the simulator can stand in for it.
"""

from __future__ import annotations

from typing import Any

from numba import cuda as target
from numba import uint32, uint64

cuda: Any = target  # its device functions (grid, atomic, local) are made at run time

STACK_LINES = 24
"""The lines a thread's stack holds, below its piece's preset ones and above the last, which is
counted by its bits: a launch's pieces must leave no more (launch.count makes sure), which
boards up to N = 28 never do."""
THREADS_PER_BLOCK = 64
"""Four words a line and 24 lines for each of 64 threads: 24 KB of shared memory a block, in
one array whose words of a line lie a fixed distance apart, so that one address reaches all
four, and the threads of a warp, each at its own line, read in as many banks. Shared memory,
not registers, bounds the threads a multiprocessor holds (eight such blocks on Hopper); a
stack of 16 lines, which holds more, counted N = 20 a third slower on an H200."""


def _kernel(counts_placements: bool) -> Any:
    """The kernel, with or without a count of its placements: a constant of the closure, so
    that the kernel without it is compiled as if the count were not written at all."""

    def count_pieces(
        n: int, piece_rows: Any, blocked: Any, gaps: Any, lines: Any, totals: Any, counters: Any
    ) -> None:
        """Count every piece of the constellations of ``lines`` into ``totals``, a piece being a
        constellation with the rows ``piece_rows[k]`` (bytes, ``edges.piece_rows``) on its first
        free lines, constellation c's pieces numbered c * len(piece_rows) + k:
        ``blocked[c, i]`` are the rows the edge queens of constellation c take or attack on its
        free line i, ``gaps[c, i]`` the lines from there to the next one, and ``lines[c]`` how
        many free lines it has; ``counters[0]`` is the counter the threads take pieces from
        (zero), and ``counters[1]`` the placements, where they are counted.

        The piece counter and the totals are 64-bit; a launch's pieces are fewer than 2³², as
        launch.count makes sure, so that a piece is numbered in 32 bits.
        """
        if lines.shape[0] == 0:
            return
        one = uint32(1)
        full = uint32(0xFFFFFFFF) >> uint32(32 - n)
        side = uint32(n)
        per_constellation = uint32(piece_rows.shape[0])
        preset = piece_rows.shape[1]
        # unsigned, as the counter is (numba compares signed with unsigned as floats)
        pieces = uint64(lines.shape[0]) * uint64(per_constellation)
        stack = cuda.shared.array((STACK_LINES, 4, THREADS_PER_BLOCK), uint32)
        thread = cuda.threadIdx.x
        owner = -1
        found = uint64(0)
        placed = uint64(0)  # only where the placements are counted
        top = uint32(0)  # the lines on the stack: a line done is dropped, or its last child
        # takes its place, so a line's depth is read off its rows taken, not its place
        blocked_lines = blocked[0]
        line_gaps = gaps[0]
        last = uint32(0)
        while True:
            if top == 0:
                piece = cuda.atomic.add(counters, 0, uint64(1))
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
                rows = uint32(uint32(piece) % per_constellation)  # its rows' place in piece_rows
                zeros_below = uint32(side)  # rows numbered below it are 0s after the line
                taken = left = right = uint32(0)
                fits = True
                for line in range(preset):
                    row = uint32(piece_rows[rows, line])
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
                    if counts_placements:
                        if rows < zeros_below and line + 1 < free_lines:
                            placed += uint64(1)  # the rows so far, once: where 0s follow them
                        zeros_below = uint32(zeros_below * side)
                if fits and free_lines <= preset:
                    found += uint64(1)
                elif fits:
                    avail = uint32(full & ~(taken | left | right | blocked_lines[preset]))
                    last = uint32(free_lines - 1)
                    if last == preset:
                        found += uint64(cuda.popc(avail))
                    elif avail:
                        stack[0, 0, thread] = avail
                        stack[0, 1, thread] = taken
                        stack[0, 2, thread] = left
                        stack[0, 3, thread] = right
                        top = one
            else:
                at = uint32(top - one)
                avail = stack[at, 0, thread]
                taken = stack[at, 1, thread]
                bit = uint32(avail & (~avail + one))
                avail = uint32(avail ^ bit)
                stack[at, 0, thread] = avail
                line = uint32(cuda.popc(taken))  # a line's rows taken are one a line above it
                below = uint32(line + one)
                shift = line_gaps[line]
                taken = uint32(taken | bit)
                left = uint32((stack[at, 2, thread] | bit) << shift)
                right = uint32((stack[at, 3, thread] | bit) >> shift)
                free = uint32(full & ~(taken | left | right | blocked_lines[below]))
                below_is_last = below == last
                found += uint64(cuda.popc(free) if below_is_last else 0)
                if counts_placements:
                    placed += uint64(1)
                top = uint32(top - uint32(avail == 0))  # the line is done: drop it
                if free != 0 and not below_is_last:
                    stack[top, 0, thread] = free
                    stack[top, 1, thread] = taken
                    stack[top, 2, thread] = left
                    stack[top, 3, thread] = right
                    top = uint32(top + one)
        if found:
            cuda.atomic.add(totals, owner, found)
        if counts_placements and placed:
            cuda.atomic.add(counters, 1, placed)

    return _compiled(count_pieces)


def _compiled(kernel: Any) -> Any:
    """``kernel`` for numba-cuda to compile, kept in numba's cache; or compiled again by each
    process where numba finds no folder it may keep it in (a read-only install, and a home
    that cannot be written), which numba says by a RuntimeError."""
    try:
        return cuda.jit(cache=True)(kernel)
    except RuntimeError:
        return cuda.jit(kernel)


count_pieces = _kernel(counts_placements=False)
"""The engine's kernel: ``count_pieces[blocks, threads](n, piece_rows, blocked, gaps, lines,
totals, counters)``."""
count_placements = _kernel(counts_placements=True)
"""The same kernel, counting its placements too: each queen a thread places on a free line
before the last (whose rows are counted by their bits), a row of a piece's preset lines once
however many pieces share the rows before it; for benchmarks/gpu.py's placements a second."""

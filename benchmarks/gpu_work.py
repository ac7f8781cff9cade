"""The work a gpu count gives the device, counted on the CPU: pieces taken, and placements.

For each N: the pieces (n³ a constellation of the C counter, a row on each of the first three
free lines), the share of them whose rows fit, and the placements of the search the device's
threads make (a queen placed on a free line before the last, whose rows are counted by their
bits; a row of a piece's preset lines once, however many pieces share the rows before it), as
the engine's kernel searches them and ``kernel.count_placements`` counts them. The solutions
found, weighted by the symmetries as the engine weighs them, are checked against the published
counts. No device is needed: the figures say whether a count's turns go to taking pieces (most
of which fail on their rows) or to the search, and check the placements that benchmarks/gpu.py
counts on a device.

--tails models how a launch ends: its threads take pieces in order until none is left, so the
last ones still searching hold the launch up while the others have nothing to do. Each piece
costs a thread a turn of its loop to take, and a turn a placement after its preset rows; the
pieces are dealt, in the kernel's order, to whichever thread of the launch is free first. A
block of threads keeps its place on a multiprocessor until its last thread ends, and the next
launch's blocks start only where one has ended. The model leaves out what a device does
otherwise (a warp's lanes share their turns; threads left alone run faster), so its figures
say which launches leave long tails, not seconds.

    python benchmarks/gpu_work.py --sizes 16-18      # 96 s on one core; N = 19, 12 minutes more
    python benchmarks/gpu_work.py --sizes 16-18 --tails  # and the launches' tails, modelled
"""

from __future__ import annotations

import argparse
import time

import numpy
from gpu import COUNTS, VARIANTS
from numba import njit
from ortools_program import parse_sizes

from nqueens.engines.gpu import LAUNCHES_AHEAD, PIECES_PER_LAUNCH
from nqueens.engines.gpu.kernel import THREADS_PER_BLOCK

PRESET = 3
LAUNCH_SIZES = sorted(
    {PIECES_PER_LAUNCH, *(other["pieces"] for other in VARIANTS.values() if "pieces" in other)}
)
"""The pieces a launch that --tails weighs: the engine's and gpu.py --variants' others."""
BLOCKS = 132 * 8
"""The blocks an H100 runs at once: 132 multiprocessors, eight blocks each (their shared memory
allows no more)."""


@njit(cache=True)
def _work(
    n: int, blocked: numpy.ndarray, gaps: numpy.ndarray, lines: int, turns: numpy.ndarray
) -> tuple[int, ...]:
    """Pieces that fit, placements and solutions of one constellation's n³ pieces; each
    piece's turns of a thread's loop go to ``turns`` (one to take it, one a step after it)."""
    full = (1 << n) - 1
    fitting = placements = solutions = 0
    rows_left = numpy.zeros(n, numpy.int64)
    rows_taken = numpy.zeros(n, numpy.int64)
    lefts = numpy.zeros(n, numpy.int64)
    rights = numpy.zeros(n, numpy.int64)
    for piece in range(n**PRESET):
        rows, taken, left, right, fits = piece, 0, 0, 0, True
        for line in range(PRESET):
            row = rows % n
            rows //= n
            if line >= lines:
                fits = fits and row == 0  # the same piece once, not n times
                continue
            bit = 1 << row
            if (taken | left | right | blocked[line]) & bit:
                fits = False
                break
            taken |= bit
            left = ((left | bit) << gaps[line]) & full
            right = (right | bit) >> gaps[line]
            if rows == 0 and line + 1 < lines:
                placements += 1  # the rows so far, once: in the piece of 0s after
        turns[piece] = 1
        if not fits:
            continue
        fitting += 1
        if lines <= PRESET:
            solutions += 1
            continue
        free = full & ~(taken | left | right | blocked[PRESET])
        if lines - 1 == PRESET:
            solutions += _bits(free)
            continue
        top = 0
        if free:
            rows_left[0], rows_taken[0], lefts[0], rights[0] = free, taken, left, right
            top = 1
        while top:
            at = top - 1
            bit = rows_left[at] & -rows_left[at]
            rows_left[at] ^= bit
            line = _bits(rows_taken[at])  # a line's rows taken are one a line above it
            taken = rows_taken[at] | bit
            left = ((lefts[at] | bit) << gaps[line]) & full
            right = (rights[at] | bit) >> gaps[line]
            free = full & ~(taken | left | right | blocked[line + 1])
            placements += 1
            turns[piece] += 1
            if rows_left[at] == 0:
                top -= 1
            if line + 1 == lines - 1:
                solutions += _bits(free)
            elif free:
                rows_left[top], rows_taken[top], lefts[top], rights[top] = free, taken, left, right
                top += 1
    return fitting, placements, solutions


@njit(cache=True)
def _bits(word: int) -> int:
    """The bits set in ``word``."""
    count = 0
    while word:
        word &= word - 1
        count += 1
    return count


@njit(cache=True)
def _push(heap_at: numpy.ndarray, heap_of: numpy.ndarray, size: int, at: int, thread: int) -> int:
    """Put ``thread``, free at turn ``at``, on the heap of free threads; its new size."""
    child = size
    heap_at[child], heap_of[child] = at, thread
    while child > 0:
        parent = (child - 1) // 2
        if heap_at[parent] <= heap_at[child]:
            break
        heap_at[parent], heap_at[child] = heap_at[child], heap_at[parent]
        heap_of[parent], heap_of[child] = heap_of[child], heap_of[parent]
        child = parent
    return size + 1


@njit(cache=True)
def _pop(heap_at: numpy.ndarray, heap_of: numpy.ndarray, size: int) -> tuple[int, int, int]:
    """The thread free first, when, and the heap's new size."""
    at, thread = heap_at[0], heap_of[0]
    size -= 1
    heap_at[0], heap_of[0] = heap_at[size], heap_of[size]
    parent = 0
    while True:
        child = 2 * parent + 1
        if child >= size:
            break
        if child + 1 < size and heap_at[child + 1] < heap_at[child]:
            child += 1
        if heap_at[parent] <= heap_at[child]:
            break
        heap_at[parent], heap_at[child] = heap_at[child], heap_at[parent]
        heap_of[parent], heap_of[child] = heap_of[child], heap_of[parent]
        parent = child
    return at, thread, size


@njit(cache=True)
def _schedule(
    turns: numpy.ndarray, starts: numpy.ndarray, ends: numpy.ndarray, slots: int, ahead: int
) -> int:
    """The turns until a count's last launch ends: launch k holds pieces ``starts[k]`` to
    ``ends[k] - 1`` and enough blocks of THREADS_PER_BLOCK threads to fill ``slots``; a block
    starts where one has ended, the launch begun first before the others; its threads take the
    next piece of their launch until none is left; and launch k is begun when launch
    k - ahead - 1 has ended (the host waits for launches in order)."""
    launches, per_block = len(starts), THREADS_PER_BLOCK
    heap_at = numpy.zeros(slots * per_block, numpy.int64)
    heap_of = numpy.zeros(slots * per_block, numpy.int64)
    size = 0
    taken = starts.copy()
    waiting = numpy.zeros(launches, numpy.int64)  # blocks begun, not yet started
    running = numpy.zeros(launches, numpy.int64)
    begun = numpy.zeros(launches, numpy.bool_)
    block_of = numpy.zeros(slots, numpy.int64)  # each slot's launch
    busy = numpy.zeros(slots, numpy.int64)  # each slot's threads still searching
    free = list(range(slots))
    for launch in range(min(launches, ahead + 1)):
        begun[launch] = True
        waiting[launch] = min(slots, -(-(ends[launch] - starts[launch]) // per_block))
    oldest = now = last = 0  # the first launch not begun, or with blocks waiting
    while True:
        while len(free) > 0:  # free slots take the blocks of the launch begun first
            while oldest < launches and begun[oldest] and waiting[oldest] == 0:
                oldest += 1
            if oldest == launches or not begun[oldest]:
                break
            slot = free.pop()
            waiting[oldest] -= 1
            running[oldest] += 1
            block_of[slot], busy[slot] = oldest, per_block
            for lane in range(per_block):
                size = _push(heap_at, heap_of, size, now, slot * per_block + lane)
        if size == 0:
            return last
        now, thread, size = _pop(heap_at, heap_of, size)
        slot = thread // per_block
        launch = block_of[slot]
        if taken[launch] < ends[launch]:
            size = _push(heap_at, heap_of, size, now + turns[taken[launch]], thread)
            taken[launch] += 1
            continue
        busy[slot] -= 1
        if busy[slot] > 0:
            continue
        free.append(slot)  # the block has ended
        running[launch] -= 1
        if running[launch] == 0 and waiting[launch] == 0:
            last = now  # the launch has ended: the host begins the one `ahead` after the next
            later = launch + ahead + 1
            if later < launches:
                begun[later] = True
                waiting[later] = min(slots, -(-(ends[later] - starts[later]) // per_block))


def tails(n: int, turns: list[numpy.ndarray], slots: int) -> list[str]:
    """For each launch size, the turns a count of N takes as scheduled, against its turns
    spread evenly over the threads of ``slots`` blocks: its launches one after another (each
    ends with its tail), and as the engine begins them (LAUNCHES_AHEAD of them beyond the one
    it waits for, whose blocks start as the launch before leaves the multiprocessors)."""
    rows = []
    everything = numpy.concatenate(turns).astype(numpy.int64)
    bounds = numpy.cumsum([0, *(len(piece_turns) for piece_turns in turns)])
    even = everything.sum() / (slots * THREADS_PER_BLOCK)
    for size in LAUNCH_SIZES:
        each = max(1, size // n**PRESET)  # constellations a launch, as the engine cuts them
        starts = bounds[0 : len(turns) : each]
        ends = numpy.append(starts[1:], bounds[-1])
        alone, beside = (
            _schedule(everything, starts, ends, slots, ahead) / even
            for ahead in (0, LAUNCHES_AHEAD)
        )
        rows.append(
            f"| {n} | 2^{size.bit_length() - 1} | {len(starts)} | {even:,.0f} | "
            f"{alone:.2f} | {beside:.2f} |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=parse_sizes, default=parse_sizes("16-18"))
    parser.add_argument(
        "--tails", action="store_true", help="and the model of the launches' schedules"
    )
    parser.add_argument("--blocks", type=int, default=BLOCKS, help="for --tails")
    options = parser.parse_args()
    from nqueens.engines.bitboard import _edges as module

    print(
        "| N | pieces | fit | placements | placements a fitting piece | pieces taken a placement "
        "| seconds |"
    )
    print("|---|---|---|---|---|---|---|")
    scheduled = []
    for n in options.sizes:
        started = time.perf_counter()
        constellations = module.constellations(n)
        fitting = placements = total = 0
        turns: list[numpy.ndarray] = []  # each constellation's pieces', kept for --tails
        piece_turns = numpy.zeros(n**PRESET, numpy.int32)
        for at, constellation in enumerate(constellations):
            masks, distances, _ = module.masks(n, at)
            blocked = numpy.zeros(n + 1, numpy.int64)
            blocked[: len(masks)] = masks
            gaps = numpy.zeros(n + 1, numpy.int64)
            gaps[: len(distances)] = distances
            if options.tails:
                piece_turns = numpy.zeros(n**PRESET, numpy.int32)
                turns.append(piece_turns)
            found = _work(n, blocked, gaps, len(masks), piece_turns)
            fitting, placements = fitting + found[0], placements + found[1]
            total += 8 // constellation[4] * found[2]  # Burnside, as the engine weighs them
        if total != int(COUNTS["total"][str(n)]):
            raise SystemExit(f"N = {n}: {total} solutions, published {COUNTS['total'][str(n)]}")
        pieces = len(constellations) * n**PRESET
        print(
            f"| {n} | {pieces:,} | {fitting / pieces:.1%} | {placements:,} | "
            f"{placements / fitting:,.0f} | {pieces / placements:.4f} | "
            f"{time.perf_counter() - started:.0f} |"
        )
        if options.tails:
            scheduled += tails(n, turns, options.blocks)
    print("\nEvery count of solutions checked against the published ones.")
    if scheduled:
        print(
            f"\nThe model of a count's schedule on {options.blocks:,} blocks of "
            f"{THREADS_PER_BLOCK} threads, each piece taking a turn and a turn a placement "
            "after it, in the order the kernel takes them: its turns until its last launch "
            "ends, over its turns spread evenly.\n"
        )
        print(
            "| N | pieces a launch | launches | turns a thread, spread evenly "
            "| launches one after another | as the engine begins them |"
        )
        print("|---|---|---|---|---|---|")
        print("\n".join(scheduled))


if __name__ == "__main__":
    main()

"""The work a gpu count gives the device, counted on the CPU: pieces taken, and placements.

For each N: the pieces (n³ a constellation of the C counter, a row on each of the first three
free lines), the share of them whose rows fit, and the placements of the search the device's
threads make (a queen placed on a free line before the last, whose rows are counted by their
bits; a row of a piece's preset lines once, however many pieces share the rows before it), as
the engine's kernel searches them and ``device.count_placements`` counts them. The solutions
found, weighted by the symmetries as the engine weighs them, are checked against the published
counts. No device is needed: the figures say whether a count's turns go to taking pieces (most
of which fail on their rows) or to the search, and check the placements that benchmarks/gpu.py
counts on a device.

--tails models how a launch ends: its threads take pieces in order until none is left, so the
last ones still searching hold the launch up while the others have nothing to do. Each piece
costs a thread a turn of its loop to take, and a turn a placement after its preset rows; the
pieces are dealt, in the kernel's order, to whichever thread is free first. The model leaves
out what a device does otherwise (a warp's lanes share their turns; threads left alone run
faster), so its figures say which launches leave long tails, not seconds.

    python benchmarks/gpu_work.py --sizes 16-18      # 96 s on one core; N = 19, 12 minutes more
    python benchmarks/gpu_work.py --sizes 16-18 --tails  # and the launches' tails, modelled
"""

from __future__ import annotations

import argparse
import time

import numpy
from compare_seed import parse_sizes
from gpu import COUNTS, VARIANTS
from numba import njit

from nqueens.engines.gpu import PIECES_PER_LAUNCH

PRESET = 3
LAUNCH_SIZES = sorted(
    {PIECES_PER_LAUNCH, *(other["pieces"] for other in VARIANTS.values() if "pieces" in other)}
)
"""The pieces a launch that --tails weighs: the engine's and gpu.py --variants' others."""
THREADS = 132 * 8 * 64
"""The threads an H100 runs at once: 132 multiprocessors, eight blocks of 64 threads each (the
blocks' shared memory allows no more)."""


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
def _schedule(turns: numpy.ndarray, threads: int) -> int:
    """The turns until the last of ``threads`` ends, each taking the next piece in order when
    it has finished its own (as the kernel's threads take them from their shared counter)."""
    ends = numpy.zeros(threads, numpy.int64)  # a heap of when each thread is free
    for cost in turns:
        free_at = ends[0] + cost
        at = 0
        while True:  # the root replaced, and sifted down
            child = 2 * at + 1
            if child >= threads:
                break
            if child + 1 < threads and ends[child + 1] < ends[child]:
                child += 1
            if ends[child] >= free_at:
                break
            ends[at] = ends[child]
            at = child
        ends[at] = free_at
    return int(ends.max())


def tails(n: int, turns: list[numpy.ndarray], threads: int) -> list[str]:
    """For each launch size, the turns a count of N takes as scheduled, against its turns
    spread evenly over ``threads``: its launches one after another (each ends with its tail),
    and each begun beside the one before (the tail of all but the last filled by the next)."""
    rows = []
    everything = numpy.concatenate(turns)
    even = everything.sum() / threads
    beside = _schedule(everything, threads) / even
    for size in LAUNCH_SIZES:
        each = max(1, size // n**PRESET)  # constellations a launch, as the engine cuts them
        spans = range(0, len(turns), each)
        alone = sum(_schedule(numpy.concatenate(turns[at : at + each]), threads) for at in spans)
        rows.append(
            f"| {n} | 2^{size.bit_length() - 1} | {len(spans)} | {even:,.0f} | "
            f"{alone / even:.2f} | {beside:.2f} |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=parse_sizes, default=parse_sizes("16-18"))
    parser.add_argument(
        "--tails", action="store_true", help="and the model of the launches' schedules"
    )
    parser.add_argument("--threads", type=int, default=THREADS, help="for --tails")
    options = parser.parse_args()
    from nqueens.engines.bitboard import edges

    module = edges.c_module()
    if module is None:
        raise SystemExit("the package's C module is not built: pip install -e .")
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
            scheduled += tails(n, turns, options.threads)
    print("\nEvery count of solutions checked against the published ones.")
    if scheduled:
        print(
            f"\nThe model of a count's schedule on {options.threads:,} threads, each piece taking "
            "a turn and a turn a placement after it, in the order the kernel takes them: its "
            "turns until the last thread ends, over its turns spread evenly.\n"
        )
        print(
            "| N | pieces a launch | launches | turns a thread, spread evenly "
            "| launches one after another | each begun beside the one before |"
        )
        print("|---|---|---|---|---|---|")
        print("\n".join(scheduled))


if __name__ == "__main__":
    main()

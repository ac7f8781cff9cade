"""The gpu engine: plain boards counted on a CUDA device, with numba-cuda.

It counts as the C counter of plain boards does (:mod:`nqueens.engines.bitboard._edges`): the
four edge queens of every solution first, one search per class of those under the square's
symmetries, weighted by the number of its images, so that ``--unique`` is exact too. Here each
constellation is cut by the rows of its first two free lines, and one device thread finishes
each piece (:mod:`nqueens.engines.gpu.kernel`). The rare constellations that a half turn keeps,
whose classes need the solutions' turns compared, are counted on the CPU by the C counter.

A subproblem is a span of constellations, one launch of the kernel: a time limit and Ctrl-C
are heard between launches, and a checkpoint records the spans counted.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, replace
from functools import cache

from nqueens.engines.base import (
    COUNT,
    Engine,
    Request,
    Subcount,
    Subproblem,
    SubproblemInterrupted,
)
from nqueens.engines.bitboard import edges
from nqueens.engines.gpu import kernel

NAME = "gpu"
STAT_NAMES = ("launches", "device microseconds")
"""What the engine's two counters count, as statistics and JSON name them."""

AUTO_FROM_N = 18
"""``count --engine auto`` takes the device from this size: smaller boards are counted on the CPU
before a kernel would have compiled."""

THREADS_PER_LAUNCH = 1 << 18
"""Pieces per launch: enough to fill a large device, few enough that a launch is short."""

CPU_SLICE = 1 << 20
"""Placements per call of the C counter, for what the device leaves to the CPU."""


class SimulatorWarning(UserWarning):
    """The count runs on numba-cuda's simulator: the GPU kernel, on the CPU, slowly."""


class GpuFallbackWarning(UserWarning):
    """The device failed a launch; its constellations were counted on the CPU instead."""


@dataclass(frozen=True)
class GpuSubproblem(Subproblem):
    """The canonical constellations ``span[0]`` to ``span[1] - 1`` of a plain n x n board."""

    n: int = 0
    span: tuple[int, int] = (0, 0)


class GpuEngine(Engine):
    """Constellations of edge queens, finished by one device thread per piece."""

    name = NAME
    summary = "counts plain boards on an NVIDIA GPU (pip install 'nqueens[gpu]')"
    commands = frozenset({COUNT})
    unique = True
    puzzles = False
    max_n = 32
    max_n_reason = "counts by the C counter's constellations, made for boards up to 32"
    stat_names = STAT_NAMES
    splits = True
    count_rank = 0

    def gains(self, request: Request) -> bool:
        return request.n >= AUTO_FROM_N

    def wants_workers(self, request: Request) -> bool:
        return False  # one process drives the device

    def refusal(self, request: Request) -> str | None:
        if not request.symmetry:
            return "the gpu engine counts with the board's symmetry only"
        if request.n < edges.FROM_N:
            return f"the gpu engine counts boards from N = {edges.FROM_N}"
        missing = kernel.missing()
        if missing is not None:
            return f"the gpu engine {missing}"
        if edges.c_module() is None:
            return "the gpu engine needs the package's C module, which this installation lacks"
        return None

    def backend_for(self, request: Request) -> str | None:
        return kernel.device_name()

    def prepare(self, request: Request) -> None:
        if kernel.simulated():
            warnings.warn(
                "counting on numba-cuda's simulator (NUMBA_ENABLE_CUDASIM=1): the GPU kernel, "
                "run on the CPU, slowly",
                SimulatorWarning,
                stacklevel=2,
            )
        kernel.compiled()

    def subproblems(self, request: Request, deadline: float | None) -> list[GpuSubproblem]:
        n = request.n
        total = len(_constellations(n))
        # the simulator takes milliseconds a thread: one constellation a launch, so that a time
        # limit and Ctrl-C are heard there too
        size = 1 if kernel.simulated() else max(1, THREADS_PER_LAUNCH // (n * n))
        base = GpuSubproblem(NAME, deadline, n)
        return [replace(base, span=(at, min(at + size, total))) for at in range(0, total, size)]

    def count_subproblem(self, task: Subproblem) -> Subcount:
        assert isinstance(task, GpuSubproblem)
        if task.deadline is not None and time.time() >= task.deadline:
            return Subcount(0, 0, 0, 0, complete=False)
        try:
            return _count_span(task.n, *task.span, task.deadline)
        except KeyboardInterrupt:
            raise SubproblemInterrupted(Subcount(0, 0, 0, 0, complete=False)) from None


@cache
def _constellations(n: int) -> list[tuple[int, int, int, int, int]]:
    module = edges.c_module()
    assert module is not None
    listed: list[tuple[int, int, int, int, int]] = module.constellations(n)
    return listed


def _count_span(n: int, start: int, end: int, deadline: float | None) -> Subcount:
    """Count constellations start to end - 1: on the device, but those a half turn keeps."""
    import numpy

    module = edges.c_module()
    assert module is not None
    solutions = classes = 0
    on_device: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    for at in range(start, end):
        masks, steps, kept_by_half_turn = module.masks(n, at)
        if not kept_by_half_turn:
            on_device.append((at, masks, steps))
            continue
        found = _count_on_cpu(n, at, at + 1, deadline)
        solutions += found.solutions
        classes += found.unique or 0
        if not found.complete:
            return replace(found, solutions=solutions, unique=classes)
    if not on_device:
        return Subcount(solutions, classes, 0, 0, complete=True)
    blocked = numpy.zeros((len(on_device), n), dtype=numpy.uint64)
    gaps = numpy.zeros((len(on_device), n), dtype=numpy.uint64)
    lines = numpy.zeros(len(on_device), dtype=numpy.int32)
    for row, (_, masks, steps) in enumerate(on_device):
        blocked[row, : len(masks)] = masks
        gaps[row, : len(steps)] = steps
        lines[row] = len(masks)
    try:
        counts, seconds = kernel.count(n, blocked, gaps, lines)
    except Exception as error:  # out of memory, a launch failure: this span goes to the CPU
        warnings.warn(
            f"the GPU failed ({type(error).__name__}: {error}); constellations {start} to "
            f"{end - 1} are counted on the CPU",
            GpuFallbackWarning,
            stacklevel=2,
        )
        return _count_on_cpu(n, start, end, deadline)
    every = _constellations(n)
    for (at, _, _), count in zip(on_device, counts.tolist(), strict=True):
        keeping = every[at][4]
        solutions += 8 // keeping * count
        classes += count // keeping
    return Subcount(solutions, classes, 1, round(seconds * 1e6), complete=True)


def _count_on_cpu(n: int, start: int, end: int, deadline: float | None) -> Subcount:
    """Count constellations start to end - 1 with the C counter, hearing the deadline; its
    counters are the CPU's, not the engine's launches and device time."""
    found = edges.count_span(n, (start, end), deadline, CPU_SLICE)
    return replace(found, first=0, second=0)


ENGINE = GpuEngine()

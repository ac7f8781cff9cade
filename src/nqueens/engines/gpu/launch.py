"""The gpu engine's device, found and driven from the host.

A piece is a constellation (its edge queens' rows and diagonals on each line searched, as the C
counter works them out) with a row on each of its first few free lines; the kernel whose threads
take the pieces of a launch in turn and finish them is ``nqueens.engines.gpu.kernel``.
numba-cuda is imported when a count first runs (the ``gpu`` extra); with NUMBA_ENABLE_CUDASIM=1
the same kernel runs on the CPU, as its simulator does, slowly.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from nqueens.core import signals
from nqueens.engines.bitboard import _edges, edges
from nqueens.engines.gpu import caching, driver, target

PRESET = 3
"""The free lines a piece gives a row each on a device: n³ pieces a constellation, most of
which fail on their rows at once, so that the pieces left when a launch nears its end are
small."""
SIMULATED_PRESET = 1
"""The simulator runs each piece as Python, where a piece that fails at once costs as much as
a step of a search: it takes n pieces a constellation."""

THREADS_PER_PROCESSOR = 2048
"""The most threads a multiprocessor of a large device holds at once (2048 on Hopper and the
A100): a launch has enough blocks to fill every one, and no more, since its threads take pieces
until none is left; on a smaller one the blocks that wait find the pieces taken."""
POLL_SECONDS = 0.002
"""How often the host looks whether a launch has ended: a time limit or Ctrl-C is heard within
it, and a launch ends no later than that after its last thread."""
SIMULATED_THREADS_PER_BLOCK = 8
"""The simulator runs a block's threads as Python threads at once: one small block switches
least."""


@functools.cache
def cuda() -> Any:
    """numba's CUDA target; ImportError without the ``gpu`` extra."""
    from numba import cuda as numba_cuda

    return numba_cuda


def preset() -> int:
    """The free lines a piece gives a row each, here."""
    return SIMULATED_PRESET if target.simulated() else PRESET


def pieces_each(n: int) -> int:
    """The pieces an n x n constellation (or a puzzle's piece) is cut into on the device."""
    return int(n ** preset())  # an int to the power of a positive int: mypy cannot tell


def piece_rows(n: int) -> Any:
    """The rows of each piece of an n x n constellation on its first free lines, as the kernel
    reads them (a numpy array of bytes, a piece a row): ``edges.piece_rows``'s, in its order."""
    return _piece_rows(n, preset())


@functools.cache
def _piece_rows(n: int, lines: int) -> Any:
    import numpy

    return numpy.array(edges.piece_rows(n, lines), dtype=numpy.uint8).reshape(-1, lines)


class Launch(NamedTuple):
    """What one launch counted: the solutions of each constellation (a numpy array), the pieces
    it was given, the placements its kernel counted (none but ``kernel.count_placements`` counts
    them), and when (time.perf_counter()) it was begun, its first copy, and when it had ended,
    its last."""

    totals: Any
    pieces: int
    placements: int = 0
    began: float = 0.0
    ended: float = 0.0


Finish = Callable[[float | None], Launch | None]
"""A launch begun: called with a deadline (a time.time(), or None), it waits for the launch
and returns what it counted; None if the deadline passed first (the launch runs on)."""


class Launcher(NamedTuple):
    """How a process launches the kernel: ``begin``'s work, how, in a few words, and
    whether a launch begun runs beside the one before it (rather than after it, its copies
    waiting for that one to end, unheard)."""

    begin: Callable[[int, Any, Any, Any], Finish]
    how: str
    beside: bool = False


COUNTERS = 2
"""The kernel's counters: the pieces its threads have taken, and the placements, where it
counts them."""
CHECK_N = 12
"""The board whose constellations machine code just made is first counted with, through the
driver and by numba's launch: each constellation's count must agree before it is kept."""


def device_name() -> str:
    """The device a count runs on, as its driver names it."""
    if target.simulated():
        return "numba-cuda's simulator, on the CPU"
    return current_device().name


@functools.cache
def current_device() -> driver.Device:
    """The machine's first CUDA device, through CUDA's driver (cuda-bindings): started while
    this thread gets what a count on it needs next (``needed_next``)."""
    return driver.started_beside(needed_next)


def needed_next() -> None:
    """What a count needs once it has its device: numpy, and the versions its kept machine code
    is named by (where they cannot be read, the count meets that when it looks for the code)."""
    importlib.import_module("numpy")
    with contextlib.suppress(Exception):
        caching.compiled_by()


def kept() -> driver.Machine | None:
    """The kernel's machine code for this device, kept on disk by an earlier count."""
    path = kept_path()
    return None if path is None else caching.kept(path)


@functools.cache
def kept_path() -> Path | None:
    """Where the kernel's machine code for this device is kept, if anywhere: its name hashes
    the kernel's source and asks for numba's versions, so it is worked out once."""
    folder = caching.cache_folder(caching.KERNEL_SOURCE)
    return None if folder is None else caching.kept_path(folder, current_device().capability)


@functools.cache
def compiled() -> Any:
    """The kernel ``count_pieces[blocks, threads](n, piece_rows, blocked, gaps, lines, totals,
    counters)`` (``nqueens.engines.gpu.kernel``), compiled by numba when first launched."""
    from nqueens.engines.gpu import kernel

    return kernel.count_pieces


@functools.cache
def launcher() -> Launcher:
    """How this process launches the kernel: through CUDA's driver, with its machine code kept
    on disk (made and kept first where it is not, or where the driver does not load what is
    kept: see ``nqueens.engines.gpu.driver``), so that a count need not import numba; by
    numba on the simulator, or where machine code could not be made or did not count as numba's
    launch does (numba compiles the kernel then, or loads it from its own cache)."""
    if target.simulated():
        return Launcher(by_numba, "numba-cuda's simulator")
    machine: driver.Machine | str | None = kept()
    try:
        if isinstance(machine, driver.Machine):
            current_device().load(machine)
    except driver.DriverError:  # a file damaged in a way its size does not show
        machine = None
    if machine is None:
        machine = _made()
    if isinstance(machine, str):
        return Launcher(by_numba, f"numba's launch: {machine}")
    return Launcher(
        functools.partial(by_driver, machine), "CUDA's driver, machine code kept", beside=True
    )


making = threading.Event()
"""Set while this process makes the kernel's machine code: a count under a time limit waits
for it all the same, so that it is kept rather than begun again by every run."""


def _made() -> driver.Machine | str:
    """The kernel's machine code for this device, made, checked and kept; or why not."""
    path = kept_path()
    if path is None:
        return "no folder to keep machine code in"
    making.set()
    try:
        return _made_and_kept(path)
    finally:
        making.clear()


def _made_and_kept(path: Path) -> driver.Machine | str:
    """``_made``'s work, into ``path``."""
    try:
        import numpy

        from nqueens.engines.gpu import kernel

        capability = current_device().capability
        with signals.held(end_now_if_idle=True):  # a stop signal is lost inside LLVM's calls
            text = driver.ptx(kernel.count_pieces, launch_types(), capability)
        machine = driver.machine(text, capability, kernel.THREADS_PER_BLOCK, kernel.STACK_LINES)
        current_device().load(machine)
        arrays = constellation_arrays(CHECK_N, 0, len(_edges.constellations(CHECK_N)))[:3]
        through_driver = by_driver(machine, CHECK_N, *arrays)(None)
        through_numba = by_numba(CHECK_N, *arrays)(None)
    except Exception as error:  # no compiler, a driver's or numba's error: numba's launch
        return f"machine code not made ({driver.described(error)})"
    assert through_driver is not None and through_numba is not None  # waited for, no deadline
    if not numpy.array_equal(through_driver.totals, through_numba.totals):
        return f"machine code counted N = {CHECK_N} otherwise than numba's launch"
    caching.keep(path, machine)
    return machine


def launch_types() -> tuple[Any, ...]:
    """The types of the kernel's arguments as the engine launches it, numba's (imported): the
    board's side as a Python int, the pieces' rows, the constellations' words and the totals as
    C-ordered arrays."""
    from numba import types

    words, totals = types.uint32[:, ::1], types.uint64[::1]
    rows = types.uint8[:, ::1]
    return (types.int64, rows, words, words, types.int32[::1], totals, totals)


def constellation_arrays(n: int, start: int, end: int) -> tuple[Any, Any, Any, list[int]]:
    """The kernel's arrays for constellations ``start`` to ``end - 1`` of an n x n board (the
    rows its edge queens block on each free line, the lines between free lines, the free lines),
    and each one's solutions that a half turn keeps, which the C module counts."""
    import numpy

    blocked = numpy.zeros((end - start, n), dtype=numpy.uint32)
    gaps = numpy.zeros((end - start, n), dtype=numpy.uint32)
    lines = numpy.zeros(end - start, dtype=numpy.int32)
    turns = []
    for row, at in enumerate(range(start, end)):
        masks, steps, kept_by_turns = _edges.masks(n, at)
        blocked[row, : len(masks)] = masks
        gaps[row, : len(steps)] = steps
        lines[row] = len(masks)
        turns.append(kept_by_turns)
    return blocked, gaps, lines, turns


def count(
    n: int, blocked: Any, gaps: Any, lines: Any, deadline: float | None = None
) -> Launch | None:
    """Count the constellations given as numpy arrays of 32-bit words, one row each; None if
    ``deadline`` (a time.time()) passed first: ``begin``, waited for."""
    return begin(n, blocked, gaps, lines)(deadline)


def begin(n: int, blocked: Any, gaps: Any, lines: Any) -> Finish:
    """Begin a launch on constellations given as numpy arrays of 32-bit words, one row each,
    and return at once, so that the host can go on (begin the next) while the device counts.

    The launch is waited for in Python, a few milliseconds at a time, so that a time limit and
    Ctrl-C are heard while the device counts, however long a launch takes on a large board. A
    launch given up on runs on, on the device, until it ends or the process does.
    """
    return launcher().begin(n, blocked, gaps, lines)


def by_driver(machine: driver.Machine, n: int, blocked: Any, gaps: Any, lines: Any) -> Finish:
    """``begin``, launched through CUDA's driver with ``machine``, loaded, on a stream of
    its own, so that it may run beside the launch before it."""
    import numpy

    began = time.perf_counter()
    pieces = _pieces(n, lines, machine.stack_lines)
    totals = numpy.zeros(len(lines), dtype=numpy.uint64)
    if not pieces:
        return lambda deadline: Launch(totals, 0, 0, began, began)
    counters = numpy.zeros(COUNTERS, dtype=numpy.uint64)
    arrays = (piece_rows(n), blocked, gaps, lines, totals, counters)
    kinds = ("uint8", "uint32", "uint32", "int32", "uint64", "uint64")
    for array, kind in zip(arrays, kinds, strict=True):
        if array.dtype != kind or not array.flags.c_contiguous:
            raise ValueError(f"the kernel takes C-ordered {kind} arrays, not {array.dtype}")
    gpu = current_device()
    blocks = blocks_for(pieces, machine.threads, gpu.processors)
    launched = gpu.begin(blocks, machine.threads, (n,), arrays)

    def finish(deadline: float | None) -> Launch | None:
        try:
            if not gpu.finished(launched, deadline, POLL_SECONDS):
                return None
            gpu.copied_out(launched, launched.pointers[-2], totals)
            gpu.copied_out(launched, launched.pointers[-1], counters)
        except driver.DriverError:
            gpu.release(launched, after_error=True)
            raise
        gpu.release(launched)
        return Launch(totals, pieces, int(counters[1]), began, time.perf_counter())

    return finish


def by_numba(n: int, blocked: Any, gaps: Any, lines: Any) -> Finish:
    """``begin``, launched by numba (which compiles the kernel, or loads it from its
    cache), on a device, in numba's default stream (after the launch before it), or on
    numba-cuda's simulator, on a thread (``on_a_thread``)."""
    import numpy

    from nqueens.engines.gpu import kernel

    numba_cuda = cuda()
    count_pieces = compiled()
    began = time.perf_counter()
    pieces = _pieces(n, lines, kernel.STACK_LINES)
    totals = numba_cuda.to_device(numpy.zeros(len(lines), dtype=numpy.uint64))
    counters = numba_cuda.to_device(numpy.zeros(COUNTERS, dtype=numpy.uint64))
    if target.simulated():
        per_block, blocks = SIMULATED_THREADS_PER_BLOCK, min(1, pieces)
    else:
        per_block = kernel.THREADS_PER_BLOCK
        processors = numba_cuda.get_current_device().MULTIPROCESSOR_COUNT
        blocks = blocks_for(pieces, per_block, processors)
    launch = functools.partial(
        count_pieces[blocks, per_block],
        n,
        numba_cuda.to_device(piece_rows(n)),
        numba_cuda.to_device(blocked),
        numba_cuda.to_device(gaps),
        numba_cuda.to_device(lines),
        totals,
        counters,
    )
    if target.simulated():
        ended = on_a_thread(launch)
    else:
        launch()
        event = numba_cuda.event(timing=False)
        event.record()
        ended = driver.polled(event.query)

    def finish(deadline: float | None) -> Launch | None:
        if not driver.waited(ended, deadline, POLL_SECONDS):
            return None
        placements = int(counters.copy_to_host()[1])
        return Launch(totals.copy_to_host(), pieces, placements, began, time.perf_counter())

    return finish


_SIMULATOR = threading.Lock()
"""Held by the simulated launch that runs: they run one after the other, as a device's stream
runs its launches."""


def on_a_thread(launch: Callable[[], None]) -> Callable[[float], bool]:
    """Run a simulated launch on a thread, after those begun before it, and return whether it
    has ended, waiting up to the seconds asked (raising its error then): a simulated launch
    takes seconds a piece on a large board, and the count hears its time limit and Ctrl-C
    meanwhile. One given up on runs on, as it would on a device, until it ends or the process
    does."""

    def in_turn() -> None:
        with _SIMULATOR:
            launch()

    return driver.Beside(in_turn, "numba-cuda's simulator").ended


def _pieces(n: int, lines: Any, stack_lines: int) -> int:
    """The pieces of a launch of constellations of ``lines`` free lines each; a ValueError if
    a thread's stack of ``stack_lines`` could not hold one (the engine's boards fit)."""
    deepest = int(lines.max(initial=0)) - preset() - 1  # the last line is counted by its bits
    if deepest > stack_lines:
        raise ValueError(
            f"a piece of {int(lines.max())} free lines needs a stack of {deepest} lines; the "
            f"kernel's holds {stack_lines}"
        )
    pieces = len(lines) * pieces_each(n)
    assert pieces < 1 << 32, "the kernel numbers a launch's pieces in 32 bits"
    return pieces


def blocks_for(pieces: int, per_block: int, processors: int) -> int:
    """The blocks of a launch of ``pieces`` on a device of ``processors`` multiprocessors: enough
    to fill every one, and no more than the pieces need."""
    return min(processors * (THREADS_PER_PROCESSOR // per_block), -(-pieces // per_block))

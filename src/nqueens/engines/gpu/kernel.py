"""The gpu engine's device, found and driven from the host.

A piece is a constellation (its edge queens' rows and diagonals on each line searched, as the C
counter works them out) with a row on each of its first few free lines; the kernel whose threads
take the pieces of a launch in turn and finish them is :mod:`nqueens.engines.gpu.device`.
numba-cuda is imported when a count first runs (the ``gpu`` extra); with NUMBA_ENABLE_CUDASIM=1
the same kernel runs on the CPU, as its simulator does, slowly.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

from nqueens.engines import jit

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


def simulated() -> bool:
    """Whether numba-cuda runs kernels on its simulator, on the CPU, rather than on a device."""
    return os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0")


@functools.cache
def cuda() -> Any:
    """numba's CUDA target; ImportError without the ``gpu`` extra."""
    from numba import cuda as target

    return target


def missing() -> str | None:
    """What keeps this machine from counting on a GPU, in a few words (None: nothing).

    Where no NVIDIA driver is loaded it says so without importing numba (most of a second), so
    that a count on a machine without a GPU starts as fast as before.
    """
    if not simulated() and not _driver_loaded():
        return "finds no NVIDIA driver on this machine"
    if importlib.util.find_spec("numba_cuda") is None:
        return "needs numba-cuda: pip install 'nqueens[gpu]'"
    if simulated():
        return None
    try:
        available = bool(cuda().is_available())
    except Exception as error:  # a broken driver or toolkit says so in its own way
        return f"finds no usable CUDA device ({type(error).__name__}: {error})"
    if not available:
        return "finds no CUDA device on this machine"
    if jit.cache_written(Path(__file__).with_name("device.py")):
        return None  # compiled before, and loaded from numba's cache
    try:
        load_compiler()
    except Exception as error:  # numba-cuda says where it looked
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        return (
            "needs CUDA's compilers (NVVM, NVRTC) to build its kernel: pip install "
            f"'nqueens[gpu]' (drivers for CUDA 13) or 'nqueens[gpu-cu12]' ({reason})"
        )
    return None


def load_compiler() -> None:
    """Load CUDA's NVVM and NVRTC, which numba-cuda compiles kernels with: from the ``gpu``
    extra's wheels or an installed CUDA toolkit; an error says which is not there."""
    from numba.cuda.cudadrv import nvrtc, nvvm

    nvvm.NVVM()  # type: ignore[no-untyped-call]
    nvrtc.get_supported_ccs()  # type: ignore[attr-defined]


DRIVER_SIGNS = ("/proc/driver/nvidia/version", "/dev/nvidiactl", "/dev/dxg")
"""What shows an NVIDIA driver on Linux: its kernel module in /proc, or its control device
(a sandbox such as gVisor passes the device on without the module's /proc entry), or WSL's
GPU device."""


def _driver_loaded() -> bool:
    """Whether an NVIDIA driver may be there: on Linux its files say so; other systems are
    asked through numba."""
    if sys.platform.startswith("linux"):
        return any(os.path.exists(sign) for sign in DRIVER_SIGNS)
    return True


def preset() -> int:
    """The free lines a piece gives a row each, here."""
    return SIMULATED_PRESET if simulated() else PRESET


def pieces_each(n: int) -> int:
    """The pieces an n x n constellation (or a puzzle's piece) is cut into on the device."""
    return int(n ** preset())  # an int to the power of a positive int: mypy cannot tell


class Launch(NamedTuple):
    """What one launch counted: the solutions of each constellation (a numpy array), the
    seconds the device took, copies included, and the pieces it was given."""

    totals: Any
    seconds: float
    pieces: int


def device_name() -> str:
    """The device a count runs on, as its driver names it."""
    if simulated():
        return "numba-cuda's simulator (on the CPU)"
    name = cuda().get_current_device().name
    return name.decode() if isinstance(name, bytes) else str(name)


@functools.cache
def compiled() -> Any:
    """The kernel ``count_pieces[blocks, threads](n, preset, blocked, gaps, lines, totals,
    counter)`` (:mod:`nqueens.engines.gpu.device`), compiled when first launched."""
    from nqueens.engines.gpu import device

    return device.count_pieces


def count(
    n: int, blocked: Any, gaps: Any, lines: Any, deadline: float | None = None
) -> Launch | None:
    """Count the constellations given as numpy arrays of 32-bit words, one row each; None if
    ``deadline`` (a time.time()) passed first.

    The launch is waited for in Python, a few milliseconds at a time, so that a time limit and
    Ctrl-C are heard while the device counts, however long a launch takes on a large board. A
    launch given up on runs on, on the device, until it ends or the process does.
    """
    import numpy

    from nqueens.engines.gpu import device

    target = cuda()
    kernel = compiled()
    started = time.perf_counter()
    totals = target.to_device(numpy.zeros(len(lines), dtype=numpy.uint64))
    counter = target.to_device(numpy.zeros(1, dtype=numpy.uint64))
    pieces = len(lines) * pieces_each(n)
    assert pieces < 1 << 32, "the kernel numbers a launch's pieces in 32 bits"
    if simulated():
        per_block, blocks = SIMULATED_THREADS_PER_BLOCK, min(1, pieces)
    else:
        per_block = device.THREADS_PER_BLOCK
        processors = target.get_current_device().MULTIPROCESSOR_COUNT
        blocks = blocks_for(pieces, per_block, processors)
    kernel[blocks, per_block](
        n,
        preset(),
        target.to_device(blocked),
        target.to_device(gaps),
        target.to_device(lines),
        totals,
        counter,
    )
    if not simulated() and not _finished(target, deadline):  # the simulator has finished
        return None
    return Launch(totals.copy_to_host(), time.perf_counter() - started, pieces)


def blocks_for(pieces: int, per_block: int, processors: int) -> int:
    """The blocks of a launch of ``pieces`` on a device of ``processors`` multiprocessors: enough
    to fill every one, and no more than the pieces need."""
    return min(processors * (THREADS_PER_PROCESSOR // per_block), -(-pieces // per_block))


def _finished(target: Any, deadline: float | None) -> bool:
    """Wait for the launches made so far: True once they end, False if ``deadline`` passes."""
    ended = target.event(timing=False)
    ended.record()
    while not ended.query():
        if deadline is not None and time.time() >= deadline:
            return False
        time.sleep(POLL_SECONDS)
    return True

"""The gpu engine's device, found and driven from the host: one thread per piece.

A piece is a constellation (its edge queens' rows and diagonals on each line searched, as the C
counter works them out) with a row on each of its first two free lines; the kernel that finishes
it is :mod:`nqueens.engines.gpu.device`. numba-cuda is imported when a count first runs (the
``gpu`` extra); with NUMBA_ENABLE_CUDASIM=1 the same kernel runs on the CPU, as its simulator
does, slowly.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
from typing import Any

THREADS_PER_BLOCK = 128
SIMULATED_THREADS_PER_BLOCK = 8
"""The simulator runs a block's threads as Python threads at once: small blocks switch less."""


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
    return None if available else "finds no CUDA device on this machine"


def _driver_loaded() -> bool:
    """Whether an NVIDIA driver may be there: on Linux its kernel module says so in /proc; other
    systems are asked through numba."""
    if sys.platform.startswith("linux"):
        return os.path.exists("/proc/driver/nvidia/version")
    return True


def device_name() -> str:
    """The device a count runs on, as its driver names it."""
    if simulated():
        return "numba-cuda's simulator (on the CPU)"
    name = cuda().get_current_device().name
    return name.decode() if isinstance(name, bytes) else str(name)


@functools.cache
def compiled() -> Any:
    """The kernel ``count_pieces[blocks, threads](n, blocked, gaps, lines, totals)``
    (:mod:`nqueens.engines.gpu.device`), compiled when first launched."""
    from nqueens.engines.gpu import device

    return device.count_pieces


def count(n: int, blocked: Any, gaps: Any, lines: Any) -> tuple[Any, float]:
    """The solutions of each constellation (numpy arrays, one row each) and the seconds the
    device took, copies included."""
    import time

    import numpy

    target = cuda()
    kernel = compiled()
    started = time.perf_counter()
    totals = target.to_device(numpy.zeros(len(lines), dtype=numpy.uint64))
    threads = len(lines) * n * n
    per_block = SIMULATED_THREADS_PER_BLOCK if simulated() else THREADS_PER_BLOCK
    blocks = (threads + per_block - 1) // per_block
    kernel[blocks, per_block](
        n, target.to_device(blocked), target.to_device(gaps), target.to_device(lines), totals
    )
    found = totals.copy_to_host()
    return found, time.perf_counter() - started

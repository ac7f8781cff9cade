"""CUDA's driver started while the command line is imported, where the command counts on the GPU.

A count on the device waits for Python to import the command line and cuda-bindings, and then
for CUDA's driver to start (its library loaded, the device's context made): each takes longer
than the device takes to count N = 18. Here the driver starts on a thread of its own as the
process starts, while those imports run: the thread calls the driver's library through ctypes,
which lets go of Python's lock while it loads the library and in each call, and the count's own
calls through cuda-bindings then find the library loaded and the driver started, or wait for it
to be. Only a command line that names the engine starts it early: ``--engine auto`` decides
once the board is read, and a count on the CPU should not pay for a driver it does not use."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from contextlib import suppress

from nqueens.engines.gpu import NAME

COMMAND = "count"
ENGINE_OPTION = "--engine"
REMOTE_OPTION = "--cluster"
"""A count on a cluster's workers: their GPUs count, not this machine's."""
LIBRARY = "libcuda.so.1"
"""CUDA's driver, by the name Linux loads it by (cuda-bindings too)."""
SUCCESS = 0
"""CUDA_SUCCESS."""


def wanted(arguments: Sequence[str]) -> bool:
    """Whether the command line ``arguments`` (after the program's name) counts on this
    machine's GPU by name, where an NVIDIA driver is loaded (and not numba-cuda's simulator):
    ``count ... --engine gpu``, not on a cluster."""
    words = list(arguments)
    command = next((word for word in words if not word.startswith("-")), None)
    named = [ENGINE_OPTION, NAME] in (words[at : at + 2] for at in range(len(words)))
    named = named or f"{ENGINE_OPTION}={NAME}" in words
    if command != COMMAND or not named or any(w.split("=")[0] == REMOTE_OPTION for w in words):
        return False
    from nqueens.engines.gpu import needs, target  # here: every other command goes without

    return not target.simulated() and needs.driver_loaded()


def start(arguments: Sequence[str]) -> None:
    """Start CUDA's driver and the device's context on a thread of its own if ``arguments``
    count on the GPU (``wanted``); what fails is left for the count to meet and say."""
    if wanted(arguments):
        threading.Thread(target=_started, name="CUDA's driver", daemon=True).start()


def _started() -> None:
    """Load the driver's library, start it and retain the first device's primary context, the
    one a count uses (kept until the process ends, as the count's is): ctypes lets go of
    Python's lock in each."""
    import ctypes  # here: only a count on the GPU loads it

    with suppress(OSError, AttributeError):  # no such library, or not CUDA's
        driver = ctypes.CDLL(LIBRARY)
        device, context = ctypes.c_int(), ctypes.c_void_p()
        if driver.cuInit(0) == SUCCESS and driver.cuDeviceGet(ctypes.byref(device), 0) == SUCCESS:
            driver.cuDevicePrimaryCtxRetain(ctypes.byref(context), device)

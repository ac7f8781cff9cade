"""CUDA's driver started while the command line is imported, where the command counts on the GPU.

A count on the device waits for Python to import the command line, and then for CUDA's driver
to start (its libraries loaded, the device's context made): each takes longer than the device
takes to count N = 18. The driver's calls let go of Python's lock (cuda-bindings 12.9.1 and
newer), so the driver can start on a thread of its own while the command line is imported;
the count's own calls then find it started, or wait for it to be. Only a command line that
names the engine starts it early: ``--engine auto`` decides once the board is read, and a
count on the CPU should not pay for a driver it does not use.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from contextlib import suppress
from typing import Any

from nqueens.engines.gpu import kernel, needs

COMMAND = "count"
ENGINE_OPTION = "--engine"
ENGINE = "gpu"
REMOTE_OPTION = "--cluster"
"""A count on a cluster's workers: their GPUs count, not this machine's."""


def wanted(arguments: Sequence[str]) -> bool:
    """Whether the command line ``arguments`` (after the program's name) counts on this
    machine's GPU by name, where an NVIDIA driver is loaded (and not numba-cuda's simulator):
    ``count ... --engine gpu``, not on a cluster."""
    words = list(arguments)
    command = next((word for word in words if not word.startswith("-")), None)
    named = [ENGINE_OPTION, ENGINE] in (words[at : at + 2] for at in range(len(words)))
    named = named or f"{ENGINE_OPTION}={ENGINE}" in words
    if command != COMMAND or not named or any(w.split("=")[0] == REMOTE_OPTION for w in words):
        return False
    return not kernel.simulated() and needs.driver_loaded()


def start(arguments: Sequence[str]) -> None:
    """Start CUDA's driver and the device's context on a thread of its own if ``arguments``
    count on the GPU (:func:`wanted`); what fails is left for the count to meet and say."""
    if not wanted(arguments):
        return
    try:
        from cuda.bindings import driver  # an import holds Python's lock: not on the thread
    except Exception:  # no gpu extra: the count says what is missing
        return
    threading.Thread(target=_started, args=(driver,), name="CUDA's driver", daemon=True).start()


def _started(api: Any) -> None:
    """Start the driver and retain the first device's primary context, the one a count uses
    (kept until the process ends, as the count's is)."""
    with suppress(Exception):
        api.cuInit(0)
        status, device = api.cuDeviceGet(0)
        if status == api.CUresult.CUDA_SUCCESS:
            api.cuDevicePrimaryCtxRetain(device)

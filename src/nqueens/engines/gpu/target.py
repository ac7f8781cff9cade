"""Where the gpu engine's kernel runs: on a device, or on numba-cuda's simulator, on the CPU
(NUMBA_ENABLE_CUDASIM=1). Read without importing numba or the driver, so that choosing an
engine for a count on the CPU costs nothing more."""

from __future__ import annotations

import os


def simulated() -> bool:
    """Whether numba-cuda runs kernels on its simulator, on the CPU, rather than on a device:
    NUMBA_ENABLE_CUDASIM read as numba reads it (a whole number; any other value is 0)."""
    try:
        return int(os.environ.get("NUMBA_ENABLE_CUDASIM", "0")) != 0
    except ValueError:
        return False

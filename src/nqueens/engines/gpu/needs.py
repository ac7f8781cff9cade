"""What the gpu engine needs of a machine: an NVIDIA driver and a CUDA device, numba-cuda (the
``gpu`` extra), and CUDA's compilers where the kernel is not compiled yet; each asked for only
as far as the answer needs, so that a count on a machine without a GPU starts as fast as before.
"""

from __future__ import annotations

import importlib.util
import os
import sys

from nqueens.engines.gpu import caching, driver, launch, target


def missing() -> str | None:
    """What keeps this machine from counting on a GPU, in a few words (None: nothing).

    Where no NVIDIA driver is loaded it says so without importing anything (a count on a
    machine without a GPU starts as fast as before); where one is, it asks the driver, and
    imports numba only where the kernel must be compiled, to see that CUDA's compilers are
    there.
    """
    if not target.simulated() and not driver_loaded():
        return "finds no NVIDIA driver on this machine"
    if importlib.util.find_spec("numba_cuda") is None:
        return "needs numba-cuda: the gpu extra, pip install '.[gpu]' in nqueens's checkout"
    if target.simulated():
        return None
    try:
        launch.current_device()
    except driver.NoDevice:
        return "finds no CUDA device on this machine"
    except Exception as error:  # a broken driver says so in its own way
        return f"finds no usable CUDA device ({driver.described(error)})"
    if launch.kept() is not None or caching.cache_written(caching.KERNEL_SOURCE):
        return None  # compiled before: no compiler needed
    try:
        load_compiler()
    except Exception as error:  # numba-cuda says where it looked
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        return (
            "needs CUDA's compilers (NVVM, NVRTC) to build its kernel: pip install '.[gpu]' "
            f"(drivers for CUDA 13) or '.[gpu-cu12]' in nqueens's checkout ({reason})"
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


def driver_loaded() -> bool:
    """Whether an NVIDIA driver may be there: on Linux its files say so; other systems are
    asked through numba."""
    if sys.platform.startswith("linux"):
        return any(os.path.exists(sign) for sign in DRIVER_SIGNS)
    return True

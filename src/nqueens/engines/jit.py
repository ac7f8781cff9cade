"""Compiled kernels with a plain-Python fallback: one rule for every engine that uses numba."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TypeVar

from nqueens import signals

T = TypeVar("T")


class KernelFallbackWarning(UserWarning):
    """numba could not be imported or could not compile: the search runs in plain Python."""


def compiled_or_plain(build: Callable[[], T], plain: T, what: str) -> T:
    """``build()``, which compiles (or loads from numba's cache) and runs a kernel once, or
    ``plain`` with a KernelFallbackWarning saying why.

    A stop signal waits until the kernel is loaded: raised in one of LLVM's callbacks into
    Python, it would be lost.
    """
    try:
        with signals.held():
            return build()
    except Exception as error:  # numba raises many kinds; any of them means: no compiled code
        reason = f"{type(error).__name__}: {error}".splitlines()[0]
        warnings.warn(
            f"the compiled {what} is unavailable ({reason}); "
            "searching in plain Python, which is much slower",
            KernelFallbackWarning,
            stacklevel=3,
        )
        return plain

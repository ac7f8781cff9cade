"""What this installation of nqueens has: its version, Python's, the solvers', whether its C
modules were built and whether it can count on a GPU; for ``nqueens --version`` and bug
reports. Nothing is imported that is not needed to say it: versions come from the packages'
metadata."""

from __future__ import annotations

import importlib.util
import platform
from importlib.metadata import PackageNotFoundError, version

C_MODULES = {
    "counting": "nqueens.engines.bitboard._edges",
    "listing": "nqueens.engines.bitboard._listing",
    "text": "nqueens.formats._text",
}
"""The package's modules in C, each optional: where one was not built, a slower path runs."""


def installed(package: str) -> str | None:
    """A package's version, or None where it is not installed."""
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def installation() -> dict[str, object]:
    """Every part of the installation a user or a bug report asks about, as JSON values."""
    from nqueens import __version__
    from nqueens.engines.gpu import needs

    built = {
        name: importlib.util.find_spec(module) is not None for name, module in C_MODULES.items()
    }
    gpu_missing = needs.missing()
    return {
        "nqueens": __version__,
        "python": f"{platform.python_version()} ({platform.python_implementation()})",
        "ortools": installed("ortools"),
        "numba": installed("numba"),
        "c_modules": built,
        "numba_cuda": installed("numba-cuda"),
        "gpu": "ready" if gpu_missing is None else f"the gpu engine {gpu_missing}",
    }

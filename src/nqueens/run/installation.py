"""What this installation of nqueens has: its version, Python's, the solvers', its C modules
and whether it can count on a GPU; for ``nqueens --version`` and bug reports. Nothing is
imported that is not needed to say it: versions come from the packages' metadata."""

from __future__ import annotations

import importlib.util
import os
import platform
from importlib.metadata import PackageNotFoundError, version

C_MODULES = {
    "counting": "nqueens.engines.bitboard._edges",
    "join": "nqueens.engines.join._join",
    "search": "nqueens.engines.bitboard._search",
    "local": "nqueens.engines.local._local",
    "reduced": "nqueens.engines.reduced._reduced",
    "text": "nqueens.formats._text",
}
"""The package's modules in C: every search on the processor, and solutions written as text."""


def broken(error: ImportError) -> str | None:
    """What to say where ``error`` is one of this package's modules that cannot be imported (a
    C module missing, or built for another Python): the installation is broken. None for any
    other import."""
    if not (error.name or "").startswith("nqueens."):
        return None
    return (
        f"Error: this installation of nqueens is broken: its C module {error.name} is missing or "
        "was built for another Python. Reinstall it as it was installed: pip install "
        "--force-reinstall . in its checkout, or the wheel it came from."
    )


def installed(package: str) -> str | None:
    """A package's version, or None where it is not installed."""
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def c_modules() -> dict[str, str | None]:
    """Each C module's file, or None where it is missing (a broken installation)."""
    found: dict[str, str | None] = {}
    for name, module in C_MODULES.items():
        spec = importlib.util.find_spec(module)
        found[name] = None if spec is None or spec.origin is None else os.path.basename(spec.origin)
    return found


def installation() -> dict[str, object]:
    """Every part of the installation a user or a bug report asks about, as JSON values."""
    from nqueens import __version__
    from nqueens.engines.bitboard import _edges
    from nqueens.engines.gpu import needs

    gpu_missing = needs.missing()
    return {
        "nqueens": __version__,
        "python": f"{platform.python_version()} ({platform.python_implementation()})",
        "ortools": installed("ortools"),
        "c_modules": c_modules(),
        "instructions": _edges.instructions(),
        "numba_cuda": installed("numba-cuda"),
        "gpu": "ready" if gpu_missing is None else f"the gpu engine {gpu_missing}",
    }

"""nqueens: the N-queens problem on OR-Tools' CP-SAT solver.

    >>> import nqueens
    >>> nqueens.count(8).solutions
    92
    >>> [s.rows for s in nqueens.solve(4)]
    [(1, 3, 0, 2), (2, 0, 3, 1)]

``rows[c]`` is the 0-based row of the queen in column ``c``; see examples/ for more.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from nqueens.api import MAX_N, count, first, solve
from nqueens.results import (
    FirstResult,
    InputError,
    SearchInterrupted,
    Solution,
    Stats,
    Status,
)

try:
    __version__ = version("nqueens")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "MAX_N",
    "FirstResult",
    "InputError",
    "SearchInterrupted",
    "Solution",
    "Stats",
    "Status",
    "__version__",
    "count",
    "first",
    "solve",
]

"""nqueens: the N-queens problem solved, counted and explained, on OR-Tools' CP-SAT and
compiled searches.

    >>> import nqueens
    >>> nqueens.count(8).solutions
    92
    >>> [s.rows for s in nqueens.solve(4)]
    [(1, 3, 0, 2), (2, 0, 3, 1)]

``rows[c]`` is the 0-based row of the queen in column ``c``; see examples/ for more.

The names below load on first use, so that the command line can set up its signal handling
before the API and its solvers are imported.
"""

# Nothing is imported here at run time: the command line imports this package first, and sets
# up its handling of Ctrl-C only then (a stop signal before that ends the interpreter with a
# traceback).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from nqueens.api.searches import count, first, solve
    from nqueens.core.board import MAX_N, Board, BoardError
    from nqueens.core.errors import CheckpointUnwritable, ClusterLost, ClusterUnreachable
    from nqueens.core.geometry import Diagonal
    from nqueens.core.results import (
        FirstResult,
        InputError,
        SearchInterrupted,
        Solution,
        Stats,
        Status,
    )

_HOMES = {
    "MAX_N": "nqueens.core.board",
    "count": "nqueens.api.searches",
    "first": "nqueens.api.searches",
    "solve": "nqueens.api.searches",
    "Board": "nqueens.core.board",
    "BoardError": "nqueens.core.board",
    "Diagonal": "nqueens.core.geometry",
    "CheckpointUnwritable": "nqueens.core.errors",
    "ClusterLost": "nqueens.core.errors",
    "ClusterUnreachable": "nqueens.core.errors",
    "FirstResult": "nqueens.core.results",
    "InputError": "nqueens.core.results",
    "SearchInterrupted": "nqueens.core.results",
    "Solution": "nqueens.core.results",
    "Stats": "nqueens.core.results",
    "Status": "nqueens.core.results",
}

__all__ = [
    "MAX_N",
    "Board",
    "BoardError",
    "CheckpointUnwritable",
    "ClusterLost",
    "ClusterUnreachable",
    "Diagonal",
    "FirstResult",
    "InputError",
    "SearchInterrupted",
    "Solution",
    "Stats",
    "Status",
    "__version__",
    "bench",
    "count",
    "first",
    "solve",
]


def __getattr__(name: str) -> "Any":
    """Load a public name from the module that defines it, once."""
    if name == "__version__":
        return _version()
    from nqueens.core.lazy import loader

    return loader(__name__, {**_HOMES, "bench": "nqueens.bench"})(name)


def __dir__() -> list[str]:
    """The public API, as ``__all__`` names it: not the names this module uses to load it."""
    return sorted(__all__)


DISTRIBUTION = "nqueens-cp"
"""The name nqueens is installed under: PyPI's ``nqueens`` is another project. The command and
the import are ``nqueens``."""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"

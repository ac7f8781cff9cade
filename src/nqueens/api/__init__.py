"""The public Python API: ``solve``, ``count`` and ``first``; ``plan``, what one of them will
do; and the values, limits and helpers a program built on them needs. The command line is one
such program: it imports nothing else of nqueens but the formats, the exports and the pictures,
so whatever it says, a caller can ask for.

    >>> from nqueens import api
    >>> api.plan("count", 12).engine
    'bitboard'
    >>> api.count(8).solutions
    92

The names from modules that take a while to import (the explained search, the estimate of a
long count, what is installed) load on first use, so that a command that needs none of them
starts at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nqueens.api.facts import (
    AUTO_ENGINE,
    CONNECT_SECONDS,
    COUNT_REASON,
    ENGINE_OPTIONS,
    ENGINES,
    FIRST_REASON,
    MAX_MODEL_N,
    MAX_SEED,
    MAX_WORKERS,
    MIP_ENGINE,
    MIP_SOLVERS,
    SOLVE_DEFAULT,
    SOLVE_FALLBACK,
    EngineInfo,
    EngineOption,
    engines_that,
    none_exists,
)
from nqueens.api.searches import PlanCallback, count, first, plan, solve
from nqueens.core.board import MAX_N, Board, BoardError
from nqueens.core.errors import CheckpointUnwritable, ClusterLost, ClusterUnreachable
from nqueens.core.geometry import RULES, SUM, Diagonal
from nqueens.core.known_counts import KNOWN_TOTALS
from nqueens.core.lazy import loader
from nqueens.core.notes import Note
from nqueens.core.plans import Attempt, Plan
from nqueens.core.results import (
    Finished,
    FirstResult,
    InputError,
    SearchInterrupted,
    Solution,
    Square,
    Stats,
    Status,
)
from nqueens.core.strategies import AUTO, FIRST_FAIL_MID, FIRST_MIN, STRATEGIES
from nqueens.core.theorems import IN_SHORT as THEOREMS_IN_SHORT
from nqueens.core.theorems import THEOREM
from nqueens.engines.base import COUNT, FIRST, SOLVE
from nqueens.engines.streams import EngineStream
from nqueens.run.requests import check_board_size

if TYPE_CHECKING:
    from nqueens.explain.events import Explanation, explain
    from nqueens.explain.page import html_document, svg_document
    from nqueens.run.estimate import Estimate
    from nqueens.run.installation import installation

_LATER = {
    "Estimate": "nqueens.run.estimate",
    "Explanation": "nqueens.explain.events",
    "explain": "nqueens.explain.events",
    "html_document": "nqueens.explain.page",
    "svg_document": "nqueens.explain.page",
    "installation": "nqueens.run.installation",
}
"""The names loaded on first use, and the module of each."""


__getattr__ = loader(__name__, _LATER)
"""Load a name of ``_LATER`` from its module, once."""


__all__ = [
    "AUTO",
    "AUTO_ENGINE",
    "CONNECT_SECONDS",
    "COUNT",
    "COUNT_REASON",
    "ENGINES",
    "ENGINE_OPTIONS",
    "FIRST",
    "FIRST_FAIL_MID",
    "FIRST_MIN",
    "FIRST_REASON",
    "KNOWN_TOTALS",
    "MAX_MODEL_N",
    "MAX_N",
    "MAX_SEED",
    "MAX_WORKERS",
    "MIP_ENGINE",
    "MIP_SOLVERS",
    "RULES",
    "SOLVE",
    "SOLVE_DEFAULT",
    "SOLVE_FALLBACK",
    "STRATEGIES",
    "SUM",
    "THEOREM",
    "THEOREMS_IN_SHORT",
    "Attempt",
    "Board",
    "BoardError",
    "CheckpointUnwritable",
    "ClusterLost",
    "ClusterUnreachable",
    "Diagonal",
    "EngineInfo",
    "EngineOption",
    "EngineStream",
    "Estimate",
    "Explanation",
    "Finished",
    "FirstResult",
    "InputError",
    "Note",
    "Plan",
    "PlanCallback",
    "SearchInterrupted",
    "Solution",
    "Square",
    "Stats",
    "Status",
    "check_board_size",
    "count",
    "engines_that",
    "explain",
    "first",
    "html_document",
    "installation",
    "none_exists",
    "plan",
    "solve",
    "svg_document",
]

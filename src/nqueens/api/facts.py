"""The limits and defaults of the searches, and what each engine is and takes: what help and
messages say, for the command line and any other program to read rather than repeat."""

from __future__ import annotations

from dataclasses import dataclass

from nqueens.core.board import Board
from nqueens.core.strategies import STRATEGIES
from nqueens.engines import mip, registry
from nqueens.engines.base import MAX_SEED as MAX_SEED
from nqueens.engines.base import EngineOption
from nqueens.run import auto
from nqueens.run.auto import COUNT_REASON as COUNT_REASON
from nqueens.run.auto import FIRST_REASON as FIRST_REASON
from nqueens.run.limits import CONNECT_SECONDS as CONNECT_SECONDS
from nqueens.run.limits import MAX_WORKERS as MAX_WORKERS
from nqueens.run.requests import MAX_MODEL_N as MAX_MODEL_N


def none_exists(board: Board) -> str:
    """Why ``board`` has no solution to show, in a sentence: the theorem that says so where one
    does, or its given squares that no solution respects."""
    from nqueens.run import notes

    return notes.none_exists(board)


AUTO_ENGINE = registry.AUTO_ENGINE
"""The engine name that lets nqueens choose, per request (see ``plan``)."""

SOLVE_DEFAULT = auto.SOLVE_DEFAULT
"""The engine ``solve`` runs where it can and no other engine is suited better."""

SOLVE_FALLBACK = auto.SOLVE_FALLBACK
"""What ``solve`` runs where its default cannot (a strategy of its own, a board over 64)."""

MIP_ENGINE = mip.NAME
"""The engine that searches with a MIP solver, one of ``MIP_SOLVERS``."""

MIP_SOLVERS = tuple(mip.BACKENDS)
"""The MIP solvers the mip engine runs on, its default first."""


@dataclass(frozen=True)
class EngineInfo:
    """What an engine is and what it takes: ``commands`` it runs, ``strategies`` it follows,
    its own ``options``, whether it ``splits`` a count among processes and counts ``unique``
    solutions, and whether its search takes a seed, on its own (``seeded``) or with a strategy
    (``seeded_strategies``)."""

    name: str
    summary: str
    commands: frozenset[str]
    strategies: tuple[str, ...]
    options: tuple[EngineOption, ...]
    splits: bool
    unique: bool
    seeded: bool
    seeded_strategies: tuple[str, ...]


ENGINES: dict[str, EngineInfo] = {
    name: EngineInfo(
        name=name,
        summary=engine.summary,
        commands=engine.commands,
        strategies=engine.strategies,
        options=engine.options,
        splits=engine.splits,
        unique=engine.unique,
        seeded=engine.takes_seed(None),
        seeded_strategies=tuple(s for s in engine.strategies if engine.takes_seed(s)),
    )
    for name, engine in registry.ENGINES.items()
}
"""Every engine, by name, in the order help lists them."""

ENGINE_OPTIONS: dict[str, tuple[EngineOption, str]] = {
    name: (option, owner.name) for name, (option, owner) in registry.OPTIONS.items()
}
"""Every engine's own option, by name, with the engine that offers it."""


def engines_that(capability: str) -> str:
    """The engines with ``capability`` (an ``EngineInfo`` flag: ``splits``, ``unique``,
    ``strategies``), listed for a sentence."""
    return registry.describe(capability)


__all__ = [
    "AUTO_ENGINE",
    "CONNECT_SECONDS",
    "COUNT_REASON",
    "ENGINES",
    "ENGINE_OPTIONS",
    "FIRST_REASON",
    "MAX_MODEL_N",
    "MAX_SEED",
    "MAX_WORKERS",
    "MIP_ENGINE",
    "MIP_SOLVERS",
    "SOLVE_DEFAULT",
    "SOLVE_FALLBACK",
    "STRATEGIES",
    "EngineInfo",
    "EngineOption",
    "engines_that",
]

"""The engine registry: every engine by name, its options, and what each can take (or why not).
What ``auto`` picks among them is ``nqueens.run.auto``'s to say.

Adding an engine is one module under ``nqueens/engines`` and one line in ``_ENGINES``. Engine
modules import their solvers only when a search runs, so reading the registry is cheap.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from nqueens.core.memory import gigabytes, headroom
from nqueens.core.results import InputError
from nqueens.core.validation import shown
from nqueens.engines import bitboard, cp, cpsat, gpu, join, local, mip, reduced
from nqueens.engines.base import DOING, Engine, EngineOption, Request

_ENGINES: tuple[Engine, ...] = (
    cpsat.ENGINE,
    cp.ENGINE,
    mip.ENGINE,
    bitboard.ENGINE,
    join.ENGINE,
    local.ENGINE,
    reduced.ENGINE,
    gpu.ENGINE,
)

ENGINES: dict[str, Engine] = {engine.name: engine for engine in _ENGINES}

OPTIONS: dict[str, tuple[EngineOption, Engine]] = {
    option.name: (option, engine) for engine in _ENGINES for option in engine.options
}
"""Every engine's own options, by name, with the engine that offers each."""

AUTO_ENGINE = "auto"
"""The engine name that lets nqueens choose: the fastest engine that can take the request."""


def describe(capability: str) -> str:
    """The engines that declare ``capability`` (an Engine flag such as ``splits``), for help."""
    return ", ".join(name for name, engine in ENGINES.items() if getattr(engine, capability))


def takes_seed(engine: str, strategy: str | None) -> bool:
    """Whether the search that answered as ``engine`` with ``strategy`` drew on the seed (a
    theorem, which is no engine, never does)."""
    answered = ENGINES.get(engine)
    return answered is not None and answered.takes_seed(strategy)


def engine_named(name: str, *, or_auto: bool = False) -> Engine:
    """The engine called ``name``; InputError for a name no engine has, naming the engines
    (and ``auto``, where the caller ``or_auto`` takes it too)."""
    engine = ENGINES.get(name) if isinstance(name, str) else None
    if engine is None:
        choices = ", ".join([*ENGINES, *([AUTO_ENGINE] if or_auto else [])])
        raise InputError(f"unknown engine {shown(name)}; choose from {choices}")
    return engine


def checked_options(given: Mapping[str, object]) -> tuple[tuple[str, str], ...]:
    """Engine options as a request holds them, each name one an engine offers and each value one
    of its choices; InputError naming the option otherwise."""
    options = []
    for name, value in given.items():
        if name not in OPTIONS:
            raise InputError(
                f"unknown option {shown(name)}; engines offer {', '.join(OPTIONS)}", argument=name
            )
        option = OPTIONS[name][0]
        if not isinstance(value, str) or value not in option.choices:
            raise InputError(
                f"unknown {option.what} {shown(value)}; choose from {', '.join(option.choices)}",
                argument=name,
            )
        options.append((name, value))
    return tuple(options)


def refusal(engine: Engine, request: Request) -> str | None:
    """Why ``engine`` cannot take ``request``, in a few words; None when it can. Engine options
    are named as ``{name}``, for the caller to spell."""
    if request.command not in engine.commands:
        return f"the {engine.name} engine does not {DOING[request.command]}"
    if request.unique and not engine.unique:
        return f"the {engine.name} engine does not know the board's symmetry (unique solutions)"
    if request.board.constrained and not engine.puzzles:
        return f"the {engine.name} engine does not take given queens or blocked squares"
    for rule in sorted(request.board.rules - engine.rules):
        return f"the {engine.name} engine does not take the {rule} rule"
    if request.strategy is not None and request.strategy not in engine.strategies:
        if not engine.strategies:
            return (
                f"the {engine.name} engine has no search strategy to choose: it keeps its own order"
            )
        return (
            f"the {engine.name} engine does not follow the {request.strategy} strategy "
            f"(it follows {', '.join(engine.strategies)})"
        )
    offered = {option.name for option in engine.options}
    for name, _ in request.options:
        if name not in offered:
            option, owner = OPTIONS[name]
            return (
                f"the {engine.name} engine has no {option.what} to choose: {{{name}}} is the "
                f"{owner.name} engine's"
            )
    if request.n > engine.max_n:
        return (
            f"the {engine.name} engine {engine.max_n_reason} and takes boards up to "
            f"N = {engine.max_n:,}, not {request.n:,}"
        )
    needed = engine.memory_needed(request)
    if needed:
        available = headroom()
        if available is not None and needed > available:
            return (
                f"the {engine.name} engine needs about {gigabytes(needed)} for N = {request.n:,}, "
                f"and this process may take {gigabytes(max(0, available))} more (ulimit -v, or "
                "the machine's memory)"
            )
    return engine.refusal(request)


def verdicts(request: Request) -> dict[str, str | None]:
    """Each engine that has the request's command, with why it cannot take the request (None:
    it can)."""
    return {
        name: refusal(engine, request)
        for name, engine in ENGINES.items()
        if request.command in engine.commands
    }


def able(request: Request) -> list[str]:
    """The engines that can take ``request``."""
    return [name for name, why in verdicts(request).items() if why is None]


def check(engine: Engine, request: Request) -> None:
    """Raise InputError, naming the engines that can, unless ``engine`` takes ``request``.

    Where it refuses the board itself, those are the engines that take the board, each with its
    own strategy and options, so that every refusal of one board names the same engines; where
    it refuses only the strategy or an option, those that take them."""
    reason = refusal(engine, request)
    if reason is None:
        return
    own_choices = replace(request, strategy=None, options=())
    if refusal(engine, own_choices) is not None:
        request = own_choices
    others = [name for name in able(request) if name != engine.name]
    if others:
        reason += f"; engines that can: {', '.join(others)}"
    raise InputError(reason, names=tuple(OPTIONS))

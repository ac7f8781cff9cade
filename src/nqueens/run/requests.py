"""A call's arguments checked as one request, and the engine it names or ``auto`` picks."""

from __future__ import annotations

from collections.abc import Iterable

from nqueens.core import validation
from nqueens.core.board import MAX_N, Board, excluded_diagonals
from nqueens.core.known_counts import KNOWN_TOTALS
from nqueens.core.plans import Attempt, Note, Plan
from nqueens.core.results import InputError, Square
from nqueens.core.strategies import STRATEGIES
from nqueens.engines import registry
from nqueens.engines.base import COUNT, FIRST, MAX_SEED, Engine, Request

MAX_MODEL_N = 10_000
"""The largest board ``solve`` and ``count`` take: beyond it, building a model is not useful."""


def check_board_size(n: int, command: str = FIRST) -> int:
    """``n`` if ``command`` takes boards that large; InputError naming ``n`` otherwise."""
    largest = MAX_N if command == FIRST else MAX_MODEL_N
    if n > largest:
        what = "finds a solution for" if command == FIRST else "builds a model for"
        raise InputError(
            f"N = {validation.shown(n)} is larger than {largest:,}, "
            f"the largest board nqueens {what}",
            argument="n",
        )
    return n


def board_of(
    n: int | Board,
    queens: Iterable[Square],
    blocked: Iterable[Square],
    excluded: Iterable[tuple[str, int]],
) -> Board:
    """The board a call asks about: a Board as it is, or N and the squares given beside it."""
    if not isinstance(n, Board):
        return Board(n, queens, blocked, excluded)
    if any(validation.squares(given, "squares") for given in (queens, blocked)) or any(
        excluded_diagonals(excluded)
    ):
        raise InputError("give the squares in the Board, or N and the squares, not both")
    return n


def request_of(
    command: str,
    n: int | Board,
    *,
    queens: Iterable[Square],
    blocked: Iterable[Square],
    excluded: Iterable[tuple[str, int]],
    strategy: str | None,
    engine_options: dict[str, str],
    time_limit: float | None,
    limit: int | None = None,
    unique: bool = False,
    symmetry: bool = True,
    seed: int | None = None,
) -> Request:
    """The arguments every command shares, checked, as one request. Whether a search without a
    limit ends in reasonable time is its engine's to say: the caller checks it once it has one."""
    unique = validation.flag(unique, "unique")
    symmetry = validation.flag(symmetry, "symmetry")
    board = board_of(n, queens, blocked, excluded)
    check_board_size(board.n, command)
    if limit is not None:
        limit = validation.whole_number(limit, "the solution limit", minimum=1)
    time_limit = validation.seconds(time_limit)
    if seed is not None:
        seed = validation.whole_number(seed, "the seed", minimum=0, maximum=MAX_SEED)
    if strategy is not None and strategy not in STRATEGIES:
        raise InputError(
            f"unknown strategy {validation.shown(strategy)}; choose from {', '.join(STRATEGIES)}"
        )
    options = registry.checked_options(engine_options)
    if unique and not board.symmetric:
        raise InputError("unique solutions need a symmetric board: the given squares break it")
    if unique and not symmetry:
        raise InputError("unique solutions come from the board's symmetry: keep symmetry on")
    request = Request(
        command,
        board,
        strategy=strategy,
        limit=limit,
        time_limit=time_limit,
        unique=unique,
        symmetry=symmetry,
        options=options,
        seed=seed,
    )
    return request


COUNT_REASON = "the fastest exact engine that can take the board"
"""Why ``count``'s auto engine runs the engine it picks."""

FIRST_REASON = "the engines measured fastest to a first solution, in turn"
"""Why ``first``'s auto engine runs the searches of its plan."""


def engine_for(name: str, request: Request) -> tuple[Engine, str]:
    """The engine called ``name`` (``auto``: the engine whose options were given, or else the
    fastest that can count, or solve's default), checked against the request, and why it runs."""
    asked = name != registry.AUTO_ENGINE
    engine = registry.engine_named(name, or_auto=True) if asked else None
    owner = registry.option_owner(request)
    if engine is not None:
        reason = "the engine asked for"
    elif owner is not None:
        engine, reason = owner, "its own options were given"
    elif request.command == COUNT:
        engine, reason = registry.for_count(request), COUNT_REASON
    else:
        engine = registry.for_solve(request)
        reason = "the engine that lists the board's solutions fastest of those that can take it"
    registry.check(engine, request)
    return engine, reason


def plan_of(
    request: Request,
    engine: str,
    reason: str,
    *,
    attempts: tuple[Attempt, ...] | None = None,
    said: tuple[Note, ...] = (),
) -> Plan:
    """The plan of ``request``: ``engine`` runs (or the ``attempts`` in turn) for ``reason``,
    with the notes ``said`` first."""
    board = request.board
    return Plan(
        command=request.command,
        board=board,
        engine=engine,
        reason=reason,
        attempts=attempts or (Attempt(engine, request.strategy),),
        notes=said,
        known_total=KNOWN_TOTALS.get(board.n) if board.plain else None,
        judged=lambda: registry.verdicts(request),
    )

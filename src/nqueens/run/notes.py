"""What is worth saying beside a search's answer: before it, that a theorem was set aside or the
engine named is far slower than auto's; after it, why nothing was found, or that a seed or an
option changed nothing."""

from __future__ import annotations

from dataclasses import dataclass

from nqueens.core import theorems
from nqueens.core.board import Board
from nqueens.core.known_counts import KNOWN_TOTALS
from nqueens.core.notes import Note
from nqueens.core.results import Stats
from nqueens.core.wording import duration
from nqueens.engines import registry
from nqueens.engines.base import COUNT, FIRST, Engine, Request
from nqueens.run import auto


def before_search(
    request: Request, chosen: Engine, *, own_search: bool, named: bool
) -> tuple[Note, ...]:
    """What to say before the ``chosen`` engine, which takes ``request``, searches it: a theorem
    set aside where the request chose its own search (``own_search``), and an engine far slower
    than the one nqueens would pick where the request ``named`` it."""
    aside = _theorem_set_aside(request.board) if own_search else None
    slow = _slow_engine(request, chosen) if named else None
    return tuple(note for note in (aside, slow) if note is not None)


def _theorem_set_aside(board: Board) -> Note | None:
    """Where a theorem says the board has no solution but the request chose its search, which
    must then prove it, at length on large boards."""
    reason = theorems.without_solution(board)
    if reason is None:
        return None
    return Note(
        f"no solution exists for {board.title}: {reason}. The search you chose must prove "
        "it, which takes long on large boards; without {engine}, {strategy} or an engine's "
        "option the answer comes at once.",
        names=("engine", "strategy"),
    )


def _slow_engine(request: Request, named: Engine) -> Note | None:
    """Where the engine ``named`` would take far longer than the one nqueens would choose; the
    search still runs as asked."""
    board = request.board
    slow = slow_choice(Request(request.command, board, time_limit=request.time_limit), named)
    if slow is None:
        return None
    return Note(
        f"the {named.name} engine takes about {duration(slow.seconds)} over "
        f"{board.title}'s solutions; the {slow.faster} engine "
        f"{_about(slow.faster_seconds)} ({{engine}} {slow.faster}, or no {{engine}}).",
        names=("engine",),
    )


SLOW_CHOICE_SECONDS = 10.0
"""An engine chosen by name is noted as slow from this estimate on, where auto's is ten times
faster."""


@dataclass(frozen=True)
class SlowChoice:
    """An engine named for a request that auto's choice would answer far sooner, by the rates
    the engines declare: both estimates, in seconds."""

    seconds: float
    faster: str
    faster_seconds: float


def slow_choice(request: Request, engine: Engine) -> SlowChoice | None:
    """Where ``engine``, which takes ``request``, would count or list the solutions of a plain
    board of known count far longer than auto's choice (at least SLOW_CHOICE_SECONDS, and ten
    times as long), or its time limit allows: what each would take. None otherwise, or where
    either rate is unknown."""
    total = KNOWN_TOTALS.get(request.n) if request.board.plain else None
    if total is None or request.command == FIRST or engine.solutions_per_second is None:
        return None
    seconds = total / engine.solutions_per_second
    if min(seconds, request.time_limit or seconds) < SLOW_CHOICE_SECONDS:
        return None  # soon over: auto's choice is not looked for
    chosen = auto.for_count(request) if request.command == COUNT else None
    chosen = chosen or auto.for_solve(request)
    if chosen is engine or chosen.solutions_per_second is None:
        return None
    faster_seconds = total / chosen.solutions_per_second
    if seconds < 10 * faster_seconds:
        return None
    return SlowChoice(seconds, chosen.name, faster_seconds)


def _about(seconds: float) -> str:
    return "under a second" if seconds < 1 else f"about {duration(seconds)}"


def nothing_started(given: tuple[str, ...]) -> Note | None:
    """Where a theorem answers a count, the arguments ``given`` that then had nothing to do
    (a checkpoint, a cluster, workers)."""
    if not given:
        return None
    return Note(
        "a theorem answers this count without a search, so nothing was written or started for "
        + " and ".join(f"{{{name}}}" for name in given)
        + ".",
        names=given,
    )


def none_exists(board: Board) -> str:
    """Why a board has nothing to show: no solution (and the theorem that says so, where one
    does), or no completion of its given squares."""
    reason = theorems.without_solution(board)
    if reason is not None:
        return f"No solution exists for {board.title}: {reason}."
    closed = theorems.without_completion(board)
    if closed is not None:
        return f"No completion exists for {board.title}: {closed}."
    if board.constrained:
        given = [
            what
            for what, present in (
                ("the given queens", board.queens),
                ("the blocked squares", board.blocked),
                ("the excluded diagonals", board.excluded),
            )
            if present
        ]
        return f"No completion exists: no solution for {board.title} respects {_listed(given)}."
    return f"No solution exists for {board.title}."


def seed_unused(stats: Stats) -> Note | None:
    """Why a seed did not choose the solution found, where the search that answered makes no
    random choices (None: it did)."""
    if registry.takes_seed(stats.engine, stats.strategy):
        return None
    if stats.engine == theorems.THEOREM:
        answered = "a theorem gives this solution without a search"
    else:
        strategy = f" {stats.strategy}" if stats.strategy else ""
        answered = f"the {stats.engine} engine's{strategy} search makes no random choices"
    engines = registry.ENGINES.items()
    seeded = [name for name, engine in engines if engine.takes_seed(None)]
    seeded += [
        f"{name} with {{strategy}} {strategy}"
        for name, engine in engines
        if not engine.takes_seed(None)
        for strategy in engine.strategies
        if engine.takes_seed(strategy)
    ]
    return Note(
        f"{answered}, so {{seed}} changes nothing here; the engines that take it: "
        f"{_listed(seeded)}.",
        names=("seed", "strategy"),
    )


def _listed(words: list[str]) -> str:
    """Words as a sentence lists them: "a", "a and b", "a, b and c"."""
    return " and ".join(filter(None, (", ".join(words[:-1]), words[-1])))

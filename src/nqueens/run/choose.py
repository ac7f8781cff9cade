"""The plan of a search, made before it starts: the engine (or the searches ``first`` tries in
turn, or the theorem that answers), why, what is worth saying first, the time limit, the
workers of a count, and how long a count may run where nothing else bounds it.

Choosing checks everything a search would refuse (InputError), so that a plan that is
returned runs; a refusal made once the notes are known carries them (``InputError.notes``).
"""

from __future__ import annotations

from nqueens.core import theorems
from nqueens.core.known_counts import KNOWN_TOTALS
from nqueens.core.notes import Note
from nqueens.core.plans import Attempt, Plan
from nqueens.core.results import InputError, Solution
from nqueens.engines import registry
from nqueens.engines.base import COUNT, FIRST, Engine, Request
from nqueens.run import auto, bounds, notes
from nqueens.run.answered import theorem_answer
from nqueens.run.executors import default_workers, planned_workers
from nqueens.run.requests import Asked, resumable


def choose(asked: Asked) -> Plan:
    """The plan of what ``asked``: checked, complete, nothing searched."""
    request, engine = asked.request, asked.engine
    if request.command == FIRST and (engine != registry.AUTO_ENGINE or request.options):
        return _engine_plan(asked, engine)  # an engine's options choose it, as its name does
    if request.command == FIRST and request.strategy is not None:
        raise InputError("a strategy needs an engine: the auto engine picks both")
    answer = theorem_answer(request, engine)
    if answer is not None:
        return _theorem_plan(asked, answer)
    if request.command == FIRST:
        attempts = auto.first_attempts(request)
        return _plan(request, attempts[0].engine, auto.FIRST_REASON, attempts=attempts)
    return _engine_plan(asked, engine)


def _theorem_plan(asked: Asked, answer: tuple[Solution, ...]) -> Plan:
    """The plan where a theorem gives the ``answer``, with a note on the count's arguments that
    then have nothing to do."""
    request = asked.request
    reason = theorems.unsolvable(request.board) or "a line of queens solves the board"
    given = {"checkpoint": asked.checkpoint, "cluster": asked.cluster, "workers": asked.workers}
    said = notes.nothing_started(tuple(name for name, value in given.items() if value is not None))
    why = f"a theorem answers without a search: {reason}"
    said_first = () if said is None else (said,)
    return _plan(request, theorems.THEOREM, why, said=said_first, answer=answer)


def _engine_plan(asked: Asked, engine: str) -> Plan:
    """The plan where one engine searches: the one named ``engine``, or auto's choice."""
    request = asked.request
    own_search = auto.names_its_search(engine, request.strategy, request.options)
    named = engine != registry.AUTO_ENGINE
    chosen, reason = auto.engine_for(engine, request)
    said = notes.before_search(request, chosen, own_search=own_search, named=named)
    try:
        if request.command == FIRST:
            return _plan(request, chosen.name, reason, said=said)
        if request.command != COUNT:
            bounds.check_bounded(request, resumable=False, engine=chosen)
            return _plan(request, chosen.name, reason, said=said)
        workers, longest = _count_run(asked, chosen)
    except InputError as refused:
        refused.notes = said
        raise
    return _plan(request, chosen.name, reason, said=said, workers=workers, longest=longest)


def _count_run(asked: Asked, chosen: Engine) -> tuple[int | None, float | None]:
    """How a count with ``chosen`` runs: on how many processes of this machine (None: in one
    piece, or on a remote cluster's workers), and the longest its estimate may say where
    nothing else bounds it; InputError where the engine cannot run so."""
    request, where = asked.request, asked.cluster
    local_workers = None if where is None else where.local_workers
    if where is not None and local_workers is not None and chosen.resource is not None:
        need = chosen.resource
        raise InputError(
            f"{where.address} starts its workers without a {need}: the {chosen.name} engine "
            f"counts on this machine's {need} without a cluster, or on workers started with "
            f"dask worker ADDRESS --resources {need}=1"
        )
    planned = planned_workers(asked.workers, wanted=chosen.wants_workers(request))
    shared = resumable(asked)
    longest = bounds.check_bounded(request, resumable=shared, engine=chosen, workers=planned)
    if not chosen.splits and shared:
        raise InputError(
            f"the {chosen.name} engine counts in one piece; checkpoints and clusters apply to "
            f"{registry.describe('splits')}"
        )
    if not chosen.splits:
        if asked.workers is not None:
            raise InputError(
                f"the {chosen.name} engine searches in one process; "
                f"workers apply to {registry.describe('splits')}"
            )
        return None, longest
    cores = default_workers()
    if where is not None:
        return (None if local_workers is None else min(local_workers, cores)), longest
    return (planned if asked.workers is None else min(asked.workers or cores, cores)), longest


def _plan(
    request: Request,
    engine: str,
    reason: str,
    *,
    attempts: tuple[Attempt, ...] | None = None,
    said: tuple[Note, ...] = (),
    workers: int | None = None,
    longest: float | None = None,
    answer: tuple[Solution, ...] = (),
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
        time_limit=request.time_limit,
        workers=workers,
        longest=longest,
        answer=answer,
        judged=lambda: registry.verdicts(request),
    )

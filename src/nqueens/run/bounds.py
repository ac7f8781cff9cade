"""Which searches may run without a limit, and the refusal of those that may not.

Without a time limit, a solution limit, a checkpoint or a cluster, a count or a listing must
end in reasonable time: the board must be one counted in minutes, or one an engine decides at
once. A count whose length only a timed sample of its pieces can tell is refused once it has
timed them.
"""

from __future__ import annotations

from nqueens.core import theorems
from nqueens.core.known_counts import KNOWN_TOTALS, how_many
from nqueens.core.results import InputError
from nqueens.core.strategies import MAX_UNBOUNDED_ENUMERATION_N
from nqueens.core.wording import duration
from nqueens.engines.base import COUNT, FIRST, Engine, Request

LONGEST_WITHOUT_A_LIMIT = 3600.0
"""A count estimated to take longer than this (an hour) needs a time limit, a checkpoint or a
cluster; a shorter one runs, with its estimate and progress shown, and Ctrl-C gives a lower
bound."""


def check_bounded(
    request: Request, *, resumable: bool, engine: Engine, workers: int = 1
) -> float | None:
    """Refuse a count or a listing that would run for hours with nothing to stop it: no time
    limit, no solution limit, no checkpoint or cluster to resume or share it (``resumable``), more
    free columns than any board counted without a limit, and an ``engine`` that does not say it
    decides the board at once or counts it in minutes (another engine's speed does not bound its
    search).

    A count on ``workers`` cores is refused by how long it would take: at once for a plain board
    of known count, from the engine's speed; for other boards, once the count has timed a sample
    of its pieces (``check_estimate``), where the engine splits the board on this machine's
    cores: for that count, the longest its estimate may say (None where nothing is left to
    check)."""
    board = request.board
    free = board.free_columns
    stopped = request.limit is not None or request.time_limit is not None or resumable
    if request.command == FIRST or stopped or free <= MAX_UNBOUNDED_ENUMERATION_N:
        return None
    if engine.decides_without_limit(request) or engine.counts_in_minutes(request):
        return None
    if request.command == COUNT:
        largest = max(KNOWN_TOTALS)
        # Beyond the counts known, a plain board has more solutions than the largest of them:
        # a bound from the engine's speed, where a sample of such a count would say nothing.
        total = KNOWN_TOTALS[largest] if board.plain and board.n > largest else None
        rate = engine.solutions_per_second
        if total is not None and rate is not None and engine.resource is None:
            check_estimate(request, total / (rate * max(1, workers)), workers)
            return None
        if engine.splits and engine.resource is None:
            # the count times a sample of its pieces first, the estimate that a count with a
            # checkpoint says too: one estimator for the refusal and the count
            return LONGEST_WITHOUT_A_LIMIT
    raise unbounded(request, None, workers)


def check_estimate(
    request: Request,
    seconds: float,
    workers: int,
    sure: str = "",
    longest: float = LONGEST_WITHOUT_A_LIMIT,
) -> None:
    """Refuse a count without a limit that is estimated to take ``seconds`` on ``workers``
    cores, where that is ``longest`` or more; ``sure`` says how sure the estimate is, in
    words."""
    if seconds >= longest:
        raise unbounded(request, seconds, workers, sure)


def unbounded(request: Request, seconds: float | None, workers: int, sure: str = "") -> InputError:
    """The refusal of a count or listing too long to run without a limit (``seconds``: how long
    the count was estimated to take on ``workers`` cores, ``sure`` how sure that is)."""
    board = request.board
    free = board.free_columns
    if board.queens:
        size = f"{free} columns have no given queen"
    elif board.rules:  # the classic count says nothing of a board with other rules
        size = f"{board.title} has {free} columns to fill"
    else:
        size = how_many(board.n)
    if seconds is None:
        size = f"{size}, too many to go through without a limit"
    else:
        cores = f"{workers:,} core{'s' if workers != 1 else ''}"
        about = "more than" if board.plain and board.n > max(KNOWN_TOTALS) else "about"
        size = f"{size}: counting them takes {about} {duration(seconds)} on {cores} here"
        if sure:
            size += f" ({sure})"
    reason = theorems.unsolvable(board)
    known = (
        " Left to pick its own search (no {engine}, {strategy} or engine option), nqueens "
        f"answers at once: {reason}."
        if reason
        else ""
    )
    if request.command == COUNT:
        advice = (
            "Give a time limit ({time_limit}) for a partial count, a lower bound, or count with "
            "{checkpoint} or {cluster} so the work can be resumed or shared."
        )
    else:
        advice = "Give a solution limit ({limit}) or a time limit ({time_limit}) to list the first."
    return InputError(
        f"{size}. {advice}{known}",
        names=("time_limit", "limit", "checkpoint", "cluster", "engine", "strategy"),
    )

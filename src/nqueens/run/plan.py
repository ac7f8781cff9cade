"""What the auto engine of ``first`` runs, and which searches may run without a limit.

Without a time limit, a solution limit, a checkpoint or a cluster, a count or a listing must
end in reasonable time: the board must be one counted in minutes, or one an engine decides at
once. ``first`` runs, in turn, the engines and strategies measured fastest to a first solution.

Measured with ``nqueens bench`` and ``benchmarks/completion.py`` (the figures are in
docs/explanation/performance.md):

- The plain problem: the original CP solver with the Oz tutorial's first-fail, middle-value
  search answers boards of thousands in seconds, where CP-SAT's default search stalls on
  hundreds.
- Large boards: local search, which answers from N = 500 on sooner than first-fail, measured
  as whole processes; it cannot prove that no solution exists, but every board from 4 on has
  one. Below that, first-fail answers as soon, and with the same board every run.
- Completion puzzles: that same first-fail search answers most instances at once but gets lost in
  some, which CP-SAT decides. So the plan is a short portfolio: the fast search first, with a
  small budget, then CP-SAT. On large puzzles local search goes first, with a budget, as it is
  the only search that answers them in seconds.
- Excluded Diagonals (the paper's instances, n up to 22): the reduced engine's exact bitmask
  search, which decides the hard ones near the phase transition in about a second, where the
  paper's own solver takes up to tens of seconds, and the easy ones as soon as first-fail.

With a seed (``first --seed``), the searches that make no random choices step aside where one that
does can decide the board: local search on boards it answers without a limit (plain from N = 4),
CP-SAT instead of first-fail on puzzles and tori. The seed is asked for so that another seed gives
another solution, which first-fail never would.

Before any of these, a theorem may answer (``nqueens.core.theorems``): a torus whose N is
divisible by 2 or 3 has no solution, which a search proves only by going through the whole board,
nor do given squares that close a whole row, column or (on a torus) wrapped diagonal; and a torus
that has solutions has one on a line, where the searches above get lost from a few dozen columns
on.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from nqueens.core import theorems
from nqueens.core.board import Board
from nqueens.core.known_counts import KNOWN_TOTALS, how_many
from nqueens.core.plans import Attempt
from nqueens.core.results import InputError, Solution, Stats, Status
from nqueens.core.strategies import AUTO, FIRST_FAIL_MID, MAX_UNBOUNDED_ENUMERATION_N
from nqueens.core.wording import duration
from nqueens.engines import bitboard, cp, cpsat, local, reduced, registry
from nqueens.engines.base import COUNT, FIRST, Engine, Request
from nqueens.engines.streams import EngineStream

FIRST_TRY_SECONDS = 1.0
"""How long the fast search gets on a puzzle before CP-SAT takes over."""

LOCAL_FROM_N = 500
"""From this size on, local search answers first where it needs no time limit (the plain board,
superqueens; whole processes timed)."""

LOCAL_PUZZLE_FROM_N = 500
"""From this size on, local search gets the first try at a puzzle."""

LOCAL_TRY_SECONDS = 3.0
"""How long local search gets on a puzzle before the complete engines take over."""

REDUCED_FIRST_MAX_FREE = 32
"""A puzzle on a board too large for the bitboard engine, with at most this many free columns,
goes straight to the reduced engine: exact, and at once on CSPLib's published instances (about
20 free columns)."""


class Answered(EngineStream):
    """The solutions a theorem gives, at once: none, or a line of queens."""

    def __init__(self, request: Request, solutions: tuple[Solution, ...], started: float) -> None:
        self._request = request
        self._waiting = list(solutions)
        self._started = started

    def _next_solution(self) -> Solution | None:
        if self._waiting:
            return self._waiting.pop(0)
        self._end(Status.COMPLETE)
        return None

    def _end(self, status: Status) -> None:
        request = self._request
        classes = (request.unique or request.command == COUNT) and request.board.symmetric
        self._stats = Stats(
            n=request.n,
            solutions=self._delivered,
            conflicts=0,
            branches=0,
            wall_time=time.monotonic() - self._started,
            status=status,
            engine=theorems.THEOREM,
            counter_names=theorems.COUNTERS,
            unique=self._delivered if classes else None,
        )


def names_its_search(engine: str, strategy: str | None, options: object) -> bool:
    """Whether a request chooses its own search (an engine, a strategy or an engine's option),
    which then runs even where a theorem answers at once."""
    return engine != registry.AUTO_ENGINE or strategy is not None or bool(options)


def answered_at_once(request: Request, engine: str) -> Answered | None:
    """What a theorem answers of ``request`` without a search, where nqueens picks the search
    (see ``names_its_search``): no solution at all, or, for ``first``, a line of queens. None
    where no theorem answers."""
    if names_its_search(engine, request.strategy, request.options):
        return None
    started = time.monotonic()
    if theorems.unsolvable(request.board):
        return Answered(request, (), started)
    rows = theorems.line_of_queens(request.board) if request.command == FIRST else None
    return None if rows is None else Answered(request, (Solution(rows),), started)


def first_plan(board: Board, *, seeded: bool = False) -> list[Attempt]:
    """The attempts, in order, to find one solution for a board and its given squares; for a
    ``seeded`` request, only the searches that draw on the seed wherever one of them decides."""
    if local.ENGINE.refusal(Request(FIRST, board)) is None and (seeded or board.n >= LOCAL_FROM_N):
        return [Attempt(local.NAME, None)]  # a board local search answers without a limit
    plan = _fastest_first(board)
    if seeded:
        seeding = [each for each in plan if registry.takes_seed(each.engine, each.strategy)]
        if seeding and seeding[-1] == plan[-1]:  # the last, deciding search takes the seed
            return seeding
    return plan


def fitting(plan: list[Attempt], request: Request) -> list[Attempt]:
    """The attempts of ``plan`` whose engines take ``request`` here and now (the memory this
    process may take above all: ``ulimit -v``); where none does, the first engine that can,
    on its own (a plan that nothing here can run is left to refuse itself)."""
    kept = [attempt for attempt in plan if registry.refusal(*as_tried(attempt, request)) is None]
    if kept:
        return kept
    able = registry.able(replace(request, strategy=None))
    return [Attempt(able[0], None)] if able else plan


def as_tried(attempt: Attempt, request: Request) -> tuple[Engine, Request]:
    """The engine of ``attempt`` and the request it is given: its strategy, and its own share
    of the time left (``request``'s) where it has one (local search takes a puzzle only under a
    limit)."""
    limit = request.time_limit
    if attempt.seconds is not None:
        limit = attempt.seconds if limit is None else min(limit, attempt.seconds)
    # The deadline is worked out anew from the share: one carried over would hold the whole
    # limit, and the first attempt would spend it all.
    tried = replace(request, strategy=attempt.strategy, time_limit=limit, deadline=None)
    return registry.engine_named(attempt.engine), tried


def _fastest_first(board: Board) -> list[Attempt]:
    """The attempts measured fastest, for a board that local search does not answer alone."""
    n = board.n
    if board.rules:  # the engines that take rules: the fast search, then CP-SAT
        if n > cpsat.ENGINE.max_n:
            return [Attempt(cp.NAME, FIRST_FAIL_MID)]
        return [Attempt(cp.NAME, FIRST_FAIL_MID, FIRST_TRY_SECONDS), Attempt(cpsat.NAME, AUTO)]
    if not board.constrained:
        return [Attempt(cp.NAME, FIRST_FAIL_MID)]
    free = board.free_columns
    if n > bitboard.ENGINE.max_n and free <= REDUCED_FIRST_MAX_FREE:
        return [Attempt(reduced.NAME, None)]
    if board.excluded and free <= reduced.MAX_FREE:
        return [Attempt(reduced.NAME, None)]
    plan = []
    if n >= LOCAL_PUZZLE_FROM_N:
        plan.append(Attempt(local.NAME, None, LOCAL_TRY_SECONDS))
    if n > cpsat.ENGINE.max_n:
        return [*plan, Attempt(cp.NAME, FIRST_FAIL_MID)]
    return [
        *plan,
        Attempt(cp.NAME, FIRST_FAIL_MID, FIRST_TRY_SECONDS),
        Attempt(cpsat.NAME, AUTO),
    ]


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


def slow_choice(request: Request, engine: str) -> SlowChoice | None:
    """Where ``engine`` would count or list the solutions of a plain board of known count far
    longer than auto's choice (at least SLOW_CHOICE_SECONDS, and ten times as long), or its
    time limit allows: what each would take. None otherwise, or where either rate is unknown."""
    total = KNOWN_TOTALS.get(request.n) if request.board.plain else None
    named = registry.ENGINES.get(engine)
    if total is None or named is None or request.command == FIRST:
        return None
    if registry.refusal(named, request) is not None:  # it says so itself
        return None
    chosen = registry.for_count(request) if request.command == COUNT else None
    chosen = chosen or registry.for_solve(request)
    rates = (named.solutions_per_second, chosen.solutions_per_second)
    if chosen is named or rates[0] is None or rates[1] is None:
        return None
    seconds, faster_seconds = total / rates[0], total / rates[1]
    if min(seconds, request.time_limit or seconds) < SLOW_CHOICE_SECONDS:
        return None
    if seconds < 10 * faster_seconds:
        return None
    return SlowChoice(seconds, chosen.name, faster_seconds)


LONGEST_WITHOUT_A_LIMIT = 3600.0
"""A count estimated to take longer than this (an hour) needs a time limit, a checkpoint or a
cluster; a shorter one runs, with its estimate and progress shown, and Ctrl-C gives a lower
bound."""


def check_bounded(request: Request, *, resumable: bool, engine: Engine, workers: int = 1) -> bool:
    """Refuse a count or a listing that would run for hours with nothing to stop it: no time
    limit, no solution limit, no checkpoint or cluster to resume or share it (``resumable``), more
    free columns than any board counted without a limit, and an ``engine`` that does not say it
    decides the board at once or counts it in minutes (another engine's speed does not bound its
    search).

    A count on ``workers`` cores is refused by how long it would take: at once for a plain board
    of known count, from the engine's speed; for other boards, once the count has timed a sample
    of its pieces (``check_estimate``), where the engine splits the board on this machine's
    cores: True where that count must check its estimate so."""
    board = request.board
    free = board.free_columns
    stopped = request.limit is not None or request.time_limit is not None or resumable
    if request.command == FIRST or stopped or free <= MAX_UNBOUNDED_ENUMERATION_N:
        return False
    if engine.decides_without_limit(request) or engine.counts_in_minutes(request):
        return False
    if request.command == COUNT:
        largest = max(KNOWN_TOTALS)
        # Beyond the counts known, a plain board has more solutions than the largest of them:
        # a bound from the engine's speed, where a sample of such a count would say nothing.
        total = KNOWN_TOTALS[largest] if board.plain and board.n > largest else None
        rate = engine.solutions_per_second
        if total is not None and rate is not None and engine.resource is None:
            check_estimate(request, total / (rate * max(1, workers)), workers)
            return False
        if engine.splits and engine.resource is None:
            # the count times a sample of its pieces first, the estimate that a count with a
            # checkpoint says too: one estimator for the refusal and the count
            return True
    raise unbounded(request, None, workers)


def check_estimate(request: Request, seconds: float, workers: int, sure: str = "") -> None:
    """Refuse a count without a limit that is estimated to take ``seconds`` on ``workers``
    cores, where that is LONGEST_WITHOUT_A_LIMIT or more; ``sure`` says how sure the estimate
    is, in words."""
    if seconds >= LONGEST_WITHOUT_A_LIMIT:
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

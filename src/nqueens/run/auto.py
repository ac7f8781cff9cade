"""What the auto engine runs: the engine a request names or auto picks, and the searches that
``first`` tries in turn.

``count`` takes the fastest exact engine that can, by the ranks the engines declare; ``solve``
the engine that lists fastest. ``first`` runs, in turn, the engines and strategies measured
fastest to a first solution.

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
"""

from __future__ import annotations

from dataclasses import replace

from nqueens.core.board import Board
from nqueens.core.plans import Attempt
from nqueens.core.strategies import AUTO, FIRST_FAIL_MID, MAX_UNBOUNDED_ENUMERATION_N
from nqueens.engines import bitboard, cp, cpsat, local, reduced, registry
from nqueens.engines.base import COUNT, FIRST, Engine, Request

SOLVE_DEFAULT = bitboard.NAME
"""The engine ``solve`` runs unless told, where it can and no other engine is suited better: it
lists in the OR-Tools guide's order, puzzles and rules included, a block of solutions at a time."""

SOLVE_FALLBACK = cpsat.NAME
"""What ``solve`` runs where the default cannot (a --strategy of its own, a board over 64)."""

COUNT_REASON = "the fastest exact engine that can take the board"
"""Why ``count``'s auto engine runs the engine it picks."""

FIRST_REASON = "the engines measured fastest to a first solution, in turn"
"""Why ``first``'s auto engine runs the searches of its plan."""

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


def names_its_search(engine: str, strategy: str | None, options: object) -> bool:
    """Whether a request chooses its own search (an engine, a strategy or an engine's option),
    which then runs even where a theorem answers at once."""
    return engine != registry.AUTO_ENGINE or strategy is not None or bool(options)


def engine_for(name: str, request: Request) -> tuple[Engine, str]:
    """The engine called ``name`` (``auto``: the engine whose options were given, or else the
    fastest that can count, or the one that lists fastest), checked against the request, and
    why it runs."""
    asked = name != registry.AUTO_ENGINE
    engine = registry.engine_named(name, or_auto=True) if asked else None
    owner = option_owner(request)
    if engine is not None:
        reason = "the engine asked for"
    elif owner is not None:
        engine, reason = owner, "its own options were given"
    elif request.command == COUNT:
        engine, reason = for_count(request), COUNT_REASON
    else:
        engine = for_solve(request)
        reason = "the engine that lists the board's solutions fastest of those that can take it"
    registry.check(engine, request)
    return engine, reason


def option_owner(request: Request) -> Engine | None:
    """The one engine whose own options the request gives, which is the one ``auto`` runs; None
    when none are given (or those of several engines, which checking the choice refuses)."""
    owners = {registry.OPTIONS[name][1] for name, _ in request.options}
    return owners.pop() if len(owners) == 1 else None


def for_count(request: Request) -> Engine:
    """The fastest exact engine that can count ``request``, by the ranks the engines declare (the
    last choice when none can, so that checking it says why). The ranks for excluded diagonals
    apply beyond the free columns every engine counts without a limit: within them the bitboard
    engine counts such boards as fast as the reduced engine or up to twice as fast
    (``benchmarks/diagonals.py --count-engines``)."""
    engines = registry.ENGINES.values()
    excluded = request.board.free_columns > MAX_UNBOUNDED_ENUMERATION_N and any(
        engine.prefers(request) for engine in engines
    )

    def rank(engine: Engine) -> int | None:
        return engine.excluded_diagonals_rank if excluded else engine.count_rank

    candidates = sorted(
        (engine for engine in engines if rank(engine) is not None and engine.gains(request)),
        key=lambda engine: rank(engine) or 0,
    )
    return _first_able([*candidates, *engines], request, candidates[-1])


def for_solve(request: Request) -> Engine:
    """The engine that lists the solutions of ``request``: one that prefers it (the reduced
    engine, for excluded diagonals), else the bitboard engine, which lists fastest, else CP-SAT,
    else the fastest counter that can take it (a puzzle on a board too large for CP-SAT), else
    any that can; CP-SAT when none can, so that checking it says why."""
    engines = registry.ENGINES
    default, fallback = engines[SOLVE_DEFAULT], engines[SOLVE_FALLBACK]
    preferred = [engine for engine in engines.values() if engine.prefers(request)]
    counters = sorted(
        (engine for engine in engines.values() if engine.count_rank is not None),
        key=lambda engine: engine.count_rank or 0,
    )
    candidates = [*preferred, default, fallback, *counters, *engines.values()]
    return _first_able(candidates, request, fallback)


def _first_able(candidates: list[Engine], request: Request, refused: Engine) -> Engine:
    """The first of ``candidates`` that can take ``request`` (the ranked ones first, then any
    engine that can: the original CP solver takes boards too large for the others); ``refused``
    when none can, so that checking it says why."""
    return next((e for e in candidates if registry.refusal(e, request) is None), refused)


def first_attempts(request: Request) -> tuple[Attempt, ...]:
    """The searches ``first`` runs in turn for ``request``, those measured fastest, kept to the
    ones that take it here and now (see ``fitting``); the first is checked like any engine
    choice (InputError naming the engines that can), a later one that cannot is skipped."""
    attempts = fitting(first_plan(request.board, seeded=request.seed is not None), request)
    registry.check(*as_tried(attempts[0], request))
    return tuple(attempts)


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

"""The public Python API: ``solve``, ``count`` and ``first``. The CLI is built on these.

They check their arguments, pick the engine from the registry (``nqueens.engines.registry``), and
hand it the search; solvers are imported only when a search actually runs, so importing ``nqueens``
(and ``nqueens --help``) stays fast.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from nqueens.core import signals, validation
from nqueens.core.board import MAX_N, Board, excluded_diagonals
from nqueens.core.results import FirstResult, InputError, Solution, Square, Stats
from nqueens.core.strategies import STRATEGIES
from nqueens.engines import registry
from nqueens.engines.base import COUNT, FIRST, MAX_SEED, SOLVE, Engine, Request
from nqueens.engines.streams import EngineStream, count_all, first_of
from nqueens.run.plan import answered_at_once, as_tried, check_bounded, first_plan, fitting

if TYPE_CHECKING:
    from nqueens.run.counting import EstimateCallback, ProgressCallback


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


def _request(
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


def _engine(name: str, request: Request) -> Engine:
    """The engine called ``name`` (``auto``: the engine whose options were given, or else the
    fastest that can count, or solve's default), checked against the request."""
    if name != registry.AUTO_ENGINE and not (isinstance(name, str) and name in registry.ENGINES):
        choices = ", ".join([*registry.ENGINES, registry.AUTO_ENGINE])
        raise InputError(f"unknown engine {validation.shown(name)}; choose from {choices}")
    if name != registry.AUTO_ENGINE:
        engine = registry.engine_named(name)
    else:
        engine = registry.option_owner(request) or (
            registry.for_count(request) if request.command == COUNT else registry.for_solve(request)
        )
    registry.check(engine, request)
    return engine


@signals.guarded
def solve(
    n: int | Board,
    *,
    limit: int | None = None,
    time_limit: float | None = None,
    unique: bool = False,
    engine: str = registry.AUTO_ENGINE,
    strategy: str | None = None,
    queens: Iterable[Square] = (),
    blocked: Iterable[Square] = (),
    excluded: Iterable[tuple[str, int]] = (),
    **engine_options: str,
) -> EngineStream:
    """Every solution for an n x n board, yielded as the engine finds them.

    ``limit`` stops after that many solutions, ``time_limit`` after that many seconds; ``unique``
    yields one solution per class under the 8 symmetries of the square (its lexicographically
    smallest). ``queens`` must be kept and ``blocked`` squares and ``excluded`` diagonals left
    empty (0-based ``(row, col)``; ``("sum", row + col)`` or ``("difference", row - col)``).
    The stream's ``stats`` tell how the search ended once it is exhausted or closed. Other
    keywords are the engine's own options, such as ``mip_solver="glpk"`` for the mip engine.

    ``engine="auto"`` runs CP-SAT, or the reduced engine for excluded diagonals and for puzzles
    on boards too large for CP-SAT; a theorem answers without a search where one does (a torus
    whose N is divisible by 2 or 3 has no solution, nor given squares that close a whole row or
    column): ``stats.engine`` is then ``"theorem"``.
    """
    request = _request(
        SOLVE,
        n,
        queens=queens,
        blocked=blocked,
        excluded=excluded,
        strategy=strategy,
        engine_options=engine_options,
        time_limit=time_limit,
        limit=limit,
        unique=unique,
    )
    answered = answered_at_once(request, engine)
    if answered is not None:
        return answered.stopping_after(request.limit)
    chosen = _engine(engine, request)
    check_bounded(request, resumable=False, engine=chosen)
    chosen.prepare(request)
    stream = chosen.solve(replace(request, strategy=chosen.strategy_for(request)))
    return stream.stopping_after(request.limit).found_on(request.board)


@signals.guarded
def count(
    n: int | Board,
    *,
    time_limit: float | None = None,
    workers: int | None = None,
    symmetry: bool = True,
    unique: bool = False,
    on_progress: ProgressCallback | None = None,
    on_estimate: EstimateCallback | None = None,
    engine: str = registry.AUTO_ENGINE,
    strategy: str | None = None,
    queens: Iterable[Square] = (),
    blocked: Iterable[Square] = (),
    excluded: Iterable[tuple[str, int]] = (),
    checkpoint: str | os.PathLike[str] | None = None,
    cluster: str | None = None,
    connect_timeout: float | None = 10.0,
    **engine_options: str,
) -> Stats:
    """Count the solutions for an n x n board exactly; ``stats.solutions`` is the count.

    ``engine="auto"`` takes the fastest exact engine that can (``stats.engine`` names it), or none
    where a theorem answers (a torus whose N is divisible by 2 or 3 has no solution, nor given
    squares that close a whole row or column; the engine is then ``"theorem"``, and the count
    needs no workers, checkpoint or cluster). Engines
    that know the board's symmetry use it (``symmetry=False`` turns that off) and report the
    number of classes in ``stats.unique``; ``unique`` asks for it and refuses engines that cannot.
    Splitting engines share the search among ``workers`` processes (default and 0: every core; 1
    searches in this process) and call ``on_progress(done, total, solutions)`` as each
    subproblem finishes. ``queens`` must be kept and ``blocked`` squares and ``excluded``
    diagonals left empty (0-based ``(row, col)``; ``("sum", row + col)`` or ``("difference",
    row - col)``); they break the board's symmetry, so the count then goes without it. Ctrl-C
    raises ``SearchInterrupted``, whose ``stats`` hold the partial count.

    ``checkpoint`` names a file that keeps every finished subproblem's count: the same count run
    again with it resumes, and a finished one answers at once; when it cannot be written (a full
    disk), the count stops with ``CheckpointUnwritable``, an OSError. ``cluster`` counts on a Dask
    cluster: a scheduler's address (``"tcp://host:8786"``), or ``"local:K"`` for K worker
    processes here; a scheduler that does not answer within ``connect_timeout`` seconds (or the
    time limit, if sooner) raises ``ClusterUnreachable``, and one that goes away in the middle
    stops the count with ``ClusterLost``. With either, counts beyond N = 18 are
    allowed without a time limit: the work can be resumed or shared.
    Such a long count first times a random sample of its subproblems for about a second, and
    passes the estimate to ``on_estimate(estimate, workers)``: ``estimate.seconds_on(workers)``
    is the time it expects. Other keywords are the engine's own options, such as
    ``mip_solver="glpk"`` for the mip engine.
    """
    saved_to = None if checkpoint is None else validation.path(checkpoint, "the checkpoint")
    where = None
    if cluster is not None:
        from nqueens.run.cluster import check_address

        where = check_address(
            validation.text(cluster, "cluster"),
            validation.seconds(connect_timeout, "the connect timeout"),
        )
    if where is not None and workers is not None:
        raise InputError(
            "{workers} shares a count among this machine's processes; on a cluster, its own "
            "workers count (local:K starts K of them)",
            argument="workers",
            names=("workers",),
        )
    resumable = checkpoint is not None or cluster is not None
    request = _request(
        COUNT,
        n,
        queens=queens,
        blocked=blocked,
        excluded=excluded,
        strategy=strategy,
        engine_options=engine_options,
        time_limit=time_limit,
        unique=unique,
        symmetry=symmetry,
    )
    request = replace(request, remote=where is not None)
    if workers is not None:
        from nqueens.run.executors import MAX_WORKERS

        workers = validation.whole_number(
            workers, "the number of workers", minimum=0, maximum=MAX_WORKERS
        )
    on_progress = validation.callback(on_progress, "on_progress")
    on_estimate = validation.callback(on_estimate, "on_estimate")
    answered = answered_at_once(request, engine)
    if answered is not None:
        return count_all(answered)
    chosen = _engine(engine, request)
    if where is not None and where.local_workers is not None and chosen.resource is not None:
        need = chosen.resource
        raise InputError(
            f"{where.address} starts its workers without a {need}: the {chosen.name} engine "
            f"counts on this machine's {need} without a cluster, or on workers started with "
            f"dask worker ADDRESS --resources {need}=1"
        )
    from nqueens.run.executors import default_workers, planned_workers

    planned = planned_workers(workers, wanted=chosen.wants_workers(request))
    estimate_decides = check_bounded(request, resumable=resumable, engine=chosen, workers=planned)
    if not chosen.splits and resumable:
        raise InputError(
            f"the {chosen.name} engine counts in one piece; checkpoints and clusters apply to "
            f"{registry.describe('splits')}"
        )
    if not chosen.splits:
        if workers is not None:
            raise InputError(
                f"the {chosen.name} engine searches in one process; "
                f"workers apply to {registry.describe('splits')}"
            )
        return chosen.count(replace(request, strategy=chosen.strategy_for(request)))
    from nqueens.run.counting import count_split
    from nqueens.run.executors import fitted_workers

    workers_asked = workers is not None
    if workers is None:
        workers = planned
    elif workers:
        workers = fitted_workers(workers, "worker processes")
    if where is not None and where.local_workers is not None:
        fitted = fitted_workers(where.local_workers, "worker processes of a local cluster")
        where = replace(where, local_workers=fitted)
    return count_split(
        chosen,
        request,
        workers=workers or default_workers(),
        workers_asked=workers_asked,
        on_progress=on_progress,
        on_estimate=on_estimate,
        checkpoint=saved_to,
        cluster=where,
        bounded_by_estimate=estimate_decides,
    )


@signals.guarded
def first(
    n: int | Board,
    *,
    time_limit: float | None = None,
    engine: str = registry.AUTO_ENGINE,
    strategy: str | None = None,
    queens: Iterable[Square] = (),
    blocked: Iterable[Square] = (),
    excluded: Iterable[tuple[str, int]] = (),
    seed: int | None = None,
    **engine_options: str,
) -> FirstResult:
    """Find one solution for an n x n board, or prove that none exists.

    ``queens`` must be kept and ``blocked`` squares and ``excluded`` diagonals left empty
    (0-based ``(row, col)``, ``("sum", row + col)``, ``("difference", row - col)``).
    ``seed`` starts the random choices of the searches that make them (local search, CP-SAT,
    the cp engine's auto strategy): ``engine="auto"`` then runs one of those where one can
    decide the board, and ``stats.engine`` says which search answered. CP-SAT's parallel workers
    race, so its runs may still differ.

    ``engine="auto"`` runs the engines and strategies measured fastest to a first solution
    (see ``nqueens.run.plan``); ``stats.engine`` and ``stats.strategy`` say which one
    decided, and ``stats.wall_time`` covers every attempt. A theorem answers without a search
    where one does (``stats.engine`` is ``"theorem"``): none exists on a torus whose N is
    divisible by 2 or 3, nor where given squares close a whole row or column (on a torus, a
    wrapped diagonal too), and a line of queens solves most other tori. Other keywords are the
    engine's own options, such as ``mip_solver="glpk"`` for the mip engine.
    """
    request = _request(
        FIRST,
        n,
        queens=queens,
        blocked=blocked,
        excluded=excluded,
        strategy=strategy,
        engine_options=engine_options,
        time_limit=time_limit,
        seed=seed,
    )
    if engine != registry.AUTO_ENGINE or request.options:  # an engine's options choose it
        chosen = _engine(engine, request)
        chosen.prepare(request)
        found = chosen.first(replace(request, strategy=chosen.strategy_for(request)))
        return _found_on(request.board, found.solution, found.stats)
    if strategy is not None:
        raise InputError("a strategy needs an engine: the auto engine picks both")
    answered = answered_at_once(request, engine)
    if answered is not None:
        found = first_of(answered)
        return _found_on(request.board, found.solution, found.stats)
    time_limit = request.time_limit  # validated: None for no limit, inf and 1e308 included
    started = time.monotonic()
    plan = fitting(first_plan(request.board, seeded=request.seed is not None), request)
    for attempt in plan:
        budget = None if time_limit is None else time_limit - (time.monotonic() - started)
        if budget is not None and budget <= 0 and attempt is not plan[0]:
            break  # the time limit is spent: the previous attempt's result stands
        chosen, tried = as_tried(attempt, replace(request, time_limit=budget, deadline=None))
        # The plan is checked like any engine choice (memory above all): the first attempt must
        # fit, a later one that cannot leaves the previous attempt's result standing.
        if attempt is plan[0]:
            registry.check(chosen, tried)
        elif registry.refusal(chosen, tried) is not None:
            break
        chosen.prepare(tried)
        result = chosen.first(tried)
        decided = result.solution is not None or result.proven_infeasible
        if decided or attempt is plan[-1]:
            break
    wall_time = time.monotonic() - started
    return _found_on(request.board, result.solution, replace(result.stats, wall_time=wall_time))


def _found_on(board: Board, solution: Solution | None, stats: Stats) -> FirstResult:
    """The result, its solution given its board where that holds more than N queens."""
    if solution is not None and not board.plain:
        solution = replace(solution, board=board)
    return FirstResult(solution, stats)

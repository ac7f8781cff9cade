"""The public Python API: ``solve``, ``count`` and ``first``, and ``plan``, what they will do.
The command line is built on these, and says nothing a caller cannot ask them for.

They check their arguments, pick the engine from the registry (``nqueens.engines.registry``), and
hand it the search; solvers are imported only when a search actually runs, so importing ``nqueens``
(and ``nqueens --help``) stays fast. What each decided before its search (the engine and why,
the notes worth saying) reaches ``on_plan`` as a ``Plan``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from nqueens.core import signals, theorems, validation
from nqueens.core.board import Board
from nqueens.core.plans import Attempt, Note, Plan
from nqueens.core.results import FirstResult, InputError, Solution, Square, Stats
from nqueens.engines import registry
from nqueens.engines.base import COUNT, FIRST, SOLVE, Engine, Request
from nqueens.engines.streams import EngineStream, count_all, first_of
from nqueens.run import notes
from nqueens.run.limits import MAX_WORKERS
from nqueens.run.plan import answered_at_once, as_tried, check_bounded, first_plan, fitting
from nqueens.run.requests import FIRST_REASON, engine_for, plan_of, request_of

if TYPE_CHECKING:
    from nqueens.run.counting import EstimateCallback, ProgressCallback

PlanCallback = Callable[[Plan], object]
"""Called with the plan of a search once it is decided, before the search starts."""


def plan(command: str, n: int | Board, **arguments: Any) -> Plan:
    """What ``solve``, ``count`` or ``first`` (``command``) would do with these arguments, the
    same ones the function takes, without searching: the engine and why, and the notes worth
    saying first. The arguments are checked as the search would check them (InputError)."""
    searches: dict[str, Callable[..., object]] = {SOLVE: solve, COUNT: count, FIRST: first}
    if command not in searches:
        raise InputError(
            f"unknown command {validation.shown(command)}; choose from {', '.join(searches)}"
        )
    if "on_plan" in arguments:
        raise InputError("plan() returns the plan: on_plan belongs to the searches")
    decided: list[Plan] = []
    planning = _planning.set(True)
    try:
        searches[command](n, on_plan=decided.append, **arguments)
    except _Planned:
        return decided[-1]
    finally:
        _planning.reset(planning)
    raise AssertionError("every search stops at _ready() while planning")  # pragma: no cover


_planning: ContextVar[bool] = ContextVar("planning", default=False)


class _Planned(BaseException):
    """Raised where a search would start, when ``plan`` asked only for its plan."""


def _planned(
    request: Request,
    engine: str,
    reason: str,
    on_plan: PlanCallback | None,
    *,
    attempts: tuple[Attempt, ...] | None = None,
    said: tuple[Note, ...] = (),
) -> None:
    """Hand the plan of ``request`` to ``on_plan``."""
    if on_plan is not None:
        on_plan(plan_of(request, engine, reason, attempts=attempts, said=said))


def _chosen(request: Request, engine: str, on_plan: PlanCallback | None) -> Engine:
    """The engine called ``engine`` (or auto's choice) for ``request``, checked, its plan and
    the notes said before its search handed to ``on_plan``."""
    chosen, reason = engine_for(engine, request)
    if on_plan is not None:
        said = notes.before_search(request, engine)
        on_plan(plan_of(request, chosen.name, reason, said=said))
    return chosen


def _ready() -> None:
    """Every check passed and the search is about to start: where ``plan`` asked, stop."""
    if _planning.get():
        raise _Planned


def _answered(
    request: Request, engine: str, on_plan: PlanCallback | None, unused: tuple[str, ...] = ()
) -> EngineStream | None:
    """A theorem's answer to ``request``, planned (with a note on the ``unused`` arguments that
    then have nothing to do), where one answers without a search."""
    answered = answered_at_once(request, engine)
    if answered is None:
        return None
    reason = theorems.unsolvable(request.board) or "a line of queens solves the board"
    said = notes.nothing_started(unused)
    why = f"a theorem answers without a search: {reason}"
    _planned(request, theorems.THEOREM, why, on_plan, said=() if said is None else (said,))
    _ready()
    return answered


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
    on_plan: PlanCallback | None = None,
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
    column): ``stats.engine`` is then ``"theorem"``. ``on_plan`` is called with the plan
    (see ``plan``) before the search starts.
    """
    request = request_of(
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
    on_plan = validation.callback(on_plan, "on_plan")
    answered = _answered(request, engine, on_plan)
    if answered is not None:
        return answered.stopping_after(request.limit)
    chosen = _chosen(request, engine, on_plan)
    check_bounded(request, resumable=False, engine=chosen)
    _ready()
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
    on_plan: PlanCallback | None = None,
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
    is the time it expects. ``on_plan`` is called with the plan (see ``plan``) before the
    search starts. Other keywords are the engine's own options, such as ``mip_solver="glpk"``
    for the mip engine.
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
    request = request_of(
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
        workers = validation.whole_number(
            workers, "the number of workers", minimum=0, maximum=MAX_WORKERS
        )
    on_progress = validation.callback(on_progress, "on_progress")
    on_estimate = validation.callback(on_estimate, "on_estimate")
    on_plan = validation.callback(on_plan, "on_plan")
    asked = (("checkpoint", checkpoint), ("cluster", cluster), ("workers", workers))
    unused = tuple(name for name, value in asked if value is not None)
    answered = _answered(request, engine, on_plan, unused)
    if answered is not None:
        return count_all(answered)
    chosen = _chosen(request, engine, on_plan)
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
        _ready()
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
    _ready()
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
    on_plan: PlanCallback | None = None,
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
    (see ``plan``); ``stats.engine`` and ``stats.strategy`` say which one
    decided, and ``stats.wall_time`` covers every attempt. A theorem answers without a search
    where one does (``stats.engine`` is ``"theorem"``): none exists on a torus whose N is
    divisible by 2 or 3, nor where given squares close a whole row or column (on a torus, a
    wrapped diagonal too), and a line of queens solves most other tori. ``on_plan`` is called
    with the plan (see ``plan``) before the search starts; the result's ``notes`` say where a
    ``seed`` changed nothing. Other keywords are the engine's own options, such as
    ``mip_solver="glpk"`` for the mip engine.
    """
    request = request_of(
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
    on_plan = validation.callback(on_plan, "on_plan")
    if engine != registry.AUTO_ENGINE or request.options:  # an engine's options choose it
        chosen = _chosen(request, engine, on_plan)
        _ready()
        chosen.prepare(request)
        found = chosen.first(replace(request, strategy=chosen.strategy_for(request)))
        return _found_on(request, found.solution, found.stats)
    if strategy is not None:
        raise InputError("a strategy needs an engine: the auto engine picks both")
    answered = _answered(request, engine, on_plan)
    if answered is not None:
        found = first_of(answered)
        return _found_on(request, found.solution, found.stats)
    time_limit = request.time_limit  # validated: None for no limit, inf and 1e308 included
    plan = fitting(first_plan(request.board, seeded=request.seed is not None), request)
    # The plan is checked like any engine choice (memory above all): the first attempt must
    # fit, a later one that cannot leaves the previous attempt's result standing.
    registry.check(*as_tried(plan[0], replace(request, deadline=None)))
    _planned(request, plan[0].engine, FIRST_REASON, on_plan, attempts=tuple(plan))
    _ready()
    started = time.monotonic()
    for attempt in plan:
        budget = None if time_limit is None else time_limit - (time.monotonic() - started)
        if budget is not None and budget <= 0 and attempt is not plan[0]:
            break  # the time limit is spent: the previous attempt's result stands
        chosen, tried = as_tried(attempt, replace(request, time_limit=budget, deadline=None))
        if attempt is not plan[0] and registry.refusal(chosen, tried) is not None:
            break
        chosen.prepare(tried)
        result = chosen.first(tried)
        decided = result.solution is not None or result.proven_infeasible
        if decided or attempt is plan[-1]:
            break
    wall_time = time.monotonic() - started
    return _found_on(request, result.solution, replace(result.stats, wall_time=wall_time))


def _found_on(request: Request, solution: Solution | None, stats: Stats) -> FirstResult:
    """The result, its solution given its board where that holds more than N queens, with a
    note where the request's seed chose nothing."""
    board = request.board
    if solution is not None and not board.plain:
        solution = replace(solution, board=board)
    unused = notes.seed_unused(stats) if request.seed is not None else None
    return FirstResult(solution, stats, () if unused is None else (unused,))

"""A plan carried out: the search its engine runs, the attempts ``first`` makes in turn, or the
theorem's answer. Everything was checked when the plan was made (``nqueens.run.choose``)."""

from __future__ import annotations

import time
from dataclasses import replace

from nqueens.core.plans import Plan
from nqueens.core.results import FirstResult, Solution, Stats
from nqueens.core.theorems import THEOREM
from nqueens.engines import registry
from nqueens.engines.base import Engine, Request
from nqueens.engines.streams import EngineStream, count_all, first_of
from nqueens.run import auto, notes
from nqueens.run.answered import Answered
from nqueens.run.executors import say_capped
from nqueens.run.requests import Asked


def solve(plan: Plan, asked: Asked) -> EngineStream:
    """The stream of solutions ``plan`` lists."""
    request = asked.request
    if plan.engine == THEOREM:
        return _answered(plan, asked).stopping_after(request.limit)
    chosen = registry.engine_named(plan.engine)
    chosen.prepare(request)
    stream = chosen.solve(_with_strategy(chosen, request))
    return stream.stopping_after(request.limit).found_on(request.board)


def count(plan: Plan, asked: Asked) -> Stats:
    """The count ``plan`` makes: in one piece, or split among its workers or a cluster."""
    request = asked.request
    if plan.engine == THEOREM:
        return count_all(_answered(plan, asked))
    chosen = registry.engine_named(plan.engine)
    if not chosen.splits:
        return chosen.count(_with_strategy(chosen, request))
    from nqueens.run.counting import count_split

    where = asked.cluster
    if where is not None and where.local_workers is not None and plan.workers is not None:
        say_capped(where.local_workers, plan.workers, "worker processes of a local cluster")
        where = replace(where, local_workers=plan.workers)
    elif asked.workers:
        say_capped(asked.workers, plan.workers or 1, "worker processes")
    return count_split(
        chosen,
        request,
        workers=plan.workers or 1,
        workers_asked=asked.workers is not None,
        on_progress=asked.on_progress,
        on_estimate=asked.on_estimate,
        checkpoint=asked.checkpoint,
        cluster=where,
        longest=plan.longest,
    )


def first(plan: Plan, asked: Asked) -> FirstResult:
    """The first solution of the plan's attempts, in turn: each gets its share of the time
    limit, and the first that decides the board answers; one that cannot run here, or that
    the time limit leaves nothing for, leaves the previous attempt's result standing."""
    request = asked.request
    if plan.engine == THEOREM:
        found = first_of(_answered(plan, asked))
        return _found_on(request, found.solution, found.stats)
    started = time.monotonic()
    for attempt in plan.attempts:
        budget = None if request.deadline is None else request.deadline - time.monotonic()
        if budget is not None and budget <= 0 and attempt is not plan.attempts[0]:
            break  # the time limit is spent: the previous attempt's result stands
        chosen, tried = auto.as_tried(attempt, replace(request, time_limit=budget))
        if attempt is not plan.attempts[0] and registry.refusal(chosen, tried) is not None:
            break
        chosen.prepare(tried)
        result = chosen.first(_with_strategy(chosen, tried))
        if result.solution is not None or result.proven_infeasible:
            break
    wall_time = time.monotonic() - started
    return _found_on(request, result.solution, replace(result.stats, wall_time=wall_time))


def _answered(plan: Plan, asked: Asked) -> EngineStream:
    """The stream of the answer the plan's theorem gave."""
    return Answered(asked.request, plan.answer, time.monotonic())


def _with_strategy(engine: Engine, request: Request) -> Request:
    """``request`` with the strategy ``engine`` follows for it."""
    return replace(request, strategy=engine.strategy_for(request))


def _found_on(request: Request, solution: Solution | None, stats: Stats) -> FirstResult:
    """The result, its solution given its board where that holds more than N queens, with a
    note where the request's seed chose nothing."""
    board = request.board
    if solution is not None and not board.plain:
        solution = replace(solution, board=board)
    unused = notes.seed_unused(stats) if request.seed is not None else None
    return FirstResult(solution, stats, () if unused is None else (unused,))

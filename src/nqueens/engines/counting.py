"""Counting through subproblems: an engine cuts the board, an executor runs the pieces.

The counts of independent subproblems add up to the board's count; symmetry classes too, where
the engine counts them. A deadline or Ctrl-C ends the count with what was found so far, a lower
bound, and no worker left behind.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from nqueens.engines.base import Engine, Request, Subcount, SubproblemInterrupted
from nqueens.engines.executors import in_process, process_pool
from nqueens.results import SearchInterrupted, Stats, Status

ProgressCallback = Callable[[int, int, int], None]
"""Called as ``on_progress(subproblems_done, subproblems_total, solutions_so_far)``."""


def _stats(
    engine: Engine, request: Request, found: list[Subcount], wall_time: float, status: Status
) -> Stats:
    """The subproblems' counts and statistics added up."""
    counts_classes = request.symmetry and request.puzzle is None
    return Stats(
        n=request.n,
        solutions=sum(sub.solutions for sub in found),
        conflicts=sum(sub.first for sub in found),
        branches=sum(sub.second for sub in found),
        wall_time=wall_time,
        status=status,
        unique=sum(sub.unique or 0 for sub in found) if counts_classes else None,
        engine=engine.name,
        strategy=engine.strategy_for(request),
    )


def count_split(
    engine: Engine,
    request: Request,
    *,
    workers: int,
    on_progress: ProgressCallback | None = None,
) -> Stats:
    """Count every solution of ``request`` exactly, on ``workers`` processes (1: this one).

    Ctrl-C raises SearchInterrupted with the partial count.
    """
    started = time.monotonic()
    deadline = time.time() + request.time_limit if request.time_limit is not None else None
    engine.prepare(request)
    tasks = engine.subproblems(request, deadline)
    workers = max(1, min(workers, len(tasks)))
    found: list[Subcount] = []
    solutions = 0  # so far: added up as pieces come in, not again for every one of thousands
    if on_progress is not None:
        on_progress(0, len(tasks), 0)
    results = in_process(tasks) if workers == 1 else process_pool(tasks, workers, deadline)
    try:
        for subcount in results:
            found.append(subcount)
            solutions += subcount.solutions
            if on_progress is not None:
                on_progress(len(found), len(tasks), solutions)
    except KeyboardInterrupt as interrupt:
        if isinstance(interrupt, SubproblemInterrupted):
            found.append(interrupt.found)
        stats = _stats(engine, request, found, time.monotonic() - started, Status.INTERRUPTED)
        raise SearchInterrupted(stats) from None
    finally:
        results.close()
    complete = len(found) == len(tasks) and all(sub.complete for sub in found)
    status = Status.COMPLETE if complete else Status.TIME_LIMIT
    return _stats(engine, request, found, time.monotonic() - started, status)

"""Counting through subproblems: an engine cuts the board, an executor runs the pieces.

The counts of independent subproblems add up to the board's count; symmetry classes too, where
the engine counts them. A deadline or Ctrl-C ends the count with what was found so far, a lower
bound, and no worker left behind.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from nqueens.engines.base import Engine, Request, Subcount, Subproblem, SubproblemInterrupted
from nqueens.engines.executors import in_process, process_pool
from nqueens.results import SearchInterrupted, Stats, Status

if TYPE_CHECKING:
    from nqueens.checkpoint import Checkpoint

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
    checkpoint: Path | None = None,
    cluster: str | None = None,
) -> Stats:
    """Count every solution of ``request`` exactly, on ``workers`` processes (1: this one), or
    on a Dask ``cluster`` (an address, or ``local:K``).

    With a ``checkpoint`` file, every finished subproblem is written to it as it arrives, and
    those already there are not counted again. Ctrl-C raises SearchInterrupted with the partial
    count.
    """
    started = time.monotonic()
    deadline = time.time() + request.time_limit if request.time_limit is not None else None
    engine.prepare(request)
    tasks = engine.subproblems(request, deadline)
    saved = None
    if checkpoint is not None:
        from nqueens.checkpoint import Checkpoint, identity

        saved = Checkpoint(checkpoint, identity(engine.name, request, tasks))
    try:
        return _count(
            engine, request, tasks, deadline, started, workers, on_progress, saved, cluster
        )
    finally:
        if saved is not None:
            saved.close()


def _count(
    engine: Engine,
    request: Request,
    tasks: Sequence[Subproblem],
    deadline: float | None,
    started: float,
    workers: int,
    on_progress: ProgressCallback | None,
    saved: Checkpoint | None,
    cluster: str | None,
) -> Stats:
    found: list[Subcount] = list(saved.done.values()) if saved is not None else []
    todo = [
        (place, task)
        for place, task in enumerate(tasks)
        if saved is None or place not in saved.done
    ]
    workers = max(1, min(workers, len(todo)))
    solutions = sum(sub.solutions for sub in found)  # then added up as pieces come in
    if on_progress is not None:
        on_progress(len(found), len(tasks), solutions)
    if cluster is not None:
        from nqueens.engines.cluster import on_cluster

        results = on_cluster(todo, cluster, deadline)
    elif workers == 1:
        results = in_process(todo)
    else:
        results = process_pool(todo, workers, deadline)
    try:
        for place, subcount in results:
            found.append(subcount)
            solutions += subcount.solutions
            if saved is not None and subcount.complete:
                saved.record(place, subcount)
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

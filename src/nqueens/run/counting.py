"""Counting through subproblems: an engine cuts the board, an executor runs the pieces.

The counts of independent subproblems add up to the board's count; symmetry classes too, where
the engine counts them. A deadline or Ctrl-C ends the count with what was found so far, a lower
bound, and no worker left behind.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from nqueens.core import signals
from nqueens.core.clock import seconds_until
from nqueens.core.results import Finished, SearchInterrupted, Stats, Status
from nqueens.core.strategies import MAX_UNBOUNDED_ENUMERATION_N
from nqueens.engines.base import Engine, Request, Subcount, Subproblem, SubproblemInterrupted
from nqueens.run import bounds
from nqueens.run.executors import in_process, process_pool

if TYPE_CHECKING:
    from nqueens.run.checkpoint import Checkpoint
    from nqueens.run.cluster import Cluster
    from nqueens.run.estimate import Estimate

ProgressCallback = Callable[[int, int, int], None]
"""Called as ``on_progress(subproblems_done, subproblems_total, solutions_so_far)``."""
EstimateCallback = Callable[["Estimate", int], None]
"""Called as ``on_estimate(estimate, workers)`` before a long count."""

ESTIMATE_SECONDS = 1.0
"""Spent timing a sample of subproblems before a long count (minutes at the least)."""


def count_split(
    engine: Engine,
    request: Request,
    *,
    workers: int,
    workers_asked: bool = True,
    on_progress: ProgressCallback | None = None,
    on_estimate: EstimateCallback | None = None,
    checkpoint: Path | None = None,
    cluster: Cluster | None = None,
    longest: float | None = None,
) -> Stats:
    """Count every solution of ``request`` exactly, on ``workers`` processes (1: this one), or
    on a Dask ``cluster``. Workers that the user did not ask for (``workers_asked`` False: as
    many as there are cores) and that the system will not start leave the count to this one.

    With a ``checkpoint`` file, every finished subproblem is written to it as it arrives, and
    those already there are not counted again. A long count without a time limit first times a
    sample of its subproblems: the estimate goes to ``on_estimate``, and sizes the batches so
    that none runs long; with ``longest`` (a count with nothing else to stop it), one
    estimated to take that many seconds or more is refused then (InputError). Ctrl-C raises
    SearchInterrupted with the partial count.
    """
    started = time.monotonic()
    if is_long(request):
        # The estimate's module loads now, while a stop loses nothing: one that lands in an
        # import ends the process at once, which would lose the partial count later on.
        importlib.import_module("nqueens.run.estimate")
    if checkpoint is not None:
        from nqueens.run.checkpoint import finished

        done = finished(checkpoint, engine.name, request)
        if done is not None:  # the answer is in the file: no need to cut or load anything
            return _added_up(engine, request, done, started, Status.COMPLETE)
    left = seconds_until(request.deadline)
    deadline = None if left is None else time.time() + left  # comparable across processes
    saved = None
    counting = None
    try:  # Ctrl-C while the board is cut or the search loaded: nothing counted in this run
        tasks = engine.subproblems(request, deadline)
        if checkpoint is not None:
            from nqueens.run.checkpoint import Checkpoint, identity

            saved = Checkpoint(checkpoint, identity(engine.name, request, tasks))
        counting = _Counting(engine, request, tasks, started, saved, longest)
        if on_progress is not None:  # the pieces are known: so is the total, while it loads
            on_progress(len(counting.found), len(tasks), counting.solutions())
        # A finished checkpoint answers without loading the solver; a time limit that ends
        # while it loads answers with nothing counted.
        if counting.todo and not _prepared(engine, request, deadline):
            return counting.stats(Status.TIME_LIMIT)
    except KeyboardInterrupt:
        if saved is not None:
            saved.close()
        found = counting.found if counting is not None else []
        stats = _added_up(engine, request, found, started, Status.INTERRUPTED)
        raise SearchInterrupted(stats) from None
    try:
        return counting.run(deadline, workers, workers_asked, cluster, on_progress, on_estimate)
    finally:
        if saved is not None:
            saved.close()


_loading: threading.Thread | None = None
"""An engine's search still loading after a count that gave up waiting for it."""


def _prepared(engine: Engine, request: Request, deadline: float | None) -> bool:
    """Whether ``engine`` loaded what its search for ``request`` needs (a table, a device and
    its kernel) before ``deadline``.

    Loading cannot be interrupted, and on a busy machine it takes longer than a short time
    limit: under a deadline it runs in a thread, and the count stops waiting when the deadline
    passes (or at Ctrl-C). The thread ends with the process, or finishes loading for the next
    count, which waits for it first: worker processes must not be forked mid-load. Machine code
    being made (the gpu engine's, on its first count) is waited for: cut short, it would be
    begun again by every run, and never kept.
    """
    global _loading
    if _loading is not None:
        _loading.join()
        _loading = None
    if deadline is None:
        engine.prepare(request)
        return True
    failures: list[BaseException] = []

    def load() -> None:
        try:
            engine.prepare(request)
        except BaseException as error:  # raised again in the thread that counts
            failures.append(error)

    loading = threading.Thread(target=load, name="nqueens-load", daemon=True)
    loading.start()
    loading.join(max(0.0, deadline - time.time()))
    if loading.is_alive() and engine.loading_runs_to_its_end():
        loading.join()
    if loading.is_alive():
        _loading = loading
        return False
    if failures:
        raise failures[0]
    return True


def is_long(request: Request) -> bool:
    """Whether a count of ``request`` without a time limit takes minutes or more: it has more
    columns without a given queen than the largest board counted without a limit."""
    return request.time_limit is None and request.board.free_columns > MAX_UNBOUNDED_ENUMERATION_N


def _added_up(
    engine: Engine, request: Request, found: Sequence[Subcount], started: float, status: Status
) -> Stats:
    """The subproblems' counts and statistics added up."""
    # An engine that does not count classes leaves them None: not counted, never 0.
    counts_classes = (
        request.symmetry
        and request.board.symmetric
        and all(sub.unique is not None for sub in found)
    )
    return Stats(
        n=request.n,
        solutions=sum(sub.solutions for sub in found),
        conflicts=sum(sub.first for sub in found),
        branches=sum(sub.second for sub in found),
        wall_time=time.monotonic() - started,
        status=status,
        unique=sum(sub.unique or 0 for sub in found) if counts_classes else None,
        engine=engine.name,
        strategy=engine.strategy_for(request),
        backend=engine.backend_for(request),
        counter_names=engine.stat_names,
    )


class _Counting:
    """One count: the subproblems, what is found of them, and where they are counted."""

    def __init__(
        self,
        engine: Engine,
        request: Request,
        tasks: Sequence[Subproblem],
        started: float,
        saved: Checkpoint | None,
        longest: float | None = None,
    ) -> None:
        self.engine = engine
        self.request = request
        self.longest = longest
        self.tasks = tasks
        self.started = started
        self.saved = saved
        self.found: list[Subcount] = list(saved.done.values()) if saved is not None else []
        self.todo = [
            (place, task)
            for place, task in enumerate(tasks)
            if saved is None or place not in saved.done
        ]

    def solutions(self) -> int:
        """The solutions found so far (of a checkpoint's pieces, before the count runs)."""
        return sum(sub.solutions for sub in self.found)

    def stats(self, status: Status) -> Stats:
        """The subproblems' counts and statistics added up; where the count stopped, how far
        it got: the pieces finished, which a checkpoint keeps."""
        stats = _added_up(self.engine, self.request, self.found, self.started, status)
        if not status.partial:
            return stats
        whole = [sub for sub in self.found if sub.complete]
        finished = Finished(len(whole), len(self.tasks), sum(sub.solutions for sub in whole))
        return replace(stats, finished=finished)

    def run(
        self,
        deadline: float | None,
        workers: int,
        workers_asked: bool,
        cluster: Cluster | None,
        on_progress: ProgressCallback | None,
        on_estimate: EstimateCallback | None,
    ) -> Stats:
        """Count what is left; Ctrl-C raises SearchInterrupted with what was found."""
        tasks, todo, found = self.tasks, self.todo, self.found
        solutions = self.solutions()  # then added up as pieces come in
        try:
            with ExitStack() as stack:
                client = None
                if cluster is not None:
                    from nqueens.run import cluster as dask_cluster
                    from nqueens.run.feeders import threads

                    client = stack.enter_context(dask_cluster.connected(cluster, deadline))
                    with dask_cluster.lost_if_cut_off():
                        workers = threads(client)
                workers = max(1, min(workers, len(todo)))
                seconds_each = self.estimate(workers, on_estimate)
                if client is not None:
                    results = dask_cluster.on_cluster(
                        client, todo, workers, deadline, seconds_each, self.engine
                    )
                elif workers == 1:
                    results = in_process(todo)
                else:
                    results = process_pool(
                        todo, workers, deadline, seconds_each, or_in_process=not workers_asked
                    )
                stack.callback(results.close)
                stack.enter_context(signals.keeping())
                for place, subcount in results:
                    found.append(subcount)
                    solutions += subcount.solutions
                    if self.saved is not None and subcount.complete:
                        self.saved.record(place, subcount)
                    if on_progress is not None:
                        on_progress(len(found), len(tasks), solutions)
        except KeyboardInterrupt as interrupt:
            if isinstance(interrupt, SubproblemInterrupted):
                found.append(interrupt.found)
            raise SearchInterrupted(self.stats(Status.INTERRUPTED)) from None
        complete = len(found) == len(tasks) and all(sub.complete for sub in found)
        return self.stats(Status.COMPLETE if complete else Status.TIME_LIMIT)

    def estimate(self, workers: int, on_estimate: EstimateCallback | None) -> float | None:
        """The seconds one subproblem left takes on average, timed on a sample of them before
        a long count (None for the others)."""
        if not is_long(self.request) or len(self.todo) < 2:
            guess = None
        elif self.engine.resource is not None:
            # counted on a device, whose pieces a CPU core's time says nothing of, and a probe
            # cut short at its deadline would leave its launch running on the device
            return None
        else:
            from nqueens.run.estimate import estimate  # loaded as the count began

            guess = estimate(self.engine, [task for _, task in self.todo], ESTIMATE_SECONDS)
        if self.longest is not None:  # nothing else stops this count: hours are refused
            if guess is None:
                raise bounds.unbounded(self.request, None, workers)
            seconds = guess.seconds_on(workers)
            bounds.check_estimate(self.request, seconds, workers, guess.sureness, self.longest)
        if guess is None:
            return None
        if on_estimate is not None:
            on_estimate(guess, workers)
        return guess.per_piece(len(self.todo))

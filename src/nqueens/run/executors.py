"""Where subproblems run: in this process, or side by side in worker processes.

An executor takes independent subproblems, each with its place in the whole list, and yields
``(place, what it found)`` as each finishes, so a checkpoint can say which are done; closing the
iterator stops whatever still runs. Which engine counts a subproblem is written in it, so a worker
only needs this package installed.
"""

from __future__ import annotations

import itertools
import os
import sys
import threading
import time
import warnings
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING

from nqueens.core import signals, wording
from nqueens.core.results import InputError
from nqueens.engines.base import Subcount, Subproblem
from nqueens.run.limits import MAX_WORKERS as MAX_WORKERS

if TYPE_CHECKING:
    import multiprocessing.pool

Numbered = tuple[int, Subproblem]  # a subproblem and its place in the list of them
Counted = tuple[int, Subcount]


_POLL_SECONDS = 0.05
_GRACE_SECONDS = 0.1  # after a deadline, for subproblems under way to report what they found
_STOP_SECONDS = 2.0  # how long stopping a pool may take before it is left to the process's end
_BATCHES_PER_WORKER = 64  # subproblems go in batches: few round trips, a smooth progress bar
_BATCH_SECONDS = 1.0
"""At most this long a batch, where the pieces' time is known: all that Ctrl-C or a lost worker
can cost, while a round trip (a millisecond on a Dask cluster) stays under 0.1 % of it."""


class WorkersCappedWarning(UserWarning):
    """More worker processes were asked for than there are cores to run them: the count starts
    one for each core, as more would only wait for them, and start and cost memory first."""


def say_capped(asked: int, cores: int, what: str) -> None:
    """Warn (WorkersCappedWarning) where ``asked`` worker processes outnumber the ``cores``
    this process may run on, which count instead (``what`` names them: "worker processes")."""
    if asked > cores:
        warnings.warn(
            f"{asked:,} {what} would outnumber the {cores} cores this process may run on, and "
            f"only wait for them: counting with {cores}",
            WorkersCappedWarning,
            stacklevel=4,
        )


def planned_workers(asked: int | None, *, wanted: bool) -> int:
    """The cores a count will keep busy: those ``asked`` for (0: every core), at most every
    core; else every core where the engine ``wanted`` workers, or one."""
    cores = default_workers()
    if asked is None:
        return cores if wanted else 1
    return min(asked or cores, cores)


def default_workers() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def count_subproblem(task: Subproblem) -> Subcount:
    """Count one subproblem with the engine it names."""
    from nqueens.engines.registry import engine_named

    return engine_named(task.engine).count_subproblem(task)


def count_batch(tasks: Sequence[Numbered]) -> list[Counted]:
    """Count several subproblems: one round trip to a worker process for all of them."""
    return [(place, count_subproblem(task)) for place, task in tasks]


def in_process(tasks: Sequence[Numbered]) -> Generator[Counted, None, None]:
    """Count the subproblems one after another in this process, each engine's run of them in
    order by the engine (which may begin the next while it finishes one), until their deadline
    passes: the pieces after it would only come back empty, each after setting up its search."""
    from nqueens.engines.registry import engine_named

    for name, run in itertools.groupby(tasks, key=lambda numbered: numbered[1].engine):
        numbered = list(run)
        counted = engine_named(name).count_in_order([task for _, task in numbered])
        for (place, task), found in zip(numbered, counted, strict=True):
            yield place, found
            if task.deadline is not None and time.time() >= task.deadline:
                return


def batches_of(
    tasks: Sequence[Numbered], workers: int, seconds_each: float | None = None
) -> list[Sequence[Numbered]]:
    """Subproblems in about _BATCHES_PER_WORKER batches per worker: few round trips, and still
    enough pieces to keep every worker busy to the end and the progress bar smooth; where the
    time of a subproblem is known (``seconds_each``), smaller batches if those would be long."""
    size = max(1, len(tasks) // (workers * _BATCHES_PER_WORKER))
    if seconds_each is not None and seconds_each > 0:
        size = min(size, max(1, int(_BATCH_SECONDS / seconds_each)))
    return [tasks[start : start + size] for start in range(0, len(tasks), size)]


class OneProcessWarning(UserWarning):
    """The worker processes a count would share could not start: it counts in this process."""


def process_pool(
    tasks: Sequence[Numbered],
    workers: int,
    deadline: float | None,
    seconds_each: float | None = None,
    *,
    or_in_process: bool = False,
) -> Generator[Counted, None, None]:
    """Count subproblems in worker processes; closing the iterator terminates every worker.

    Soon after the deadline it stops: subproblems under way have reported their partial counts
    by then, and the rest would only come back empty. Where the system will not start them (the
    limit on processes, no shared memory for their locks), the count is refused as usage, for
    the user to ask for fewer; or, ``or_in_process`` (the user asked for no number), it runs in
    this process, with a OneProcessWarning saying why.
    """
    # fork starts workers with the solvers (and compiled code) already loaded; spawn re-imports.
    method = "fork" if sys.platform == "linux" else "spawn"
    batches = batches_of(tasks, workers, seconds_each)
    import multiprocessing  # here: a count that needs no processes starts without it

    context = multiprocessing.get_context(method)
    pools = []  # the pool once it exists: a stop signal held back while it starts ends the try
    try:
        with signals.held(), signals.blocked():
            try:
                pools.append(context.Pool(workers, initializer=signals.leave_to_parent))
            except OSError as error:  # the limit on processes (ulimit -u), memory, /dev/shm
                refused = (
                    f"cannot start {wording.counted(workers, 'worker process')} "
                    f"({error.strerror or error})"
                )
                if not or_in_process:
                    raise InputError(f"{refused}: ask for fewer with --workers") from None
                warnings.warn(
                    f"{refused}: counting in this process", OneProcessWarning, stacklevel=2
                )
        if not pools:
            yield from in_process(tasks)
            return
        pool = pools[0]
        results = pool.imap_unordered(count_batch, batches)
        for _ in batches:
            while True:
                if deadline is not None and time.time() > deadline + _GRACE_SECONDS:
                    return
                try:
                    yield from results.next(timeout=_POLL_SECONDS)
                    break
                except multiprocessing.TimeoutError:
                    continue
        pool.close()
    finally:
        with signals.held():
            for pool in pools:
                _stop(pool)


def _stop(pool: multiprocessing.pool.Pool) -> None:
    """Terminate the pool's workers and wait for its threads, but not forever.

    CPython's terminate kills the workers, then joins the thread that feeds them tasks; when
    that thread is blocked writing into a pipe that no worker reads any more (a count stopped
    early with many batches left), the join never returns. The workers are gone by then, and
    the thread ends with the process.
    """

    def terminate_and_join() -> None:
        pool.terminate()
        pool.join()

    stopper = threading.Thread(target=terminate_and_join, daemon=True)
    stopper.start()
    stopper.join(_STOP_SECONDS)

"""Fast exact counting: symmetry breaking, independent subproblems, and every core.

The symmetry-breaking model keeps one solution per class under the 8 symmetries of the square and
weights it by its class size, so the solver enumerates about an eighth of the solutions. The
search is then split by the rows of the queens of the first columns (one to four, more as the
board grows) into independent subproblems, solved one after another in this process or side by
side in worker processes, and their counts added.
The OR-Tools maintainers recommend such splitting over several CP-SAT workers on one model, which
can report a solution twice or miss one while enumerating.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass

from nqueens.callbacks import ClassCountingCallback, CountingCallback
from nqueens.engines.cpsat import BackgroundSearch, enumeration_solver
from nqueens.model import build_model
from nqueens.puzzle import Puzzle
from nqueens.results import SearchInterrupted, Stats, Status
from nqueens.strategies import FIRST_MIN, MAX_UNBOUNDED_ENUMERATION_N

ProgressCallback = Callable[[int, int, int], None]
"""Called as ``on_progress(subproblems_done, subproblems_total, solutions_so_far)``."""

_POLL_SECONDS = 0.1
_GRACE_SECONDS = 0.2  # after a deadline, for subproblems under way to report what they found


def default_workers() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@dataclass(frozen=True)
class Subproblem:
    """Count the solutions whose first queens are in ``leading_rows``, before ``deadline``."""

    n: int
    leading_rows: tuple[int, ...]
    symmetry: bool
    strategy: str
    deadline: float | None  # time.time() value, comparable across processes
    puzzle: Puzzle | None = None


@dataclass(frozen=True)
class Subcount:
    """What one subproblem found; ``complete`` is False when a deadline or Ctrl-C cut it short."""

    solutions: int
    unique: int | None  # None without symmetry breaking
    conflicts: int
    branches: int
    complete: bool


class _SubproblemInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a subproblem solved in this process; ``found`` is its partial count."""

    def __init__(self, found: Subcount) -> None:
        super().__init__()
        self.found = found


def leading_columns(n: int) -> int:
    """How many columns' queens each subproblem fixes: one up to N = 12, one more every 2 sizes.

    CP-SAT enumerates by excluding each solution it finds with a clause and searching again, so a
    subproblem costs more than in proportion to its solutions, while each one also pays about
    10 ms for its own presolve. Fixing one more column pays off once a subproblem holds some
    10,000 solutions. Measured by ``benchmarks/enumeration.py`` (symmetry breaking,
    first-fail-mid, CPU seconds): N = 12 takes 0.47 with one column against 1.01 with two; N = 13
    2.41 against 2.38; N = 14 14.6 with one, 10.6 with two, 17.1 with three; N = 15 69.8 with
    two, 57.6 with three, 131 with four. Beyond, the rule extrapolates (one three-column
    subproblem of N = 17 took 8.9 against 3.9 when split on a fourth).

    Larger boards are only counted until a time limit, and more columns would just multiply the
    subproblems (N = 40 would have millions), so they fix one.
    """
    if n > MAX_UNBOUNDED_ENUMERATION_N:
        return 1
    return max(1, (n - 9) // 2)


def subproblems(
    n: int,
    *,
    symmetry: bool,
    strategy: str,
    deadline: float | None,
    puzzle: Puzzle | None = None,
    columns: int | None = None,
) -> list[Subproblem]:
    """One subproblem per placement of the queens of the first columns, largest first.

    ``columns`` says how many columns to fix (default: :func:`leading_columns`, which
    ``benchmarks/enumeration.py`` measures against the others). Only placements where no two of
    these queens attack each other are kept. With symmetry breaking the lexicographic leader has
    its first queen in the upper half (rows 0 .. (n-1)/2). Measured for N = 12..14, first rows 1
    and 2 hold most of the work and the last rows the least; starting with the big ones keeps two
    workers evenly loaded.
    """
    first_rows = range((n + 1) // 2) if symmetry else range(n)
    placements: list[tuple[int, ...]] = [
        (row,) for row in sorted(first_rows, key=lambda row: abs(row - 1.5))
    ]
    for col in range(1, min(columns or leading_columns(n), n)):
        placements = [
            (*placed, row)
            for placed in placements
            for row in range(n)
            if all(abs(row - earlier) not in (0, col - c) for c, earlier in enumerate(placed))
        ]
    return [Subproblem(n, rows, symmetry, strategy, deadline, puzzle) for rows in placements]


def count_subproblem(task: Subproblem) -> Subcount:
    """Solve one subproblem; Ctrl-C raises _SubproblemInterrupted with its partial count."""
    time_limit = None
    if task.deadline is not None:
        time_limit = task.deadline - time.time()
        if time_limit <= 0:
            return Subcount(0, 0 if task.symmetry else None, 0, 0, complete=False)
    queens_model = build_model(
        task.n,
        strategy=task.strategy,
        break_symmetry=task.symmetry,
        leading_rows=task.leading_rows,
        puzzle=task.puzzle,
    )
    solver = enumeration_solver(time_limit, strategy=task.strategy)
    callback: ClassCountingCallback | CountingCallback = (
        ClassCountingCallback(queens_model.queens) if task.symmetry else CountingCallback()
    )
    search = BackgroundSearch(solver, queens_model.model, callback)
    search.start()

    def found(complete: bool) -> Subcount:
        unique = callback.unique_count if isinstance(callback, ClassCountingCallback) else None
        return Subcount(
            callback.solution_count, unique, solver.num_conflicts, solver.num_branches, complete
        )

    try:
        search.wait()
    except KeyboardInterrupt:
        raise _SubproblemInterrupted(found(complete=False)) from None
    return found(complete=search.finished)


def _stats(
    n: int, found: list[Subcount], wall_time: float, status: Status, strategy: str, symmetry: bool
) -> Stats:
    """The subproblems' counts and statistics added up."""
    return Stats(
        n=n,
        solutions=sum(sub.solutions for sub in found),
        conflicts=sum(sub.conflicts for sub in found),
        branches=sum(sub.branches for sub in found),
        wall_time=wall_time,
        status=status,
        unique=sum(sub.unique or 0 for sub in found) if symmetry else None,
        strategy=strategy,
    )


def _in_process(tasks: list[Subproblem]) -> Generator[Subcount, None, None]:
    for task in tasks:
        yield count_subproblem(task)


def _ignore_sigint() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops them all."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_pool(
    tasks: list[Subproblem], workers: int, deadline: float | None
) -> Generator[Subcount, None, None]:
    """Solve subproblems in worker processes; closing the iterator terminates every worker.

    Soon after the deadline it stops: subproblems under way have reported their partial counts
    by then, and the rest would only come back empty (handing out the 18,000 of N = 18 takes
    half a second).
    """
    # fork starts workers with OR-Tools already imported; spawn re-imports it in each one.
    method = "fork" if sys.platform == "linux" else "spawn"
    pool = multiprocessing.get_context(method).Pool(workers, initializer=_ignore_sigint)
    try:
        results = pool.imap_unordered(count_subproblem, tasks)
        for _ in tasks:
            while True:
                if deadline is not None and time.time() > deadline + _GRACE_SECONDS:
                    return
                try:
                    yield results.next(timeout=_POLL_SECONDS)
                    break
                except multiprocessing.TimeoutError:
                    continue
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def count_solutions(
    n: int,
    *,
    time_limit: float | None = None,
    symmetry: bool = True,
    strategy: str = FIRST_MIN,
    workers: int = 1,
    on_progress: ProgressCallback | None = None,
    puzzle: Puzzle | None = None,
) -> Stats:
    """Count every solution for an n x n board, exactly; Ctrl-C raises SearchInterrupted.

    ``stats.unique`` holds the count up to symmetry when ``symmetry`` is on.
    """
    started = time.monotonic()
    deadline = time.time() + time_limit if time_limit is not None else None
    tasks = subproblems(n, symmetry=symmetry, strategy=strategy, deadline=deadline, puzzle=puzzle)
    workers = max(1, min(workers, len(tasks)))
    found: list[Subcount] = []
    if on_progress is not None:
        on_progress(0, len(tasks), 0)
    results = _in_process(tasks) if workers == 1 else _in_pool(tasks, workers, deadline)
    try:
        for subcount in results:
            found.append(subcount)
            if on_progress is not None:
                on_progress(len(found), len(tasks), sum(sub.solutions for sub in found))
    except KeyboardInterrupt as interrupt:
        if isinstance(interrupt, _SubproblemInterrupted):
            found.append(interrupt.found)
        stats = _stats(n, found, time.monotonic() - started, Status.INTERRUPTED, strategy, symmetry)
        raise SearchInterrupted(stats) from None
    finally:
        results.close()
    complete = len(found) == len(tasks) and all(sub.complete for sub in found)
    status = Status.COMPLETE if complete else Status.TIME_LIMIT
    return _stats(n, found, time.monotonic() - started, status, strategy, symmetry)

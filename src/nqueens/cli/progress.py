"""What a person sees while a search runs: the progress bar of a count, with its time left,
and the spinner of a search that reports no progress."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from nqueens.cli import render
from nqueens.cli.output import encodes

if TYPE_CHECKING:
    from rich.progress import Progress, ProgressColumn

    from nqueens.api import Estimate, Plan
    from nqueens.cli.output import Output


PROGRESS_MIN_N = 12
"""Boards from this size up take over a second to count: worth a progress bar."""


SPINNER_DELAY_SECONDS = 1.0
"""A search that reports no progress gets a spinner once it has run this long."""


_WIDE_COLUMNS = 120  # the bar in words needs this much with a count in the billions


class CountDisplay:
    """What a count shows on stderr while it runs: its estimate, then a progress bar.

    Where the board's number of solutions is known (plain boards to N = 27), the bar and the
    time left follow the solutions found, which track the work done; the pieces of the count,
    the first of which hold most of the work, would make the first minutes look slow.
    """

    def __init__(
        self,
        output: Output,
        bar: Progress,
        n: int,
        stop_spinner: Callable[[], None],
        cluster: bool,
    ) -> None:
        self._output = output
        self._bar = bar
        self._n = n
        self._known_total: int | None = None
        self._task = bar.add_task("count", total=None, n=n, solutions=0, done=0, pieces=0)
        self._stop_spinner = stop_spinner
        self._cluster = cluster

    def progress(self, done: int, total: int, solutions: int) -> None:
        """The engine's progress: the bar starts with its first report (on large boards)."""
        started = self._bar.live.is_started
        if not started and self._n < PROGRESS_MIN_N:
            return
        known = self._known_total
        completed, whole = (solutions, known) if known else (done, total)
        if not started:  # what a checkpoint had is not this run's pace
            self._bar.update(self._task, resumed_from=completed)
        self._bar.update(
            self._task,
            completed=completed,
            total=whole,
            solutions=solutions,
            done=done,
            pieces=total,
        )
        if not started:  # after the update: its first frame shows the total
            self._stop_spinner()
            self._bar.start()

    def planned(self, plan: Plan) -> None:
        """The count's plan: the board's number of solutions, where it is known."""
        self._known_total = plan.known_total

    def estimate(self, estimate: Estimate, workers: int) -> None:
        """Say what a long count expects to take; the bar counts down from it."""
        self._output.message(render.estimate_line(estimate, workers, cluster=self._cluster))
        self._bar.update(self._task, expected=estimate.seconds_on(workers))


@contextmanager
def count_display(
    output: Output,
    n: int,
    *,
    enabled: bool,
    cluster: bool = False,
) -> Iterator[CountDisplay | None]:
    """What a count shows on a terminal while it runs, on stderr (None: nothing to show, when
    stderr is not a terminal or when disabled).

    A spinner with the elapsed time once the count has run a second; as soon as the engine
    reports progress (splitting engines do, on boards counted in more than a moment), a
    progress bar instead: how far, the solutions so far, the time taken and the time left.
    The engine that counts decides, whichever ``auto`` picked.
    """
    if not (enabled and output.err_is_terminal):
        yield None
        return
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

    from nqueens.cli.columns import TimeLeftColumn

    columns: tuple[str | ProgressColumn, ...]
    if output.err.width < _WIDE_COLUMNS:
        columns = (
            TextColumn("[bold]N = {task.fields[n]}"),
            BarColumn(bar_width=20),
            TaskProgressColumn(),
            TextColumn("{task.fields[solutions]:,} found"),
            TimeElapsedColumn(),
            TimeLeftColumn(),
        )
    else:
        dot = "\N{MIDDLE DOT}" if encodes(output.err, "\N{MIDDLE DOT}") else "-"
        columns = (
            TextColumn("[bold]Counting N = {task.fields[n]}"),
            BarColumn(bar_width=25),
            TaskProgressColumn(),
            TextColumn(f"{dot} {{task.fields[solutions]:,}} solutions {dot}"),
            TextColumn(f"{{task.fields[done]:,}}/{{task.fields[pieces]:,}} pieces {dot}"),
            TimeElapsedColumn(),
            TimeLeftColumn(),
        )
    bar = Progress(*columns, console=output.err, transient=True)
    with spinner(output, f"Counting N = {n}") as stop_spinner:
        try:
            yield CountDisplay(output, bar, n, stop_spinner, cluster)
        finally:
            if bar.live.is_started:
                bar.stop()


@contextmanager
def listing_display(
    output: Output, n: int, *, enabled: bool, known_total: int | None
) -> Iterator[Callable[[int], None]]:
    """What a listing written to a file or a pipe shows on stderr, where that is a terminal:
    after a second, the boards written, the time taken and, where the board's number of
    solutions is known (``known_total``), how far and the time left. It yields the function
    that says how many boards are written so far."""
    if not (enabled and output.err_is_terminal):
        yield lambda written: None
        return
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

    from nqueens.cli.columns import TimeLeftColumn

    bar = Progress(
        TextColumn("[bold]Listing N = {task.fields[n]}"),
        BarColumn(bar_width=10),  # 80 columns hold it with a count of N = 18 and the time left
        TaskProgressColumn(),
        TextColumn("{task.completed:,.0f} boards written"),
        TimeElapsedColumn(),
        TimeLeftColumn(),
        console=output.err,
        transient=True,
    )
    task = bar.add_task("list", total=known_total, n=n)
    shown_from = time.monotonic() + SPINNER_DELAY_SECONDS

    def written(boards: int) -> None:
        bar.update(task, completed=boards)
        if not bar.live.is_started and time.monotonic() >= shown_from:
            bar.start()

    try:
        yield written
    finally:
        if bar.live.is_started:
            bar.stop()


@contextmanager
def spinner(output: Output, text: str, *, enabled: bool = True) -> Iterator[Callable[[], None]]:
    """A spinner with the elapsed time on stderr for a search that reports no progress.

    It appears only once the search has run ``SPINNER_DELAY_SECONDS``, so quick searches stay
    quiet, and it leaves nothing behind. The function it yields stops it early.
    """
    if not (enabled and output.err_is_terminal):
        yield lambda: None
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    from rich.spinner import Spinner

    dots = "".join(Spinner("dots").frames)
    progress = Progress(
        SpinnerColumn("dots" if encodes(output.err, dots) else "line"),  # line spins in ASCII
        TextColumn(f"[bold]{text}[/bold]"),
        TimeElapsedColumn(),
        console=output.err,
        transient=True,
    )
    progress.add_task("search", total=None)
    lock = threading.Lock()
    stopped = False

    def show() -> None:
        with lock:
            if not stopped:
                progress.start()

    def stop() -> None:
        nonlocal stopped
        timer.cancel()
        with lock:
            stopped = True
            if progress.live.is_started:
                progress.stop()

    timer = threading.Timer(SPINNER_DELAY_SECONDS, show)
    timer.daemon = True
    timer.start()
    try:
        yield stop
    finally:
        stop()

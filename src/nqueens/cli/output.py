"""What the command line shows and how it ends: formats, consoles, progress bars, exit codes.

Data goes to stdout; summaries, statistics, progress and messages to stderr.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from nqueens.cli import render
from nqueens.cli.svg import numbered_path
from nqueens.core import signals
from nqueens.core.board import Puzzle
from nqueens.core.results import Solution, Stats, Status

if TYPE_CHECKING:
    from nqueens.run.estimate import Estimate

COLOR_KEY = "nqueens.color"
"""Where the command line keeps --color (True), --no-color (False) or neither (None)."""

EXIT_OK = 0
EXIT_NO_SOLUTION = 1
EXIT_CLUSTER_LOST = 1  # no answer either: the count's cluster is out of reach or went away
EXIT_TIME_LIMIT = 3
EXIT_IO_ERROR = 74  # EX_IOERR of sysexits.h

EXIT_CODES_HELP = """\b
Conventions: data for programs uses rows[c], the 0-based row of the queen in
column c; boards for people are labelled 1-based, row 1 at the top, column 1
at the left.

\b
Exit codes:
  0    success (a count of 0 is a success)
  1    no solution exists (solve, first, explain); a board is not valid
       (verify); the cluster's scheduler went away (count --cluster)
  2    bad usage or bad input
  3    the time limit ended the search first: the result is partial
  74   the output, or count's checkpoint, could not be written (a full
       disk, a closed stdout)
  130  interrupted (Ctrl-C): the result is partial; 143 after SIGTERM,
       129 after SIGHUP
"""


def discard_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush cannot fail again."""
    try:
        fileno = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a real file (e.g. under a test runner): nothing will be flushed to a pipe
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fileno)
    os.close(devnull)


class Output:
    """Where and how results are shown: the chosen format and style, and the two consoles."""

    def __init__(
        self,
        output_format: str,
        style: str = "auto",
        *,
        ascii_only: bool = False,
        puzzle: Puzzle | None = None,
    ) -> None:
        self.format = output_format
        self.style = style
        self.ascii_only = ascii_only
        self.puzzle = puzzle if puzzle is not None and puzzle.constrained else None
        self._legend_due = self.puzzle is not None  # under the first board drawn
        context = click.get_current_context(silent=True)
        color = context.meta.get(COLOR_KEY) if context is not None else None
        # --color acts as FORCE_COLOR and --no-color as NO_COLOR; neither leaves them to rich.
        force_terminal = True if color is True else None
        no_color = True if color is False else None
        # Off a terminal stdout carries data, the same bytes whatever the colour settings: no
        # colour setting may turn it into a drawing for people.
        out_is_terminal = _is_terminal(sys.stdout)
        self.out = Console(
            highlight=False,
            force_terminal=force_terminal if out_is_terminal else False,
            no_color=no_color,
        )
        self.err = Console(
            stderr=True, highlight=False, force_terminal=force_terminal, no_color=no_color
        )
        self.rich = output_format == "text" and out_is_terminal and os.environ.get("TERM") != "dumb"

    def _compact(self, n: int) -> bool:
        """Whether to show the row of each column instead of drawing the board."""
        if self.style != "auto":
            return self.style == "compact"
        if self.rich:
            return render.rich_board_width(n) > self.out.width
        return n > render.PLAIN_BOARD_MAX_N

    def solution(self, solution: Solution, number: int | None = None) -> None:
        """Write one solution to stdout, numbered when it is one of many: whole, a stop signal
        waiting until it is written (never a heading without its board)."""
        with signals.held():
            self._solution(solution, number)

    def _solution(self, solution: Solution, number: int | None) -> None:
        if self.format == "json":
            _write_line(render.solution_record_pieces(solution, number))
            return
        compact = self._compact(solution.n)
        if self.rich:
            if number is not None:
                self.out.print(f"Solution {number}", style="bold")
            if compact:
                self.out.print("Row of the queen in each column: ", end="")
                _write_line(render.compact_pieces(solution))
            else:
                self.out.print(
                    render.rich_board(
                        solution,
                        puzzle=self.puzzle,
                        ascii_only=self.ascii_only,
                        colour=not self.out.no_color,
                    )
                )
                if self.puzzle is not None and self._legend_due:
                    self.out.print(render.legend(self.puzzle, ascii_only=self.ascii_only))
                    self._legend_due = False
            if number is not None:
                self.out.print()
            return
        if number is not None:
            click.echo(f"Solution {number}")
        if compact:
            _write_line(render.compact_pieces(solution))
        else:
            click.echo(render.plain_board(solution))
        if number is not None:
            click.echo()

    def print_data(self, text: str) -> None:
        """A line of data on stdout, with rich markup when drawing for a terminal."""
        if self.rich:
            self.out.print(text)
        else:
            click.echo(text)

    def end_of_search(self, stats: Stats, *, with_stats: bool) -> None:
        """In JSON, the status record that closes the stream of solutions (text: nothing)."""
        if self.format == "json":
            click.echo(render.status_record(stats, with_stats=with_stats, none_is_an_answer=False))

    def message(self, text: str) -> None:
        """A line for people, on stderr: wrapped between words on a terminal (which would cut
        it anywhere), kept whole in a file or pipe."""
        self.err.print(text, markup=False, soft_wrap=not self.err.is_terminal)

    def stats(self, stats: Stats, *, enumeration: bool = True) -> None:
        """The statistics table, on stderr."""
        self.err.print(render.stats_table(stats, enumeration=enumeration))


def _is_terminal(stream: object) -> bool:
    """Whether ``stream`` is a real terminal (not a pipe, a file, or a closed stream)."""
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return False


def _write_line(pieces: Iterator[str]) -> None:
    """One line of data on stdout, written piece by piece (a board of millions is megabytes)."""
    for piece in pieces:
        click.echo(piece, nl=False)
    click.echo()


class Unwritable(click.ClickException):
    """A file the user asked for could not be written (a full disk, a folder gone): exit 74."""

    exit_code = EXIT_IO_ERROR


class Pictures:
    """The pictures a command saves where the user asked, and the line that says so."""

    def __init__(self, path: str | None, what: str = "picture") -> None:
        self.path = path
        self.what = what
        self.saved: list[str] = []

    def save(self, document: str, number: int | None = None, width: int = 1) -> None:
        """Write one picture: to the path, or numbered (``board-07.svg``) as one of several."""
        if self.path is None:
            return
        # A device (/dev/null, /dev/stdout) takes every picture as it is: board-1.svg beside
        # it would be a new file in /dev.
        device = os.path.exists(self.path) and not os.path.isfile(self.path)
        path = self.path
        if number is not None and not device:
            path = numbered_path(self.path, number, width)
        try:
            with open(path, "w", encoding="utf-8") as file:  # closed here: a late error counts
                file.write(document)
        except OSError as error:
            if os.path.isfile(path):  # a picture cut short is no picture (a device stays)
                with suppress(OSError):
                    os.remove(path)
            raise Unwritable(f"cannot write {path}: {error.strerror or error}") from None
        self.saved.append(path)

    def report(self, output: Output) -> None:
        """Say on stderr what was saved, if anything."""
        if len(self.saved) == 1:
            output.message(f"Saved the {self.what} in {self.saved[0]}.")
        elif self.saved and self.saved[0] == self.saved[-1]:
            output.message(f"Wrote {len(self.saved):,} {self.what}s to {self.saved[0]}.")
        elif self.saved:
            output.message(
                f"Saved {len(self.saved):,} {self.what}s: {self.saved[0]} to {self.saved[-1]}."
            )


def exit_code(status: Status) -> int:
    """The exit code of a search that ended this way with a result worth reporting."""
    return {
        Status.COMPLETE: EXIT_OK,
        Status.LIMIT: EXIT_OK,
        Status.TIME_LIMIT: EXIT_TIME_LIMIT,
        Status.INTERRUPTED: signals.exit_code(),
    }[status]


PROGRESS_MIN_N = 12
"""Boards from this size up take over a second to count: worth a progress bar."""

SPINNER_DELAY_SECONDS = 1.0
"""A search that reports no progress gets a spinner once it has run this long."""

_WIDE_COLUMNS = 120  # the bar in words needs this much with a count in the billions


class _TimeLeftColumn(ProgressColumn):
    """The time left: from the estimate a long count starts with, until the count outlasts it;
    otherwise from the average pace since the start (steadier than a recent window, which jumps
    as subproblems of very different sizes finish), counting only the work done in this run, not
    what a checkpoint had. Nothing in the first second, when a pace means little."""

    def render(self, task: Task) -> Text:
        elapsed, done, total = task.elapsed, task.completed, task.total
        if not elapsed or not total or done >= total:
            return Text("")
        expected = task.fields.get("expected")
        counted = done - task.fields.get("resumed_from", 0)
        if expected is not None and elapsed < expected:
            left = expected - elapsed
        elif counted > 0 and elapsed >= _FIRST_PACE_SECONDS:
            left = elapsed * (total - done) / counted
        else:
            return Text("")
        return Text(f"~{_clock(left)} left", style="progress.remaining")


_FIRST_PACE_SECONDS = 1.0


def _clock(seconds: float) -> str:
    """'4:05', '1:04:05', or for days of work '9 days'."""
    whole = int(seconds)
    if whole >= 2 * 86400:
        return render.duration(seconds)
    hours, minutes, secs = whole // 3600, whole // 60 % 60, whole % 60
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


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
        known_total: int | None,
    ) -> None:
        self._output = output
        self._bar = bar
        self._n = n
        self._known_total = known_total
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
    known_total: int | None = None,
) -> Iterator[CountDisplay | None]:
    """What a count shows on a terminal while it runs, on stderr (None: nothing to show, when
    stderr is not a terminal or when disabled).

    A spinner with the elapsed time once the count has run a second; as soon as the engine
    reports progress (splitting engines do, on boards counted in more than a moment), a
    progress bar instead: how far, the solutions so far, the time taken and the time left.
    The engine that counts decides, whichever ``auto`` picked. ``known_total`` is the board's
    number of solutions where it is known.
    """
    if not (enabled and output.err.is_terminal):
        yield None
        return
    columns: tuple[str | ProgressColumn, ...]
    if output.err.width < _WIDE_COLUMNS:
        columns = (
            TextColumn("[bold]N = {task.fields[n]}"),
            BarColumn(bar_width=20),
            TaskProgressColumn(),
            TextColumn("{task.fields[solutions]:,} found"),
            TimeElapsedColumn(),
            _TimeLeftColumn(),
        )
    else:
        columns = (
            TextColumn("[bold]Counting N = {task.fields[n]}"),
            BarColumn(bar_width=25),
            TaskProgressColumn(),
            TextColumn("· {task.fields[solutions]:,} solutions ·"),
            TextColumn("{task.fields[done]:,}/{task.fields[pieces]:,} pieces ·"),
            TimeElapsedColumn(),
            _TimeLeftColumn(),
        )
    bar = Progress(*columns, console=output.err, transient=True)
    with spinner(output, f"Counting N = {n}") as stop_spinner:
        try:
            yield CountDisplay(output, bar, n, stop_spinner, cluster, known_total)
        finally:
            if bar.live.is_started:
                bar.stop()


@contextmanager
def spinner(output: Output, text: str, *, enabled: bool = True) -> Iterator[Callable[[], None]]:
    """A spinner with the elapsed time on stderr for a search that reports no progress.

    It appears only once the search has run ``SPINNER_DELAY_SECONDS``, so quick searches stay
    quiet, and it leaves nothing behind. The function it yields stops it early.
    """
    if not (enabled and output.err.is_terminal):
        yield lambda: None
        return
    progress = Progress(
        SpinnerColumn(),
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

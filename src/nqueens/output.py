"""What the command line shows and how it ends: formats, consoles, progress bars, exit codes.

Data goes to stdout; summaries, statistics, progress and messages to stderr.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from nqueens import render, signals
from nqueens.results import Solution, Stats, Status

COLOR_KEY = "nqueens.color"
"""Where the command line keeps --color (True), --no-color (False) or neither (None)."""

EXIT_OK = 0
EXIT_NO_SOLUTION = 1
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
       (verify)
  2    bad usage or bad input
  3    the time limit ended the search first: the result is partial
  74   the output could not be written (a full disk, a closed stdout)
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
        self, output_format: str, style: str = "auto", *, ascii_only: bool = False
    ) -> None:
        self.format = output_format
        self.style = style
        self.ascii_only = ascii_only
        context = click.get_current_context(silent=True)
        color = context.meta.get(COLOR_KEY) if context is not None else None
        # --color acts as FORCE_COLOR and --no-color as NO_COLOR; neither leaves them to rich.
        force_terminal = True if color is True else None
        no_color = True if color is False else None
        self.out = Console(highlight=False, force_terminal=force_terminal, no_color=no_color)
        self.err = Console(
            stderr=True, highlight=False, force_terminal=force_terminal, no_color=no_color
        )
        self.rich = (
            output_format == "text" and self.out.is_terminal and os.environ.get("TERM") != "dumb"
        )

    def _compact(self, n: int) -> bool:
        """Whether to show the row of each column instead of drawing the board."""
        if self.style != "auto":
            return self.style == "compact"
        if self.rich:
            return render.rich_board_width(n) > self.out.width
        return n > render.PLAIN_BOARD_MAX_N

    def solution(self, solution: Solution, number: int | None = None) -> None:
        """Write one solution to stdout, numbered when it is one of many."""
        if self.format == "json":
            click.echo(render.solution_record(solution, number))
            return
        compact = self._compact(solution.n)
        if self.rich:
            if number is not None:
                self.out.print(f"Solution {number}", style="bold")
            if compact:
                self.out.print(f"Row of the queen in each column: {render.compact_rows(solution)}")
            else:
                self.out.print(
                    render.rich_board(
                        solution, ascii_only=self.ascii_only, colour=not self.out.no_color
                    )
                )
            if number is not None:
                self.out.print()
            return
        if number is not None:
            click.echo(f"Solution {number}")
        click.echo(render.compact_rows(solution) if compact else render.plain_board(solution))
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
        """A line for people, on stderr."""
        self.err.print(text, markup=False, soft_wrap=True)

    def stats(self, stats: Stats, *, enumeration: bool = True) -> None:
        """The statistics table, on stderr."""
        self.err.print(render.stats_table(stats, enumeration=enumeration))


def save_svg(path: str, document: str) -> None:
    """Write a picture, turning a path that cannot be written into a usage error (exit 2)."""
    try:
        Path(path).write_text(document, encoding="utf-8")
    except OSError as error:
        reason = error.strerror or str(error)
        raise click.BadParameter(f"cannot write {path}: {reason}", param_hint="'--svg'") from None


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


@contextmanager
def progress_bar(
    output: Output, n: int, *, enabled: bool
) -> Iterator[Callable[[int, int, int], None] | None]:
    """A rich progress bar on stderr, fed by the count's progress callback.

    Off (None) when stderr is not a terminal, when disabled, or for boards counted in a moment.
    """
    if not (enabled and n >= PROGRESS_MIN_N and output.err.is_terminal):
        yield None
        return
    columns = (
        TextColumn("[bold]Counting N = {task.fields[n]}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("subproblems, {task.fields[solutions]:,} solutions"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=output.err, transient=True) as progress:
        task = progress.add_task("count", total=None, n=n, solutions=0)

        def on_progress(done: int, total: int, solutions: int) -> None:
            progress.update(task, completed=done, total=total, solutions=solutions)

        yield on_progress

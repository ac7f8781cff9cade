"""What the command line shows: solutions in each format and style, on the consoles of
stdout and stderr, written whole even when a stop lands in the middle of one.

Data goes to stdout; summaries, statistics, progress and messages to stderr.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import cached_property
from typing import TYPE_CHECKING

import click

from nqueens.api import Board, EngineStream, Solution, Stats
from nqueens.cli import render
from nqueens.cli.records import note_records
from nqueens.core import pictures, signals
from nqueens.core.pictures import compact_pieces
from nqueens.formats import blocks, records

if TYPE_CHECKING:
    from nqueens.cli.consoles import StreamConsole

COLOR_KEY = "nqueens.color"
"""Where the command line keeps --color (True), --no-color (False) or neither (None)."""


WRAPPED_ROWS_MAX_N = 10_000
"""Up to this N, a compact board on a terminal is wrapped between its numbers; a larger one, a
line of megabytes, is written as it is."""


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
        board: Board | None = None,
    ) -> None:
        self.format = output_format
        self.style = style
        self.ascii_only = ascii_only
        self.board = board if board is not None and board.constrained else None
        self.rules = board.rules if board is not None else frozenset()
        self._legend_due = self.board is not None  # under the first board drawn
        self.written = 0
        """The solutions written to stdout so far: what a summary may count once a stop signal
        has cut a listing short."""
        context = click.get_current_context(silent=True)
        color = context.meta.get(COLOR_KEY) if context is not None else None
        # --color acts as FORCE_COLOR and --no-color as NO_COLOR; neither leaves them to rich.
        self._force_terminal = True if color is True else None
        self._no_color = True if color is False else None
        self._out_is_terminal = is_terminal(sys.stdout)
        self.rich = (
            output_format == "text" and self._out_is_terminal and os.environ.get("TERM") != "dumb"
        )

    @cached_property
    def out(self) -> StreamConsole:
        """The console of stdout. Off a terminal stdout carries data, the same bytes whatever
        the colour settings: no colour setting may turn it into a drawing for people."""
        from nqueens.cli.consoles import StreamConsole

        force_terminal = self._force_terminal if self._out_is_terminal else False
        return StreamConsole(
            highlight=False, force_terminal=force_terminal, no_color=self._no_color
        )

    @cached_property
    def err(self) -> StreamConsole:
        """The console of stderr: messages, statistics, progress."""
        from nqueens.cli.consoles import StreamConsole

        return StreamConsole(
            stderr=True,
            highlight=False,
            force_terminal=self._force_terminal,
            no_color=self._no_color,
        )

    @cached_property
    def in_letters(self) -> bool:
        """Whether queens are drawn as letters: asked for (--ascii), or a terminal set to ASCII
        or Latin-1, which cannot show the chess symbols."""
        return self.ascii_only or not encodes(self.out, render.SYMBOLS_DRAWN)

    @property
    def err_is_terminal(self) -> bool:
        """Whether stderr is a terminal, as rich judges it (--color and FORCE_COLOR make it one,
        TTY_COMPATIBLE says either way); known without rich where nothing makes it one."""
        plainly_not = (
            self._force_terminal is None
            and not is_terminal(sys.stderr)
            and os.environ.get("TTY_COMPATIBLE", "") != "1"
            and "FORCE_COLOR" not in os.environ
        )
        return False if plainly_not else self.err.is_terminal

    def _headed(self, n: int, number: int | None) -> bool:
        """Whether a solution's record off a terminal is a numbered board ending in a blank
        line, rather than one line."""
        return self.format != "json" and number is not None and not self._compact(n)

    def _compact(self, n: int) -> bool:
        """Whether to show the row of each column instead of drawing the board."""
        if self.style != "auto":
            return self.style == "compact"
        if self.rich:
            return render.rich_board_width(n) > self.out.width
        return n > pictures.DRAWN_MAX_N

    def solution(self, solution: Solution, number: int | None = None) -> None:
        """Write one solution to stdout, numbered when it is one of many: whole, a stop signal
        waiting until it is written (never a heading without its board)."""
        with _whole_or_cut(number or 1):
            note_records(b"\n\n" if self._headed(solution.n, number) else b"\n")
            self._solution(solution, number)
            self.written += 1

    def _solution(self, solution: Solution, number: int | None) -> None:
        if self.format == "json":
            _write_line(records.solution_record_pieces(solution.rows, number, self.rules))
            return
        compact = self._compact(solution.n)
        if self.rich:
            if number is not None:
                self.out.print(f"Solution {number}", style="bold")
            if compact and solution.n <= WRAPPED_ROWS_MAX_N:  # wrapped between numbers
                line = "".join(compact_pieces(solution.rows))
                self.out.print(f"Row of the queen in each column: {line}", highlight=False)
            elif compact:  # megabytes: as the terminal wraps them
                self.out.print("Row of the queen in each column: ", end="")
                _write_line(compact_pieces(solution.rows))
            else:
                self.out.print(
                    render.rich_board(
                        solution,
                        board=self.board,
                        ascii_only=self.in_letters,
                        colour=not self.out.no_color,
                    )
                )
                if self.board is not None and self._legend_due:
                    self.key(render.legend(self.board, ascii_only=self.in_letters))
                    self._legend_due = False
            if number is not None:
                self.out.print()
            return
        if compact:  # one line a board, for other programs: its number is in JSON only
            _write_line(compact_pieces(solution.rows))
            return
        if number is not None:
            click.echo(f"Solution {number}")
        click.echo(render.plain_board(solution))
        if number is not None:
            click.echo()

    def in_blocks(self, stream: EngineStream, pictures: bool) -> bool:
        """Whether ``stream``'s solutions are written a block at a time: data off a terminal,
        from a stream that lists in blocks, with no pictures to draw of each."""
        return stream.lists_in_blocks and not self.rich and not pictures

    def solutions(self, packed: bytes, n: int, first: int) -> None:
        """Write a block of solutions (their rows one after another, a byte a column),
        numbered from ``first``, as ``solution`` writes each: whole, a stop signal waiting
        until it is written."""
        if self.format == "json":
            prefix = records.record_head(n, self.rules).encode()
            text = blocks.solutions(packed, n, blocks.JSON, first, prefix)
        else:
            form = blocks.COMPACT if self._compact(n) else blocks.BOARD
            text = blocks.solutions(packed, n, form, first)
        with _whole_or_cut(first):
            note_records(b"\n\n" if self._headed(n, first) else b"\n")
            write_whole(text)
            self.written += len(packed) // n

    def print_data(self, text: str) -> None:
        """A line of data on stdout, with rich markup when drawing for a terminal."""
        if self.rich:
            self.out.print(text)
        else:
            click.echo(text)

    def end_of_search(self, stats: Stats, *, with_stats: bool) -> None:
        """In JSON, the status record that closes the stream of solutions (text: nothing)."""
        if self.format == "json":
            record = records.status_record(
                stats, with_stats=with_stats, none_is_an_answer=False, rules=self.rules
            )
            click.echo(record)

    def words(self, text: str) -> None:
        """Prose on stdout beside the boards: wrapped between words on a terminal, whole in a
        file or a pipe."""
        self.out.print(text, markup=False, highlight=False, soft_wrap=not self.out.is_terminal)

    def key(self, items: list[str]) -> None:
        """The key to the marks of a board drawn for people, wrapped to the terminal between
        its items."""
        width = self.out.width if self.out.is_terminal else None
        for line in render.key_lines(items, width):
            self.out.print(line, markup=False, highlight=False, soft_wrap=True)

    def message(self, text: str) -> None:
        """A line for people, on stderr: wrapped between words on a terminal (which would cut
        it anywhere), kept whole in a file or pipe."""
        self.err.print(text, markup=False, soft_wrap=not self.err.is_terminal)

    def stats(self, stats: Stats, board: Board) -> None:
        """The statistics table, on stderr."""
        self.err.print(render.stats_table(stats, board))


def encodes(console: StreamConsole, text: str) -> bool:
    """Whether the console's stream can write ``text`` in its encoding (a terminal set to ASCII
    cannot write a chess queen, and stdout would fail on it)."""
    try:
        text.encode(console.encoding)
    except (UnicodeError, LookupError):
        return False
    return True


def is_terminal(stream: object) -> bool:
    """Whether ``stream`` is a real terminal (not a pipe, a file, or a closed stream)."""
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return False


STOP_PATIENCE = 0.5
"""How long a stop waits for a record being written to stdout, in seconds: a reader that does
not read for that long has the record cut, and the process ends."""


@contextmanager
def _whole_or_cut(number: int) -> Iterator[None]:
    """Records written whole, numbered from ``number``: a stop signal waits until they are
    written, unless stdout takes nothing for STOP_PATIENCE seconds (a pipe nobody reads). Then
    the write is left cut, stdout is let go, and stderr says where."""
    try:
        with signals.held(patience=STOP_PATIENCE):
            yield
    except signals.Abandoned:
        discard_stdout()
        with suppress(OSError, ValueError):
            click.echo(
                f"Output cut: stdout was not read for {STOP_PATIENCE:g} s after the stop, so "
                f"it ends inside the record of solution {number:,} or one after it.",
                err=True,
            )
        raise KeyboardInterrupt from None


def write_whole(data: bytes) -> None:
    """Write ``data`` to stdout, all of it: a write that a signal handler runs in the middle of
    writes a part and says how much, and the rest is written after it."""
    sys.stdout.flush()
    stream = getattr(sys.stdout, "buffer", None)
    if stream is None:  # a stdout of text only (one closed from the start): it says why not
        sys.stdout.write(data.decode())
        return
    left = memoryview(data)
    while left:
        left = left[stream.write(left) :]
    stream.flush()


def _write_line(pieces: Iterator[str]) -> None:
    """One line of data on stdout, written piece by piece (a board of millions is megabytes)."""
    for piece in pieces:
        click.echo(piece, nl=False)
    click.echo()

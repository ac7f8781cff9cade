"""Boards and statistics for people: drawn boards, tables, headlines and the lines that say
how a search ended (the JSON records for programs are ``nqueens.formats.records``'s).

Conventions: data for programs uses ``rows[c]``, the 0-based row of the queen in column ``c``;
everything a person reads is 1-based, row 1 at the top and column 1 at the left.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import TYPE_CHECKING

from nqueens.api import SUM, Board, Finished, Solution, Square, Stats, Status
from nqueens.core import clock
from nqueens.core.glyphs import glyphs
from nqueens.core.pictures import plain_grid
from nqueens.core.wording import counted, duration, noun_for
from nqueens.formats import records

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text

    from nqueens.api import Estimate

_SQUARE_WIDTH = 3  # terminal cells are about twice as tall as wide: three make a squarish square
_LIGHT_SQUARE = "black on #eeeed2"
_DARK_SQUARE = "black on #b58863"
_LABEL = "dim"


def plain_board(solution: Solution) -> str:
    """The OR-Tools guide's format: one line per row, ``Q`` a queen, ``_`` an empty square."""
    return plain_grid(solution.n, set(solution.squares()))


MAX_DRAWN_N = 1_000
"""The largest board drawn square by square; larger ones are written as rows only."""


def rich_board_width(n: int) -> int:
    """How many terminal cells wide ``rich_board`` draws an n x n board."""
    return len(str(n)) + 1 + _SQUARE_WIDTH * n


def rich_board(
    solution: Solution,
    *,
    board: Board | None = None,
    ascii_only: bool = False,
    colour: bool = True,
) -> Text:
    """A checkered board with a queen glyph and 1-based row and column labels; a ``puzzle``'s
    given queens, blocked squares and excluded diagonals are marked (see ``legend``)."""
    return rich_grid(
        solution.n,
        set(solution.squares()),
        given=set(board.queens) if board is not None else (),
        marks=puzzle_marks(board, ascii_only=ascii_only) if board is not None else None,
        ascii_only=ascii_only,
        colour=colour,
    )


_GIVEN_SQUARE = "bold white on #2e5e8c"
_FRESH_MARK = "bold white on #b22222"  # 6.7:1; black on the squares is 6.8:1 and more


def explain_legend(*, ascii_only: bool = False, colour: bool = True) -> list[str]:
    """The key to the boards ``explain`` draws, as they are drawn (with colour or without), an
    item a mark."""
    marks = glyphs(ascii_only)
    fresh = "white x on red" if colour else "X"
    return [
        f"{marks.queen} decided queen",
        f"{marks.forced} queen forced by propagation",
        "x ruled out earlier",
        f"{fresh}: ruled out by this step",
    ]


KEY_GAP = "   "
"""What stands between two items of a key."""


def key_lines(items: list[str], width: int | None) -> list[str]:
    """A key's items on lines no wider than ``width`` (as a terminal counts cells), broken only
    between items, never inside one; one line where there is no width (a file or a pipe)."""
    lines: list[str] = []
    for item in items:
        joined = f"{lines[-1]}{KEY_GAP}{item}" if lines else item
        if lines and (width is None or _cells(joined) <= width):
            lines[-1] = joined
        else:
            lines.append(item)
    return lines


_RISING = "\N{BOX DRAWINGS LIGHT DIAGONAL UPPER RIGHT TO LOWER LEFT}"
_FALLING = "\N{BOX DRAWINGS LIGHT DIAGONAL UPPER LEFT TO LOWER RIGHT}"
_BOTH = "\N{BOX DRAWINGS LIGHT DIAGONAL CROSS}"
SYMBOLS_DRAWN = "".join(glyphs(ascii_only=False)) + _RISING + _FALLING + _BOTH
"""Every symbol a board for people may be drawn with, unless it is drawn in letters."""


def puzzle_marks(board: Board, *, ascii_only: bool = False) -> dict[Square, str]:
    """What an empty square of the puzzle shows: ``#`` blocked, a diagonal stroke on an excluded
    diagonal (``/``, ``\\``, or a cross where two meet)."""
    rising, falling, both = ("/", "\\", "X") if ascii_only else (_RISING, _FALLING, _BOTH)
    marks: dict[Square, str] = {}
    for diagonal in board.excluded:
        stroke = rising if diagonal.kind == SUM else falling
        for square in diagonal.squares(board.n):
            marks[square] = both if marks.get(square, stroke) != stroke else stroke
    marks.update(dict.fromkeys(board.blocked, "#"))
    return marks


def legend(board: Board, *, ascii_only: bool = False) -> list[str]:
    """The key to a puzzle's marks on a board, naming only the marks it has, an item a mark."""
    queen = glyphs(ascii_only).queen
    rising, falling = ("/", "\\") if ascii_only else (_RISING, _FALLING)
    parts = []
    if board.queens:
        parts.append(f"[{queen}] given queen")
    if board.blocked:
        parts.append("# blocked square")
    if board.excluded:
        parts.append(f"{rising} {falling} excluded diagonal")
    return parts


def rich_grid(
    n: int,
    queens: Collection[Square],
    *,
    crossed: Collection[Square] = (),
    fresh: Collection[Square] = (),
    forced: Collection[Square] = (),
    given: Collection[Square] = (),
    marks: dict[Square, str] | None = None,
    ascii_only: bool = False,
    colour: bool = True,
) -> Text:
    """A checkered board with labels; ``crossed`` squares show an ``x`` (``fresh`` ones, ruled
    out by the step being shown, white on red), ``forced`` queens (placed by propagation, not by
    a decision) show as the outlined queen (``F`` in ASCII), ``given`` queens stand in brackets
    on blue, and empty squares show their ``marks``. ``ascii_only`` draws queens as ``Q``.
    Without ``colour`` (NO_COLOR), empty squares show a dot and fresh marks an ``X``: the same
    layout, still readable."""
    label_width = len(str(n))
    drawn = glyphs(ascii_only)
    queen = drawn.queen
    marks = marks or {}
    from rich.text import Text

    board = Text(" " * (label_width + 1), end="")
    for col in range(1, n + 1):
        board.append(f"{col:^{_SQUARE_WIDTH}}", style=_LABEL)
    for row in range(n):
        board.append(f"\n{row + 1:>{label_width}} ", style=_LABEL)
        for col in range(n):
            square = _LIGHT_SQUARE if (row + col) % 2 == 0 else _DARK_SQUARE
            if (row, col) in given:
                board.append(f"[{queen}]", style=_GIVEN_SQUARE)
            elif (row, col) in queens:
                glyph = drawn.forced if (row, col) in forced else queen
                board.append(f"{glyph:^{_SQUARE_WIDTH}}", style=square)
            elif (row, col) in crossed:
                fresh_mark = (row, col) in fresh
                mark = "X" if fresh_mark and not colour else "x"  # no red without colour
                board.append(
                    f"{mark:^{_SQUARE_WIDTH}}", style=_FRESH_MARK if fresh_mark else square
                )
            elif (row, col) in marks:
                board.append(f"{marks[row, col]:^{_SQUARE_WIDTH}}", style=square)
            else:
                board.append(f"{' ' if colour else '.':^{_SQUARE_WIDTH}}", style=square)
    return board


def count_headline(stats: Stats, board: Board, *, with_unique: bool) -> str:
    """A count in words for a terminal, "at least" when the search was cut short, naming the
    board's rules beside its size.

    With ``with_unique``, the unique count first and the total beside it.
    """
    bound = "at least " if stats.status.partial else ""
    if with_unique and stats.unique is not None:
        line = (
            f"{board.title}: {bound}[bold]{stats.unique:,}[/bold] "
            f"{noun_for(stats.unique, 'unique solution')} "
            f"({stats.solutions:,} in all)"
        )
    else:
        noun = noun_for(stats.solutions, "solution")
        line = f"{board.title}: {bound}[bold]{stats.solutions:,}[/bold] {noun}"
    return line


def stats_table(stats: Stats, board: Board) -> Table:
    """The solver's statistics as a two-column table, as OR-Tools' N-queens example lists
    them, with the board's size and rules.

    The solution rate is a row where it is a rate (``has_rate``).
    """
    from rich.table import Table

    table = Table(title="Statistics", show_header=False, title_justify="left")
    table.add_column("statistic", style="bold")
    table.add_column("value", justify="right")
    table.add_row("board", ", ".join([f"{stats.n} x {stats.n}", *sorted(board.rules)]))
    detail = stats.backend or stats.strategy
    table.add_row("engine", stats.engine + (f" ({detail})" if detail else ""))
    table.add_row("solutions", f"{stats.solutions:,}")
    if stats.unique is not None:
        table.add_row("unique up to symmetry", f"{stats.unique:,}")
    for name, value in stats.figures.items():
        table.add_row(name, f"{value:,}")
    table.add_row("wall time", f"{stats.wall_time:.3f} s")
    if records.has_rate(stats):
        table.add_row("solutions per second", f"{stats.solutions_per_second:,.0f}")
    table.add_row("search", describe_status(stats.status))
    return table


def estimate_line(estimate: Estimate, workers: int, *, cluster: bool) -> str:
    """What a long count expects to take, said before it starts: with a refusal's words for
    how sure it is, the same estimate."""
    where = f"{workers:,} worker{'s' if workers != 1 else ''}"
    if cluster:
        where += " of the cluster, if its cores are as fast as this machine's"
    return (
        f"Estimate: about {duration(estimate.seconds_on(workers))} on {where} "
        f"({estimate.sureness}; {duration(estimate.cpu_seconds)} on one core)."
    )


def how_far(finished: Finished, *, seconds_left: float | None, workers: int | None) -> str:
    """How far a count that stopped got, said after it: the pieces finished and what they
    hold (a checkpoint keeps them), beside the lower bound; and the work left, where it was
    estimated."""
    kept = counted(finished.solutions, "solution")
    percent = finished.share * 100
    # floored, never rounded up: 99.96% of the pieces is not all of them
    done = f"{math.floor(percent * 10) / 10:.1f}%" if percent < 10 else f"{math.floor(percent)}%"
    line = f"{finished.pieces:,} of {finished.total:,} pieces finished ({done}), holding {kept}"
    if seconds_left is not None and workers:
        line += f"; about {duration(seconds_left)} of work left on {counted(workers, 'worker')}"
    return line + "."


def describe_status(status: Status) -> str:
    """How a search ended, in words, saying plainly when a result is only a lower bound."""
    return {
        Status.COMPLETE: "complete",
        Status.LIMIT: "stopped at the solution limit",
        Status.TIME_LIMIT: "stopped by the time limit; partial, a lower bound",
        Status.INTERRUPTED: "interrupted; partial, a lower bound",
    }[status]


def ending(stats: Stats) -> str:
    """How a search that was cut short ended, for a line beside a result that shows the count."""
    cause = "Interrupted" if stats.status is Status.INTERRUPTED else "Stopped by the time limit"
    return f"{cause} after {clock.since_start(stats.wall_time):.2f} s: the count is a lower bound."


def summary(stats: Stats, board: Board, *, in_all: int | None = None) -> str:
    """One line for people after a search: how many solutions, how long, and how it ended;
    with ``in_all``, the solutions were one of each symmetry class, standing for that many."""
    seconds = clock.since_start(stats.wall_time)
    if in_all is None:
        found = counted(stats.solutions, "solution")
    else:
        found = f"{counted(stats.solutions, 'unique solution')} ({in_all:,} in all)"
    line = f"{found} for {board.title} in {seconds:.2f} s"
    if stats.status is not Status.COMPLETE:
        line += f" ({describe_status(stats.status)})"
    return line


def _cells(text: str) -> int:
    """The columns ``text`` takes on a terminal (wide characters take two)."""
    from rich.cells import cell_len

    return cell_len(text)

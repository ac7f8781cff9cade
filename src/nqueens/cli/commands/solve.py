"""``nqueens solve``: every solution, as boards, rows or JSON."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import click

from nqueens import api
from nqueens.api import (
    AUTO_ENGINE,
    SOLVE,
    SOLVE_DEFAULT,
    SOLVE_FALLBACK,
    Board,
    Plan,
    Stats,
    Status,
)
from nqueens.cli import render
from nqueens.cli.boards import board_size, takes_board
from nqueens.cli.command import QueensCommand
from nqueens.cli.exits import EXIT_NO_SOLUTION, SEE_MAIN_HELP, exit_code
from nqueens.cli.files import Pictures
from nqueens.cli.options import board_options, common_options, engine_options
from nqueens.cli.output import Output
from nqueens.cli.params import WholeNumber
from nqueens.cli.progress import listing_display
from nqueens.cli.report import check_drawable, notes_said, usage_errors
from nqueens.core import clock
from nqueens.core.pictures import board_svg
from nqueens.core.symmetry import class_size


@click.command(cls=QueensCommand, epilog=SEE_MAIN_HELP)
@click.argument("n", callback=board_size, required=False, metavar="N")
@click.option(
    "-n", "--limit", type=WholeNumber(1), metavar="K", help="Stop after K solutions, e.g. -n 10."
)
@click.option(
    "--unique",
    is_flag=True,
    help="One solution of each set of turns and mirror images.",
)
@takes_board
@engine_options(
    SOLVE,
    AUTO_ENGINE,
    f"{SOLVE_DEFAULT}; {SOLVE_FALLBACK} for a --strategy or a board over 64 "
    "(reduced for excluded diagonals, and for puzzles on boards over 1,000)",
)
@board_options
@common_options
@click.pass_context
def solve(
    ctx: click.Context,
    board: Board,
    limit: int | None,
    unique: bool,
    engine: str,
    strategy: str | None,
    engine_options: dict[str, Any],
    style: str,
    ascii_only: bool,
    svg_path: str | None,
    output_format: str,
    show_stats: bool,
    time_limit: float | None,
    quiet: bool,
) -> None:
    """List every solution for an N x N board, as each is found.

    Solutions are numbered and come in order of their rows; above N = 18 give --limit, as there
    are too many to list. A summary follows on stderr; in JSON a status record ends the list.

    \b
    Examples:
      nqueens solve 8                      all 92 solutions, drawn
      nqueens solve 12 --limit 3 --style compact
      nqueens solve 8 --queen 1,1          those with a queen in the top left
      nqueens solve 10 --format json > solutions.jsonl
    """
    output = Output(output_format, style, ascii_only=ascii_only, board=board)
    n = board.n
    check_drawable(output, n, svg_path)
    planned: list[Plan] = []
    pictures = Pictures(svg_path)
    written = Written(output)
    with usage_errors(output):
        stream = api.solve(
            board,
            limit=limit,
            time_limit=clock.remaining(time_limit),
            unique=unique,
            engine=engine,
            strategy=strategy,
            **engine_options,
            on_plan=notes_said(output, planned.append),
        )
    known_total = planned[0].known_total
    digits = len(str(limit or known_total or 1))
    with stream:
        try:
            if output.in_blocks(stream, pictures=svg_path is not None):
                known = None if unique else known_total
                if known is not None and limit is not None:
                    known = min(known, limit)
                with listing_display(output, n, enabled=not quiet, known_total=known) as shown:
                    _write_blocks(output, stream, shown, written)
            for number, solution in enumerate(stream, start=1):
                if unique:
                    written.stand_for(class_size(solution.rows))
                output.solution(solution, number)
                if svg_path is not None:
                    caption = f"Solution {number}"
                    picture = board_svg(
                        n,
                        solution.squares(),
                        board=board,
                        caption=caption,
                        ascii_only=output.ascii_only,
                    )
                    pictures.save(picture, number, digits)
        except KeyboardInterrupt:
            stream.close()
    pictures.report(output)
    stats = written.of(stream.stats)
    output.end_of_search(stats, with_stats=show_stats)
    if stats.solutions == 0 and stats.status is Status.COMPLETE:
        output.message(api.none_exists(board))
        ctx.exit(EXIT_NO_SOLUTION)
    output.message(render.summary(stats, board, in_all=written.in_all if unique else None))
    if show_stats:
        output.stats(stats, board)
    ctx.exit(exit_code(stats.status))


class Written:
    """What a listing has written to stdout: a stop signal can come after the search handed
    over solutions and before they were written, and the summary and the status record count
    only what the user has."""

    def __init__(self, output: Output) -> None:
        self._output = output
        self._in_all = 0  # with --unique: the solutions that the boards written stand for
        self._pending = (0, 0)  # (written, in all) once the boards being written are

    def stand_for(self, in_all: int) -> None:
        """The boards about to be written stand for ``in_all`` solutions (with --unique)."""
        self._settle()
        self._pending = (self._output.written + 1, self._in_all + in_all)

    def stand_for_block(self, count: int, in_all: int) -> None:
        """A block of ``count`` boards about to be written brings the total to ``in_all``."""
        self._settle()
        self._pending = (self._output.written + count, in_all)

    @property
    def in_all(self) -> int:
        """The solutions the unique boards written stand for."""
        self._settle()
        return self._in_all

    def of(self, stats: Stats) -> Stats:
        """The search's statistics, with the solutions counted as written."""
        count = self._output.written
        if stats.solutions <= count:
            return stats
        return replace(stats, solutions=count, unique=None if stats.unique is None else count)

    def _settle(self) -> None:
        if self._output.written >= self._pending[0]:
            self._in_all = self._pending[1]


def _write_blocks(
    output: Output, stream: Any, shown: Callable[[int], None], written: Written
) -> None:
    """Every solution of a stream that lists in blocks, a block at a time, saying how many are
    written to ``shown`` and ``written``."""
    n = stream.n
    for packed in stream.packed_blocks():
        written.stand_for_block(len(packed) // n, stream.in_all or 0)
        output.solutions(packed, n, output.written + 1)
        shown(output.written)

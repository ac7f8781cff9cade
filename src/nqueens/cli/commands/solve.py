"""``nqueens solve``: every solution, as boards, rows or JSON."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from nqueens import api
from nqueens.cli import render
from nqueens.cli.boards import board_size, takes_board
from nqueens.cli.options import (
    QueensCommand,
    board_options,
    common_options,
    engine_options,
    usage_errors,
)
from nqueens.cli.output import (
    EXIT_NO_SOLUTION,
    SEE_MAIN_HELP,
    Output,
    Pictures,
    exit_code,
)
from nqueens.cli.params import WholeNumber
from nqueens.cli.progress import listing_display
from nqueens.cli.report import (
    check_drawable,
    none_exists,
    note_slow_engine,
    note_theorem_set_aside,
)
from nqueens.core import clock
from nqueens.core.board import Board
from nqueens.core.known_counts import KNOWN_TOTALS
from nqueens.core.pictures import board_svg
from nqueens.core.results import Status
from nqueens.core.symmetry import class_size
from nqueens.engines import registry
from nqueens.engines.base import SOLVE


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
    registry.AUTO_ENGINE,
    f"{registry.SOLVE_DEFAULT}; {registry.SOLVE_FALLBACK} for a --strategy or a board over 64 "
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
    note_theorem_set_aside(output, SOLVE, board, engine, strategy, engine_options)
    note_slow_engine(output, SOLVE, board, engine, time_limit)
    digits = len(str(limit or (board.plain and KNOWN_TOTALS.get(n)) or 1))
    pictures = Pictures(svg_path)
    in_all = 0  # with --unique: the solutions that the boards listed stand for
    with usage_errors():
        stream = api.solve(
            board,
            limit=limit,
            time_limit=clock.remaining(time_limit),
            unique=unique,
            engine=engine,
            strategy=strategy,
            **engine_options,
        )
    with stream:
        try:
            if output.in_blocks(stream, pictures=svg_path is not None):
                known = KNOWN_TOTALS.get(n) if board.plain and not unique else None
                if known is not None and limit is not None:
                    known = min(known, limit)
                with listing_display(output, n, enabled=not quiet, known_total=known) as shown:
                    _write_blocks(output, stream, shown)
                in_all = stream.in_all or 0
            for number, solution in enumerate(stream, start=1):
                output.solution(solution, number)
                if unique:
                    in_all += class_size(solution.rows)
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
    stats = stream.stats
    output.end_of_search(stats, with_stats=show_stats)
    if stats.solutions == 0 and stats.status is Status.COMPLETE:
        output.message(none_exists(board))
        ctx.exit(EXIT_NO_SOLUTION)
    output.message(render.summary(stats, board, in_all=in_all if unique else None))
    if show_stats:
        output.stats(stats, board)
    ctx.exit(exit_code(stats.status))


def _write_blocks(output: Output, stream: Any, shown: Callable[[int], None]) -> None:
    """Every solution of a stream that lists in blocks, a block at a time, saying how many are
    written to ``shown``."""
    first, n = 1, stream.n
    for packed in stream.packed_blocks():
        output.solutions(packed, n, first)
        first += len(packed) // n
        shown(first - 1)

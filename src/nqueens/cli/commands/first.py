"""``nqueens first``: one solution, fast, or the proof that none exists."""

from __future__ import annotations

from typing import Any

import click

from nqueens import api
from nqueens.api import AUTO_ENGINE, FIRST, FIRST_REASON, MAX_SEED, Board, SearchInterrupted
from nqueens.cli.boards import board_size, takes_board
from nqueens.cli.command import QueensCommand
from nqueens.cli.exits import EXIT_NO_SOLUTION, EXIT_OK, EXIT_TIME_LIMIT, SEE_MAIN_HELP
from nqueens.cli.files import Pictures
from nqueens.cli.options import board_options, common_options, engine_options
from nqueens.cli.output import Output
from nqueens.cli.params import WholeNumber
from nqueens.cli.progress import spinner
from nqueens.cli.report import check_drawable, notes, notes_said, usage_errors
from nqueens.core import clock, signals
from nqueens.core.pictures import board_svg


@click.command(
    cls=QueensCommand,
    epilog=SEE_MAIN_HELP,
    short_help="Find one solution for an N x N board, fast.",
)
@click.argument("n", callback=board_size, required=False, metavar="N")
@click.option(
    "--seed",
    type=WholeNumber(0, MAX_SEED),
    metavar="NUMBER",
    help="Start the search's random choices from this number: the same number gives the same "
    "solution again, another number may give another, e.g. --seed 7. Without --engine, a "
    "search that takes it runs where one can (local search, CP-SAT); CP-SAT's parallel "
    "workers may still differ from run to run.",
)
@takes_board
@engine_options(FIRST, AUTO_ENGINE, FIRST_REASON)
@board_options
@common_options
@click.pass_context
def first(
    ctx: click.Context,
    seed: int | None,
    board: Board,
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
    """Find one solution for an N x N board, fast, and show it with the time taken.

    \b
    Examples:
      nqueens first 8
      nqueens first 1000000 --style compact > million.txt
      nqueens first 20 --queen 1,1 --queen 2,5
      nqueens first 8 --svg eight.svg     also save a picture
    """
    output = Output(output_format, style, ascii_only=ascii_only, board=board)
    n = board.n
    check_drawable(output, n, svg_path)
    try:
        with usage_errors(output), spinner(output, f"Searching N = {n}", enabled=not quiet):
            result = api.first(
                board,
                time_limit=clock.remaining(time_limit),
                engine=engine,
                strategy=strategy,
                **engine_options,
                seed=seed,
                on_plan=notes_said(output),
            )
    except SearchInterrupted as interrupted:
        output.end_of_search(interrupted.stats, with_stats=show_stats)
        output.message(f"Interrupted before a solution for {board.title} was found.")
        ctx.exit(signals.exit_code())
    if result.solution is not None:
        output.solution(result.solution)
    output.end_of_search(result.stats, with_stats=show_stats)
    if result.solution is None:
        if result.proven_infeasible:
            output.message(api.none_exists(board))
            ctx.exit(EXIT_NO_SOLUTION)
        output.message(
            f"No solution found for {board.title} within the time limit of {time_limit:g} s "
            "(the search did not finish)."
        )
        ctx.exit(EXIT_TIME_LIMIT)
    if svg_path is not None:
        pictures = Pictures(svg_path)
        picture = board_svg(n, result.solution.squares(), board=board, ascii_only=output.ascii_only)
        pictures.save(picture)
        pictures.report(output)
    output.message(f"Found in {result.stats.wall_time:.3f} s.")
    notes(output, result.notes)
    if show_stats and output.format == "text":
        output.stats(result.stats, board)
    ctx.exit(EXIT_OK)

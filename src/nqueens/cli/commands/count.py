"""``nqueens count``: how many solutions, with progress, checkpoints and clusters."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from nqueens import api
from nqueens.api import (
    AUTO_ENGINE,
    COUNT,
    COUNT_REASON,
    Board,
    CheckpointUnwritable,
    ClusterLost,
    ClusterUnreachable,
    SearchInterrupted,
    Stats,
    engines_that,
)
from nqueens.cli import render
from nqueens.cli.boards import board_size, takes_board
from nqueens.cli.command import QueensCommand
from nqueens.cli.exits import EXIT_CLUSTER_LOST, EXIT_IO_ERROR, SEE_MAIN_HELP, exit_code
from nqueens.cli.options import common_options, engine_options, file_named, given
from nqueens.cli.output import Output
from nqueens.cli.params import Seconds, WholeNumber
from nqueens.cli.progress import count_display
from nqueens.cli.report import notes_said, usage_errors
from nqueens.core import clock
from nqueens.formats import records

if TYPE_CHECKING:
    from nqueens.api import Estimate


@click.command(cls=QueensCommand, epilog=SEE_MAIN_HELP)
@click.argument("n", callback=board_size, required=False, metavar="N")
@click.option(
    "--unique",
    is_flag=True,
    help="Also count them up to turns and mirror images (a board without given squares).",
)
@click.option(
    "-j",
    "--workers",
    type=WholeNumber(0, api.MAX_WORKERS, " (0 counts on every core)"),
    metavar="K",
    help=f"Processes sharing the count, e.g. -j 2 ({engines_that('splits')}). "
    "[default, 0: every core]",
)
@click.option(
    "--symmetry/--no-symmetry",
    default=True,
    show_default=True,
    help="Each set of turned and mirrored solutions once: 8 times less work, same answer "
    f"({engines_that('unique')}).",
)
@click.option(
    "--checkpoint",
    "checkpoint_path",
    callback=file_named,
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="Keep progress in FILE; the same command goes on where it stopped (Ctrl-C, a crash, "
    "a full disk); a count of hours then needs no -t.",
)
@click.option(
    "--cluster",
    metavar="ADDRESS",
    help="Count on a Dask cluster (tcp://host:8786), or local:K, K processes here (the "
    "cluster extra); a count of hours then needs no -t.",
)
@click.option(
    "--connect-timeout",
    type=Seconds(),
    default=api.CONNECT_SECONDS,
    show_default=True,
    metavar="SECONDS",
    help="How long --cluster waits for its scheduler, e.g. 30 on a slow network.",
)
@takes_board
@engine_options(COUNT, AUTO_ENGINE, COUNT_REASON)
@common_options
@click.pass_context
def count(
    ctx: click.Context,
    board: Board,
    unique: bool,
    workers: int | None,
    symmetry: bool,
    checkpoint_path: str | None,
    cluster: str | None,
    connect_timeout: float,
    engine: str,
    strategy: str | None,
    engine_options: dict[str, Any],
    output_format: str,
    show_stats: bool,
    time_limit: float | None,
    quiet: bool,
) -> None:
    """Count the solutions for an N x N board, exactly.

    Prints the number (a sentence on a terminal); with --unique the number of distinct
    solutions on a second line; or one JSON object. A progress bar shows on a terminal while a
    large board is counted.

    \b
    Examples:
      nqueens count 12                     14200
      nqueens count 16 --unique            the total and the distinct ones
      nqueens count 14 --stats             with the time and the search's figures
      nqueens count 19 --checkpoint n19.ckpt   minutes of work, resumable
    """
    if given(ctx, "connect_timeout") and cluster is None:
        raise click.UsageError("--connect-timeout is how long --cluster waits: give --cluster")
    output = Output(output_format)
    expected: list[tuple[float, int]] = []  # the estimate's seconds and workers, if one was made

    def estimated(estimate: Estimate, workers: int) -> None:
        expected.append((estimate.seconds_on(workers), workers))
        if display is not None:
            display.estimate(estimate, workers)

    with count_display(output, board.n, enabled=not quiet, cluster=cluster is not None) as display:
        try:
            with usage_errors(output):
                stats = api.count(
                    board,
                    time_limit=clock.remaining(time_limit),
                    workers=workers,
                    symmetry=symmetry,
                    unique=unique,
                    on_progress=display.progress if display else None,
                    on_estimate=estimated,
                    engine=engine,
                    strategy=strategy,
                    **engine_options,
                    checkpoint=checkpoint_path,
                    cluster=cluster,
                    connect_timeout=connect_timeout,
                    on_plan=notes_said(output, display.planned if display else None),
                )
        except SearchInterrupted as interrupted:
            stats = interrupted.stats
        except CheckpointUnwritable as error:
            output.message(
                f"Error: cannot write the checkpoint {error.filename}: {error.strerror}. The count "
                f"stopped; the file keeps {error.kept:,} finished subproblems and the same "
                "command resumes from them once it can write again."
            )
            ctx.exit(EXIT_IO_ERROR)
        except ClusterUnreachable as unreachable:
            output.message(f"Error: cannot reach the cluster at {cluster}: {unreachable}")
            ctx.exit(EXIT_CLUSTER_LOST)
        except ClusterLost as lost:
            output.message(
                f"Error: the cluster's scheduler went away ({lost}); the count stopped"
                + (f", and {checkpoint_path} keeps what was finished." if checkpoint_path else ".")
            )
            ctx.exit(EXIT_CLUSTER_LOST)
    if output.format == "json":
        record = records.status_record(
            stats, with_stats=show_stats, with_unique=unique, rules=board.rules
        )
        click.echo(record)
    elif output.rich:
        output.print_data(render.count_headline(stats, board, with_unique=unique))
    else:
        click.echo(stats.solutions)
        if unique:
            click.echo(stats.unique)
    if stats.status.partial:  # the count on the terminal already says "at least"
        output.message(render.ending(stats) if output.rich else render.summary(stats, board))
        _say_how_far(output, stats, expected, checkpoint_path)
    if show_stats and output.format == "text":
        output.stats(stats, board)
    ctx.exit(exit_code(stats.status))


def _say_how_far(
    output: Output, stats: Stats, expected: list[tuple[float, int]], checkpoint_path: str | None
) -> None:
    """After a count cut into pieces that stopped: how much was done and what is left, and
    where a checkpoint keeps it, how to go on; why its lower bound and the checkpoint's count
    differ."""
    finished = stats.finished
    if finished is None:  # a count in one piece, or none
        return
    seconds, workers = expected[-1] if expected else (None, None)
    left = None if seconds is None else seconds * (1 - finished.share)
    output.message(render.how_far(finished, seconds_left=left, workers=workers))
    if checkpoint_path is None:
        return
    import shlex

    cut_short = stats.solutions - finished.solutions
    resumes = (
        shlex.join(["nqueens", *sys.argv[1:]]) if sys.argv[1:2] == ["count"] else "the same count"
    )
    output.message(
        f"{checkpoint_path} keeps the finished pieces, and {resumes} resumes from them"
        + (
            f" (the {cut_short:,} solutions found in pieces cut short are found again then)."
            if cut_short
            else "."
        )
    )

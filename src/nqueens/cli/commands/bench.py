"""``nqueens bench``: the engines and strategies timed side by side."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from nqueens.api import ENGINES, MIP_ENGINE, MIP_SOLVERS, STRATEGIES, engines_that
from nqueens.cli.command import QueensCommand
from nqueens.cli.exits import SEE_MAIN_HELP
from nqueens.cli.options import given
from nqueens.cli.output import Output
from nqueens.cli.params import BoardSizes, Names, Seconds, WholeNumber
from nqueens.cli.report import said
from nqueens.core import signals
from nqueens.core.wording import counted, duration

if TYPE_CHECKING:
    from nqueens import bench as benchmark


@click.command(
    cls=QueensCommand,
    epilog=SEE_MAIN_HELP,
    short_help="Time every engine and search order side by side.",
)
@click.option(
    "--sizes",
    type=BoardSizes(),
    default="4-12",
    show_default=True,
    help="Board sizes for the table of time to every solution, e.g. 4-12 or 8,10,12.",
)
@click.option(
    "--first-sizes",
    type=BoardSizes(),
    default="8,50,100,200,500,1000",
    show_default=True,
    help="Board sizes for the table of time to one solution, e.g. 8,100,1000.",
)
@click.option(
    "--engines",
    type=Names(tuple(ENGINES)),
    default=",".join(ENGINES),
    show_default=True,
    help="Which engines to measure, e.g. cp,bitboard.",
)
@click.option(
    "--strategies",
    type=Names(STRATEGIES),
    default=",".join(STRATEGIES),
    show_default=True,
    help="Which search orders to measure, e.g. first-min.",
)
@click.option(
    "--mip-solvers",
    type=Names(MIP_SOLVERS),
    default=",".join(MIP_SOLVERS),
    show_default=True,
    help="Which MIP solvers the mip engine is measured with, e.g. scip,glpk.",
)
@click.option(
    "--repeat",
    type=WholeNumber(1, 1000, ": more runs would take longer than anyone waits"),
    default=1,
    show_default=True,
    metavar="K",
    help="Time each cell K times and report the median, e.g. --repeat 5 on a busy machine.",
)
@click.option(
    "-t",
    "--time-limit",
    type=Seconds(),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="How long each run of a cell may take, e.g. -t 2; a run over it shows as '> 2'.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "csv"]),
    default="text",
    show_default=True,
    help="text: the two tables; json: one object per cell, with the search's figures; csv: "
    "one row per cell.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no estimate of the time.")
@click.pass_context
def bench(
    ctx: click.Context,
    sizes: list[int],
    first_sizes: list[int],
    engines: list[str],
    strategies: list[str],
    mip_solvers: list[str],
    repeat: int,
    time_limit: float,
    output_format: str,
    quiet: bool,
) -> None:
    """Time every engine and search order side by side: to every solution, and to one.

    The first table times every solution for each board size, beside the times the OR-Tools
    documentation published; the second times one solution for growing boards. JSON and CSV
    keep each cell's figures. An engine or strategy you name that a table cannot time (the
    local engine does not count) is named on stderr, with why.

    \b
    Examples:
      nqueens bench                        both tables, every engine (minutes)
      nqueens bench --sizes 4-10 --first-sizes 8,100 --engines cp,bitboard
      nqueens bench --format csv > bench.csv
    """
    size_list, first_size_list, engine_list, strategy_list = sizes, first_sizes, engines, strategies
    _check_choices_apply(ctx, engine_list)
    output = Output("text")
    from nqueens import bench as benchmark

    absent = benchmark.left_out(engine_list)
    total = len(size_list) * len(
        benchmark.columns(engine_list, strategy_list, benchmark.ALL, mip_solvers)
    ) + len(first_size_list) * len(
        benchmark.columns(engine_list, strategy_list, benchmark.FIRST, mip_solvers)
    )
    passed_over = benchmark.passed_over(engine_list, strategy_list)
    if total == 0:
        reasons = "; ".join([*absent.values(), *(each.reason for each in passed_over)])
        raise click.BadParameter(f"nothing to measure: {reasons}", param_hint="'--engines'")
    for name, reason in absent.items():
        output.message(f"Left out {name}: {reason}.")
    for each in passed_over:  # what the defaults leave out goes unsaid: no one asked for it
        if given(ctx, "engines" if each.strategy is None else "strategies"):
            where = f" to {benchmark.TABLE_WORDS[each.tables[0]]}" if len(each.tables) == 1 else ""
            output.message(f"Not timed{where}: {each.reason}.")
    show_progress = not quiet and output.err.is_terminal
    if not quiet:
        longest = total * repeat * time_limit
        bound = (
            f"each at most {time_limit:g} s per run: up to {duration(longest)}"
            if longest < _LONGEST_NAMED
            else "each run as long as it takes, with no time limit to speak of"
        )
        output.message(
            f"Measuring {counted(total, 'cell')}, {bound}. --sizes, --first-sizes, --engines and "
            "--time-limit measure less."
        )
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    with Progress(
        TextColumn("[bold]Benchmarking"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=output.err,
        transient=True,
        disable=not show_progress,
    ) as progress:
        task = progress.add_task("", total=total)
        cells: list[benchmark.Cell] = []

        def on_cell(cell: benchmark.Cell) -> None:
            cells.append(cell)
            label = cell.column.one_line
            progress.update(task, advance=1, description=f"N = {cell.n}, {label}")

        try:
            benchmark.run(
                sizes=size_list,
                first_sizes=first_size_list,
                engines=engine_list,
                strategies=strategy_list,
                mip_solvers=mip_solvers,
                repeat=repeat,
                time_limit=time_limit,
                on_cell=on_cell,
            )
            stopped = False
        except KeyboardInterrupt:  # the cells measured so far are shown, as partial
            stopped = True
    if output_format == "json":
        click.echo(json.dumps(benchmark.records(cells), indent=1))
    elif output_format == "csv":
        click.echo(benchmark.csv_text(cells), nl=False)
    else:
        from nqueens.cli.consoles import StreamConsole

        # Off a terminal (a file, a page) the tables keep their natural width.
        on_terminal = output.out.is_terminal
        console = (
            output.out
            if on_terminal
            else StreamConsole(width=1000, highlight=False, force_terminal=False)
        )
        width = output.out.width if on_terminal else None
        for table in benchmark.tables(cells, time_limit=time_limit, width=width):
            console.print(table)
        for line in _not_measured(cells):
            output.message(line)
    if stopped:
        output.message(
            f"Interrupted: {len(cells):,} of {counted(total, 'cell')} measured; the results "
            "above hold those alone."
        )
        ctx.exit(signals.exit_code())


_LONGEST_NAMED = 100 * 365.25 * 86400
"""Beyond a century, the longest a bench may take is no figure worth printing (inf included)."""


def _not_measured(cells: list[benchmark.Cell]) -> list[str]:
    """Why each n/a cell was not measured: the engine's refusal, once per board and reason."""
    from nqueens import bench as benchmark

    columns: dict[tuple[str, int, str], list[str]] = {}
    for cell in cells:
        if cell.refusal is not None:
            key = (cell.table, cell.n, said(cell.refusal))
            columns.setdefault(key, []).append(cell.column.one_line)
    return [
        f"n/a, {', '.join(labels)}, {benchmark.TABLE_WORDS[table]} of N = {n}: {reason}."
        for (table, n, reason), labels in columns.items()
    ]


def _check_choices_apply(ctx: click.Context, engines: list[str]) -> None:
    """A usage error for --mip-solvers or --strategies given where no engine measured uses
    them: they would be silently dropped."""
    if given(ctx, "mip_solvers") and MIP_ENGINE not in engines:
        raise click.UsageError(
            "--mip-solvers chooses the mip engine's solvers: add mip to --engines"
        )
    if given(ctx, "strategies") and not any(ENGINES[e].strategies for e in engines):
        raise click.UsageError(
            f"--strategies orders the search of {engines_that('strategies')}, and none of "
            "them is in --engines"
        )

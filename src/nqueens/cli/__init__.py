"""The ``nqueens`` command line: parses arguments, calls the API, prints what comes back.

Data for programs goes to stdout; summaries, statistics and messages go to stderr.
"""

from __future__ import annotations

import errno
import io
import json
import re
import sys
import warnings
from contextlib import suppress
from typing import TYPE_CHECKING, Any, TextIO

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from nqueens import api
from nqueens.cli import render
from nqueens.cli.options import (
    COLOR_HELP,
    BoardSizes,
    Names,
    QueensCommand,
    QueensContext,
    Seconds,
    TextLines,
    WholeNumber,
    board_options,
    board_size,
    common_options,
    engine_options,
    puzzle_options,
    remember_color,
    svg_target,
    tree_target,
    usage_errors,
)
from nqueens.cli.output import (
    EXIT_CLUSTER_LOST,
    EXIT_CODES_HELP,
    EXIT_IO_ERROR,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_TIME_LIMIT,
    Output,
    Pictures,
    count_display,
    discard_stdout,
    exit_code,
    spinner,
)
from nqueens.cli.svg import MAX_SVG_N, board_svg
from nqueens.core import clock, signals
from nqueens.core.board import Puzzle
from nqueens.core.known_counts import KNOWN_TOTALS
from nqueens.core.results import InputError, SearchInterrupted, Status
from nqueens.core.strategies import AUTO, FIRST_FAIL_MID, FIRST_MIN, STRATEGIES
from nqueens.engines import registry
from nqueens.engines.base import MAX_SEED
from nqueens.engines.mip import BACKENDS
from nqueens.run.checkpoint import CheckpointUnwritable
from nqueens.run.cluster import CONNECT_SECONDS, ClusterLost, ClusterUnreachable

if TYPE_CHECKING:
    from nqueens.explain.events import Explanation


class QueensGroup(click.Group):
    """Ends quietly on a closed pipe and with exit code 130 on Ctrl-C, never with a traceback."""

    command_class = QueensCommand
    context_class = QueensContext

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """A board size where a command belongs gets the commands that take it."""
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError:
            typed = args[0] if args else ""
            if re.fullmatch(r"[0-9]+", typed):
                raise click.UsageError(
                    f"No such command '{typed}'. Name what to do with the board first: "
                    f"nqueens solve {typed}, nqueens count {typed} or nqueens first {typed}.",
                    ctx,
                ) from None
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()
            return result
        except BrokenPipeError:
            discard_stdout()
            ctx.exit(EXIT_OK)
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            ctx.exit(signals.exit_code())


@click.group(
    cls=QueensGroup,
    invoke_without_command=True,
    epilog=EXIT_CODES_HELP,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(package_name="nqueens", prog_name="nqueens")
@click.option(
    "--color/--no-color",
    default=None,
    expose_value=False,
    is_eager=True,
    callback=remember_color,
    help=COLOR_HELP,
)
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Place N queens on an N x N board so that no two attack each other: no two in a row, a
    column or a diagonal. List the solutions, count them, find one fast, or watch the search.

    \b
    Examples:
      nqueens solve 8              every solution for 8 queens, as boards
      nqueens count 12 --stats     how many there are, with the search's figures
      nqueens first 50             one solution for 50 queens, fast
      nqueens explain 5            the search step by step, each step drawn
      nqueens first 8 | nqueens verify
    Each command's --help says more: nqueens solve --help.

    \b
    Colour: boards are drawn in colour on a terminal; NO_COLOR=1 or
    --no-color turns colour off, FORCE_COLOR=1 or --color turns it on.
    Shell completion: add to ~/.bashrc
      eval "$(_NQUEENS_COMPLETE=bash_source nqueens)"
    (zsh_source or fish_source for zsh and fish).
    """
    if ctx.invoked_subcommand is None:  # bare nqueens: what it can do, and success
        click.echo(ctx.get_help())


@cli.command(epilog=EXIT_CODES_HELP)
@click.argument("n", callback=board_size, required=False, metavar="N")
@click.option("-n", "--limit", type=WholeNumber(1), metavar="K", help="Stop after K solutions.")
@click.option(
    "--unique",
    is_flag=True,
    help="Only one of each set of solutions that are turns or mirror images of each other.",
)
@puzzle_options
@engine_options("cp-sat")
@board_options
@common_options
@click.pass_context
def solve(
    ctx: click.Context,
    puzzle: Puzzle,
    limit: int | None,
    unique: bool,
    engine: str,
    strategy: str | None,
    mip_solver: str,
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
    output = Output(output_format, style, ascii_only=ascii_only, puzzle=puzzle)
    n = puzzle.n
    _check_drawable(n, style, svg_path)
    digits = len(str(limit or KNOWN_TOTALS.get(n) or 1))
    pictures = Pictures(svg_path)
    with usage_errors():
        stream = api.solve(
            n,
            queens=puzzle.queens,
            blocked=puzzle.blocked,
            excluded=puzzle.excluded,
            limit=limit,
            time_limit=clock.remaining(time_limit),
            unique=unique,
            engine=engine,
            strategy=strategy,
            mip_solver=mip_solver,
        )
    with stream:
        try:
            for number, solution in enumerate(stream, start=1):
                output.solution(solution, number)
                if svg_path is not None:
                    caption = f"Solution {number}"
                    picture = board_svg(n, solution.squares(), puzzle=puzzle, caption=caption)
                    pictures.save(picture, number, digits)
        except KeyboardInterrupt:
            stream.close()
    pictures.report(output)
    stats = stream.stats
    output.end_of_search(stats, with_stats=show_stats)
    if stats.solutions == 0 and stats.status is Status.COMPLETE:
        output.message(_none_exists(puzzle))
        ctx.exit(EXIT_NO_SOLUTION)
    output.message(render.summary(stats))
    if show_stats:
        output.stats(stats)
    ctx.exit(exit_code(stats.status))


@cli.command(epilog=EXIT_CODES_HELP)
@click.argument("n", callback=board_size, required=False, metavar="N")
@click.option(
    "--unique",
    is_flag=True,
    help="Also count the solutions that differ by more than a turn or a mirror image (not "
    "with --queen, --block or --board, which make the board lopsided).",
)
@click.option(
    "-j",
    "--workers",
    type=WholeNumber(0),
    metavar="K",
    help=f"How many processes share the count, e.g. -j 2 ({registry.describe('splits')}). "
    "[default and 0: every core]",
)
@click.option(
    "--symmetry/--no-symmetry",
    default=True,
    show_default=True,
    help="Count each set of turned and mirrored solutions once and multiply: about 8 times "
    f"less work, same answer ({registry.describe('unique')}).",
)
@click.option(
    "--checkpoint",
    "checkpoint_path",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="Save progress in FILE as the count goes; run the same command again to go on where "
    "it stopped (after Ctrl-C, a crash, a full disk). Allows N > 18 without a time limit.",
)
@click.option(
    "--cluster",
    metavar="ADDRESS",
    help="Count on many machines through a Dask scheduler (tcp://host:8786), or local:K for K "
    "worker processes here; needs pip install 'nqueens[cluster]'. Allows N > 18 without a "
    "time limit.",
)
@click.option(
    "--connect-timeout",
    type=Seconds(),
    default=CONNECT_SECONDS,
    show_default=True,
    metavar="SECONDS",
    help="How long --cluster waits for the scheduler to answer before giving up, e.g. "
    "--connect-timeout 30 on a slow network.",
)
@puzzle_options
@engine_options(AUTO, "the fastest exact engine that can take the board")
@common_options
@click.pass_context
def count(
    ctx: click.Context,
    puzzle: Puzzle,
    unique: bool,
    workers: int | None,
    symmetry: bool,
    checkpoint_path: str | None,
    cluster: str | None,
    connect_timeout: float,
    engine: str,
    strategy: str | None,
    mip_solver: str,
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
    output = Output(output_format)
    n = puzzle.n
    known_total = None if puzzle.constrained else KNOWN_TOTALS.get(n)
    with count_display(
        output, n, enabled=not quiet, cluster=cluster is not None, known_total=known_total
    ) as display:
        try:
            with usage_errors():
                stats = api.count(
                    n,
                    queens=puzzle.queens,
                    blocked=puzzle.blocked,
                    excluded=puzzle.excluded,
                    time_limit=clock.remaining(time_limit),
                    workers=workers,
                    symmetry=symmetry,
                    unique=unique,
                    on_progress=display.progress if display else None,
                    on_estimate=display.estimate if display else None,
                    engine=engine,
                    strategy=strategy,
                    mip_solver=mip_solver,
                    checkpoint=checkpoint_path,
                    cluster=cluster,
                    connect_timeout=connect_timeout,
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
        click.echo(render.status_record(stats, with_stats=show_stats, with_unique=unique))
    elif output.rich:
        output.print_data(render.count_headline(stats, with_unique=unique))
    else:
        click.echo(stats.solutions)
        if unique:
            click.echo(stats.unique)
    if stats.status.partial:  # the count on the terminal already says "at least"
        output.message(render.ending(stats) if output.rich else render.summary(stats))
    if show_stats and output.format == "text":
        output.stats(stats)
    ctx.exit(exit_code(stats.status))


@cli.command(epilog=EXIT_CODES_HELP)
@click.argument("n", callback=board_size, required=False, metavar="N")
@click.option(
    "--seed",
    type=WholeNumber(0, MAX_SEED),
    help="Start the random choices of local search, CP-SAT and the cp engine's auto from this "
    "number, to get the same solution again (CP-SAT's parallel workers may still differ).",
)
@puzzle_options
@engine_options(AUTO, "the engines measured fastest to a first solution, in turn")
@board_options
@common_options
@click.pass_context
def first(
    ctx: click.Context,
    seed: int | None,
    puzzle: Puzzle,
    engine: str,
    strategy: str | None,
    mip_solver: str,
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
    output = Output(output_format, style, ascii_only=ascii_only, puzzle=puzzle)
    n = puzzle.n
    _check_drawable(n, style, svg_path)
    try:
        with usage_errors(), spinner(output, f"Searching N = {n}", enabled=not quiet):
            result = api.first(
                n,
                queens=puzzle.queens,
                blocked=puzzle.blocked,
                excluded=puzzle.excluded,
                time_limit=clock.remaining(time_limit),
                engine=engine,
                strategy=strategy,
                mip_solver=mip_solver,
                seed=seed,
            )
    except SearchInterrupted as interrupted:
        output.end_of_search(interrupted.stats, with_stats=show_stats)
        output.message(f"Interrupted before a solution for N = {n} was found.")
        ctx.exit(signals.exit_code())
    if result.solution is not None:
        output.solution(result.solution)
    output.end_of_search(result.stats, with_stats=show_stats)
    if result.solution is None:
        if result.proven_infeasible:
            output.message(_none_exists(puzzle))
            ctx.exit(EXIT_NO_SOLUTION)
        output.message(
            f"No solution found for N = {n} within the time limit of {time_limit:g} s "
            "(the search did not finish)."
        )
        ctx.exit(EXIT_TIME_LIMIT)
    if svg_path is not None:
        pictures = Pictures(svg_path)
        pictures.save(board_svg(n, result.solution.squares(), puzzle=puzzle))
        pictures.report(output)
    output.message(f"Found in {result.stats.wall_time:.3f} s.")
    if show_stats and output.format == "text":
        output.stats(result.stats, enumeration=False)
    ctx.exit(EXIT_OK)


@cli.command(epilog=EXIT_CODES_HELP)
@click.argument("n", callback=board_size, required=False, metavar="N")
@click.option(
    "--strategy",
    type=click.Choice([FIRST_MIN, FIRST_FAIL_MID]),
    default=FIRST_MIN,
    show_default=True,
    metavar="NAME",
    help="first-min: column by column from the left, lowest row first; first-fail-mid: the "
    "column with fewest free squares first, middle rows first.",
)
@click.option("--all", "all_solutions", is_flag=True, help="Go on to the end of the search.")
@click.option(
    "--step",
    is_flag=True,
    help="Wait for a key between steps (on a terminal): q or Ctrl-D stops the walk, Ctrl-C "
    "interrupts.",
)
@click.option(
    "--ascii",
    "ascii_only",
    is_flag=True,
    help="Draw queens as Q, for fonts without the chess queen.",
)
@click.option(
    "--svg",
    "svg_path",
    metavar="FILE",
    callback=svg_target,
    help="Also save each step as a picture: --svg step.svg writes step-01.svg, step-02.svg, ...",
)
@click.option(
    "--tree",
    "tree_path",
    metavar="FILE",
    callback=tree_target,
    help="Save the whole search as a tree instead of drawing each step: FILE.svg, a picture, "
    "or FILE.html, a page to explore it in a browser (e.g. --tree tree.html).",
)
@click.option(
    "--compare",
    is_flag=True,
    help="With --tree FILE.html: both strategies' trees side by side.",
)
@puzzle_options
@click.pass_context
def explain(
    ctx: click.Context,
    puzzle: Puzzle,
    strategy: str,
    all_solutions: bool,
    step: bool,
    ascii_only: bool,
    svg_path: str | None,
    tree_path: str | None,
    compare: bool,
) -> None:
    """Watch a constraint solver search, step by step, each step drawn.

    Each step is a queen placed by a choice, the squares it rules out (x), the queens that
    had to follow, a dead end (which column has no square left) and the step back, or a
    solution. The counts at the end are the solver's own. Boards up to 10 x 10.

    \b
    Examples:
      nqueens explain 5                    every step to the first solution
      nqueens explain 6 --step             one step per key press
      nqueens explain 8 --tree tree.html   the whole search, for a browser
      nqueens explain 8 --tree both.html --compare
    """
    from nqueens.explain.events import explain as run_explanation

    if compare and (tree_path is None or not tree_path.endswith(".html")):
        raise click.UsageError("--compare draws two trees on one page: give --tree FILE.html")
    output = Output("text", ascii_only=ascii_only)
    strategies = [FIRST_MIN, FIRST_FAIL_MID] if compare else [strategy]
    try:
        explanations = [
            run_explanation(
                puzzle.n,
                strategy=chosen,
                all_solutions=all_solutions,
                puzzle=puzzle if puzzle.constrained else None,
            )
            for chosen in strategies
        ]
    except InputError as error:
        raise click.BadParameter(error.command_line, param_hint="'N'") from None
    if tree_path is not None:
        from nqueens.explain import page as treeview

        tree = Pictures(tree_path, "search tree")
        if tree_path.endswith(".html"):
            tree.save(treeview.html_document(explanations))
        else:
            tree.save(treeview.svg_document(explanations[0]))
        tree.report(output)
    else:
        shown = _narrate(explanations[0], output, step=step, svg_path=svg_path)
        if shown < len(explanations[0].events):
            output.message(
                f"You stopped the walk at step {shown:,} of {len(explanations[0].events):,}; "
                "the whole search was:"
            )
    for explanation in explanations:
        noun = "solution" if explanation.solutions == 1 else "solutions"
        output.message(
            f"{explanation.strategy}: {explanation.solutions:,} {noun} in "
            f"{len(explanation.events):,} steps: {explanation.failures:,} failures, "
            f"{explanation.branches:,} branches (the solver's own counts)."
        )
    ctx.exit(EXIT_OK if explanations[0].solutions else EXIT_NO_SOLUTION)


def _narrate(explanation: Explanation, output: Output, *, step: bool, svg_path: str | None) -> int:
    """Draw every step of the search; with ``step``, wait for a key between steps. Returns how
    many steps were shown (fewer than all when the user quit)."""
    digits = len(str(len(explanation.events)))
    interactive = step and sys.stdin.isatty()
    pictures = Pictures(svg_path)
    try:
        return _draw_steps(explanation, output, pictures, digits, interactive=interactive)
    finally:
        pictures.report(output)


def _draw_steps(
    explanation: Explanation, output: Output, pictures: Pictures, digits: int, *, interactive: bool
) -> int:
    """:func:`_narrate`'s steps, each drawn and saved; returns how many were shown."""
    n = explanation.n
    for event in explanation.events:
        caption = f"Step {event.step:,}: {event.text}"
        if output.rich:
            output.out.print(caption, style="bold", markup=False)
            output.out.print(
                render.rich_grid(
                    n,
                    event.queens,
                    crossed=event.crossed,
                    fresh=event.removed,
                    forced=event.forced,
                    ascii_only=output.ascii_only,
                    colour=not output.out.no_color,
                )
            )
            output.out.print()
        else:
            grid = render.plain_grid(n, event.queens, event.crossed, forced=event.forced)
            click.echo(f"{caption}\n{grid}\n")
        if pictures.path is not None:
            picture = board_svg(
                n,
                event.queens,
                crossed=event.crossed,
                fresh=event.removed,
                forced=event.forced,
                caption=caption,
            )
            pictures.save(picture, event.step, digits)
        if interactive and event is not explanation.events[-1] and not _next_step():
            return event.step
    if output.rich and explanation.events:
        output.out.print(
            render.explain_legend(ascii_only=output.ascii_only, colour=not output.out.no_color)
        )
    return len(explanation.events)


def _next_step() -> bool:
    """Wait for a key: True to go on, False for q or Ctrl-D; Ctrl-C interrupts (exit 130).
    The prompt is erased once a key is pressed."""
    prompt = "Any key: next step, q: quit, Ctrl-C: interrupt "
    click.echo(prompt, nl=False, err=True)
    try:
        key = click.getchar()
    except EOFError:  # Ctrl-D
        key = "q"
    finally:
        click.echo("\r\x1b[2K", nl=False, err=True)
    return key.lower() != "q"


@cli.command(epilog=EXIT_CODES_HELP)
@click.argument("source", type=TextLines(), default="-", metavar="FILE")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: one object per board, whether it is valid and which queens attack.",
)
@click.pass_context
def verify(ctx: click.Context, source: str, output_format: str) -> None:
    """Check boards, as solve and first print them, from FILE or stdin ('-', the default).

    Says of each board which queens attack each other (the first few, by 1-based square).
    Exits 0 when every board is a solution, 1 when one is not, 2 when the input holds no
    board or something that is not a board (a queen off it, a line that does not parse).
    Boards are checked as they arrive, so a stream of any length can be piped in; a line
    that is not a board stops the check there, after reporting the boards before it.

    \b
    Examples:
      nqueens first 8 | nqueens verify
      nqueens solve 10 --format json | nqueens verify
      nqueens verify boards.txt --format json
    """
    from nqueens.formats.verify import read_boards

    output = Output(output_format)
    checked = invalid = 0
    try:
        for board in read_boards(source):
            checked += 1
            invalid += not board.valid
            if output_format == "json":
                record = {
                    "board": board.number,
                    "n": board.n,
                    "valid": board.valid,
                    "conflicts": board.conflicts,
                    "problems": board.problems,
                }
                click.echo(json.dumps(record))
            elif not board.valid:
                for problem in board.problems:
                    click.echo(f"board {board.number} (N = {board.n}): {problem}")
    except InputError as error:
        so_far = f" ({_checked(checked, invalid)} before it)" if checked else ""
        raise click.BadParameter(error.command_line + so_far, param_hint="'FILE'") from None
    if not checked:
        raise click.BadParameter("no board found in the input", param_hint="'FILE'")
    output.message(f"{_checked(checked, invalid)}.")
    ctx.exit(EXIT_NO_SOLUTION if invalid else EXIT_OK)


def _checked(checked: int, invalid: int) -> str:
    noun = "board" if checked == 1 else "boards"
    verdict = "all valid" if not invalid else f"{invalid:,} not valid"
    return f"{checked:,} {noun} checked: {verdict}"


@cli.command(epilog=EXIT_CODES_HELP)
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
    type=Names(tuple(registry.ENGINES)),
    default=",".join(registry.ENGINES),
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
    type=Names(tuple(BACKENDS)),
    default=",".join(BACKENDS),
    show_default=True,
    help="Which MIP solvers the mip engine is measured with, e.g. scip,glpk.",
)
@click.option(
    "--repeat",
    type=WholeNumber(1, 1000, ": more runs would take longer than anyone waits"),
    default=1,
    show_default=True,
    help="Time each cell this many times and report the median.",
)
@click.option(
    "-t",
    "--time-limit",
    type=Seconds(),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="For each run of a cell; a run over it shows as '> SECONDS'.",
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
def bench(
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
    keep each cell's figures.

    \b
    Examples:
      nqueens bench                        both tables, every engine (minutes)
      nqueens bench --sizes 4-10 --first-sizes 8,100 --engines cp,bitboard
      nqueens bench --format csv > bench.csv
    """
    size_list, first_size_list, engine_list, strategy_list = sizes, first_sizes, engines, strategies
    output = Output("text")
    from nqueens.run import bench as benchmark

    total = len(size_list) * len(
        benchmark.columns(engine_list, strategy_list, benchmark.ALL, mip_solvers)
    ) + len(first_size_list) * len(
        benchmark.columns(engine_list, strategy_list, benchmark.FIRST, mip_solvers)
    )
    show_progress = not quiet and output.err.is_terminal
    if not quiet:
        longest = total * repeat * time_limit
        output.message(
            f"Measuring {total} cells, each at most {time_limit:g} s per run: up to "
            f"{render.duration(longest)}. --sizes, --first-sizes, --engines and --time-limit "
            "measure less."
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

        def on_cell(cell: benchmark.Cell) -> None:
            label = cell.column.label.replace("\n", " ")
            progress.update(task, advance=1, description=f"N = {cell.n}, {label}")

        cells = benchmark.run(
            sizes=size_list,
            first_sizes=first_size_list,
            engines=engine_list,
            strategies=strategy_list,
            mip_solvers=mip_solvers,
            repeat=repeat,
            time_limit=time_limit,
            on_cell=on_cell,
        )
    if output_format == "json":
        click.echo(json.dumps(benchmark.records(cells), indent=1))
    elif output_format == "csv":
        click.echo(benchmark.csv_text(cells), nl=False)
    else:
        # Off a terminal (a file, a README) the tables keep their natural width.
        on_terminal = output.out.is_terminal
        console = (
            output.out
            if on_terminal
            else Console(width=1000, highlight=False, force_terminal=False)
        )
        width = output.out.width if on_terminal else None
        for table in benchmark.tables(cells, time_limit=time_limit, width=width):
            console.print(table)


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """A warning is one line on stderr for the person at the terminal, not a source listing."""
    click.echo(f"Warning: {message}", err=True)


def _check_drawable(n: int, style: str, svg_path: str | None) -> None:
    """Refuse, before any search, a picture too large to be of use (exit 2)."""
    if svg_path is not None and n > MAX_SVG_N:
        raise click.UsageError(
            f"--svg draws boards up to N = {MAX_SVG_N}: a {n:,} x {n:,} picture would be too "
            "large to open; --style compact or --format json give the rows"
        )
    if style == "board" and n > render.MAX_DRAWN_N:
        raise click.UsageError(
            f"--style board draws boards up to N = {render.MAX_DRAWN_N:,}: {n:,} lines of "
            f"{n:,} squares are of no use; --style compact gives the rows"
        )


def _none_exists(puzzle: Puzzle) -> str:
    """Why there is nothing to show: the board has no solution, or the givens no completion."""
    if puzzle.constrained:
        given = [
            what
            for what, present in (
                ("the given queens", puzzle.queens),
                ("the blocked squares", puzzle.blocked),
                ("the excluded diagonals", puzzle.excluded),
            )
            if present
        ]
        keeps = " and ".join(filter(None, (", ".join(given[:-1]), given[-1])))
        return f"No completion exists: no solution for N = {puzzle.n} respects {keeps}."
    return f"No solution exists for N = {puzzle.n}."


def main() -> None:
    """Run the command line with exit codes that stay true when the outside world fails.

    A usage error keeps its code 2 even when stderr cannot take its message; output that cannot
    be written (a full disk, a closed stdout) ends with one line on stderr and code 74 instead
    of a traceback or a count silently lost; a stop signal before a command could keep a
    partial result ends with 128 plus its number.
    """
    warnings.showwarning = _show_warning
    if sys.stdout is None:  # started with stdout closed (``>&-``)
        sys.stdout = _ClosedStdout()
    try:
        code = cli.main(prog_name="nqueens", standalone_mode=False)
    except click.ClickException as error:
        with suppress(OSError):  # stderr failed too: the exit code still says what went wrong
            error.show()
        code = error.exit_code
    except (KeyboardInterrupt, click.exceptions.Abort):  # click turns Ctrl-C into Abort
        _say_on_stderr("Interrupted.")
        code = signals.exit_code()
    except OSError as error:
        discard_stdout()
        _say_on_stderr(f"Error: the output could not be written: {error.strerror or error}.")
        code = EXIT_IO_ERROR
    sys.exit(code if isinstance(code, int) else EXIT_OK)


class _ClosedStdout(io.TextIOBase):
    """The stdout of a process started without one: bad usage still exits 2, and the first
    result written fails as a write to a closed file does (exit 74)."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _say_on_stderr(text: str) -> None:
    """A last word on stderr, which may itself be closed or full."""
    with suppress(OSError, ValueError):
        click.echo(text, err=True)

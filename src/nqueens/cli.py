"""The ``nqueens`` command line: parses arguments, calls the API, prints what comes back.

Data for programs goes to stdout; summaries, statistics and messages go to stderr.
"""

from __future__ import annotations

import json
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TextIO, TypeVar

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

from nqueens import api, registry, render
from nqueens.engines.mip import BACKENDS
from nqueens.known_counts import KNOWN_TOTALS
from nqueens.puzzle import parse_square, read_puzzle
from nqueens.results import InputError, SearchInterrupted, Solution, Square, Stats, Status
from nqueens.strategies import AUTO, FIRST_FAIL_MID, FIRST_MIN, STRATEGIES
from nqueens.svg import board_svg, numbered_path

EXIT_OK = 0
EXIT_NO_SOLUTION = 1
EXIT_TIME_LIMIT = 3
EXIT_IO_ERROR = 74  # EX_IOERR of sysexits.h
EXIT_INTERRUPTED = 130

EXIT_CODES_HELP = """\b
Conventions: data for programs uses rows[c], the 0-based row of the queen in
column c; boards for people are labelled 1-based, row 1 at the top, column 1
at the left.

\b
Exit codes:
  0    success (a count of 0 is a success)
  1    no solution exists (solve, first); a board is not valid (verify)
  2    bad usage or bad input
  3    the time limit ended the search first: the result is partial
  74   the output could not be written (a full disk, a closed stdout)
  130  interrupted (Ctrl-C): the result is partial
"""

F = TypeVar("F", bound=Callable[..., Any])


def board_size(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    """Parse N: a whole number from 1 to ``api.MAX_N``, with a message that says what was wrong.

    None when N is left out, which only --board allows (it reads N from the file).
    """
    if value is None:
        return None
    text = value.strip()
    if not re.fullmatch(r"[+-]?\d+", text):
        raise click.BadParameter(f"N must be a positive whole number, not {text!r}", ctx, param)
    number = int(text)
    try:
        api.check_board_size(number)
    except InputError as error:
        raise click.BadParameter(str(error), ctx, param) from None
    return number


class QueensCommand(click.Command):
    """A command that reports a negative N (``-3``) as a bad N rather than an unknown option."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        typed = list(args)  # click's parser consumes the list it is given
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as error:
            if re.fullmatch(r"-\d+(\.\d*)?", error.option_name):
                # click names only the part it took for an option ("-5" of "-5.5"): quote the
                # whole argument the user typed.
                whole = next((arg for arg in typed if arg.startswith(error.option_name)), "")
                raise click.BadParameter(
                    f"N must be a positive whole number, not {whole or error.option_name}",
                    ctx=ctx,
                    param_hint="'N'",
                ) from None
            raise


class QueensGroup(click.Group):
    """Ends quietly on a closed pipe and with exit code 130 on Ctrl-C, never with a traceback."""

    command_class = QueensCommand

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()
            return result
        except BrokenPipeError:
            _discard_stdout()
            ctx.exit(EXIT_OK)
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            ctx.exit(EXIT_INTERRUPTED)


def _discard_stdout() -> None:
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
        self.out = Console(highlight=False)
        self.err = Console(stderr=True, highlight=False)
        self.rich = (
            output_format == "text"
            and self.out.is_terminal
            and not self.out.no_color
            and os.environ.get("TERM") != "dumb"
        )

    def _compact(self, n: int) -> bool:
        """Whether to show the row of each column instead of drawing the board."""
        if self.style != "auto":
            return self.style == "compact"
        if self.rich:
            return render.rich_board_width(n) > self.out.width
        return n > render.PLAIN_BOARD_MAX_N

    def solution(
        self,
        solution: Solution,
        number: int | None = None,
        stats: Stats | None = None,
        json_stats: bool = False,
    ) -> None:
        """Write one solution to stdout, numbered when it is one of many.

        In JSON, ``stats`` adds the engine and strategy, ``json_stats`` the statistics too.
        """
        if self.format == "json":
            click.echo(render.solution_record(solution, number, stats=stats, with_stats=json_stats))
            return
        compact = self._compact(solution.n)
        if self.rich:
            if number is not None:
                self.out.print(f"Solution {number}", style="bold")
            if compact:
                self.out.print(f"Row of the queen in each column: {render.compact_rows(solution)}")
            else:
                self.out.print(render.rich_board(solution, ascii_only=self.ascii_only))
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

    def message(self, text: str) -> None:
        """A line for people, on stderr."""
        self.err.print(text, markup=False, soft_wrap=True)

    def stats(self, stats: Stats, *, enumeration: bool = True) -> None:
        """The statistics table, on stderr."""
        self.err.print(render.stats_table(stats, enumeration=enumeration))


def format_options(function: F) -> F:
    """The output options every command shares."""
    function = click.option(
        "--time-limit",
        type=click.FloatRange(min=0, min_open=True),
        metavar="SECONDS",
        help="Stop the search after this many seconds; what was found is reported as partial.",
    )(function)
    function = click.option(
        "--stats", "show_stats", is_flag=True, help="Also show the solver's statistics."
    )(function)
    function = click.option(
        "--format",
        "output_format",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        help="text: boards for people (plain when not a terminal or NO_COLOR is set); "
        "json: one object per line.",
    )(function)
    return function


def engine_options(default_engine: str, auto_help: str = "") -> Callable[[F], F]:
    """--engine, --strategy and --mip-solver, with the command's default engine (and what auto
    means for the command, when it has auto)."""
    engines = [*registry.ENGINES, AUTO] if auto_help else list(registry.ENGINES)
    described = "; ".join(f"{name}: {engine.summary}" for name, engine in registry.ENGINES.items())

    def decorate(function: F) -> F:
        function = click.option(
            "--mip-solver",
            type=click.Choice(list(BACKENDS)),
            default="scip",
            show_default=True,
            help="The MIP backend of the mip engine (GLPK, the blog post's, is not in ortools).",
        )(function)
        function = click.option(
            "--strategy",
            type=click.Choice(STRATEGIES),
            help="first-min: columns left to right, lowest row first (the guide's); "
            "first-fail-mid: smallest domain first, middle value first (the Oz tutorial's); "
            "auto: the engine's own search. [default: the engine's best for the command]",
        )(function)
        return click.option(
            "--engine",
            type=click.Choice(engines),
            default=default_engine,
            show_default=True,
            help=described + (f"; auto: {auto_help}." if auto_help else "."),
        )(function)

    return decorate


def puzzle_options(function: F) -> F:
    """--queen, --block and --board: a completion puzzle, in 1-based ROW,COL squares."""
    function = click.option(
        "--board",
        "board_file",
        type=click.File("r"),
        metavar="FILE",
        help="A starting position ('-' for stdin): one line per row, Q a queen, # or X blocked, "
        ". or _ free; or a CSPLib problem 79 instance (letting n / letting init). "
        "N is read from it.",
    )(function)
    function = click.option(
        "--block",
        "block_squares",
        multiple=True,
        metavar="ROW,COL",
        help="A square that must stay empty (repeatable).",
    )(function)
    return click.option(
        "--queen",
        "queen_squares",
        multiple=True,
        metavar="ROW,COL",
        help="A queen already on the board, to keep (repeatable).",
    )(function)


def resolve_puzzle(
    n: int | None,
    queen_squares: tuple[str, ...],
    block_squares: tuple[str, ...],
    board_file: TextIO | None,
) -> tuple[int, list[Square], list[Square]]:
    """N and the given squares (0-based), from the argument, the options and the board file."""
    queens = [_square(text, "--queen") for text in queen_squares]
    blocked = [_square(text, "--block") for text in block_squares]
    if board_file is None:
        if n is None:
            raise click.UsageError(
                "Missing argument 'N' (or give a starting position with --board)."
            )
        return n, queens, blocked
    try:
        puzzle = read_puzzle(board_file.read())
    except InputError as error:
        raise click.BadParameter(str(error), param_hint="'--board'") from None
    if n is not None and n != puzzle.n:
        raise click.UsageError(
            f"N is {n}, but the board given with --board is {puzzle.n} x {puzzle.n}"
        )
    return puzzle.n, [*puzzle.queens, *queens], [*puzzle.blocked, *blocked]


def _square(text: str, option: str) -> Square:
    try:
        return parse_square(text)
    except InputError as error:
        raise click.BadParameter(str(error), param_hint=f"'{option}'") from None


def board_options(function: F) -> F:
    """How boards are drawn in text format, and where pictures of them go."""
    function = click.option(
        "--svg",
        "svg_path",
        metavar="FILE",
        callback=svg_target,
        help="Also save the board as an SVG picture (several boards: FILE-001.svg, ...).",
    )(function)
    function = click.option(
        "--ascii",
        "ascii_only",
        is_flag=True,
        help="Draw queens as Q on a terminal, for fonts without the queen glyph.",
    )(function)
    return click.option(
        "--style",
        type=click.Choice(["auto", "board", "compact"]),
        default="auto",
        show_default=True,
        help="board: square by square; compact: the 1-based row of each column's queen; "
        "auto: board when it fits the terminal "
        f"(off a terminal, up to N = {render.PLAIN_BOARD_MAX_N}).",
    )(function)


def svg_target(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse an --svg path whose folder does not exist before any search starts."""
    if value is not None and not Path(value).resolve().parent.is_dir():
        raise click.BadParameter(f"the folder of {value} does not exist", ctx, param)
    return value


def save_svg(path: str, document: str) -> None:
    """Write a picture, turning a path that cannot be written into a usage error (exit 2)."""
    try:
        Path(path).write_text(document, encoding="utf-8")
    except OSError as error:
        reason = error.strerror or str(error)
        raise click.BadParameter(f"cannot write {path}: {reason}", param_hint="'--svg'") from None


def _api_call(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call the API, turning an input it refuses into a usage error (exit 2)."""
    try:
        return call(*args, **kwargs)
    except InputError as error:
        raise click.UsageError(str(error)) from None


def _exit_code(status: Status) -> int:
    """The exit code of a search that ended this way with a result worth reporting."""
    return {
        Status.COMPLETE: EXIT_OK,
        Status.LIMIT: EXIT_OK,
        Status.TIME_LIMIT: EXIT_TIME_LIMIT,
        Status.INTERRUPTED: EXIT_INTERRUPTED,
    }[status]


@click.group(
    cls=QueensGroup,
    epilog=EXIT_CODES_HELP,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(package_name="nqueens", prog_name="nqueens")
def cli() -> None:
    """Solve the N-queens problem: CP-SAT, the original CP solver, a 0-1 program, and bitboards.

    Place N queens on an N x N board so that no two share a row, a column or a diagonal.
    """


@cli.command(epilog=EXIT_CODES_HELP)
@click.argument("n", callback=board_size, required=False)
@click.option("--limit", type=click.IntRange(min=1), metavar="K", help="Stop after K solutions.")
@click.option(
    "--unique",
    is_flag=True,
    help="One solution per class under rotation and reflection (its lexicographically smallest).",
)
@puzzle_options
@engine_options("cp-sat")
@board_options
@format_options
@click.pass_context
def solve(
    ctx: click.Context,
    n: int | None,
    queen_squares: tuple[str, ...],
    block_squares: tuple[str, ...],
    board_file: TextIO | None,
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
) -> None:
    """Print every solution for an N x N board as it is found.

    Boards are numbered and streamed; a summary follows on stderr.
    """
    output = Output(output_format, style, ascii_only=ascii_only)
    n, queens, blocked = resolve_puzzle(n, queen_squares, block_squares, board_file)
    digits = len(str(limit or KNOWN_TOTALS.get(n) or 1))
    stream = _api_call(
        api.solve,
        n,
        queens=queens,
        blocked=blocked,
        limit=limit,
        time_limit=time_limit,
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
                    path = numbered_path(svg_path, number, digits)
                    save_svg(path, board_svg(n, solution.squares_0(), caption=f"Solution {number}"))
        except KeyboardInterrupt:
            stream.close()
    stats = stream.stats
    if stats.solutions == 0 and stats.status is Status.COMPLETE:
        output.message(f"No solution exists for N = {n}.")
        ctx.exit(EXIT_NO_SOLUTION)
    output.message(render.summary(stats))
    if show_stats:
        output.stats(stats)
    ctx.exit(_exit_code(stats.status))


@cli.command(epilog=EXIT_CODES_HELP)
@click.argument("n", callback=board_size, required=False)
@click.option(
    "--unique",
    is_flag=True,
    help="Also count the solutions up to rotation and reflection (OEIS A002562).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    metavar="K",
    help=f"Processes that share the search ({registry.describe('splits')}). "
    "[default: every core; 1 = in this process]",
)
@click.option(
    "--symmetry/--no-symmetry",
    default=True,
    show_default=True,
    help="Search one solution per symmetry class, weighted by its size (about 8x less work; "
    f"{registry.describe('unique')}).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@puzzle_options
@engine_options(AUTO, "the fastest exact engine that can take the board")
@format_options
@click.pass_context
def count(
    ctx: click.Context,
    n: int | None,
    queen_squares: tuple[str, ...],
    block_squares: tuple[str, ...],
    board_file: TextIO | None,
    unique: bool,
    workers: int | None,
    symmetry: bool,
    quiet: bool,
    engine: str,
    strategy: str | None,
    mip_solver: str,
    output_format: str,
    show_stats: bool,
    time_limit: float | None,
) -> None:
    """Count the solutions for an N x N board, exactly.

    Prints the number alone (a sentence on a terminal), or one JSON object. A progress bar shows
    on a terminal while a large board is counted.
    """
    output = Output(output_format)
    n, queens, blocked = resolve_puzzle(n, queen_squares, block_squares, board_file)
    with progress_bar(output, n, enabled=not quiet) as on_progress:
        try:
            stats = _api_call(
                api.count,
                n,
                queens=queens,
                blocked=blocked,
                time_limit=time_limit,
                workers=workers,
                symmetry=symmetry,
                unique=unique,
                on_progress=on_progress,
                engine=engine,
                strategy=strategy,
                mip_solver=mip_solver,
            )
        except SearchInterrupted as interrupted:
            stats = interrupted.stats
    if output.format == "json":
        click.echo(render.count_record(stats, with_stats=show_stats, with_unique=unique))
    elif unique:
        output.print_data(render.unique_sentence(stats, rich=output.rich))
    elif output.rich:
        noun = "solution" if stats.solutions == 1 else "solutions"
        output.out.print(f"N = {n}: [bold]{stats.solutions:,}[/bold] {noun}")
    else:
        click.echo(stats.solutions)
    if stats.status.partial:
        output.message(render.summary(stats))
    if show_stats and output.format == "text":
        output.stats(stats)
    ctx.exit(_exit_code(stats.status))


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


@cli.command(epilog=EXIT_CODES_HELP)
@click.argument("n", callback=board_size, required=False)
@puzzle_options
@engine_options(AUTO, "the engines measured fastest to a first solution, in turn")
@board_options
@format_options
@click.pass_context
def first(
    ctx: click.Context,
    n: int | None,
    queen_squares: tuple[str, ...],
    block_squares: tuple[str, ...],
    board_file: TextIO | None,
    engine: str,
    strategy: str | None,
    mip_solver: str,
    style: str,
    ascii_only: bool,
    svg_path: str | None,
    output_format: str,
    show_stats: bool,
    time_limit: float | None,
) -> None:
    """Find one solution for an N x N board, fast, and show it with the time taken."""
    output = Output(output_format, style, ascii_only=ascii_only)
    n, queens, blocked = resolve_puzzle(n, queen_squares, block_squares, board_file)
    try:
        result = _api_call(
            api.first,
            n,
            queens=queens,
            blocked=blocked,
            time_limit=time_limit,
            engine=engine,
            strategy=strategy,
            mip_solver=mip_solver,
        )
    except SearchInterrupted:
        output.message(f"Interrupted before a solution for N = {n} was found.")
        ctx.exit(EXIT_INTERRUPTED)
    if result.solution is None:
        if result.proven_infeasible:
            output.message(f"No solution exists for N = {n}.")
            ctx.exit(EXIT_NO_SOLUTION)
        output.message(
            f"No solution found for N = {n} within the time limit of {time_limit:g} s "
            "(the search did not finish)."
        )
        ctx.exit(EXIT_TIME_LIMIT)
    output.solution(result.solution, stats=result.stats, json_stats=show_stats)
    if svg_path is not None:
        save_svg(svg_path, board_svg(n, result.solution.squares_0()))
    output.message(f"Found in {result.stats.wall_time:.3f} s.")
    if show_stats and output.format == "text":
        output.stats(result.stats, enumeration=False)
    ctx.exit(EXIT_OK)


@cli.command(epilog=EXIT_CODES_HELP)
@click.argument("n", callback=board_size)
@click.option(
    "--strategy",
    type=click.Choice([FIRST_MIN, FIRST_FAIL_MID]),
    default=FIRST_MIN,
    show_default=True,
    help="first-min: columns left to right, lowest row first (the guide's); "
    "first-fail-mid: smallest domain first, middle value first (the Oz tutorial's).",
)
@click.option("--all", "all_solutions", is_flag=True, help="Go on past the first solution.")
@click.option(
    "--step", is_flag=True, help="Wait for a key between steps (only when stdin is a terminal)."
)
@click.option("--ascii", "ascii_only", is_flag=True, help="Draw queens as Q.")
@click.option(
    "--svg",
    "svg_path",
    metavar="FILE",
    callback=svg_target,
    help="Also save each step as FILE-01.svg, FILE-02.svg...",
)
@click.pass_context
def explain(
    ctx: click.Context,
    n: int,
    strategy: str,
    all_solutions: bool,
    step: bool,
    ascii_only: bool,
    svg_path: str | None,
) -> None:
    """Walk through the original CP solver's search, step by step, each step drawn.

    The events come from a search monitor on OR-Tools' original CP solver running the guide's
    model: decisions (a queen placed), what propagation removed (x), dead ends (which column
    was wiped out), backtracks and solutions. The failures and branches at the end are the
    solver's own counts. Boards up to 10 x 10.
    """
    from nqueens.explain import explain as run_explanation

    output = Output("text", ascii_only=ascii_only)
    try:
        explanation = run_explanation(n, strategy=strategy, all_solutions=all_solutions)
    except InputError as error:
        raise click.BadParameter(str(error), param_hint="'N'") from None
    digits = len(str(len(explanation.events)))
    interactive = step and sys.stdin.isatty()
    for event in explanation.events:
        queens = {
            (next(iter(rows)), col) for col, rows in enumerate(event.domains) if len(rows) == 1
        }
        crossed = {
            (row, col)
            for col, rows in enumerate(event.domains)
            for row in range(n)
            if row not in rows
        }
        caption = f"Step {event.step}: {event.text}"
        if output.rich:
            output.out.print(caption, style="bold", markup=False)
            output.out.print(
                render.rich_grid(
                    n, queens, crossed=crossed, fresh=event.removed, ascii_only=ascii_only
                )
            )
            output.out.print()
        else:
            click.echo(f"{caption}\n{render.plain_grid(n, queens, crossed)}\n")
        if svg_path is not None:
            picture = board_svg(n, queens, crossed=crossed, fresh=event.removed, caption=caption)
            save_svg(numbered_path(svg_path, event.step, digits), picture)
        if interactive and event is not explanation.events[-1]:
            click.pause("Press any key for the next step...", err=True)
    noun = "solution" if explanation.solutions == 1 else "solutions"
    output.message(
        f"{explanation.solutions} {noun} in {len(explanation.events)} steps: "
        f"{explanation.failures} failures, {explanation.branches} branches "
        "(the solver's own counts)."
    )
    ctx.exit(EXIT_OK if explanation.solutions else EXIT_NO_SOLUTION)


@cli.command(epilog=EXIT_CODES_HELP)
@click.argument("source", type=click.File("r"), default="-", metavar="[FILE|-]")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: one object per board, with its problems.",
)
@click.pass_context
def verify(ctx: click.Context, source: TextIO, output_format: str) -> None:
    """Check boards as solve and first print them: text (with or without labels) or JSON lines.

    Reports, per board, how many pairs of queens attack each other along rows, columns and
    diagonals, naming the first few by their 1-based squares. Exits 0 when every board is a
    solution, 1 otherwise, 2 when the input holds no board, cannot be read, or is not a board
    (a row off the board, an empty board).
    """
    from nqueens.verify import read_boards

    output = Output(output_format)
    try:
        boards = read_boards(source.read())
    except InputError as error:
        raise click.BadParameter(str(error), param_hint="'FILE'") from None
    if not boards:
        raise click.BadParameter("no board found in the input", param_hint="'FILE'")
    for board in boards:
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
    invalid = sum(not board.valid for board in boards)
    noun = "board" if len(boards) == 1 else "boards"
    verdict = "all valid" if not invalid else f"{invalid} not valid"
    output.message(f"{len(boards)} {noun} checked: {verdict}.")
    ctx.exit(EXIT_NO_SOLUTION if invalid else EXIT_OK)


def sizes_option(value: str, option: str) -> list[int]:
    """Parse board sizes such as ``4-12`` or ``50,100,200`` (or a mix)."""
    sizes: list[int] = []
    for part in value.split(","):
        match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if match is None:
            raise click.BadParameter(
                f"{part.strip()!r} is not a size or a range such as 4-12", param_hint=option
            )
        low, high = int(match.group(1)), int(match.group(2) or match.group(1))
        if low > high:
            raise click.BadParameter(f"the range {low}-{high} is empty", param_hint=option)
        for n in (low, high):
            try:
                api.check_board_size(n)
            except InputError as error:
                raise click.BadParameter(str(error), param_hint=option) from None
        sizes.extend(range(low, high + 1))
    return sizes


def names_option(value: str, allowed: tuple[str, ...], option: str) -> list[str]:
    """Parse a comma-separated list of names, each one of ``allowed``."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in allowed]
    if unknown or not names:
        raise click.BadParameter(
            f"{', '.join(unknown) or 'nothing'}: choose from {', '.join(allowed)}",
            param_hint=option,
        )
    return names


@cli.command(epilog=EXIT_CODES_HELP)
@click.option(
    "--sizes",
    default="4-12",
    show_default=True,
    help="Boards for the table of time to every solution (the seed's), e.g. 4-12 or 8,10,12.",
)
@click.option(
    "--first-sizes",
    default="8,50,100,200,500,1000",
    show_default=True,
    help="Boards for the table of time to a first solution.",
)
@click.option(
    "--engines", default=",".join(registry.ENGINES), show_default=True, help="Engines to run."
)
@click.option(
    "--strategies", default=",".join(STRATEGIES), show_default=True, help="Strategies to run."
)
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="Per run of a cell; a cell over it shows as '> SECONDS'.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "csv"]),
    default="text",
    show_default=True,
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def bench(
    sizes: str,
    first_sizes: str,
    engines: str,
    strategies: str,
    repeat: int,
    time_limit: float,
    output_format: str,
    quiet: bool,
) -> None:
    """Measure every engine and strategy side by side: the seed's table, and time to a first.

    The first table reproduces the OR-Tools guide's (N, solutions, time to find all) with the
    guide's published times beside it; the second times a first solution for growing N.
    Each cell keeps the solver's own statistics (in JSON and CSV).
    """
    size_list = sizes_option(sizes, "--sizes")
    first_size_list = sizes_option(first_sizes, "--first-sizes")
    engine_list = names_option(engines, tuple(registry.ENGINES), "--engines")
    strategy_list = names_option(strategies, STRATEGIES, "--strategies")
    output = Output("text")
    from nqueens import bench as benchmark

    total = len(size_list) * len(
        benchmark.columns(engine_list, strategy_list, benchmark.ALL)
    ) + len(first_size_list) * len(benchmark.columns(engine_list, strategy_list, benchmark.FIRST))
    show_progress = not quiet and output.err.is_terminal
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
        console = output.out if output.out.is_terminal else Console(width=1000, highlight=False)
        for table in benchmark.tables(cells, time_limit=time_limit):
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


def main() -> None:
    """The console-script entry point: exit codes that stay true when the outside world fails.

    A usage error keeps its code 2 even when stderr cannot take its message; output that cannot
    be written (a full disk, a closed stdout) ends with one line on stderr and code 74 instead
    of a traceback or a count silently lost.
    """
    warnings.showwarning = _show_warning
    if sys.stdout is None:  # started with stdout closed (``>&-``): nothing could reach it
        _say_on_stderr("Error: standard output is closed, so no result could be written.")
        sys.exit(EXIT_IO_ERROR)
    try:
        code = cli.main(prog_name="nqueens", standalone_mode=False)
    except click.ClickException as error:
        with suppress(OSError):  # stderr failed too: the exit code still says what went wrong
            error.show()
        code = error.exit_code
    except click.exceptions.Abort:
        _say_on_stderr("Aborted!")
        code = 1
    except OSError as error:
        _discard_stdout()
        _say_on_stderr(f"Error: the output could not be written: {error.strerror or error}.")
        code = EXIT_IO_ERROR
    sys.exit(code if isinstance(code, int) else EXIT_OK)


def _say_on_stderr(text: str) -> None:
    """A last word on stderr, which may itself be closed or full."""
    with suppress(OSError, ValueError):
        click.echo(text, err=True)

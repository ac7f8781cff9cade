"""The command line's options: how N, squares, engines and sizes are parsed, in one place.

Decorators add the options that several commands share; parameter types parse lists; every error
is a click usage error (exit 2) that names the option.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from nqueens.cli import render, report
from nqueens.cli.output import COLOR_KEY
from nqueens.cli.params import (
    Seconds,
    TextFile,
    WholeNumber,
)
from nqueens.core.board import Board, Diagonal, diagonal_through, parse_square
from nqueens.core.results import InputError, Square
from nqueens.core.strategies import AUTO, STRATEGIES
from nqueens.core.validation import read_whole, shown
from nqueens.engines import registry
from nqueens.engines.mip import BACKENDS
from nqueens.formats.boards import read_board

F = TypeVar("F", bound=Callable[..., Any])


def board_size(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    """Parse N: a whole number the command takes, with a message that says what was wrong.

    None when N is left out, which only --board allows (it reads N from the file).
    """
    if value is None:
        return None
    text = value.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", text):
        raise click.BadParameter(
            f"N must be a positive whole number (digits 0-9), not {shown(text)}", ctx, param
        )
    number = read_whole(text)
    if number < 1:
        raise click.BadParameter(f"N must be at least 1, not {shown(number)}", ctx, param)
    return number  # the command checks that it takes boards that large


COLOR_HELP = (
    "Colours on, even where the terminal or NO_COLOR would turn them off (as FORCE_COLOR=1 "
    "does), or off (as NO_COLOR=1 does). Data sent to a pipe or a file is the same either way."
)


def remember_color(ctx: click.Context, param: click.Parameter, value: bool | None) -> None:
    """Keep --color or --no-color where every command's output finds it, before or after the
    command's name (the contexts of a group and its command share ``meta``)."""
    if value is not None:
        ctx.meta[COLOR_KEY] = value


def color_option() -> click.Option:
    """--color/--no-color, as the group and every command take it."""
    return click.Option(
        ["--color/--no-color"],
        default=None,
        expose_value=False,
        is_eager=True,
        callback=remember_color,
        help=COLOR_HELP,
    )


_HYPHEN_STAND_IN = "\N{NON-BREAKING HYPHEN}"


@contextmanager
def _whole_words() -> Iterator[None]:
    """While help is written, click's wrapping breaks lines between words only, never at a
    word's hyphen ("cp-" / "sat"): hyphens stand in as non-breaking ones while it wraps."""
    from click import formatting

    wrap_text = formatting.wrap_text

    def wrap_whole_words(text: str, *args: Any, **kwargs: Any) -> str:
        return wrap_text(text.replace("-", _HYPHEN_STAND_IN), *args, **kwargs).replace(
            _HYPHEN_STAND_IN, "-"
        )

    formatting.wrap_text = wrap_whole_words
    try:
        yield
    finally:
        formatting.wrap_text = wrap_text


class HelpFormatter(click.HelpFormatter):
    """Help whose lines break between words only."""

    def write_text(self, text: str) -> None:
        with _whole_words():
            super().write_text(text)

    def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        with _whole_words():
            super().write_dl(rows, col_max, col_spacing)


class QueensContext(click.Context):
    """The context of every nqueens command: help that breaks lines between words."""

    formatter_class = HelpFormatter


class QueensCommand(click.Command):
    """A command that takes --color/--no-color after its name too, and reports a negative N
    (``-3``) as a bad N rather than an unknown option."""

    context_class = QueensContext

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.append(color_option())

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        typed = list(args)  # click's parser consumes the list it is given
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as error:
            if re.fullmatch(r"-[0-9]+(\.[0-9]*)?", error.option_name):
                # click names only the part it took for an option ("-5" of "-5.5"): quote the
                # whole argument the user typed.
                whole = next((arg for arg in typed if arg.startswith(error.option_name)), "")
                raise click.BadParameter(
                    f"N must be a positive whole number, not {whole or error.option_name}",
                    ctx=ctx,
                    param_hint="'N'",
                ) from None
            raise


def common_options(function: F) -> F:
    """What every search command shares: --time-limit, --stats, --format and --quiet."""
    function = click.option(
        "-q",
        "--quiet",
        is_flag=True,
        help="No progress bar, spinner or estimate on stderr (results and errors still show).",
    )(function)
    function = click.option(
        "-t",
        "--time-limit",
        type=Seconds(),
        metavar="SECONDS",
        help="Stop after this many seconds, start-up included, and report what was found as "
        "partial (e.g. -t 0.5; inf for no limit).",
    )(function)
    function = click.option(
        "-s",
        "--stats",
        "show_stats",
        is_flag=True,
        help="Also show the search's figures: time, speed and the engine's own counters.",
    )(function)
    function = click.option(
        "--format",
        "output_format",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        help="text: for people (plain when sent to a pipe or a file); json: one object per "
        "line, for programs.",
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
            metavar="NAME",
            help="Which MIP solver the mip engine uses: scip, cbc, highs (all in ortools) or glpk.",
        )(function)
        function = click.option(
            "--strategy",
            type=click.Choice(STRATEGIES),
            metavar="NAME",
            help="The order the search tries queens in. first-min: column by column from the "
            "left, lowest row first; first-fail-mid: the column with fewest free squares first, "
            "middle rows first; auto: the engine's own. [default: the engine's best]",
        )(function)
        return click.option(
            "--engine",
            type=click.Choice(engines),
            default=default_engine,
            show_default=True,
            metavar="NAME",
            help=described + (f"; auto: {auto_help}." if auto_help else "."),
        )(function)

    return decorate


def takes_board(function: F) -> F:
    """N, --queen, --block, --exclude-diagonal, --board and --diagonals, delivered to the
    command as one ``board`` (a Board, checked once): squares are typed 1-based ROW,COL, held
    0-based."""
    command = function

    @functools.wraps(command)
    def with_board(
        *args: Any,
        n: int | None,
        queen_squares: tuple[str, ...],
        block_squares: tuple[str, ...],
        excluded_diagonals: tuple[str, ...],
        board_text: str | None,
        diagonals: int | None,
        **kwargs: Any,
    ) -> Any:
        from_file = _board_file(board_text, diagonals)
        size = _board_size(n, from_file)
        queens = [_square(text, "--queen") for text in queen_squares]
        blocked = [_square(text, "--block") for text in block_squares]
        excluded = [_diagonal(text, size) for text in excluded_diagonals]
        if from_file is not None:
            queens[:0] = from_file.queens
            blocked[:0] = from_file.blocked
            excluded[:0] = from_file.excluded
        with usage_errors():
            board = Board(size, tuple(queens), tuple(blocked), tuple(dict.fromkeys(excluded)))
        return command(*args, board=board, **kwargs)

    function = cast(F, with_board)
    function = click.option(
        "--diagonals",
        type=WholeNumber(0),
        metavar="D",
        help="With a --board file of excluded diagonals: take only its first D (e.g. "
        "--diagonals 20). [default: all]",
    )(function)
    function = click.option(
        "--board",
        "board_text",
        type=TextFile(),
        metavar="FILE",
        help="Start from a board in FILE ('-' reads stdin), and take N from it: a drawing, one "
        "line per row (Q a queen, # blocked, . free), or a CSPLib or excluded-diagonals file "
        "(see the README).",
    )(function)
    function = click.option(
        "--exclude-diagonal",
        "excluded_diagonals",
        multiple=True,
        metavar="ROW,COL/",
        help="Keep a whole diagonal empty: the one through ROW,COL rising to the right "
        "(3,4/) or falling ('3,4\\', quoted). Repeatable.",
    )(function)
    function = click.option(
        "--block",
        "block_squares",
        multiple=True,
        metavar="ROW,COL",
        help="Keep the square at ROW,COL empty (1-based, e.g. --block 1,1). Repeatable.",
    )(function)
    return click.option(
        "--queen",
        "queen_squares",
        multiple=True,
        metavar="ROW,COL",
        help="Start with a queen at ROW,COL (1-based: 1,1 is the top left). Repeatable.",
    )(function)


def _board_file(board_text: str | None, diagonals: int | None) -> Board | None:
    """The puzzle a --board file holds (--diagonals taking the first D of its diagonals)."""
    if board_text is None:
        if diagonals is not None:
            raise click.UsageError("--diagonals takes the first D diagonals of a --board file")
        return None
    try:
        return read_board(board_text, diagonals)
    except InputError as error:
        raise click.BadParameter(
            report.usage_error(error).message, param_hint="'--board'"
        ) from None


def _board_size(n: int | None, from_file: Board | None) -> int:
    """N, from the argument or the board file, which must agree when both give it."""
    if from_file is None:
        if n is None:
            raise click.UsageError(
                "Missing argument 'N' (or give a starting position with --board)."
            )
        return n
    if n is not None and n != from_file.n:
        raise click.UsageError(
            f"N is {n}, but the board given with --board is {from_file.n} x {from_file.n}"
        )
    return from_file.n


def _square(text: str, option: str) -> Square:
    try:
        return parse_square(text)
    except InputError as error:
        raise click.BadParameter(str(error), param_hint=f"'{option}'") from None


def _diagonal(text: str, n: int) -> Diagonal:
    """``3,4/`` or ``3,4\\`` (1-based, on the board) -> the diagonal through it."""
    way = text.strip()[-1:]
    if way not in ("/", "\\"):
        raise click.BadParameter(
            f"{text!r} does not say which diagonal: write ROW,COL/ for the one rising to the "
            "right or ROW,COL\\ for the one falling",
            param_hint="'--exclude-diagonal'",
        )
    square = _square(text.strip()[:-1], "--exclude-diagonal")
    if not (square[0] < n and square[1] < n):
        raise click.BadParameter(
            f"square {text.strip()[:-1]} is off the {n} x {n} board",
            param_hint="'--exclude-diagonal'",
        )
    return diagonal_through(square, way)


def board_options(function: F) -> F:
    """How boards are drawn in text format, and where pictures of them go."""
    function = click.option(
        "--svg",
        "svg_path",
        metavar="FILE",
        callback=svg_target,
        help="Also save each board as an SVG picture (several boards are numbered: board-01.svg, "
        "board-02.svg, ...). e.g. --svg board.svg",
    )(function)
    function = click.option(
        "--ascii",
        "ascii_only",
        is_flag=True,
        help="Draw queens as Q, for fonts without the chess queen.",
    )(function)
    return click.option(
        "--style",
        type=click.Choice(["auto", "board", "compact"]),
        default="auto",
        show_default=True,
        help="board: drawn square by square; compact: one line, the row of the queen in each "
        "column (1-based); auto: a board when it fits the terminal "
        f"(into a pipe or a file, up to N = {render.PLAIN_BOARD_MAX_N}).",
    )(function)


def tree_target(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse a --tree path that is neither .svg nor .html, or whose folder does not exist."""
    if value is not None and not value.endswith((".svg", ".html")):
        raise click.BadParameter(
            f"{value} should end in .svg (a picture) or .html (a page)", ctx, param
        )
    return svg_target(ctx, param, value)


def svg_target(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An --svg path, given .svg where it has no suffix and names no existing file (so that
    every command names its pictures alike); refused before any search starts when its folder
    does not exist."""
    if value is None:
        return None
    if not Path(value).suffix and not Path(value).exists():
        value += ".svg"
    if not Path(value).resolve().parent.is_dir():
        raise click.BadParameter(f"the folder of {value} does not exist", ctx, param)
    return value


@contextmanager
def usage_errors() -> Iterator[None]:
    """Turn an input the API refuses into a usage error (exit 2), one path for every command."""
    try:
        yield
    except InputError as error:
        raise report.usage_error(error) from None

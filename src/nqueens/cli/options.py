"""The options several commands share: colour, time limit, statistics, format, engines, board
squares and rules, and the files of pictures and trees.

Decorators add them to a command; an option's value that cannot be used is a click usage error
(exit 2) that names the option.
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import click
from click.core import ParameterSource

from nqueens import api
from nqueens.api import (
    AUTO,
    ENGINE_OPTIONS,
    ENGINES,
    FIRST_FAIL_MID,
    FIRST_MIN,
    STRATEGIES,
    THEOREMS_IN_SHORT,
)
from nqueens.cli.engine_choice import EngineChoice
from nqueens.cli.output import COLOR_KEY
from nqueens.cli.params import Seconds, option_flag
from nqueens.cli.sources import complete_path
from nqueens.core import pictures

F = TypeVar("F", bound=Callable[..., Any])

COLOR_HELP = "Colours on or off, as FORCE_COLOR=1 or NO_COLOR=1; data in a pipe is the same."


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


def common_options(function: F) -> F:
    """What every search command shares: --time-limit, --stats, --format and --quiet."""
    function = click.option(
        "-q",
        "--quiet",
        is_flag=True,
        help="No progress bar, spinner or estimate (results and errors still show).",
    )(function)
    function = click.option(
        "-t",
        "--time-limit",
        type=Seconds(),
        metavar="SECONDS",
        is_eager=True,  # read before a --board file, whose waiting it bounds
        help="Stop after this many seconds, start-up included; what was found is partial "
        "(e.g. -t 0.5).",
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
        help="text for people (plain in a pipe or a file), or json: an object a line.",
    )(function)
    return function


def engines_help() -> str:
    """What each engine and search strategy is, for ``nqueens --help``: said there once, and
    named by each command's --engine and --strategy."""
    width = max(len(name) for name in ENGINES) + 2
    said = (
        "Engines (--engine; auto, the default, runs the fastest that can take the board, or no "
        f"search at all where a theorem answers: {THEOREMS_IN_SHORT}):"
    )
    lines = ["\b", *textwrap.wrap(said, 78)]
    for name, engine in ENGINES.items():
        commands = ", ".join(sorted(engine.commands))
        text = f"{engine.summary} ({commands})"
        wrapped = textwrap.wrap(text, 78 - 2 - width)
        lines.append(f"  {name:<{width}}{wrapped[0]}")
        lines += [" " * (2 + width) + more for more in wrapped[1:]]
    lines += [
        "",
        "\b",
        "Strategies (--strategy): the order queens are tried in.",
        f"  {FIRST_MIN:<16}column by column from the left, lowest row first",
        f"  {FIRST_FAIL_MID:<16}the column with fewest free squares first, middle rows first",
        f"  {AUTO:<16}the engine's own",
    ]
    return "\n".join(lines)


def engine_options(command_name: str, default_engine: str, auto_help: str = "") -> Callable[[F], F]:
    """--engine, --strategy and every engine's own options (--mip-solver), with the command's
    default engine (and what auto means for the command, when it has auto): the engines that
    run ``command_name``, and only those, in help and in completion. The engines' own options
    reach the command as one ``engine_options`` dict of those given."""
    own = [name for name, engine in ENGINES.items() if command_name in engine.commands]
    engines = [*own, api.AUTO_ENGINE] if auto_help else own
    named = f"{', '.join(own)}{' or auto' if auto_help else ''}"
    auto = f"; auto: {auto_help}" if auto_help else ""

    def decorate(function: F) -> F:
        command = function

        @functools.wraps(command)
        def with_engine_options(*args: Any, **kwargs: Any) -> Any:
            given = {name: kwargs.pop(name) for name in ENGINE_OPTIONS}
            chosen = {name: value for name, value in given.items() if value is not None}
            return command(*args, engine_options=chosen, **kwargs)

        function = cast(F, with_engine_options)
        for option, owner in ENGINE_OPTIONS.values():
            picks = f" Without --engine, it picks the {owner} engine." if auto_help else ""
            function = click.option(
                option_flag(option.name),
                option.name,
                type=click.Choice(option.choices),
                metavar="NAME",
                help=f"{option.help}{picks} [default: {option.default}]",
            )(function)
        function = click.option(
            "--strategy",
            type=click.Choice(STRATEGIES),
            metavar="NAME",
            help=f"The order queens are tried in: {', '.join(STRATEGIES)} (nqueens --help). "
            "[default: the engine's best]",
        )(function)
        return click.option(
            "--engine",
            type=EngineChoice(engines, command_name),
            default=default_engine,
            show_default=True,
            metavar="NAME",
            help=f"{named}{auto}. What each is: nqueens --help.",
        )(function)

    return decorate


def board_options(function: F) -> F:
    """How boards are drawn in text format, and where pictures of them go."""
    function = click.option(
        "--svg",
        "svg_path",
        metavar="FILE",
        callback=svg_target,
        shell_complete=complete_path,
        help="Also save each board as an SVG picture; several are numbered: board.svg gives "
        "board-1.svg to board-4.svg for 4, board-01.svg to board-92.svg for 92.",
    )(function)
    function = click.option(
        "--ascii",
        "ascii_only",
        is_flag=True,
        help="Draw queens as Q (fonts without the chess queen), here and in --svg pictures.",
    )(function)
    return click.option(
        "--style",
        type=click.Choice(["auto", "board", "compact"]),
        default="auto",
        show_default=True,
        help="board: drawn square by square; compact: a line of each column's queen's row "
        f"(1-based); auto: a board where it fits (up to N = {pictures.DRAWN_MAX_N} in a "
        "pipe).",
    )(function)


def tree_target(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse a --tree path that is neither .svg nor .html, a folder, or one whose folder does
    not exist."""
    if value is not None and not value.endswith((".svg", ".html")):
        raise click.BadParameter(
            f"{value} should end in .svg (a picture) or .html (a page)", ctx, param
        )
    return svg_target(ctx, param, value, example="tree.html")


def given(ctx: click.Context, name: str) -> bool:
    """Whether the parameter ``name`` was given (on the command line or in the environment),
    rather than left at its default."""
    return ctx.get_parameter_source(name) is not ParameterSource.DEFAULT


def file_named(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse a file name that is empty, or ``-``, which names stdin and stdout elsewhere: what
    is saved here goes to a file of its own (stdout carries the data)."""
    if value == "-":
        raise click.BadParameter(
            "- stands for stdin or stdout, and this is saved to a file of its own: give a file "
            "name",
            ctx,
            param,
        )
    if value is not None and not value.strip():
        raise click.BadParameter("give a file name", ctx, param)
    return value


def svg_target(
    ctx: click.Context, param: click.Parameter, value: str | None, example: str = "board.svg"
) -> str | None:
    """An --svg path, given .svg where it has no suffix and names no existing file (so that
    every command names its pictures alike); refused before any search starts when it is a
    folder or its folder does not exist (``example`` names a file to suggest in the folder)."""
    if value is None:
        return None
    file_named(ctx, param, value)
    if not Path(value).suffix and not Path(value).exists():
        value += ".svg"
    if Path(value).is_dir():
        raise click.BadParameter(
            f"{value} is a folder: give a file name, e.g. {Path(value) / example}", ctx, param
        )
    if not Path(value).resolve().parent.is_dir():
        raise click.BadParameter(f"the folder of {value} does not exist", ctx, param)
    return value

"""What the commands say about an outcome that is not a result: input the library refuses, a
picture too large to draw, and the notes the library has for a search."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

from nqueens.api import BoardError, InputError, Note, Plan
from nqueens.cli import render
from nqueens.cli.output import Output
from nqueens.cli.params import option_flag
from nqueens.core.pictures import MAX_SVG_N

_PARAMETER_HINTS = {"n": "'N'", "board": None}
"""How a usage error names the API argument at fault; None: the board's options together."""


def said(error: InputError) -> str:
    """An input the library refuses, in the command line's words: squares named 1-based, the
    API's arguments named as options (``time_limit`` as ``--time-limit``)."""
    if isinstance(error, BoardError):
        return error.for_people()
    return error.worded(_option_words)


def usage_error(error: InputError) -> click.UsageError:
    """An input the library refuses, as a usage error (exit 2) naming the argument at fault."""
    message = said(error)
    hint = _PARAMETER_HINTS.get(error.argument or "")
    if hint is not None:
        return click.BadParameter(message, param_hint=hint)
    return click.UsageError(message)


def _option_words(name: str) -> str:
    """How the command line says the API argument ``name``: its option, with what the option
    takes (``--checkpoint FILE``) where the running command has it."""
    words = option_flag(name)
    ctx = click.get_current_context(silent=True)
    params = ctx.command.params if ctx is not None else []
    option = next((p for p in params if isinstance(p, click.Option) and words in p.opts), None)
    if option is None or option.is_flag or not option.metavar:
        return words
    return f"{words} {option.metavar}"


def check_drawable(output: Output, n: int, svg_path: str | None) -> None:
    """Refuse, before any search, a picture too large to be of use, or a style for boards that
    JSON does not draw (exit 2)."""
    drawn_ascii = output.ascii_only and svg_path is None  # pictures draw in letters too
    if output.format == "json" and (output.style != "auto" or drawn_ascii):
        chosen = f"--style {output.style}" if output.style != "auto" else "--ascii"
        raise click.UsageError(
            f"{chosen} styles the boards drawn for people; --format json writes each solution "
            "as data, its rows, with nothing drawn"
        )
    if svg_path is not None and n > MAX_SVG_N:
        raise click.UsageError(
            f"--svg draws boards up to N = {MAX_SVG_N}: a {n:,} x {n:,} picture would be too "
            "large to open; --style compact or --format json give the rows"
        )
    if output.style == "board" and n > render.MAX_DRAWN_N:
        raise click.UsageError(
            f"--style board draws boards up to N = {render.MAX_DRAWN_N:,}: {n:,} lines of "
            f"{n:,} squares are of no use; --style compact gives the rows"
        )


def notes_said(
    output: Output, then: Callable[[Plan], object] | None = None
) -> Callable[[Plan], None]:
    """What to do with a search's plan: say its notes, each as ``Note: ...``, before the
    search, and hand the plan on to ``then``."""

    def said(plan: Plan) -> None:
        notes(output, plan.notes)
        if then is not None:
            then(plan)

    return said


def notes(output: Output, said: tuple[Note, ...]) -> None:
    """Say each of ``said``, its arguments named as options."""
    for note in said:
        output.message(f"Note: {note.worded(option_flag)}")


@contextmanager
def usage_errors(output: Output | None = None) -> Iterator[None]:
    """Turn an input the API refuses into a usage error (exit 2), one path for every command;
    the notes its plan had are said first, on ``output``."""
    try:
        yield
    except InputError as error:
        if output is not None:
            notes(output, error.notes)
        raise usage_error(error) from None

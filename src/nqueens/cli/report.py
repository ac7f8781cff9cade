"""What the commands say about an outcome that is not a result: input the library refuses, no
solution, a picture too large to draw, or an option the search that answered had no use for."""

from __future__ import annotations

from typing import Any

import click

from nqueens.cli import render
from nqueens.cli.output import Output
from nqueens.cli.params import option_flag
from nqueens.core import theorems
from nqueens.core.board import Board, BoardError
from nqueens.core.pictures import MAX_SVG_N
from nqueens.core.results import InputError, Stats
from nqueens.core.wording import duration
from nqueens.engines import registry
from nqueens.engines.base import Request
from nqueens.run import plan

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


def none_exists(board: Board) -> str:
    """Why there is nothing to show: the board has no solution (and the theorem that says so,
    where one does), or the givens no completion."""
    reason = theorems.without_solution(board)
    if reason is not None:
        return f"No solution exists for {board.title}: {reason}."
    closed = theorems.without_completion(board)
    if closed is not None:
        return f"No completion exists for {board.title}: {closed}."
    if board.constrained:
        given = [
            what
            for what, present in (
                ("the given queens", board.queens),
                ("the blocked squares", board.blocked),
                ("the excluded diagonals", board.excluded),
            )
            if present
        ]
        return f"No completion exists: no solution for {board.title} respects {_listed(given)}."
    return f"No solution exists for {board.title}."


def note_theorem_set_aside(
    output: Output,
    command: str,
    board: Board,
    engine: str,
    strategy: str | None,
    engine_options: dict[str, Any],
) -> None:
    """Say, before the search, where a theorem says the board has no solution but the command
    chooses its search, which must then prove it, at length on large boards (docs/how-to/variants.md
    has figures); nothing where an engine named will refuse the board anyway (it says why)."""
    reason = theorems.without_solution(board)
    if reason is None or not plan.names_its_search(engine, strategy, engine_options):
        return
    named = registry.ENGINES.get(engine)
    if named is not None and registry.refusal(named, Request(command, board)) is not None:
        return
    output.message(
        f"Note: no solution exists for {board.title}: {reason}. The search you chose must prove "
        "it, which takes long on large boards; without --engine, --strategy or an engine's "
        "option the answer comes at once."
    )


def note_slow_engine(
    output: Output, command: str, board: Board, engine: str, time_limit: float | None
) -> None:
    """Say, before the search, where the engine named would take far longer than the one
    nqueens would choose; the search still runs as asked."""
    slow = plan.slow_choice(Request(command, board, time_limit=time_limit), engine)
    if slow is None:
        return
    output.message(
        f"Note: the {engine} engine takes about {duration(slow.seconds)} over "
        f"{board.title}'s solutions; the {slow.faster} engine "
        f"{_about(slow.faster_seconds)} (--engine {slow.faster}, or no --engine)."
    )


def _about(seconds: float) -> str:
    return "under a second" if seconds < 1 else f"about {duration(seconds)}"


def seed_unused(stats: Stats) -> str | None:
    """Why ``--seed`` did not choose the solution found, where the search that answered makes no
    random choices (None: it did)."""
    if registry.takes_seed(stats.engine, stats.strategy):
        return None
    if stats.engine == theorems.THEOREM:
        answered = "a theorem gives this solution without a search"
    else:
        strategy = f" {stats.strategy}" if stats.strategy else ""
        answered = f"the {stats.engine} engine's{strategy} search makes no random choices"
    engines = registry.ENGINES.items()
    seeded = [name for name, engine in engines if engine.takes_seed(None)]
    seeded += [
        f"{name} with --strategy {strategy}"
        for name, engine in engines
        if not engine.takes_seed(None)
        for strategy in engine.strategies
        if engine.takes_seed(strategy)
    ]
    listed = _listed(seeded)
    return f"Note: {answered}, so --seed changes nothing here; the engines that take it: {listed}."


def _listed(words: list[str]) -> str:
    """Words as a sentence lists them: "a", "a and b", "a, b and c"."""
    return " and ".join(filter(None, (", ".join(words[:-1]), words[-1])))

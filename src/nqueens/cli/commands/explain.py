"""``nqueens explain``: the search step by step, narrated and drawn, or as a tree."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from nqueens import api
from nqueens.api import FIRST_FAIL_MID, FIRST_MIN, RULES, Board, InputError
from nqueens.cli import render
from nqueens.cli.boards import board_size, takes_board
from nqueens.cli.command import QueensCommand
from nqueens.cli.exits import EXIT_NO_SOLUTION, EXIT_OK, SEE_MAIN_HELP
from nqueens.cli.files import Pictures
from nqueens.cli.options import svg_target, tree_target
from nqueens.cli.output import Output
from nqueens.cli.sources import complete_path
from nqueens.core.pictures import board_svg, plain_grid
from nqueens.core.wording import counted

if TYPE_CHECKING:
    from nqueens.api import Explanation


@click.command(cls=QueensCommand, epilog=SEE_MAIN_HELP)
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
    help="Draw queens as Q, for fonts without the chess queen: on the terminal, in --svg "
    "pictures and on a --tree page.",
)
@click.option(
    "--svg",
    "svg_path",
    metavar="FILE",
    callback=svg_target,
    shell_complete=complete_path,
    help="Also save each step as a picture: --svg step.svg writes step-01.svg, step-02.svg, "
    "... (as many digits as the number of steps needs).",
)
@click.option(
    "--tree",
    "tree_path",
    metavar="FILE",
    callback=tree_target,
    shell_complete=complete_path,
    help="Save the whole search as a tree instead of drawing each step: FILE.svg, a picture, "
    "or FILE.html, a page to explore it in a browser (e.g. --tree tree.html).",
)
@click.option(
    "--compare",
    is_flag=True,
    help="With --tree FILE.html: both strategies' trees side by side.",
)
@takes_board
@click.pass_context
def explain(
    ctx: click.Context,
    board: Board,
    strategy: str,
    all_solutions: bool,
    step: bool,
    ascii_only: bool,
    svg_path: str | None,
    tree_path: str | None,
    compare: bool,
) -> None:
    """Watch a constraint solver search, step by step, each step drawn.

    Each step is a queen placed by a choice (Q), the squares it rules out (x), the queens that
    had to follow (F, forced), a dead end (which column has no square left) and the step back,
    or a solution; a terminal draws the queens as a black and a white chess queen. The counts
    at the end are the solver's own. Boards up to 10 x 10.

    \b
    Examples:
      nqueens explain 5                    every step to the first solution
      nqueens explain 6 --step             one step per key press
      nqueens explain 8 --tree tree.html   the whole search, for a browser
      nqueens explain 8 --tree both.html --compare
    """
    if compare and (tree_path is None or not tree_path.endswith(".html")):
        raise click.UsageError("--compare draws two trees on one page: give --tree FILE.html")
    drawing = [name for name, given in (("--svg", svg_path), ("--step", step)) if given]
    if tree_path is not None and drawing:
        raise click.UsageError(
            f"--tree saves the whole search instead of drawing each step, as "
            f"{' and '.join(drawing)} would: give one or the other"
        )
    if ascii_only and tree_path is not None and not tree_path.endswith(".html"):
        raise click.UsageError(
            "--ascii draws queens as Q, and a tree saved as .svg draws no queen: it applies to "
            "the boards of a .html page"
        )
    output = Output("text", ascii_only=ascii_only)
    strategies = [FIRST_MIN, FIRST_FAIL_MID] if compare else [strategy]
    try:
        explanations = [
            api.explain(board, strategy=chosen, all_solutions=all_solutions)
            for chosen in strategies
        ]
    except InputError as error:
        raise click.BadParameter(str(error), param_hint="'N'") from None
    if tree_path is not None:
        tree = Pictures(tree_path, "search tree")
        if tree_path.endswith(".html"):
            tree.save(api.html_document(explanations, ascii_only=ascii_only))
        else:
            tree.save(api.svg_document(explanations[0]))
        tree.report(output)
    else:
        for rule in sorted(board.rules):
            output.words(f"Rule: {rule}. {RULES[rule]}\n")
        shown = _narrate(explanations[0], board, output, step=step, svg_path=svg_path)
        if shown < len(explanations[0].events):
            output.message(
                f"You stopped the walk at step {shown:,} of {len(explanations[0].events):,}; "
                "the whole search was:"
            )
    for explanation in explanations:
        output.message(
            f"{explanation.strategy}: {counted(explanation.solutions, 'solution')} in "
            f"{counted(len(explanation.events), 'step')}: "
            f"{counted(explanation.failures, 'failure')}, "
            f"{counted(explanation.branches, 'branch')} (the solver's own counts)."
        )
    ctx.exit(EXIT_OK if explanations[0].solutions else EXIT_NO_SOLUTION)


def _narrate(
    explanation: Explanation, board: Board, output: Output, *, step: bool, svg_path: str | None
) -> int:
    """Draw every step of the search; with ``step``, wait for a key between steps. Returns how
    many steps were shown (fewer than all when the user quit)."""
    digits = len(str(len(explanation.events)))
    interactive = step and sys.stdin.isatty()
    if step and not interactive:
        output.message(
            "Note: --step waits for a key typed on a terminal, and stdin is not one: "
            "every step follows without waiting."
        )
    pictures = Pictures(svg_path)
    try:
        return _draw_steps(explanation, board, output, pictures, digits, interactive=interactive)
    finally:
        pictures.report(output)


def _draw_steps(
    explanation: Explanation,
    board: Board,
    output: Output,
    pictures: Pictures,
    digits: int,
    *,
    interactive: bool,
) -> int:
    """``_narrate``'s steps, each drawn and saved; returns how many were shown."""
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
                    ascii_only=output.in_letters,
                    colour=not output.out.no_color,
                )
            )
            output.out.print()
        else:
            grid = plain_grid(n, event.queens, event.crossed, forced=event.forced)
            click.echo(f"{caption}\n{grid}\n")
        if pictures.path is not None:
            picture = board_svg(
                n,
                event.queens,
                crossed=event.crossed,
                fresh=event.removed,
                forced=event.forced,
                board=board,
                caption=caption,
                ascii_only=output.ascii_only,
            )
            pictures.save(picture, event.step, digits)
        if interactive and event is not explanation.events[-1] and not _next_step():
            return event.step
    if output.rich and explanation.events:
        output.key(
            render.explain_legend(ascii_only=output.in_letters, colour=not output.out.no_color)
        )
    return len(explanation.events)


def _next_step() -> bool:
    """Wait for a key: True to go on, False for q or Ctrl-D; Ctrl-C interrupts (exit 130).
    The prompt is erased once a key is pressed."""
    prompt = "Any key: next step, q: quit, Ctrl-C: interrupt "
    click.echo(prompt, nl=False, err=True)
    try:
        with _keys_waited_for():
            key = click.getchar()
    except EOFError:  # Ctrl-D
        key = "q"
    finally:
        click.echo("\r\x1b[2K", nl=False, err=True)
    return key.lower() != "q"


@contextmanager
def _keys_waited_for() -> Iterator[None]:
    """stdin's terminal blocking while a key is read: click reads it with one read, which a
    terminal that another program left non-blocking (as a crashed event loop can) answers at
    once with no key. The terminal is left non-blocking again after the read."""
    descriptor = sys.stdin.fileno()  # a terminal: --step reads keys from no other stdin
    if os.get_blocking(descriptor):
        yield
        return
    os.set_blocking(descriptor, True)
    try:
        yield
    finally:
        os.set_blocking(descriptor, False)

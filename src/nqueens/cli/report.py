"""What the commands say about an outcome that is not a result: no solution, or a picture too
large to draw."""

from __future__ import annotations

import click

from nqueens.cli import render
from nqueens.cli.svg import MAX_SVG_N
from nqueens.core.board import Puzzle


def check_drawable(n: int, style: str, svg_path: str | None) -> None:
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


def none_exists(puzzle: Puzzle) -> str:
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

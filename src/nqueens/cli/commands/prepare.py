"""``nqueens prepare``: every compiled search made ready ahead of its first use."""

from __future__ import annotations

import click

from nqueens.cli.options import QueensCommand
from nqueens.cli.output import SEE_MAIN_HELP, Output
from nqueens.run.compiled import prepare as prepare_all


@click.command(cls=QueensCommand, epilog=SEE_MAIN_HELP)
def prepare() -> None:
    """Compile every search that nqueens compiles on its first use, once, ahead.

    The searches of the bitboard, local and reduced engines are compiled by numba on their
    first use after an install, for a few seconds each, and kept in numba's cache (set
    NUMBA_CACHE_DIR to choose where). Run this once in a container image, on each machine of a
    cluster, or in CI, so that no run waits for a compile. A time limit leaves a compile out
    anyway: a first run keeps to its limit as later runs do.

    \b
    Examples:
      nqueens prepare
      nqueens prepare && nqueens first 2000 -t 1
    """
    output = Output("text")
    for done in prepare_all():
        how = (
            f"compiled in {done.compiling:.1f} s"
            if done.compiling
            else f"loaded from the cache in {done.seconds:.1f} s"
        )
        output.message(f"The {done.engine} engine's searches: {how}.")
    output.message("Every compiled search is ready.")

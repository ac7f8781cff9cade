"""``nqueens export``: the model of a board written for another solver."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, BinaryIO, cast

import click

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

from nqueens.api import Board
from nqueens.cli.boards import board_size, takes_board
from nqueens.cli.command import QueensCommand
from nqueens.cli.exits import EXIT_OK, SEE_MAIN_HELP
from nqueens.cli.files import written_whole
from nqueens.cli.output import Output, write_whole
from nqueens.cli.report import usage_errors
from nqueens.core import signals
from nqueens.core.wording import either
from nqueens.export import FORMATS, Target, by_suffix
from nqueens.export import export as write_model

_FORMATS_HELP = "; ".join(f"{f.name}: {f.summary}" for f in FORMATS.values())


@click.command(
    cls=QueensCommand,
    epilog=SEE_MAIN_HELP,
    short_help="Write a board's model for MiniZinc, SAT, MIP or CP-SAT.",
)
@click.argument("n", callback=board_size, required=False, metavar="N")
@click.option(
    "--to",
    "format_name",
    type=click.Choice(list(FORMATS)),
    help=f"The format: {_FORMATS_HELP}. [default: named by the -o file's suffix]",
)
@click.option(
    "-o",
    "--output",
    "path",
    type=click.Path(dir_okay=False, allow_dash=True),
    metavar="FILE",
    help="Write to FILE ('-': stdout), whole or not at all. [default: stdout]",
)
@takes_board
@click.pass_context
def export(ctx: click.Context, board: Board, format_name: str | None, path: str | None) -> None:
    """Write the model of an N x N board for another solver: MiniZinc, SAT, MIP or CP-SAT.

    The file begins with a comment saying what it holds and how to run it. Given queens,
    blocked squares, excluded diagonals and the board's rules are part of the model. verify
    reads the answers back: minizinc --all-solutions queens.mzn | nqueens verify, and for a
    SAT solver, minisat queens.cnf model.txt, then nqueens verify --dimacs queens.cnf
    model.txt.

    \b
    Examples:
      nqueens export 8 --to minizinc -o queens.mzn
      nqueens export 8 -o queens.cnf        the format named by the suffix
      nqueens export 20 --queen 1,1 --to lp -o puzzle.lp
      nqueens export 13 --torus --to cp-sat > torus.pbtxt
    """
    if path == "-":
        path = None
    chosen = FORMATS[format_name] if format_name else by_suffix(path or "")
    if chosen is None:
        suffixes = "; ".join(f"{either(list(f.suffixes))} ({f.name})" for f in FORMATS.values())
        about = f"{path} names no format" if path else "no format given"
        raise click.UsageError(f"{about}: give --to FORMAT, or an -o file ending in {suffixes}")
    output = Output("text")
    name = path or f"queens{chosen.suffixes[0]}"
    binary = path is not None and path.lower().endswith(".pb")
    stdout = _Stdout()
    try:
        # A stop raises here rather than ending the process, so that no part file is left.
        with signals.keeping(), usage_errors():
            if path is None:
                write_model(board, chosen.name, Target(cast(BinaryIO, stdout), name))
            else:
                with written_whole(path) as stream:
                    write_model(board, chosen.name, Target(stream, name, binary))
    except KeyboardInterrupt:
        if path is not None:
            output.message(f"Interrupted: nothing was written to {path}.")
        elif stdout.written:  # what went down a pipe cannot be taken back: say it is cut
            output.message(
                f"Interrupted: stdout holds the {chosen.name} model cut short, not a whole one."
            )
        else:
            output.message("Interrupted: nothing was written.")
        ctx.exit(signals.exit_code())
    if path is not None:
        output.message(f"Wrote the {chosen.name} model of {board.title} to {path}.")
    ctx.exit(EXIT_OK)


class _Stdout(io.RawIOBase):
    """stdout for the model, written whole, block by block, however stdout was left open;
    ``written`` is true once a write began."""

    written = False

    def writable(self) -> bool:
        return True

    def write(self, data: ReadableBuffer) -> int:
        self.written = True
        write_whole(bytes(data))
        return len(memoryview(data))

"""``nqueens verify``: boards read back and checked, each as it arrives."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

from nqueens.api import InputError
from nqueens.cli.boards import rule_options
from nqueens.cli.command import QueensCommand
from nqueens.cli.exits import EXIT_NO_SOLUTION, EXIT_OK, SEE_MAIN_HELP, BadInput
from nqueens.cli.output import Output
from nqueens.cli.sources import TextLines
from nqueens.core import signals
from nqueens.core.wording import counted
from nqueens.formats import records

if TYPE_CHECKING:
    from nqueens.formats.verify import BoardCheck


@click.command(
    cls=QueensCommand,
    epilog=SEE_MAIN_HELP,
    short_help="Check boards, as solve and first print them.",
)
@click.argument("source", type=TextLines(), default="-", metavar="[FILE]")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: one object per board, whether it is valid and which queens attack.",
)
@click.option(
    "--dimacs",
    "cnf",
    type=TextLines(),
    metavar="CNF",
    help="FILE is a SAT solver's answer to CNF, written by nqueens export --to dimacs: "
    "MiniSat's result file, or 's SATISFIABLE' and 'v' lines; each model is a board "
    "(picosat --all prints them all).",
)
@rule_options
@click.pass_context
def verify(
    ctx: click.Context,
    source: Iterator[str],
    output_format: str,
    cnf: Iterator[str] | None,
    rules: frozenset[str],
) -> None:
    """Check boards, as solve and first print them, from FILE or stdin ('-', the default).

    Says of each board which queens attack each other (the first few, by 1-based square);
    --torus and --superqueens check the boards under those rules; a JSON board from solve or
    first is checked under the rules it was found under too.
    Exits 0 when every board is a solution, 1 when one is not, 2 when the input holds no
    board or something that is not a board (a queen off it, a line that does not parse).
    Boards are checked as they arrive, so a stream of any length can be piped in; a line
    that is not a board stops the check there, after reporting the boards before it.
    MiniZinc's output and GLPK's report (glpsol -o) of a model from nqueens export are read
    as they are.

    \b
    Examples:
      nqueens first 8 | nqueens verify
      nqueens solve 10 --format json | nqueens verify
      nqueens verify boards.txt --format json
      nqueens solve 11 --torus | nqueens verify --torus
      nqueens verify --dimacs queens.cnf model.txt    a SAT solver's answer
    """
    from nqueens.formats.read_back import ValidRun, read_boards

    output = Output(output_format)
    checked = invalid = 0
    try:
        boards = (
            read_boards(source, rules, in_bulk=output_format == "text")
            if cnf is None
            else _sat_answer(cnf, source, rules)
        )
        # A stop raises here rather than ending the process, so what was checked is said.
        with signals.keeping():
            for board in boards:
                if isinstance(board, ValidRun):
                    checked += board.boards
                    continue
                checked += 1
                invalid += not board.valid
                if output_format == "json":
                    record = {
                        "board": board.number,
                        "n": board.n,
                        **records.rules_field(board.rules),
                        "valid": board.valid,
                        "conflicts": board.conflicts,
                        "problems": board.problems,
                    }
                    click.echo(json.dumps(record))
                elif not board.valid:
                    for problem in board.problems:
                        click.echo(f"{board.label}: {problem}")
    except InputError as error:
        so_far = f" ({_checked(checked, invalid)} before it)" if checked else ""
        raise BadInput(str(error) + so_far) from None
    except KeyboardInterrupt:  # what was checked is said, as a partial result
        so_far = f"{_checked(checked, invalid)}, before the stop" if checked else "no board checked"
        output.message(f"Interrupted: {so_far}.")
        ctx.exit(signals.exit_code())
    if not checked:
        raise BadInput("no board found in the input")
    output.message(f"{_checked(checked, invalid)}.")
    ctx.exit(EXIT_NO_SOLUTION if invalid else EXIT_OK)


def _sat_answer(
    cnf: Iterator[str], answer: Iterator[str], rules: frozenset[str]
) -> Iterator[BoardCheck]:
    """The board of each model of a SAT solver's answer to a CNF of nqueens', checked under
    the CNF's rules and ``rules``, with the first clause it leaves false as one more problem."""
    from nqueens.formats import sat

    header = sat.read_header(cnf, "the --dimacs file")
    header = dataclasses.replace(header, rules=header.rules | rules)
    clauses = None
    for number, true in enumerate(sat.read_models(answer, "the solver's answer"), start=1):
        if clauses is None:
            clauses = sat.read_clauses(cnf)
        board = sat.board_of(header, true, number)
        clause = sat.unsatisfied(clauses, true)
        if clause is not None:
            board.problems.append(f"the model leaves clause {clause:,} of the CNF false")
        yield board


def _checked(checked: int, invalid: int) -> str:
    verdict = "all valid" if not invalid else f"{invalid:,} not valid"
    return f"{counted(checked, 'board')} checked: {verdict}"

"""N and the squares given on the board, as the commands take them: typed 1-based ROW,COL, read
from a --board file, and delivered to the command as one checked Board."""

from __future__ import annotations

import functools
import re
from typing import Any, cast

import click

from nqueens.api import RULES, Board, Diagonal, InputError, Square
from nqueens.cli import report
from nqueens.cli.options import F
from nqueens.cli.params import WholeNumber
from nqueens.cli.report import usage_errors
from nqueens.cli.sources import TextFile
from nqueens.core.geometry import diagonal_through, parse_square
from nqueens.core.validation import read_whole, shown
from nqueens.formats.boards import DRAWING_CELLS, drawing_cells, read_board


class BoardFile(TextFile):
    """A --board file: as TextFile, and a drawing is refused as soon as it has more rows than
    its first row has squares (``yes '. .'`` was read to a gigabyte before it was refused)."""

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> str:
        self._width: int | None = None  # the first row's squares, once it is read whole
        self._rows = 0
        return super().convert(value, param, ctx)

    def _so_far(self, chunk: bytes, name: str) -> None:
        if self._width == 0:  # not a drawing: read to its end, as any text
            return
        lines = [line for line in chunk.split(b"\n") if line.strip()]
        if self._width is None:
            whole = [line for line in chunk[: chunk.rfind(b"\n") + 1].split(b"\n") if line.strip()]
            if not whole:  # the first row is still to come whole
                return
            first = drawing_cells(whole[0].decode("utf-8", "replace"))
            self._width = len(first) if set(first) <= DRAWING_CELLS else 0
            if not self._width:
                return
        self._rows += len(lines)
        if self._rows > self._width + 1:  # a row may be cut between two chunks: counted twice
            raise InputError(
                f"{name} is no board drawing: it has more rows than the {self._width} squares "
                "of its first row (a drawing of N x N has N of each)"
            )


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


def takes_board(function: F) -> F:
    """N, --queen, --block, --exclude-diagonal, --board, --diagonals and the board's rules
    (--torus), delivered to the command as one ``board`` (a Board, checked once): squares are
    typed 1-based ROW,COL, held 0-based."""
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
        rules = kwargs.pop("rules")
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
            board = Board(size, queens, blocked, dict.fromkeys(excluded), rules)
        return command(*args, board=board, **kwargs)

    function = rule_options(cast(F, with_board))
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
        type=BoardFile(),
        metavar="FILE",
        help="Start from the board in FILE ('-': stdin), which gives N: a drawing (Q a queen, "
        "# blocked, . free) or a CSPLib or excluded-diagonals file.",
    )(function)
    function = click.option(
        "--exclude-diagonal",
        "excluded_diagonals",
        multiple=True,
        metavar="ROW,COL/",
        help="Keep the diagonal through ROW,COL empty, rising (3,4/) or falling ('3,4\\'). "
        "Repeatable.",
    )(function)
    function = click.option(
        "--block",
        "block_squares",
        multiple=True,
        metavar="ROW,COL",
        help="Keep ROW,COL empty; repeatable.",
    )(function)
    return click.option(
        "--queen",
        "queen_squares",
        multiple=True,
        metavar="ROW,COL",
        help="A queen at ROW,COL (1,1: top left); repeatable.",
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
        raise click.BadParameter(report.said(error), param_hint="'--board'") from None


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


def rule_options(function: F) -> F:
    """A flag for each board rule (--torus, --superqueens), delivered to the command as one
    ``rules`` set of the names given."""
    command = function

    @functools.wraps(command)
    def with_rules(*args: Any, **kwargs: Any) -> Any:
        rules = frozenset(rule for rule in RULES if kwargs.pop(rule))
        return command(*args, rules=rules, **kwargs)

    function = cast(F, with_rules)
    for rule, meaning in reversed(RULES.items()):
        function = click.option(f"--{rule}", rule, is_flag=True, help=meaning)(function)
    return function

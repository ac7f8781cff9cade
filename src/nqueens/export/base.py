"""What every export format shares: where a model goes, what a format declares about itself,
and the comment a file begins with."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

from nqueens.core.board import Board
from nqueens.core.geometry import SUPERQUEENS
from nqueens.core.pictures import described


@dataclass(frozen=True)
class Target:
    """Where a model goes: ``stream``, under the file ``name`` that a header's "Run it" line
    uses; ``binary`` asks for the format's binary form, where it has one."""

    stream: BinaryIO
    name: str
    binary: bool = False


@dataclass(frozen=True)
class Format:
    """One format a model can be written in, and everything about it."""

    name: str
    summary: str
    suffixes: tuple[str, ...]  # the first is the one a file is named with in examples
    squares_per_column: bool  # a variable per column (N of them) rather than per square (N²)
    max_terms: int  # the most squares its constraints may name (see :meth:`terms`)
    why: str  # what grows with the board, the reason for max_terms
    write: Callable[[Board, Target], None]

    def terms(self, n: int, rules: frozenset[str]) -> int:
        """How many squares the model's constraints name, which its size and the time to write
        it follow: each square on its row, column and two diagonals, and under the superqueens
        rule on up to 8 knight's moves."""
        squares = n if self.squares_per_column else n * n
        return squares * _per_square(rules)

    def refusal(self, board: Board) -> str | None:
        """Why this board is too large for the format, or None."""
        if self.terms(board.n, board.rules) <= self.max_terms:
            return None
        squares = self.max_terms // _per_square(board.rules)
        largest = squares if self.squares_per_column else math.isqrt(squares)
        under = " under these rules" if board.rules else ""
        return (
            f"the {self.name} model of N = {board.n:,} would be too large: {self.why}; "
            f"nqueens writes it up to N = {largest:,}{under}"
        )


def _per_square(rules: frozenset[str]) -> int:
    return 4 + (8 if SUPERQUEENS in rules else 0)


def header(board: Board, what: str, target: Target, lines: list[str], run: str) -> list[str]:
    """The lines a file begins with, before the format's comment mark: what it is, which board,
    the format's own ``lines``, and how to ``run`` it (``{file}`` stands for the file; a run of
    several lines is shown indented under "Run it:")."""
    from nqueens import __version__

    first, *more = run.format(file=target.name).split("\n")
    return [
        f"The N-queens problem as {what}, written by nqueens {__version__}.",
        f"Board: {described(board)}.",
        *lines,
        f"Run it: {first}" if first else "Run it:",
        *(f"  {line}" for line in more),
    ]


def commented(mark: str, lines: list[str]) -> bytes:
    """``lines`` as comments of a format whose comments begin with ``mark``."""
    return "".join(f"{mark} {line}".rstrip() + "\n" for line in lines).encode()

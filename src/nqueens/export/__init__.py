"""The N-queens model written for other solvers: MiniZinc, DIMACS CNF, LP and MPS, CP-SAT.

Each format is a module of this package that declares itself as a
``Format``: its name, the file suffixes that name it, the largest board
it writes and the function that writes it. Every file begins with a comment that says what it
is, which board it holds and how to run it (a binary CP-SAT model, which has no room for one,
aside).
"""

from __future__ import annotations

from nqueens.core.board import MAX_N, Board
from nqueens.core.results import InputError
from nqueens.export import cpsat, dimacs, linear, minizinc
from nqueens.export.base import Format, Target

FORMATS = {f.name: f for f in (minizinc.FORMAT, dimacs.FORMAT, *linear.FORMATS, cpsat.FORMAT)}
"""Every format, by name, in the order help lists them."""


def by_suffix(path: str) -> Format | None:
    """The format a file name's suffix names, if any."""
    return next((f for f in FORMATS.values() if path.lower().endswith(f.suffixes)), None)


def export(board: Board, format_name: str, target: Target) -> None:
    """Write the model of ``board`` in the format named; InputError for a format there is not
    or a board too large for it."""
    if board.n > MAX_N:
        raise InputError(
            f"N = {board.n:,} is larger than {MAX_N:,}, the largest board nqueens takes"
        )
    if format_name not in FORMATS:
        raise InputError(f"unknown format {format_name!r}; choose from {', '.join(FORMATS)}")
    chosen = FORMATS[format_name]
    refusal = chosen.refusal(board)
    if refusal is not None:
        raise InputError(refusal)
    chosen.write(board, target)


__all__ = ["FORMATS", "Format", "Target", "by_suffix", "export"]

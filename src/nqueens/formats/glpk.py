"""GLPK's report of a solution (``glpsol ... -o FILE``) of the 0-1 program that ``nqueens export
--to lp`` or ``--to mps`` writes, read back as the board it holds.

The program's variables are the squares, ``V<k>`` for row k // N, column k % N (0-based); the
report lists each column's name and activity, 1 where a queen stands. Its status line says
whether GLPK found a solution at all.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from nqueens.core.results import InputError, Square

_STATUS = re.compile(r"Status:\s+(.*)")
_COLUMN = re.compile(r"\s*[0-9]+\s+V([0-9]+)\s+(?:[*]\s+)?(\S+)(?:\s.*)?")
_FOUND = ("INTEGER OPTIMAL", "INTEGER NON-OPTIMAL", "OPTIMAL", "FEASIBLE")


def is_report(line: str) -> bool:
    """Whether ``line``, a file's first, begins GLPK's report of a solution."""
    return line.startswith("Problem:")


def read_report(next_line: Callable[[], str | None], first: int) -> tuple[int, list[Square]]:
    """The board of a GLPK report whose first line (line ``first``) was read: its size and its
    queens, every square whose variable is 1; InputError where GLPK found no solution, or the
    report holds no square of a board."""
    number, status = first, None
    values: dict[int, float] = {}
    while (line := next_line()) is not None:
        number += 1
        if status is None and (said := _STATUS.match(line)):
            status = said.group(1).strip()
            if status not in _FOUND:
                raise InputError(
                    f"line {number}: GLPK's status is {status}: it found no solution, so there "
                    "is no board to check"
                )
        elif column := _COLUMN.fullmatch(line):
            try:
                values[int(column.group(1))] = float(column.group(2))
            except ValueError:
                raise InputError(
                    f"line {number}: {line.strip()[:40]!r} is not a square's value"
                ) from None
    n = math.isqrt(len(values))
    if not values or n * n != len(values) or set(values) != set(range(n * n)):
        raise InputError(
            f"GLPK's report holds {len(values):,} squares (V0, V1, ...), not the N x N of a board "
            "nqueens export wrote"
        )
    queens = [divmod(square, n) for square, value in sorted(values.items()) if value > 0.5]
    return n, queens

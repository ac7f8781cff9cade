"""``nqueens verify``: read boards as ``solve`` and ``first`` print them, and check each one.

Accepted, mixed freely: plain boards (``Q``/``_`` per square, one line per row), boards drawn for
a terminal (row and column labels, a queen glyph), compact lines (the 1-based row of each
column's queen) and JSON lines with ``rows``. ``Solution k`` headers and blank lines separate
boards. The check is independent of any solver: every pair of queens is compared.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from nqueens.puzzle import attacking_pairs
from nqueens.render import QUEEN
from nqueens.results import InputError, Square

_QUEEN_MARKS = {"Q", QUEEN}
_PLAIN_CELLS = {"Q", "_", ".", QUEEN}
_NUMBERS = re.compile(r"\d+(?:\s+\d+)*")
_COLOUR_CODES = re.compile(r"\x1b\[[0-9;]*m")  # a terminal board saved with its colours


@dataclass(frozen=True)
class BoardCheck:
    """One board read and checked: ``problems`` is empty when it is a solution."""

    number: int
    n: int
    queens: tuple[Square, ...]
    problems: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems


def check(number: int, n: int, queens: list[Square]) -> BoardCheck:
    """Check a placement: n queens, no two sharing a row, a column or a diagonal."""
    problems = []
    if len(queens) != n:
        problems.append(f"{len(queens)} queens on a {n} x {n} board, which needs {n}")
    problems += attacking_pairs(queens)
    return BoardCheck(number, n, tuple(sorted(queens)), problems)


def read_boards(text: str) -> list[BoardCheck]:
    """Every board in ``text``, checked; InputError names the first line that is not a board."""
    lines = _COLOUR_CODES.sub("", text).splitlines()
    boards: list[BoardCheck] = []
    grid: list[tuple[int, list[str]]] = []  # (line number, cells) of the plain board being read

    def close_grid() -> None:
        if grid:
            boards.append(_plain_board(len(boards) + 1, grid))
            grid.clear()

    index = 0
    while index < len(lines):
        line = lines[index].rstrip()
        stripped = line.strip()
        index += 1
        cells = stripped.split()
        if cells and all(cell in _PLAIN_CELLS for cell in cells):
            grid.append((index, cells))
            continue
        close_grid()
        if not stripped or re.fullmatch(r"Solution \d+", stripped):
            continue
        if stripped.startswith("{"):
            boards.append(_json_board(len(boards) + 1, stripped, index))
        elif _NUMBERS.fullmatch(stripped):
            numbers = [int(value) for value in cells]
            if numbers == list(range(1, len(numbers) + 1)) and _labelled_row_follows(lines, index):
                board, index = _labelled_board(len(boards) + 1, numbers[-1], lines, index)
                boards.append(board)
            else:
                boards.append(_compact_board(len(boards) + 1, numbers, index))
        else:
            raise InputError(f"line {index}: {stripped[:40]!r} is not part of a board")
    close_grid()
    return boards


def _plain_board(number: int, grid: list[tuple[int, list[str]]]) -> BoardCheck:
    n = len(grid)
    for line_number, cells in grid:
        if len(cells) != n:
            raise InputError(
                f"line {line_number}: {len(cells)} squares in a row of a board with {n} rows"
            )
    queens = [
        (row, col)
        for row, (_, cells) in enumerate(grid)
        for col, cell in enumerate(cells)
        if cell in _QUEEN_MARKS
    ]
    return check(number, n, queens)


def _json_board(number: int, text: str, line_number: int) -> BoardCheck:
    try:
        record = json.loads(text)
        rows = record["rows"]
        n = int(record.get("n", len(rows)))
        if not all(isinstance(row, int) for row in rows):
            raise TypeError("rows must be whole numbers")
    except (ValueError, KeyError, TypeError) as error:
        raise InputError(f"line {line_number}: not a board in JSON ({error})") from None
    if len(rows) != n:
        raise InputError(f"line {line_number}: {len(rows)} rows for a board of N = {n}")
    return check(number, n, [(row, col) for col, row in enumerate(rows)])


def _compact_board(number: int, rows: list[int], line_number: int) -> BoardCheck:
    n = len(rows)
    off = [row for row in rows if not 1 <= row <= n]
    if off:
        raise InputError(f"line {line_number}: row {off[0]} is off a board of N = {n}")
    return check(number, n, [(row - 1, col) for col, row in enumerate(rows)])


def _labelled_row_follows(lines: list[str], index: int) -> bool:
    """Whether the next line is row 1 of a board drawn with labels."""
    return (
        index < len(lines)
        and re.match(r"\s*1\s", lines[index] + " ") is not None
        and any(mark in lines[index] for mark in (*_QUEEN_MARKS, " "))
    )


def _labelled_board(number: int, n: int, lines: list[str], index: int) -> tuple[BoardCheck, int]:
    """A board as drawn for a terminal: a row label, then squares three cells wide."""
    label_width = len(str(n))
    queens: list[Square] = []
    for row in range(n):
        if index + row >= len(lines):
            raise InputError(f"line {index + row + 1}: the labelled board stops after {row} rows")
        line = lines[index + row]
        if line[:label_width].strip() != str(row + 1):
            raise InputError(f"line {index + row + 1}: expected the row labelled {row + 1}")
        squares = line[label_width + 1 :]
        for position, character in enumerate(squares):
            if character in _QUEEN_MARKS:
                queens.append((row, position // 3))
    return check(number, n, queens), index + n

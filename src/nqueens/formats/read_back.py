"""Boards read back as ``solve`` and ``first`` print them, each checked as soon as it is read.

Accepted, mixed freely: plain boards (``Q``/``_`` per square, one line per row), boards drawn for
a terminal (row and column labels, a queen glyph), compact lines (the 1-based row of each
column's queen), JSON lines with ``rows``, and MiniZinc's output of the model ``nqueens export``
writes (``q = [1, 5, 8, ...];`` and its ``----------`` lines), and GLPK's report of a solution
of the 0-1 program it writes (``glpsol --lp FILE -o REPORT``). ``Solution k`` headers and blank
lines separate boards. Anything that is not a board it can check (a row off the board, an empty
board, a size that is not a whole number, a plain board's row too many) is an InputError, never
"valid".
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from nqueens.core.board import MAX_N
from nqueens.core.geometry import RULES
from nqueens.core.results import InputError, Square
from nqueens.core.validation import read_whole, shown
from nqueens.core.wording import counted
from nqueens.formats import glpk
from nqueens.formats.boards import BLOCKED_CELLS, DRAWING_CELLS, QUEEN_CELLS, drawing_cells
from nqueens.formats.verify import BoardCheck, check, check_rows

_LABELLED_SQUARES = QUEEN_CELLS | {".", " "}  # what a labelled row holds after its label
_NUMBERS = re.compile(r"[0-9\s]+")  # on a stripped line: numbers between spaces; no backtracking
_COLOUR_CODES = re.compile(r"\x1b\[[0-9;]*m")  # a terminal board saved with its colours
_HEADER = re.compile(r"Solution [0-9]+")
_DRAWN_ROW = re.compile(f"[\\s{re.escape(''.join(DRAWING_CELLS))}]+")  # told before split up
_LONE_RETURN = re.compile(r"\r(?!\n)")  # a line end of its own in old Macs' text
_MINIZINC = re.compile(r"q\s*=\s*\[([0-9,\s]*)\]\s*;?")  # MiniZinc's output of nqueens' model
_MINIZINC_MARKS = re.compile(r"-{10}|={10}")  # after each solution, and after the last
_MINIZINC_NONE = re.compile(r"=====(UNSATISFIABLE|UNKNOWN|ERROR|UNSAT_OR_UNBOUNDED)=====")


@dataclass(frozen=True)
class ValidRun:
    """``boards`` boards in a row, read in bulk, every one of them a solution."""

    boards: int


def read_boards(
    lines: Iterable[str], rules: frozenset[str] = frozenset(), *, in_bulk: bool = False
) -> Iterator[BoardCheck | ValidRun]:
    """Every board in ``lines``, checked as soon as it is read, so that a stream of millions
    of boards is checked in constant memory, under the board ``rules``; InputError names the
    first line that is not a board (the boards before it have been given by then).

    ``in_bulk``: the plainest lines (compact rows and JSON records of boards under no rule that
    are solutions, ``Solution k`` headings, blank lines) are read many at a time by the package's
    C module, where it was built, and said as a ValidRun; every other line, an invalid board's
    among them, is read as one alone would be, and said as its BoardCheck.
    """
    reader = _Lines(lines)
    bulk = _bulk_reader() if in_bulk and not rules else None
    count = 0
    grid: list[tuple[int, list[str]]] = []  # (line number, cells) of the plain board being read
    while True:
        if bulk is not None and not grid:
            boards = reader.read_in_bulk(bulk)
            if boards:
                count += boards
                yield ValidRun(boards)
        line = reader.next()
        if line is None:
            break
        stripped = line.strip()
        if reader.number == 1 and glpk.is_report(stripped):  # a whole file of its own
            count += 1
            yield _checked(count, glpk.read_report(reader.next, 1), rules)
            continue
        cells = drawing_cells(stripped) if _DRAWN_ROW.fullmatch(stripped) else []
        if cells and all(cell in DRAWING_CELLS for cell in cells) and not _a_word(stripped):
            if any(cell in BLOCKED_CELLS for cell in cells):
                raise InputError(
                    f"line {reader.number}: a blocked square ({stripped[:40]!r}): this is a "
                    "puzzle, not a solution to check; nqueens first --board FILE completes it"
                )
            _check_next_row(grid, reader.number, cells)
            grid.append((reader.number, cells))
            continue
        if grid:
            count += 1
            yield _checked(count, _plain_board(grid), rules)
            grid = []
        if not stripped or _HEADER.fullmatch(stripped) or _MINIZINC_MARKS.fullmatch(stripped):
            continue
        if _MINIZINC_NONE.fullmatch(stripped):
            raise InputError(
                f"line {reader.number}: {stripped}: MiniZinc found no solution, so there is no "
                "board to check"
            )
        board: _Placement | None
        under = rules
        if stripped.startswith("{"):
            board, named = _json_board(stripped, reader.number)
            under = rules | named
        elif minizinc := _MINIZINC.fullmatch(stripped):
            rows = minizinc.group(1).replace(",", " ")
            _check_compact_size(rows, reader.number)
            board = _compact_board([read_whole(value) for value in rows.split()], reader.number)
        elif _NUMBERS.fullmatch(stripped):
            _check_compact_size(stripped, reader.number)
            numbers = [read_whole(value) for value in stripped.split()]
            if numbers == list(range(1, len(numbers) + 1)) and _labelled_row_follows(reader):
                board = _labelled_board(numbers[-1], reader)
            else:
                board = _compact_board(numbers, reader.number)
        else:
            raise InputError(f"line {reader.number}: {stripped[:40]!r} is not part of a board")
        if board is not None:
            count += 1
            yield _checked(count, board, under)
    if grid:
        yield _checked(count + 1, _plain_board(grid), rules)


# A board as read: its rows, one queen per column and 0-based (checked without building a
# square for each queen), or its size and the squares of its queens.
_Placement = list[int] | tuple[int, list[Square]]


def _checked(number: int, board: _Placement, rules: frozenset[str]) -> BoardCheck:
    if isinstance(board, tuple):
        n, queens = board
        return check(number, n, queens, rules)
    return check_rows(number, board, rules)


def _bulk_reader() -> Callable[[bytes], tuple[int, int, int]] | None:
    """The C module's reader of the plainest lines, or None where it was not built."""
    try:
        import nqueens.formats._text as text
    except ImportError:
        return None
    return text.check


class _Lines:
    """Lines read one at a time, with one line of look-ahead and the number of the last line
    read; colour codes and a byte-order mark are dropped, and a carriage return alone ends a
    line, as it does for ``--board``."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._source = iter(lines)
        self._ahead: str | None = None
        self._pieces: list[str] = []  # the rest of a line cut at lone returns, in reverse
        self.number = 0

    def peek(self) -> str | None:
        if self._ahead is None:
            line = self._pieces.pop() if self._pieces else next(self._source, None)
            if line is not None:
                at = line.find("\r")
                if 0 <= at < len(line) - 2:  # a return before the line's own end: old Macs'
                    line, *rest = _LONE_RETURN.split(line)
                    self._pieces = rest[::-1]
                if self.number == 0:
                    line = line.removeprefix("\ufeff")
                self._ahead = _COLOUR_CODES.sub("", line).rstrip("\r\n")
        return self._ahead

    def read_in_bulk(self, check: Callable[[bytes], tuple[int, int, int]]) -> int:
        """Read as many of the next lines as ``check`` reads, where the source reads in bulk
        and no line is half read; how many boards, all valid, they held."""
        read_in_bulk = getattr(self._source, "read_in_bulk", None)
        if read_in_bulk is None or self._ahead is not None or self._pieces or not self.number:
            return 0  # the first line is read alone: a byte-order mark is dropped from it
        lines, boards = read_in_bulk(check)
        self.number += lines
        return int(boards)  # what the source says, as the int it is

    def next(self) -> str | None:
        line = self.peek()
        if line is not None:
            self._ahead = None
            self.number += 1
        return line


def _check_next_row(grid: list[tuple[int, list[str]]], line_number: int, cells: list[str]) -> None:
    """Refuse a plain row as soon as it cannot belong to the board being read, so that an
    endless stream of rows (``yes Q``) stops at once rather than filling memory."""
    if not grid:
        return
    first_line, first_cells = grid[0]
    n = len(first_cells)
    if len(cells) != n:
        raise InputError(
            f"line {line_number}: a row of {len(cells)} after a row of {n} (line {first_line}): "
            "a board of N rows has N squares in each"
        )
    if len(grid) == n:
        raise InputError(
            f"line {line_number}: row {n + 1} of a board of N = {n} (boards are separated by "
            "a blank line)"
        )


def _plain_board(grid: list[tuple[int, list[str]]]) -> _Placement:
    n = len(grid[0][1])
    if len(grid) < n:
        raise InputError(f"line {grid[-1][0]}: the board of N = {n} stops after row {len(grid)}")
    queens = [
        (row, col)
        for row, (_, cells) in enumerate(grid)
        for col, cell in enumerate(cells)
        if cell in QUEEN_CELLS
    ]
    return n, queens


def _json_board(text: str, line_number: int) -> tuple[_Placement | None, frozenset[str]]:
    """A JSON line as solve and first write it: ``rows`` (0-based), and ``n`` if given; and the
    ``rules`` it names (a board of solve --torus is checked on a torus, --torus given or not).

    No board for the status record that ends their output.
    """
    where = f"line {line_number}"
    try:
        record = json.loads(text, parse_int=read_whole)
    except ValueError as error:
        raise InputError(f"{where}: not JSON ({error})") from None
    except RecursionError:
        raise InputError(f"{where}: JSON nested too deep to be a board") from None
    if isinstance(record, dict) and record.get("type") == "status":
        return None, frozenset()
    rows = record.get("rows") if isinstance(record, dict) else None
    if not isinstance(rows, list) or not all(_whole(row) for row in rows):
        raise InputError(f'{where}: a board in JSON needs "rows", a list of whole numbers')
    n = record.get("n", len(rows))
    if not _whole(n) or n < 1:
        raise InputError(f'{where}: "n" must be a whole number of at least 1, not {_json(n)}')
    if n > MAX_N:
        raise InputError(f"{where}: N = {shown(n)} is larger than the largest board, {MAX_N:,}")
    if len(rows) != n:
        raise InputError(
            f'{where}: a board of N = {n:,} needs {n:,} rows, and "rows" has {len(rows):,}'
        )
    off = next((row for row in rows if not 0 <= row < n), None)
    if off is not None:
        raise InputError(f"{where}: {_row(off)} is off a board of N = {n} (JSON rows count from 0)")
    named = record.get("rules", [])
    if not isinstance(named, list) or not all(
        isinstance(rule, str) and rule in RULES for rule in named
    ):
        raise InputError(
            f'{where}: "rules" must be a list of {" and ".join(RULES)}, not {shown(named)}'
        )
    return rows, frozenset(named)


def _a_word(line: str) -> bool:
    """Whether a line of letters that read as blocked squares (``xxx``) is a word instead: a
    row of a puzzle has a free square or a queen among them, or spaces between them."""
    return line.isalpha() and set(line) <= {"x", "X"}


def _json(value: object) -> str:
    """A value read from JSON, for a message, as JSON writes it (``null``, ``true``)."""
    return json.dumps(value) if value is None or isinstance(value, bool) else shown(value)


def _row(value: int) -> str:
    """A row read from a file, for a message: ``row 9``, or ``a row of 2,000 digits``."""
    said = shown(value)
    return f"a row{said.removeprefix('a number')}" if said.startswith("a number") else f"row {said}"


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_compact_size(line: str, line_number: int) -> None:
    """Refuse a compact line of more rows than the largest board, before it is split up (a
    line of 30 million numbers took gigabytes)."""
    if line.count(" ") + line.count("\t") < MAX_N:  # fewer gaps than that: fewer numbers
        return
    single = "  " not in line and "\t" not in line  # as nqueens writes them
    numbers = (line if single else re.sub(r"\s+", " ", line)).count(" ") + 1
    if numbers > MAX_N:
        raise InputError(
            f"line {line_number}: {numbers:,} rows, more than the largest board, N = {MAX_N:,}"
        )


def _compact_board(rows: list[int], line_number: int) -> _Placement:
    n = len(rows)
    off = [row for row in rows if not 1 <= row <= n]
    if off:
        raise InputError(f"line {line_number}: {_row(off[0])} is off a board of N = {n}")
    return [row - 1 for row in rows]


def _labelled_row_follows(reader: _Lines) -> bool:
    """Whether the next line is row 1 of a board drawn with labels, not a compact line that
    starts with 1."""
    line = reader.peek()
    return (
        line is not None
        and re.match(r"\s*1\s", line + " ") is not None
        and not _NUMBERS.fullmatch(line.strip())
    )


def _labelled_board(n: int, reader: _Lines) -> _Placement:
    """A board as drawn for a terminal: a row label, then squares three cells wide."""
    label_width = len(str(n))
    queens: list[Square] = []
    for row in range(n):
        line = reader.next()
        if line is None:
            raise InputError(
                f"line {reader.number + 1}: the labelled board of N = {n} has only "
                f"{counted(row, 'row')}"
            )
        if line[:label_width].strip() != str(row + 1):
            raise InputError(f"line {reader.number}: expected the row labelled {row + 1}")
        squares = line[label_width + 1 :].rstrip()
        if squares[3 * n :].strip():  # a queen there would be off the board: not a board drawn
            raise InputError(
                f"line {reader.number}: row {row + 1} is drawn past the board's {n} columns"
            )
        stray = next((mark for mark in squares if mark not in _LABELLED_SQUARES), None)
        if stray is not None:
            raise InputError(
                f"line {reader.number}: {stray!r} in row {row + 1} is not part of a board "
                "(a labelled row holds squares, . or a queen)"
            )
        cols = [position // 3 for position, mark in enumerate(squares) if mark in QUEEN_CELLS]
        if len(set(cols)) != len(cols):
            raise InputError(
                f"line {reader.number}: two queens in one square; a labelled board's squares "
                "are three characters wide"
            )
        queens += [(row, col) for col in cols]
    return n, queens

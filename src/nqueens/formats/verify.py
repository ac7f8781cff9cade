"""``nqueens verify``: read boards as ``solve`` and ``first`` print them, and check each one.

Accepted, mixed freely: plain boards (``Q``/``_`` per square, one line per row), boards drawn for
a terminal (row and column labels, a queen glyph), compact lines (the 1-based row of each
column's queen) and JSON lines with ``rows``. ``Solution k`` headers and blank lines separate
boards. The check is independent of any solver, and takes time and memory in proportion to the
queens: it counts the queens on every row, column and diagonal, counts the attacking pairs of each
kind, and names only the first few, so that a board of thousands of clashing queens still gets a
short report. Anything that is not a board it can check (a row off the board, an empty board, a
size that is not a whole number) is an InputError, never "valid".
"""

from __future__ import annotations

import json
import operator
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from nqueens.core.board import (
    RULES,
    SUPERQUEENS,
    TORUS,
    diagonal_shared,
    knight_squares,
    square_name,
)
from nqueens.core.glyphs import QUEEN
from nqueens.core.results import InputError, Square
from nqueens.core.validation import read_whole, shown

NAMED_PAIRS = 5
"""Attacking pairs named per board; the others are only counted."""

_QUEEN_MARKS = {"Q", QUEEN}
_PLAIN_CELLS = {"Q", "_", ".", QUEEN}
_NUMBERS = re.compile(r"[0-9]+(?:\s+[0-9]+)*")
_COLOUR_CODES = re.compile(r"\x1b\[[0-9;]*m")  # a terminal board saved with its colours
_HEADER = re.compile(r"Solution [0-9]+")


@dataclass(frozen=True)
class BoardCheck:
    """One board read and checked: ``problems`` is empty when it is a solution.

    ``conflicts`` counts the attacking pairs of each kind (row, column, diagonal); ``problems``
    says what is wrong in a few lines, naming at most NAMED_PAIRS pairs; ``rules`` are those it
    was checked under.
    """

    number: int
    n: int
    conflicts: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    rules: frozenset[str] = frozenset()

    @property
    def label(self) -> str:
        """``board 3 (N = 8)``, or ``board 3 (N = 8, torus)``, as a report names the board."""
        return f"board {self.number} ({', '.join([f'N = {self.n}', *sorted(self.rules)])})"

    @property
    def valid(self) -> bool:
        return not self.problems


def check(
    number: int, n: int, queens: list[Square], rules: frozenset[str] = frozenset()
) -> BoardCheck:
    """Check a placement: n queens, no two sharing a row, a column or a diagonal, nor attacking
    each other under the board's ``rules``."""
    problems = []
    if len(queens) != n:
        problems.append(f"{len(queens)} queens on a {n} x {n} board, which needs {n}")
    wrap = _wrap(n, rules)
    tallies = [_tallied(on) for on in _lines(queens, wrap)]
    crowded = [taken for _, taken in tallies]
    conflicts = {
        "row": _pairs(crowded[0]),
        "column": _pairs(crowded[1]),
        "diagonal": _pairs(crowded[2]) + _pairs(crowded[3]),
    }
    if SUPERQUEENS in rules:
        conflicts[KNIGHT] = _knight_pairs(queens, n, rules)

    def named_among() -> list[Square]:
        if SUPERQUEENS in rules:  # a knight's move apart, any two queens may be a pair
            return sorted(queens)
        return sorted(queens[at] for at in _crowded_at(tallies))

    return _report(number, n, conflicts, problems, named_among, rules)


def check_rows(number: int, rows: list[int], rules: frozenset[str] = frozenset()) -> BoardCheck:
    """Check a board given as 0-based rows, one queen per column: the fast path for a board of
    millions, which counts without building a square for each queen."""
    n = len(rows)
    if rules:
        return check(number, n, [(row, col) for col, row in enumerate(rows)], rules)
    tallies = [_tallied(on) for on in _lines_of_rows(rows)]
    crowded = [taken for _, taken in tallies]
    conflicts = {
        "row": _pairs(crowded[0]),
        "column": 0,
        "diagonal": _pairs(crowded[1]) + _pairs(crowded[2]),
    }

    def named_among() -> list[Square]:
        return sorted((rows[col], col) for col in _crowded_at(tallies))

    return _report(number, n, conflicts, [], named_among)


KNIGHT = "knight's move"


def _wrap(n: int, rules: frozenset[str]) -> Callable[[int], int]:
    """How a diagonal's number is read: as it is, or modulo N on a torus."""
    return (lambda value: value % n) if TORUS in rules else (lambda value: value)


def _knight_pairs(queens: list[Square], n: int, rules: frozenset[str]) -> int:
    """Pairs of queens a knight's move apart (wrapped around on a torus)."""
    placed = set(queens)
    found = sum(other in placed for queen in placed for other in knight_squares(queen, n, rules))
    return found // 2  # each pair was found from both of its queens


def _report(
    number: int,
    n: int,
    conflicts: dict[str, int],
    problems: list[str],
    named_among: Callable[[], list[Square]],
    rules: frozenset[str] = frozenset(),
) -> BoardCheck:
    """The check of a board whose conflicts are counted: the first pairs named, when there are
    any, among the queens ``named_among`` gives, in order (built only then)."""
    if any(conflicts.values()):
        named = _first_pairs(named_among(), n, rules)
        problems = [*problems, *named]
        rest = sum(conflicts.values()) - len(named)
        if rest > 0:
            problems.append(f"and {rest:,} more attacking pair{'' if rest == 1 else 's'}")
    return BoardCheck(number, n, conflicts, problems, rules)


def _lines(queens: list[Square], wrap: Callable[[int], int]) -> Iterator[list[int]]:
    """The line each queen is on: its row, its column, then its two diagonals, a list at a
    time."""
    yield [row for row, _ in queens]
    yield [col for _, col in queens]
    yield [wrap(row - col) for row, col in queens]
    yield [wrap(row + col) for row, col in queens]


def _lines_of_rows(rows: list[int]) -> Iterator[list[int]]:
    """:func:`_lines` of a board given as each column's row, its columns left out (one queen
    each)."""
    yield rows
    yield list(map(operator.sub, rows, range(len(rows))))
    yield list(map(operator.add, rows, range(len(rows))))


def _tallied(on: list[int]) -> tuple[list[int], dict[int, int]]:
    """Given the line each queen is on, the lines that hold more than one queen, each with how
    many, and the list itself where there are any: the common case, a solution's, keeps none,
    and a board of millions holds one list at a time."""
    if len(set(on)) == len(on):  # at the speed of a set
        return [], {}
    return on, {line: queens for line, queens in Counter(on).items() if queens > 1}


def _pairs(crowded: dict[int, int]) -> int:
    """Attacking pairs among queens on ``crowded`` lines (:func:`_tallied`)."""
    return sum(queens * (queens - 1) // 2 for queens in crowded.values())


def _crowded_at(tallies: list[tuple[list[int], dict[int, int]]]) -> set[int]:
    """Where, in the lists of :func:`_tallied`, a queen shares a line with another: the only
    queens a pair can name. Following every line of every queen of a board of millions took
    gigabytes."""
    found: set[int] = set()
    for on, crowded in tallies:
        found.update(at for at, line in enumerate(on) if line in crowded)
    return found


def _first_pairs(queens: list[Square], n: int, rules: frozenset[str]) -> list[str]:
    """The first NAMED_PAIRS attacking pairs, each queen against the first one on its line (and
    against the queens before it a knight's move away, for superqueens)."""
    first_on: dict[tuple[str, int], Square] = {}
    named: list[str] = []
    wrap = _wrap(n, rules)
    seen: set[Square] = set()
    for queen in queens:
        row, col = queen
        for kind, key in (("row", row), ("column", col), ("diagonal", wrap(row - col))):
            named += _pair(first_on, (kind, key), queen, kind)
        named += _pair(first_on, ("anti-diagonal", wrap(row + col)), queen, "diagonal")
        if SUPERQUEENS in rules:
            for other in sorted(knight_squares(queen, n, rules) & seen):
                named.append(
                    f"queens {square_name(other)} and {square_name(queen)} are a knight's "
                    "move apart"
                )
        seen.add(queen)
        if len(named) >= NAMED_PAIRS:
            return named[:NAMED_PAIRS]
    return named


def _pair(
    first_on: dict[tuple[str, int], Square], line: tuple[str, int], queen: Square, kind: str
) -> list[str]:
    earlier = first_on.setdefault(line, queen)
    if earlier == queen:
        return []
    if kind == "diagonal":
        kind = diagonal_shared(earlier, queen)
    return [f"queens {square_name(earlier)} and {square_name(queen)} share a {kind}"]


def read_boards(lines: Iterable[str], rules: frozenset[str] = frozenset()) -> Iterator[BoardCheck]:
    """Every board in ``lines``, checked as soon as it is read, so that a stream of millions
    of boards is checked in constant memory, under the board ``rules``; InputError names the
    first line that is not a board (the boards before it have been given by then)."""
    reader = _Lines(lines)
    count = 0
    grid: list[tuple[int, list[str]]] = []  # (line number, cells) of the plain board being read
    while (line := reader.next()) is not None:
        stripped = line.strip()
        cells = stripped.split()
        if cells and all(cell in _PLAIN_CELLS for cell in cells):
            _check_next_row(grid, reader.number, cells)
            grid.append((reader.number, cells))
            continue
        if grid:
            count += 1
            yield _checked(count, _plain_board(grid), rules)
            grid = []
        if not stripped or _HEADER.fullmatch(stripped):
            continue
        board: _Placement | None
        under = rules
        if stripped.startswith("{"):
            board, named = _json_board(stripped, reader.number)
            under = rules | named
        elif _NUMBERS.fullmatch(stripped):
            numbers = [read_whole(value) for value in cells]
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


class _Lines:
    """Lines read one at a time, with one line of look-ahead and the number of the last line
    read; colour codes and a byte-order mark are dropped."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = iter(lines)
        self._ahead: str | None = None
        self.number = 0

    def peek(self) -> str | None:
        if self._ahead is None:
            line = next(self._lines, None)
            if line is not None:
                if self.number == 0:
                    line = line.removeprefix("\ufeff")
                self._ahead = _COLOUR_CODES.sub("", line).rstrip("\r\n")
        return self._ahead

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
        if cell in _QUEEN_MARKS
    ]
    return n, queens


def _json_board(text: str, line_number: int) -> tuple[_Placement | None, frozenset[str]]:
    """A JSON line as solve and first write it: ``rows`` (0-based), and ``n`` if given; and the
    ``rules`` it names (a board of solve --torus is checked on a torus, --torus given or not).

    No board for the status record that ends their output.
    """
    where = f"line {line_number}"
    try:
        record = json.loads(text)
    except ValueError as error:
        raise InputError(f"{where}: not JSON ({error})") from None
    if isinstance(record, dict) and record.get("type") == "status":
        return None, frozenset()
    rows = record.get("rows") if isinstance(record, dict) else None
    if not isinstance(rows, list) or not all(_whole(row) for row in rows):
        raise InputError(f'{where}: a board in JSON needs "rows", a list of whole numbers')
    n = record.get("n", len(rows))
    if not _whole(n) or n < 1:
        raise InputError(f'{where}: "n" must be a whole number of at least 1, not {shown(n)}')
    if len(rows) != n:
        raise InputError(
            f'{where}: a board of N = {n:,} needs {n:,} rows, and "rows" has {len(rows):,}'
        )
    off = next((row for row in rows if not 0 <= row < n), None)
    if off is not None:
        raise InputError(
            f"{where}: row {shown(off)} is off a board of N = {n} (JSON rows count from 0)"
        )
    named = record.get("rules", [])
    if not isinstance(named, list) or not all(
        isinstance(rule, str) and rule in RULES for rule in named
    ):
        raise InputError(
            f'{where}: "rules" must be a list of {" and ".join(RULES)}, not {shown(named)}'
        )
    return rows, frozenset(named)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _compact_board(rows: list[int], line_number: int) -> _Placement:
    n = len(rows)
    off = [row for row in rows if not 1 <= row <= n]
    if off:
        raise InputError(f"line {line_number}: row {off[0]} is off a board of N = {n}")
    return [row - 1 for row in rows]


def _labelled_row_follows(reader: _Lines) -> bool:
    """Whether the next line is row 1 of a board drawn with labels."""
    line = reader.peek()
    return (
        line is not None
        and re.match(r"\s*1\s", line + " ") is not None
        and any(mark in line for mark in (*_QUEEN_MARKS, " "))
    )


def _labelled_board(n: int, reader: _Lines) -> _Placement:
    """A board as drawn for a terminal: a row label, then squares three cells wide."""
    label_width = len(str(n))
    queens: list[Square] = []
    for row in range(n):
        line = reader.next()
        if line is None:
            raise InputError(f"line {reader.number + 1}: the labelled board stops after {row} rows")
        if line[:label_width].strip() != str(row + 1):
            raise InputError(f"line {reader.number}: expected the row labelled {row + 1}")
        squares = line[label_width + 1 :].rstrip()
        if squares[3 * n :].strip():  # a queen there would be off the board: not a board drawn
            raise InputError(
                f"line {reader.number}: row {row + 1} is drawn past the board's {n} columns"
            )
        cols = [position // 3 for position, mark in enumerate(squares) if mark in _QUEEN_MARKS]
        if len(set(cols)) != len(cols):
            raise InputError(
                f"line {reader.number}: two queens in one square; a labelled board's squares "
                "are three characters wide"
            )
        queens += [(row, col) for col in cols]
    return n, queens

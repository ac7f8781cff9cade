"""Completion puzzles: queens already on the board and squares that must stay empty.

Squares inside the code are 0-based ``(row, col)``; people read and type them 1-based as
``ROW,COL`` (row 1 at the top, column 1 at the left), and every message here names them that way.
Also here: reading a starting position from text (a board drawing, or the instance format of
CSPLib problem 79, 0-based), and checking given queens, line by line.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from nqueens.results import InputError, Square
from nqueens.validation import shown


def square_name(square: Square) -> str:
    """``(2, 3)`` -> ``"3,4"``: the 1-based ROW,COL a person reads."""
    return f"{shown(square[0] + 1)},{shown(square[1] + 1)}"


def parse_square(text: str) -> Square:
    """``"3,4"`` (1-based ROW,COL) -> ``(2, 3)``; InputError for anything malformed."""
    match = re.fullmatch(r"\s*([0-9]+)\s*,\s*([0-9]+)\s*", text)
    if match is None:
        raise InputError(f"malformed square {text!r}: expected ROW,COL such as 3,4")
    row, col = int(match.group(1)), int(match.group(2))
    if row < 1 or col < 1:
        raise InputError(f"malformed square {text!r}: rows and columns count from 1")
    return row - 1, col - 1


def attack(a: Square, b: Square) -> str | None:
    """How two queens attack each other ("row", "column", "diagonal"), or None if they do not."""
    if a[0] == b[0]:
        return "row"
    if a[1] == b[1]:
        return "column"
    if abs(a[0] - b[0]) == abs(a[1] - b[1]):
        return "diagonal"
    return None


def zero_based(square: Square) -> str:
    """``(2, 3)`` -> ``"(2, 3)"``: a square as code writes it, for the API's messages."""
    return f"({shown(square[0])}, {shown(square[1])})"


def attacking_pairs(
    queens: Iterable[Square], name: Callable[[Square], str] = square_name
) -> list[str]:
    """Every pair of queens that attack each other, in words naming their squares.

    Queens are grouped by the lines they stand on, so thousands of given queens that attack
    nothing are checked in linear time.
    """
    on_line: dict[tuple[str, int], list[Square]] = {}
    for square in sorted(set(queens)):
        row, col = square
        for line in (("row", row), ("column", col), ("diagonal", row - col), ("anti", row + col)):
            on_line.setdefault(line, []).append(square)
    pairs = sorted(
        (a, b, "diagonal" if kind == "anti" else kind)
        for (kind, _), squares in on_line.items()
        for a, b in itertools.combinations(squares, 2)
    )
    return [f"queens {name(a)} and {name(b)} share a {how}" for a, b, how in pairs]


def problems(
    n: int, queens: Iterable[Square], blocked: Iterable[Square], name: Callable[[Square], str]
) -> list[str]:
    """What makes given squares not a puzzle: squares off the board or given twice, a queen on a
    blocked square, queens that attack each other; each square named by ``name``."""
    queens, blocked = list(queens), list(blocked)
    found = []
    for square in [*queens, *blocked]:
        if not (0 <= square[0] < n and 0 <= square[1] < n):
            found.append(f"square {name(square)} is off the {n} x {n} board")
    for kind, squares in (("queen", queens), ("blocked square", blocked)):
        for square in sorted(s for s, times in Counter(squares).items() if times > 1):
            found.append(f"{kind} {name(square)} is given twice")
    for square in sorted(set(queens) & set(blocked)):
        found.append(f"square {name(square)} is both a queen and blocked")
    on_board = {(row, col) for row, col in queens if 0 <= row < n and 0 <= col < n}
    return found + attacking_pairs(on_board, name)


@dataclass(frozen=True)
class Puzzle:
    """An n x n board with queens that must be kept and squares that must stay empty."""

    n: int
    queens: tuple[Square, ...] = ()
    blocked: tuple[Square, ...] = ()

    def __post_init__(self) -> None:
        found = problems(self.n, self.queens, self.blocked, zero_based)
        if found:
            # The API's squares are 0-based (row, col); people type and read 1-based ROW,COL.
            named = problems(self.n, self.queens, self.blocked, square_name)
            raise InputError("; ".join(found), command_line="; ".join(named))

    def on_board(self, square: Square) -> bool:
        return 0 <= square[0] < self.n and 0 <= square[1] < self.n

    @property
    def constrained(self) -> bool:
        """True when any square is given: the board then loses its symmetry."""
        return bool(self.queens or self.blocked)

    def allows(self, rows: tuple[int, ...]) -> bool:
        """Whether a solution keeps every given queen and leaves every blocked square empty."""
        return all(rows[col] == row for row, col in self.queens) and all(
            rows[col] != row for row, col in self.blocked
        )


_QUEEN_CELLS = {"Q", "q"}
_BLOCKED_CELLS = {"#", "X", "x"}
_FREE_CELLS = {".", "_"}


def read_puzzle(text: str) -> Puzzle:
    """A starting position from text: a CSPLib problem 79 instance, or a board drawing.

    A drawing has one line per row: ``Q`` a queen, ``#`` or ``X`` a blocked square, ``.`` or
    ``_`` a free square, separated by spaces or tabs, or not at all. N is the number of rows.
    """
    text = text.removeprefix("\ufeff")  # a byte-order mark, as some editors write
    if re.search(r"^\s*letting\b", text, flags=re.MULTILINE):
        return _read_csplib(text)
    return _read_drawing(text)


def _read_drawing(text: str) -> Puzzle:
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise InputError("the board is empty")
    n = len(lines)
    queens: list[Square] = []
    blocked: list[Square] = []
    for row, line in enumerate(lines):
        cells = line.split() if re.search(r"\s", line.strip()) else list(line.strip())
        if len(cells) != n:
            raise InputError(
                f"row {row + 1} has {len(cells)} squares; a board of {n} rows needs {n} in each"
            )
        for col, cell in enumerate(cells):
            if cell in _QUEEN_CELLS:
                queens.append((row, col))
            elif cell in _BLOCKED_CELLS:
                blocked.append((row, col))
            elif cell not in _FREE_CELLS:
                raise InputError(
                    f"square {row + 1},{col + 1} is {cell!r}: use Q (queen), # or X (blocked), "
                    ". or _ (free)"
                )
    return Puzzle(n, tuple(queens), tuple(blocked))


_CSPLIB_BASE = "CSPLib problem 79 files count rows and columns from 0"


_NOT_PAIRS = (
    f"the CSPLib instance's 'letting init' is not a list of [row, col] pairs ({_CSPLIB_BASE})"
)


def _read_csplib(text: str) -> Puzzle:
    """CSPLib problem 79: ``letting n = 8``, ``letting init = [[row, col], ...]`` (or ``be``).

    Squares are 0-based there, row first, as the problem's Essence' model and the notes on its
    data say; every message names a square as the file writes it.
    """
    size = re.search(r"letting\s+n\s*(?:=|be)\s*([0-9]+)\b", text)
    if size is None:
        raise InputError("the CSPLib instance has no 'letting n = ...' (a whole number)")
    n = int(size.group(1))
    init = re.search(r"letting\s+init\s*(?:=|be)\s*(\[.*?\]\s*\])", text, flags=re.DOTALL)
    empty = re.search(r"letting\s+init\s*(?:=|be)\s*\[\s*\]", text)
    if init is None and empty is None and re.search(r"letting\s+init\b", text):
        raise InputError(_NOT_PAIRS)
    queens: list[Square] = []
    if init is not None and empty is None:
        try:
            pairs = json.loads(init.group(1))
        except ValueError:
            raise InputError(_NOT_PAIRS) from None
        for index, pair in enumerate(pairs, start=1):
            if not (
                isinstance(pair, list)
                and len(pair) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
            ):
                raise InputError(
                    f"pair {index} of 'letting init', {json.dumps(pair)}, is not [row, col] "
                    f"({_CSPLIB_BASE})"
                )
            queens.append((pair[0], pair[1]))
    found = problems(n, queens, (), _as_written)
    if found:
        raise InputError(f"{'; '.join(found[:5])} ({_CSPLIB_BASE})")
    return Puzzle(n, tuple(queens))


def _as_written(square: Square) -> str:
    """A square as a CSPLib file writes it: ``[row, col]``, 0-based."""
    return f"[{shown(square[0])}, {shown(square[1])}]"


def random_puzzle(n: int, queens: int, *, seed: int | None = None) -> Puzzle:
    """``queens`` non-attacking queens placed at random on an n x n board (no blocked squares).

    The result need not be completable: deciding that is the solver's job (and NP-complete).
    """
    if not 0 <= queens <= n:
        raise InputError(f"cannot place {queens} non-attacking queens on a {n} x {n} board")
    chooser = random.Random(seed)
    while True:
        placed: list[Square] = []
        rows: set[int] = set()
        sums: set[int] = set()
        differences: set[int] = set()
        for col in chooser.sample(range(n), queens):
            free = [
                row
                for row in range(n)
                if row not in rows and row + col not in sums and row - col not in differences
            ]
            if not free:
                break
            row = chooser.choice(free)
            placed.append((row, col))
            rows.add(row)
            sums.add(row + col)
            differences.add(row - col)
        else:
            return Puzzle(n, tuple(sorted(placed)))


def puzzle_text(puzzle: Puzzle) -> str:
    """The puzzle as a board drawing that --board reads: Q given, # blocked, . free."""
    marks = {square: "Q" for square in puzzle.queens} | {square: "#" for square in puzzle.blocked}
    return "\n".join(
        " ".join(marks.get((row, col), ".") for col in range(puzzle.n)) for row in range(puzzle.n)
    )

"""Completion puzzles: queens already on the board and squares that must stay empty.

Squares inside the code are 0-based ``(row, col)``; people read and type them 1-based as
``ROW,COL`` (row 1 at the top, column 1 at the left), and every message here names them that way.
Also here: reading a starting position from text (a board drawing, or the instance format of
CSPLib problem 79), and checking a placement of queens, pair by pair.
"""

from __future__ import annotations

import itertools
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
    """Every pair of queens that attack each other, in words naming their squares."""
    return [
        f"queens {name(a)} and {name(b)} share a {how}"
        for a, b in itertools.combinations(sorted(queens), 2)
        if (how := attack(a, b)) is not None
    ]


@dataclass(frozen=True)
class Puzzle:
    """An n x n board with queens that must be kept and squares that must stay empty."""

    n: int
    queens: tuple[Square, ...] = ()
    blocked: tuple[Square, ...] = ()

    def __post_init__(self) -> None:
        problems = self._problems(zero_based)
        if problems:
            # The API's squares are 0-based (row, col); people type and read 1-based ROW,COL.
            raise InputError(
                "; ".join(problems), command_line="; ".join(self._problems(square_name))
            )

    def _problems(self, name: Callable[[Square], str]) -> list[str]:
        problems = []
        given = [*self.queens, *self.blocked]
        for square in given:
            if not self.on_board(square):
                problems.append(f"square {name(square)} is off the {self.n} x {self.n} board")
        for kind, squares in (("queen", self.queens), ("blocked square", self.blocked)):
            for square in sorted(s for s, times in Counter(squares).items() if times > 1):
                problems.append(f"{kind} {name(square)} is given twice")
        for square in sorted(set(self.queens) & set(self.blocked)):
            problems.append(f"square {name(square)} is both a queen and blocked")
        on_board = {square for square in self.queens if self.on_board(square)}
        problems += attacking_pairs(on_board, name)
        return problems

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


def _read_csplib(text: str) -> Puzzle:
    """CSPLib 79: ``letting n = 8``, ``letting init = [[r, c], ...]`` (or ``be``), 1-based."""
    size = re.search(r"letting\s+n\s*(?:=|be)\s*([0-9]+)", text)
    if size is None:
        raise InputError("the CSPLib instance has no 'letting n = ...'")
    init = re.search(r"letting\s+init\s*(?:=|be)\s*(.*)", text, flags=re.DOTALL)
    pairs = re.findall(r"[\[(]\s*([0-9]+)\s*,\s*([0-9]+)\s*[\])]", init.group(1)) if init else []
    queens = tuple(parse_square(f"{row},{col}") for row, col in pairs)
    return Puzzle(int(size.group(1)), queens)


def random_puzzle(n: int, queens: int, *, seed: int | None = None) -> Puzzle:
    """``queens`` non-attacking queens placed at random on an n x n board (no blocked squares).

    The result need not be completable: deciding that is the solver's job (and NP-complete).
    """
    if not 0 <= queens <= n:
        raise InputError(f"cannot place {queens} non-attacking queens on a {n} x {n} board")
    chooser = random.Random(seed)
    while True:
        placed: list[Square] = []
        for col in chooser.sample(range(n), queens):
            free = [row for row in range(n) if all(attack((row, col), q) is None for q in placed)]
            if not free:
                break
            placed.append((chooser.choice(free), col))
        else:
            return Puzzle(n, tuple(sorted(placed)))


def puzzle_text(puzzle: Puzzle) -> str:
    """The puzzle as a board drawing that --board reads: Q given, # blocked, . free."""
    marks = {square: "Q" for square in puzzle.queens} | {square: "#" for square in puzzle.blocked}
    return "\n".join(
        " ".join(marks.get((row, col), ".") for col in range(puzzle.n)) for row in range(puzzle.n)
    )

"""Completion puzzles: queens already on the board, squares that must stay empty, and whole
diagonals that no queen may take (the Excluded Diagonals problem of Gent, Jefferson and
Nightingale, JAIR 2017).

Squares inside the code are 0-based ``(row, col)``; people read and type them 1-based as
``ROW,COL`` (row 1 at the top, column 1 at the left), and every message here names them that way.
A diagonal is named by the square where it enters the board from the top or the left and the
way it runs: ``1,4/`` rises to the right, ``1,4\\`` falls. Also here: reading a starting position
from text (a board drawing, a CSPLib problem 79 instance, 0-based, or the paper's Excluded
Diagonals file), and checking given queens, line by line.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from nqueens.core.results import InputError, Square
from nqueens.core.validation import read_whole, shown


def square_name(square: Square) -> str:
    """``(2, 3)`` -> ``"3,4"``: the 1-based ROW,COL a person reads."""
    return f"{shown(square[0] + 1)},{shown(square[1] + 1)}"


def parse_square(text: str) -> Square:
    """``"3,4"`` (1-based ROW,COL) -> ``(2, 3)``; InputError for anything malformed."""
    match = re.fullmatch(r"\s*([0-9]+)\s*,\s*([0-9]+)\s*", text)
    if match is None:
        raise InputError(f"malformed square {text!r}: expected ROW,COL such as 3,4")
    row, col = read_whole(match.group(1)), read_whole(match.group(2))
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


SUM, DIFFERENCE = "sum", "difference"


class Diagonal(NamedTuple):
    """A whole diagonal: ``sum``, the squares with row + col = value (it rises to the right, /),
    or ``difference``, the squares with row - col = value (it falls to the right, \\)."""

    kind: str
    value: int

    def on_board(self, n: int) -> bool:
        """Whether an n x n board has this diagonal."""
        low, high = (0, 2 * n - 2) if self.kind == SUM else (1 - n, n - 1)
        return self.kind in (SUM, DIFFERENCE) and low <= self.value <= high

    def squares(self, n: int) -> list[Square]:
        """The diagonal's squares on an n x n board, top to bottom."""
        if self.kind == SUM:
            return [(row, self.value - row) for row in range(n) if 0 <= self.value - row < n]
        return [(row, row - self.value) for row in range(n) if 0 <= row - self.value < n]


def diagonal_name(diagonal: Diagonal, n: int) -> str:
    """``1,4/`` or ``2,1\\``, 1-based: the diagonal's topmost square and the way it runs; a
    diagonal off the board is named as code writes it (``sum 40``)."""
    if not diagonal.on_board(n):
        return f"{diagonal.kind} {shown(diagonal.value)}"
    way = "/" if diagonal.kind == SUM else "\\"
    return f"{square_name(diagonal.squares(n)[0])}{way}"


def diagonal_through(square: Square, way: str) -> Diagonal:
    """The diagonal through ``square`` that rises (``/``) or falls (``\\``) to the right."""
    rising, falling = diagonals_of(square)
    return rising if way == "/" else falling


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
    n: int,
    queens: Iterable[Square],
    blocked: Iterable[Square],
    name: Callable[[Square], str],
    excluded: Iterable[Diagonal] = (),
    name_diagonal: Callable[[Diagonal], str] | None = None,
) -> list[str]:
    """What makes given squares not a puzzle: squares or diagonals off the board, squares given
    twice, a queen on a blocked square or an excluded diagonal, queens that attack each other;
    each square named by ``name``, each diagonal by ``name_diagonal``."""
    queens, blocked, excluded = list(queens), list(blocked), list(excluded)
    if name_diagonal is None:
        name_diagonal = functools.partial(diagonal_name, n=n)
    found = []
    for square in [*queens, *blocked]:
        if not (0 <= square[0] < n and 0 <= square[1] < n):
            found.append(f"square {name(square)} is off the {n} x {n} board")
    for diagonal in excluded:
        if not diagonal.on_board(n):
            found.append(f"diagonal {name_diagonal(diagonal)} is off the {n} x {n} board")
    for kind, squares in (("queen", queens), ("blocked square", blocked)):
        for square in sorted(s for s, times in Counter(squares).items() if times > 1):
            found.append(f"{kind} {name(square)} is given twice")
    for square in sorted(set(queens) & set(blocked)):
        found.append(f"square {name(square)} is both a queen and blocked")
    closed = set(excluded)
    for square in sorted(set(queens)):
        for diagonal in diagonals_of(square):
            if diagonal in closed:
                found.append(
                    f"queen {name(square)} stands on the excluded diagonal "
                    f"{name_diagonal(diagonal)}"
                )
    on_board = {(row, col) for row, col in queens if 0 <= row < n and 0 <= col < n}
    return found + attacking_pairs(on_board, name)


def diagonals_of(square: Square) -> tuple[Diagonal, Diagonal]:
    """The two diagonals through ``square``."""
    row, col = square
    return Diagonal(SUM, row + col), Diagonal(DIFFERENCE, row - col)


@dataclass(frozen=True)
class Puzzle:
    """An n x n board with queens that must be kept, squares that must stay empty and whole
    diagonals that no queen may take."""

    n: int
    queens: tuple[Square, ...] = ()
    blocked: tuple[Square, ...] = ()
    excluded: tuple[Diagonal, ...] = ()

    def __post_init__(self) -> None:
        found = problems(self.n, self.queens, self.blocked, zero_based, self.excluded, _code_name)
        if found:
            # The API's squares are 0-based (row, col); people type and read 1-based ROW,COL.
            named = problems(self.n, self.queens, self.blocked, square_name, self.excluded)
            raise InputError("; ".join(found), command_line="; ".join(named))

    def on_board(self, square: Square) -> bool:
        return 0 <= square[0] < self.n and 0 <= square[1] < self.n

    @property
    def constrained(self) -> bool:
        """True when any square or diagonal is given: the board then loses its symmetry."""
        return bool(self.queens or self.blocked or self.excluded)

    @property
    def excluded_sums(self) -> frozenset[int]:
        """row + col of every excluded diagonal that rises to the right."""
        return frozenset(d.value for d in self.excluded if d.kind == SUM)

    @property
    def excluded_differences(self) -> frozenset[int]:
        """row - col of every excluded diagonal that falls to the right."""
        return frozenset(d.value for d in self.excluded if d.kind == DIFFERENCE)

    def closed_squares(self) -> tuple[Square, ...]:
        """The blocked squares and every square of an excluded diagonal, once each: what an
        engine that knows only squares must leave empty."""
        closed = set(self.blocked)
        for diagonal in set(self.excluded):
            closed.update(diagonal.squares(self.n))
        return tuple(sorted(closed))

    def allows(self, rows: tuple[int, ...]) -> bool:
        """Whether a solution keeps every given queen and leaves every blocked square and
        excluded diagonal empty."""
        sums, differences = self.excluded_sums, self.excluded_differences
        return (
            all(rows[col] == row for row, col in self.queens)
            and all(rows[col] != row for row, col in self.blocked)
            and not any(
                row + col in sums or row - col in differences for col, row in enumerate(rows)
            )
        )


def _code_name(diagonal: Diagonal) -> str:
    """A diagonal as code writes it, for the API's messages."""
    return f"Diagonal({diagonal.kind!r}, {shown(diagonal.value)})"


_QUEEN_CELLS = {"Q", "q"}
_BLOCKED_CELLS = {"#", "X", "x"}
_FREE_CELLS = {".", "_"}


def read_puzzle(text: str, diagonals: int | None = None) -> Puzzle:
    """A starting position from text: a CSPLib problem 79 instance, an Excluded Diagonals file
    (of which ``diagonals`` takes the first D pairs, the paper's way to make an instance with D
    diagonals; all of them by default), or a board drawing.

    A drawing has one line per row: ``Q`` a queen, ``#`` or ``X`` a blocked square, ``.`` or
    ``_`` a free square, separated by spaces or tabs, or not at all. N is the number of rows.
    """
    text = text.removeprefix("\ufeff")  # a byte-order mark, as some editors write
    if re.search(r"^\s*(?:letting\s+)?diags\s*(?:=|be)", text, flags=re.MULTILINE):
        return _read_diagonals(text, diagonals)
    if diagonals is not None:
        raise InputError(
            "only an Excluded Diagonals file (n = ..., numdiags = ..., diags = [[k, t], ...]) "
            "has diagonals to take the first D of"
        )
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
    n = read_whole(size.group(1))
    queens: list[Square] = []
    init = re.search(r"letting\s+init\s*(?:=|be)\s*", text)
    if init is None and re.search(r"letting\s+init\b", text):
        raise InputError(_NOT_PAIRS)
    if init is not None:
        # The value runs to the next statement or the end, and must parse whole: a list read
        # up to its first "]]" would take [[0,0]]]] for [[0,0]].
        after = re.search(r"\bletting\b", text[init.end() :])
        value = text[init.end() : init.end() + after.start() if after else len(text)]
        value = re.sub(r"\$[^\n]*", "", value).strip()  # Essence' comments start with $
        line = text.count("\n", 0, init.start()) + 1
        try:
            pairs = json.loads(value)
        except (ValueError, RecursionError):
            raise InputError(f"line {line}: {_NOT_PAIRS}") from None
        if not isinstance(pairs, list):
            raise InputError(f"line {line}: {_NOT_PAIRS}")
        for index, pair in enumerate(pairs, start=1):
            if not (
                isinstance(pair, list)
                and len(pair) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
            ):
                raise InputError(
                    f"line {line}: pair {index} of 'letting init', {json.dumps(pair)}, is not "
                    f"[row, col] ({_CSPLIB_BASE})"
                )
            queens.append((pair[0], pair[1]))
    found = problems(n, queens, (), _as_written)
    if found:
        raise InputError(f"{'; '.join(found[:5])} ({_CSPLIB_BASE})")
    return Puzzle(n, tuple(queens))


def _as_written(square: Square) -> str:
    """A square as a CSPLib file writes it: ``[row, col]``, 0-based."""
    return f"[{shown(square[0])}, {shown(square[1])}]"


_DIAGONALS_FORMAT = (
    "the paper's Excluded Diagonals files pair k, from 0 to 2n - 2, with t: 1 for the "
    "diagonal row + col = k, 0 for row - col = k - (n - 1), counting from 0"
)


def _read_diagonals(text: str, first: int | None) -> Puzzle:
    """The generator format of Gent, Jefferson and Nightingale: ``n = 20``, ``numdiags = 44``,
    ``diags = [[37, 0], [11, 1], ...]``; the first ``first`` pairs are excluded (all by
    default). Every pair is checked, and named by its place in the list as the file writes it.
    """
    size = re.search(r"^\s*(?:letting\s+)?n\s*(?:=|be)\s*([0-9]+)\s*$", text, flags=re.MULTILINE)
    if size is None:
        raise InputError("the Excluded Diagonals file has no 'n = ...' (a whole number)")
    n = read_whole(size.group(1))
    if n < 1:
        raise InputError("the Excluded Diagonals file's n must be at least 1")
    listed = re.search(r"diags\s*(?:=|be)\s*(\[.*\])", text, flags=re.DOTALL)
    try:
        pairs = json.loads(listed.group(1)) if listed is not None else None
    except ValueError:
        pairs = None
    if not isinstance(pairs, list):
        raise InputError(f"the file's 'diags' is not a list of [k, t] pairs ({_DIAGONALS_FORMAT})")
    excluded: list[Diagonal] = []
    for index, pair in enumerate(pairs, start=1):
        written = json.dumps(pair)
        if not (
            isinstance(pair, list)
            and len(pair) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
        ):
            raise InputError(
                f"pair {index} of 'diags', {written}, is not [k, t] ({_DIAGONALS_FORMAT})"
            )
        k, kind = pair
        if kind not in (0, 1):
            raise InputError(
                f"pair {index} of 'diags', {written}: t must be 1 (the diagonal row + col = k) "
                "or 0 (row - col = k - (n - 1))"
            )
        if not 0 <= k <= 2 * n - 2:
            raise InputError(
                f"pair {index} of 'diags', {written}: k must be 0 to {2 * n - 2} on a board "
                f"with n = {n} ({_DIAGONALS_FORMAT})"
            )
        excluded.append(Diagonal(SUM, k) if kind == 1 else Diagonal(DIFFERENCE, k - (n - 1)))
    declared = re.search(
        r"^\s*(?:letting\s+)?numdiags\s*(?:=|be)\s*([0-9]+)\s*$", text, flags=re.MULTILINE
    )
    if declared is not None and read_whole(declared.group(1)) != len(pairs):
        raise InputError(
            f"the file says numdiags = {declared.group(1)} but lists {len(pairs)} diagonals"
        )
    if first is not None:
        if first > len(excluded):
            raise InputError(
                f"the file lists {len(excluded)} diagonals, fewer than the first {first} asked for"
            )
        excluded = excluded[:first]
    return Puzzle(n, excluded=tuple(dict.fromkeys(excluded)))


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
    """The puzzle as a board drawing that --board reads: Q given, # blocked (and every square of
    an excluded diagonal), . free."""
    marks = {square: "#" for square in puzzle.closed_squares()}
    marks |= {square: "Q" for square in puzzle.queens}
    return "\n".join(
        " ".join(marks.get((row, col), ".") for col in range(puzzle.n)) for row in range(puzzle.n)
    )

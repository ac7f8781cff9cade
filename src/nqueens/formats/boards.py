"""Board files, read and written: drawings, CSPLib problem 79 instances and the Excluded
Diagonals paper's files, and random completion puzzles in the drawing format."""

from __future__ import annotations

import json
import random
import re
from typing import NamedTuple

from nqueens.core.board import Board, BoardError
from nqueens.core.geometry import DIFFERENCE, SUM, Diagonal
from nqueens.core.glyphs import QUEEN
from nqueens.core.results import InputError, Square
from nqueens.core.validation import HugeNumber, read_whole, shown
from nqueens.core.wording import counted

QUEEN_CELLS = frozenset({"Q", "q", QUEEN})
BLOCKED_CELLS = frozenset({"#", "X", "x"})
FREE_CELLS = frozenset({".", "_"})
DRAWING_CELLS = QUEEN_CELLS | BLOCKED_CELLS | FREE_CELLS


BOARD_FORMATS = (
    "A board file is a drawing (a line a row: Q a queen, # blocked, . free), a CSPLib problem "
    "79 instance (letting n be 8, letting init be [[1, 1], ...]) or an Excluded Diagonals file "
    "(n = 12; diags = [[k, t], ...])."
)
"""The formats a board file may be in, said where a file is in none of them."""


def drawing_cells(line: str) -> list[str]:
    """The squares of one row of a board drawing: separated by spaces or tabs, or not at all
    (``..Q.``). The one reading of a row, for ``--board`` and for ``verify``."""
    stripped = line.strip()
    return stripped.split() if re.search(r"\s", stripped) else list(stripped)


def read_board(text: str, diagonals: int | None = None) -> Board:
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
    if re.search(r"^\s*[A-Za-z_]\w*\s*=", text, flags=re.MULTILINE):
        raise InputError(
            "this looks like a MiniZinc data file (name = value;), which nqueens does not read "
            f"as a board. {BOARD_FORMATS}"
        )
    if text.lstrip().startswith(("{", "[")):
        raise InputError(
            f"this looks like JSON, which nqueens does not read as a board. {BOARD_FORMATS}"
        )
    return _read_drawing(text)


def _read_drawing(text: str) -> Board:
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise InputError("the board is empty")
    n = len(lines)
    queens: list[Square] = []
    blocked: list[Square] = []
    for row, line in enumerate(lines):
        cells = drawing_cells(line)
        if len(cells) != n:
            raise InputError(
                f"row {row + 1} has {counted(len(cells), 'square')}; a board of N = {n} needs "
                f"{n} in each"
            )
        for col, cell in enumerate(cells):
            if cell in QUEEN_CELLS:
                queens.append((row, col))
            elif cell in BLOCKED_CELLS:
                blocked.append((row, col))
            elif cell not in FREE_CELLS:
                raise InputError(
                    f"square {row + 1},{col + 1} is {cell!r}: use Q (queen), # or X (blocked), "
                    ". or _ (free)"
                )
    return Board(n, tuple(queens), tuple(blocked))


_STATEMENT = re.compile(r"\s*(letting\s+)?([A-Za-z_]\w*)\s*(?:=|\bbe\b)\s*(.*)", re.DOTALL)


class _Statement(NamedTuple):
    line: int  # where it starts, counting from 1
    name: str
    value: str  # to the next statement, comments and the line ends kept out


def _statements(
    text: str, names: tuple[str, ...], what: str, *, needs_letting: bool
) -> dict[str, _Statement]:
    """The statements of a parameter file (``letting n = 8``, a value running on over lines
    while its brackets are open), each of ``names`` at most once: any other line, and a name
    given twice, is refused with its line's number, as a misspelt line would otherwise be
    dropped and the file read as another board. Essence' comments (``$`` to the line's end)
    and its ``language`` line are let through."""
    keyword = "letting " if needs_letting else ""
    starts: dict[str, int] = {}  # each name's line
    pieces: dict[str, list[str]] = {}  # each name's value, a line at a time
    name, depth = "", 0  # the statement read last, and its brackets left open
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("$", 1)[0].strip()
        if not line or (number == 1 and line.startswith("language ")):
            continue
        if depth > 0:  # the value of the statement before runs on
            pieces[name].append(line)
            depth += line.count("[") - line.count("]")
            continue
        statement = _STATEMENT.fullmatch(line)
        name = statement.group(2) if statement else ""
        if statement is None or name not in names or (needs_letting and not statement.group(1)):
            spelt = [f"'{keyword}{known} = {_VALUES.get(known, '...')}'" for known in names]
            expected = f"{', '.join(spelt[:-1])} and {spelt[-1]}"
            raise InputError(
                f"line {number}: {shown(raw.strip())} is not part of {what}, which takes "
                f"{expected}, each once"
            )
        if name in starts:
            raise InputError(
                f"line {number}: a second '{keyword}{name}' (the first is on line "
                f"{starts[name]}): {what} gives each once"
            )
        value = statement.group(3).strip()
        starts[name], pieces[name] = number, [value]
        depth = value.count("[") - value.count("]")
    return {name: _Statement(starts[name], name, "\n".join(pieces[name])) for name in starts}


_VALUES = {"init": "[[row, col], ...]", "diags": "[[k, t], ...]"}
"""What a list's statement holds, for a message (the others hold a number: ``...``)."""


_CSPLIB_BASE = "CSPLib problem 79 files count rows and columns from 0"


_NOT_PAIRS = (
    f"the CSPLib instance's 'letting init' is not a list of [row, col] pairs ({_CSPLIB_BASE})"
)


def _read_csplib(text: str) -> Board:
    """CSPLib problem 79: ``letting n = 8``, ``letting init = [[row, col], ...]`` (or ``be``).

    Squares are 0-based there, row first, as the problem's Essence' model and the notes on its
    data say; every message names a square as the file writes it.
    """
    statements = _statements(text, ("n", "init"), "a CSPLib instance", needs_letting=True)
    size = statements.get("n")
    if size is None:
        raise InputError("the CSPLib instance has no 'letting n = ...' (a whole number)")
    if not re.fullmatch(r"[0-9]+", size.value):
        raise InputError(
            f"line {size.line}: the CSPLib instance's n must be a positive whole number, not "
            f"{shown(size.value)}"
        )
    n = read_whole(size.value)
    queens: list[Square] = []
    init = statements.get("init")
    if init is not None:
        try:
            pairs = json.loads(init.value, parse_int=read_whole)
        except (ValueError, RecursionError):
            raise InputError(f"line {init.line}: {_NOT_PAIRS}") from None
        if not isinstance(pairs, list):
            raise InputError(f"line {init.line}: {_NOT_PAIRS}")
        for index, pair in enumerate(pairs, start=1):
            if not (
                isinstance(pair, list)
                and len(pair) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
            ):
                written = _as_written_in_file(pair)
                raise InputError(
                    f"line {init.line}: pair {index} of 'letting init', {written}, is not "
                    f"[row, col] ({_CSPLIB_BASE})"
                )
            queens.append((pair[0], pair[1]))
    try:
        return Board(n, tuple(queens))
    except BoardError as error:  # said again with the squares as the file writes them
        raise InputError(f"{'; '.join(error.named(_as_written)[:5])} ({_CSPLIB_BASE})") from None


def _as_written_in_file(value: object) -> str:
    """A value read from a file's JSON, for a message: as JSON, a huge number by its length."""
    if isinstance(value, list):
        return f"[{', '.join(_as_written_in_file(item) for item in value)}]"
    return str(value) if isinstance(value, HugeNumber) else json.dumps(value)


def _as_written(square: Square) -> str:
    """A square as a CSPLib file writes it: ``[row, col]``, 0-based."""
    return f"[{shown(square[0])}, {shown(square[1])}]"


_DIAGONALS_FORMAT = (
    "the paper's Excluded Diagonals files pair k, from 0 to 2n - 2, with t: 1 for the "
    "diagonal row + col = k, 0 for row - col = k - (n - 1), counting from 0"
)


def _read_diagonals(text: str, first: int | None) -> Board:
    """The generator format of Gent, Jefferson and Nightingale: ``n = 20``, ``numdiags = 44``,
    ``diags = [[37, 0], [11, 1], ...]``; the first ``first`` pairs are excluded (all by
    default). Every pair is checked, and named by its place in the list as the file writes it.
    """
    statements = _statements(
        text, ("n", "numdiags", "diags"), "an Excluded Diagonals file", needs_letting=False
    )
    size = statements.get("n")
    if size is None or not re.fullmatch(r"[0-9]+", size.value):
        raise InputError("the Excluded Diagonals file has no 'n = ...' (a whole number)")
    n = read_whole(size.value)
    if n < 1:
        raise InputError("the Excluded Diagonals file's n must be at least 1")
    listed = statements.get("diags")
    try:
        pairs = json.loads(listed.value, parse_int=read_whole) if listed else None
    except (ValueError, RecursionError):
        pairs = None
    if not isinstance(pairs, list):
        raise InputError(f"the file's 'diags' is not a list of [k, t] pairs ({_DIAGONALS_FORMAT})")
    excluded: list[Diagonal] = []
    for index, pair in enumerate(pairs, start=1):
        written = _as_written_in_file(pair)
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
    declared = statements.get("numdiags")
    if declared is not None and not re.fullmatch(r"[0-9]+", declared.value):
        raise InputError(f"line {declared.line}: numdiags must be a whole number")
    if declared is not None and read_whole(declared.value) != len(pairs):
        raise InputError(
            f"the file says numdiags = {declared.value} but lists {counted(len(pairs), 'diagonal')}"
        )
    if first is not None:
        if first > len(excluded):
            raise InputError(
                f"the file lists {counted(len(excluded), 'diagonal')}, fewer than the first "
                f"{first} asked for"
            )
        excluded = excluded[:first]
    return Board(n, excluded=tuple(dict.fromkeys(excluded)))


def random_puzzle(n: int, queens: int, *, seed: int | None = None) -> Board:
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
            return Board(n, tuple(sorted(placed)))

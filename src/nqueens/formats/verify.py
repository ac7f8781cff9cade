"""Boards checked, independently of any solver, in time and memory in proportion to the queens.

The check counts the queens on every row, column and diagonal (and, under the board's rules,
wrapped diagonals and knight's moves), counts the attacking pairs of each kind, and names only the
first few, so that a board of thousands of clashing queens still gets a short report.
``nqueens.formats.read_back`` reads the boards that ``nqueens verify`` checks.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from nqueens.core.geometry import (
    LINES,
    SUPERQUEENS,
    diagonal_shared,
    knight_squares,
    lines_of,
    lines_through,
    square_name,
)
from nqueens.core.results import Square
from nqueens.core.wording import counted

NAMED_PAIRS = 5
"""Attacking pairs named per board; the others are only counted."""


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
        problems.append(f"{counted(len(queens), 'queen')} on a {n} x {n} board, which needs {n}")
    tallies = [_tallied(on) for on in lines_of(queens, n, rules)]
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
            problems.append(f"and {counted(rest, 'more attacking pair')}")
    return BoardCheck(number, n, conflicts, problems, rules)


def _lines_of_rows(rows: list[int]) -> Iterator[list[int]]:
    """``lines_of`` a plain board given as each column's row, its columns left out (one queen
    each), without a square made for each queen of a board of millions."""
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
    """Attacking pairs among queens on ``crowded`` lines (``_tallied``)."""
    return sum(queens * (queens - 1) // 2 for queens in crowded.values())


def _crowded_at(tallies: list[tuple[list[int], dict[int, int]]]) -> set[int]:
    """Where, in the lists of ``_tallied``, a queen shares a line with another: the only
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
    seen: set[Square] = set()
    for queen in queens:
        for line in zip(LINES, lines_through(queen, n, rules), strict=True):
            named += _pair(first_on, line, queen, "diagonal" if line[0] in LINES[2:] else line[0])
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

"""The reduced engine: a puzzle solved on what its given queens and excluded diagonals leave.

Every given queen takes its row, its column and its two diagonals out of the problem. What is left
is an Excluded Diagonals problem on the free rows and columns: small for CSPLib problem 79's
published instances (N about 5,500, all but about 20 queens given), however large the board, and the
problem itself for the paper's Excluded Diagonals files. It is searched with one machine word per
column (the C module ``nqueens.engines.reduced._reduced``), the column with the fewest candidate
rows left first, and every answer is mapped back to the full board. A count is cut into pieces by
the search's own first choices, and the pieces are shared among processes."""

from __future__ import annotations

import functools
import random
import time
from dataclasses import dataclass, replace
from typing import Any

from nqueens.core.results import Solution, Stats, Status
from nqueens.engines.base import (
    FIRST,
    Engine,
    Request,
    Subcount,
    Subproblem,
    counted_in_slices,
)
from nqueens.engines.reduced import _reduced
from nqueens.engines.streams import EngineStream

NAME = "reduced"
STAT_NAMES = ("subproblems", "nodes")
"""What the engine's two counters count, as statistics and JSON name them."""

MAX_FREE = 64
"""Free columns the search takes: a column's candidate rows are one 64-bit word."""

UNBOUNDED_POSITIONS = 3 * 10**10
"""The most positions a count or listing without a limit may have the search visit: about what
the empty 18 x 18 board costs it, the largest board any engine goes through without a limit
(``MAX_UNBOUNDED_ENUMERATION_N``)."""

_SIZE_DESCENTS = 200  # random descents in an estimate of the search's size
_SLICE = 1 << 18  # placements per call of the search, between looks at the clock
_BATCH = 256  # solutions handed over per call when they are listed
_PIECES = 64  # a count is cut into about this many pieces, for every core and the progress bar
_WORKERS_FROM = 14  # free columns from which a count is cut and shared among processes


@dataclass(frozen=True)
class Reduction:
    """What given queens leave of a puzzle: its free columns and their candidate rows."""

    n: int
    columns: tuple[int, ...]  # the board's free columns
    rows: tuple[int, ...]  # the board's free rows; bit j of a mask is rows[j]
    allowed: tuple[int, ...]  # per free column, the free rows it may take (a mask)
    given: tuple[int, ...]  # rows[c] of the full board for the given queens, -1 elsewhere


NOTHING = Reduction(0, (), (), (), ())
"""The reduction of no board, as a default."""


def large(request: Request) -> bool:
    """Whether the free part is large enough to be cut and shared among processes (and the
    compiled search pays for loading itself)."""
    return request.board.free_columns >= _WORKERS_FROM


def reduce(request: Request) -> Reduction:
    """Take the given queens' rows, columns and diagonals out, and blocked squares and excluded
    diagonals with them."""
    n = request.n
    board = request.board
    queens = board.queens
    blocked = set(board.blocked)
    given = [-1] * n
    for row, col in queens:
        given[col] = row
    used_rows = {row for row, _ in queens}
    sums = {row + col for row, col in queens} | board.excluded_sums
    differences = {row - col for row, col in queens} | board.excluded_differences
    rows = [row for row in range(n) if row not in used_rows]
    columns = [col for col in range(n) if given[col] < 0]
    masks = {}
    for col in columns:
        mask = 0
        for index, row in enumerate(rows):
            free_lines = (row + col) not in sums and (row - col) not in differences
            if free_lines and (row, col) not in blocked:
                mask |= 1 << index
        masks[col] = mask
    return Reduction(n, tuple(columns), tuple(rows), tuple(masks[c] for c in columns), tuple(given))


def attacks(reduction: Reduction) -> Any:
    """attack[i, j, k]: the rows of free column k that a queen on free row j of column i attacks
    (computed once per set of free rows and columns, and shared by the subproblems)."""
    return _attack_table(reduction.columns, reduction.rows)


@functools.lru_cache(maxsize=4)
def _attack_table(columns: tuple[int, ...], rows: tuple[int, ...]) -> Any:
    import numpy

    m = len(columns)
    attack = numpy.zeros((max(m, 1), max(m, 1), max(m, 1)), dtype=numpy.uint64)
    index_of = {row: index for index, row in enumerate(rows)}
    for i, col_i in enumerate(columns):
        for j, row_j in enumerate(rows):
            for k, col_k in enumerate(columns):
                if k == i:
                    continue
                mask = 0
                for row in (row_j + col_i - col_k, row_j - col_i + col_k):
                    if row in index_of:
                        mask |= 1 << index_of[row]
                attack[i, j, k] = mask
    return attack


def cut(reduction: Reduction, pieces: int = _PIECES, levels: int = 3) -> list[Reduction]:
    """The reduction cut into pieces whose counts add up: the column with the fewest candidate
    rows takes each of them in turn, the other columns narrowed as the search would narrow them
    (a piece left with an empty column holds nothing and is dropped), for up to ``levels``
    columns or until there are ``pieces``."""
    attack = attacks(reduction)
    m = len(reduction.columns)
    found = [reduction.allowed]
    for _ in range(levels):
        if len(found) >= pieces:
            break
        deeper = []
        for allowed in found:
            open_columns = [k for k in range(m) if allowed[k].bit_count() > 1]
            if not open_columns:
                deeper.append(allowed)
                continue
            column = min(open_columns, key=lambda k: (allowed[k].bit_count(), k))
            for row in range(len(reduction.rows)):
                if allowed[column] >> row & 1 and (narrowed := place(attack, allowed, column, row)):
                    deeper.append(narrowed)
        found = deeper
    return [replace(reduction, allowed=allowed) for allowed in found]


def place(attack: Any, allowed: tuple[int, ...], column: int, row: int) -> tuple[int, ...] | None:
    """``allowed`` with free ``row`` given to free ``column``, and the other columns narrowed to
    the rows it leaves them (``attack`` as ``attacks`` makes it); None if that leaves one
    of them empty, a piece that holds nothing."""
    narrowed = tuple(
        1 << row if k == column else allowed[k] & ~(1 << row) & ~int(attack[column, row, k])
        for k in range(len(allowed))
    )
    return narrowed if all(narrowed) else None


def search_size(reduction: Reduction, beyond: float = float("inf")) -> float:
    """Knuth's estimate of the positions the search visits ("Estimating the efficiency of
    backtrack programs", 1975): the mean over random descents, each taking the column the search
    takes and one of its rows at random, of the sum of the products of the rows met on the way.
    The descents are drawn the same way every time; they stop as soon as the mean must be more
    than ``beyond``, which is then all the answer says."""
    attack = attacks(reduction)
    draw = random.Random(0)
    total = 0.0
    for _ in range(_SIZE_DESCENTS):
        total += _descent(attack, reduction.allowed, draw)
        if total > beyond * _SIZE_DESCENTS:
            break
    return total / _SIZE_DESCENTS


def _descent(attack: Any, allowed: tuple[int, ...], draw: random.Random) -> float:
    """One random descent of the search from ``allowed``: the positions it stands for."""
    positions = paths = 1.0
    open_columns = set(range(len(allowed)))
    while open_columns:
        column = min(open_columns, key=lambda k: (allowed[k].bit_count(), k))
        rows = [row for row in range(allowed[column].bit_length()) if allowed[column] >> row & 1]
        if not rows:
            break
        paths *= len(rows)
        positions += paths
        narrowed = place(attack, allowed, column, draw.choice(rows))
        if narrowed is None:
            break
        allowed = narrowed
        open_columns.discard(column)
    return positions


@dataclass(frozen=True)
class ReducedSubproblem(Subproblem):
    """Count the solutions of one piece of a reduction."""

    reduction: Reduction = NOTHING


class ReducedEngine(Engine):
    """Bitmask search of what given queens and excluded diagonals leave: puzzles on boards of
    thousands, and the Excluded Diagonals problem; counts split over every core."""

    name = NAME
    summary = "a compiled search of what given queens leave free: large puzzles, whole diagonals"
    max_n = 10_000
    solutions_per_second = 2e3
    max_n_reason = "reads the board square by square"
    stat_names = STAT_NAMES
    splits = True
    count_rank = 3
    excluded_diagonals_rank = 1

    def decides_without_limit(self, request: Request) -> bool:
        # Given queens and excluded diagonals may leave little to search, or nearly the whole
        # board (one excluded diagonal on N = 25): the search's own size says which.
        if request.board.rules or request.board.free_columns > MAX_FREE:
            return False
        return search_size(reduce(request), UNBOUNDED_POSITIONS) <= UNBOUNDED_POSITIONS

    def prefers(self, request: Request) -> bool:
        # Near the paper's phase transition few boards survive, and forward checking prunes
        # what the bitboard engine must walk through (benchmarks/diagonals.py).
        return bool(request.board.excluded) and large(request)

    def refusal(self, request: Request) -> str | None:
        free = request.board.free_columns
        if free > MAX_FREE:
            return (
                f"the reduced engine keeps a column's free rows in one 64-bit word and takes "
                f"puzzles with up to {MAX_FREE} columns without a given queen, not {free}"
            )
        return None

    def wants_workers(self, request: Request) -> bool:
        return large(request)

    def prepare(self, request: Request) -> None:
        attacks(reduce(request))  # once, before worker processes are forked

    def solve(self, request: Request) -> EngineStream:
        return ReducedStream(request)

    def subproblems(self, request: Request, deadline: float | None) -> list[ReducedSubproblem]:
        reduction = reduce(request)
        pieces = cut(reduction) if len(reduction.columns) >= _WORKERS_FROM else [reduction]
        return [ReducedSubproblem(NAME, deadline, piece) for piece in pieces]

    def finer(self, task: Subproblem) -> list[ReducedSubproblem]:
        assert isinstance(task, ReducedSubproblem)
        pieces = cut(task.reduction, levels=1)
        return [replace(task, reduction=piece) for piece in pieces if piece != task.reduction]

    def count_subproblem(self, task: Subproblem) -> Subcount:
        assert isinstance(task, ReducedSubproblem)
        search = Search(task.reduction, listing=0)
        counted = 0

        def found(complete: bool) -> Subcount:
            return Subcount(counted, None, 1, search.nodes, complete)

        def step() -> None:
            nonlocal counted
            counted += search.advance()

        return counted_in_slices(task.deadline, lambda: search.done, step, found)


ENGINE = ReducedEngine()


class Search:
    """One resumable search of a reduction; ``listing`` solutions are kept per pause (0: they
    are only counted)."""

    def __init__(self, reduction: Reduction, listing: int) -> None:
        self.reduction = reduction
        self.m = len(reduction.columns)
        self._search = _reduced.start(tuple(reduction.allowed), attacks(reduction), listing)
        self.out = b""
        self.done = False
        self.nodes = 0

    def advance(self) -> int:
        """One slice of the search; the solutions it found (listed in ``out`` when listing)."""
        found, placements, self.done, self.out = _reduced.search(self._search, _SLICE)
        self.nodes += placements
        return found

    def board(self, index: int) -> Solution:
        """The ``index``-th solution listed, on the full board."""
        reduction = self.reduction
        rows = list(reduction.given)
        m = self.m
        for column, free_row in enumerate(self.out[index * m : (index + 1) * m]):
            rows[reduction.columns[column]] = reduction.rows[free_row]
        return Solution(rows=tuple(rows))


class ReducedStream(EngineStream):
    """Solutions of the reduced problem, mapped back to the full board, a batch at a time."""

    def __init__(self, request: Request) -> None:
        self.n = request.n
        self._request = request
        self._started = time.monotonic()
        # The search pauses when its list is full: after one solution for first, after a batch.
        batch = 1 if request.command == FIRST else min(_BATCH, request.limit or _BATCH)
        self._search = Search(reduce(request), listing=batch)
        self._ready: list[Solution] = []

    def _next_solution(self) -> Solution | None:
        search = self._search
        while not self._ready:
            if search.done:
                self._end(Status.COMPLETE)
                return None
            if self._request.out_of_time():
                self._end(Status.TIME_LIMIT)
                return None
            found = search.advance()
            self._ready = [search.board(index) for index in range(found)]
        return self._ready.pop(0)

    def _end(self, status: Status) -> None:
        if self._stats is not None:
            return
        self._stats = Stats(
            n=self.n,
            solutions=self._delivered,
            conflicts=1,
            branches=self._search.nodes,
            wall_time=time.monotonic() - self._started,
            status=status,
            engine=NAME,
            counter_names=STAT_NAMES,
        )

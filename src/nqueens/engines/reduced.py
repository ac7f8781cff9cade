"""The reduced engine: a puzzle on a large board, solved on what its given queens leave.

Every given queen takes its row, its column and its two diagonals out of the problem. What is
left is an Excluded Diagonals problem on the free rows and columns: small for CSPLib problem 79's
published instances (N about 5,500, all but about 20 queens given), however large the board. It
is searched with one machine word per column (:mod:`nqueens.engines.reducedkernel`), the column
with the fewest candidate rows left first, and every answer is mapped back to the full board.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from nqueens.engines.base import Engine, Request
from nqueens.engines.streams import EngineStream
from nqueens.results import SearchInterrupted, Solution, Stats, Status

NAME = "reduced"

MAX_FREE = 64
"""Free columns the search takes: a column's candidate rows are one 64-bit word."""

_SLICE = 1 << 18  # placements per call of the search, between looks at the clock
_BATCH = 256  # solutions handed over per call when they are listed


@dataclass(frozen=True)
class Reduction:
    """What given queens leave of a puzzle: its free columns and their candidate rows."""

    n: int
    columns: tuple[int, ...]  # the board's free columns
    rows: tuple[int, ...]  # the board's free rows; bit j of a mask is rows[j]
    allowed: tuple[int, ...]  # per free column, the free rows it may take (a mask)
    given: tuple[int, ...]  # rows[c] of the full board for the given queens, -1 elsewhere


def free_columns(request: Request) -> int:
    """Columns without a given queen."""
    return request.n - (len(request.puzzle.queens) if request.puzzle is not None else 0)


def reduce(request: Request) -> Reduction:
    """Take the given queens' rows, columns and diagonals out, and blocked squares with them."""
    n = request.n
    puzzle = request.puzzle
    queens = puzzle.queens if puzzle is not None else ()
    blocked = set(puzzle.blocked) if puzzle is not None else set()
    given = [-1] * n
    for row, col in queens:
        given[col] = row
    used_rows = {row for row, _ in queens}
    sums = {row + col for row, col in queens}
    differences = {row - col for row, col in queens}
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


def attacks(reduction: Reduction) -> object:
    """attack[i, j, k]: the rows of free column k that a queen on free row j of column i attacks."""
    import numpy

    m = len(reduction.columns)
    attack = numpy.zeros((max(m, 1), max(m, 1), max(m, 1)), dtype=numpy.uint64)
    index_of = {row: index for index, row in enumerate(reduction.rows)}
    for i, col_i in enumerate(reduction.columns):
        for j, row_j in enumerate(reduction.rows):
            for k in range(m):
                if k == i:
                    continue
                col_k = reduction.columns[k]
                mask = 0
                for row in (row_j + col_i - col_k, row_j - col_i + col_k):
                    if row in index_of:
                        mask |= 1 << index_of[row]
                attack[i, j, k] = mask
    return attack


class ReducedEngine(Engine):
    """Bitmask search of what given queens leave: puzzles on boards of thousands."""

    name = NAME
    summary = "bitmask search of a puzzle's free rows and columns, for large boards"
    max_n = 10_000
    max_n_reason = "reads the board square by square"
    stat_names = ("free columns", "nodes")

    def refusal(self, request: Request) -> str | None:
        free = free_columns(request)
        if free > MAX_FREE:
            return (
                f"the reduced engine keeps a column's free rows in one 64-bit word and takes "
                f"puzzles with up to {MAX_FREE} columns without a given queen, not {free}"
            )
        return None

    def prepare(self, request: Request) -> None:
        from nqueens.engines import reducedkernel

        reducedkernel.compiled()

    def solve(self, request: Request) -> EngineStream:
        return ReducedStream(request)

    def count(self, request: Request) -> Stats:
        stream = ReducedStream(request, count_only=True)
        return stream.count()


ENGINE = ReducedEngine()


class ReducedStream(EngineStream):
    """Solutions of the reduced problem, mapped back to the full board, a batch at a time."""

    def __init__(self, request: Request, *, count_only: bool = False) -> None:
        import numpy

        from nqueens.engines import reducedkernel

        self.n = request.n
        self._limit = request.limit
        self._time_limit = request.time_limit
        self._started = time.monotonic()
        self._reduction = reduce(request)
        m = len(self._reduction.columns)
        self._m = m
        self._kernel = reducedkernel.compiled()
        self._attack = attacks(self._reduction)
        allowed = numpy.array(self._reduction.allowed or (0,), dtype=numpy.uint64)
        self._arrays = reducedkernel.start(m, allowed)
        self._out = numpy.zeros((0 if count_only else _BATCH, max(m, 1)), dtype=numpy.int64)
        self._counters = numpy.zeros(1, dtype=numpy.int64)
        self._ready: list[Solution] = []
        self._counted = 0

    def _advance(self) -> int:
        """One slice of the search; the solutions it found (listed in ``_out`` when listing)."""
        return int(
            self._kernel(self._m, self._attack, *self._arrays, self._out, _SLICE, self._counters)
        )

    @property
    def _done(self) -> bool:
        return bool(self._arrays[-1][1])

    def _out_of_time(self) -> bool:
        return self._time_limit is not None and time.monotonic() - self._started >= self._time_limit

    def _next_solution(self) -> Solution | None:
        while not self._ready:
            if self._done:
                self._end(Status.COMPLETE)
                return None
            if self._out_of_time():
                self._end(Status.TIME_LIMIT)
                return None
            found = self._advance()
            self._ready = [self._board(self._out[index]) for index in range(found)]
        return self._ready.pop(0)

    def _board(self, free_rows: Any) -> Solution:
        reduction = self._reduction
        rows = list(reduction.given)
        for index, col in enumerate(reduction.columns):
            rows[col] = reduction.rows[int(free_rows[index])]
        return Solution(rows=tuple(rows))

    def count(self) -> Stats:
        """Count the solutions, without listing them; Ctrl-C raises SearchInterrupted."""
        try:
            while not self._done:
                if self._out_of_time():
                    self._end(Status.TIME_LIMIT)
                    return self.stats
                self._counted += self._advance()
        except KeyboardInterrupt:
            self._end(Status.INTERRUPTED)
            raise SearchInterrupted(self.stats) from None
        self._end(Status.COMPLETE)
        return self.stats

    def _end(self, status: Status) -> None:
        if self._stats is not None:
            return
        self._stats = Stats(
            n=self.n,
            solutions=self._counted or self._delivered,
            conflicts=self._m,
            branches=int(self._counters[0]),
            wall_time=time.monotonic() - self._started,
            status=status,
            engine=NAME,
        )

"""The bitboard engine's listing: every solution in lexicographic order of its rows, a block of
them at a time, from the engine's C search (``nqueens.engines.bitboard._search``).

A block is the ``rows`` of many solutions, a byte a column, filled by one call into C, so a
listing of millions costs Python a few calls a second; programs take it as a numpy array.
With ``unique`` only the smallest member of each class under the square's symmetries is kept;
on a board that keeps those symmetries the search is cut by the first column's row ``r``, which
the smallest member has in the upper half, and by what its images then rule out: the last
column's queen, and the columns of the queens of the first and last rows, lie between ``r`` and
``N - 1 - r``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from nqueens.core.results import Solution, Stats, Status
from nqueens.core.strategies import FIRST_MIN
from nqueens.engines.base import Request
from nqueens.engines.bitboard import _search
from nqueens.engines.bitboard.pieces import BitSubproblem, LineRow, line_masks, rule_flags
from nqueens.engines.streams import EngineStream

BLOCK_BYTES = 1 << 20
"""The rows a block holds, in bytes: a megabyte, thousands of boards, written at once."""

PLACEMENTS = 1 << 21
"""Placements per call into C: a few milliseconds, between looks at the clock and at Ctrl-C."""


def pieces(
    request: Request, given: tuple[LineRow, ...], closed: tuple[LineRow, ...]
) -> list[BitSubproblem]:
    """The tasks the listing searches in turn, in lexicographic order: the board itself, or with
    ``unique`` on a board that keeps the square's symmetries, one per row of the first column
    in its upper half, each with what the smallest member of a class must leave empty."""
    n, board = request.n, request.board
    whole = BitSubproblem("bitboard", None, n, fixed=given, blocked=closed, rules=board.rules)
    if not (request.unique and board.symmetric) or n < 2:
        return [whole]
    last = n - 1
    tasks = []
    for first in range((n + 1) // 2):
        outside = [line for line in range(1, n) if line < first or line > last - first]
        blocked = [(line, row) for line in outside for row in (0, last)]
        blocked += [(last, row) for row in range(n) if row < first or row > last - first]
        tasks.append(
            BitSubproblem(
                "bitboard",
                None,
                n,
                fixed=((0, first),),
                blocked=tuple(sorted(set(blocked))),
                rules=board.rules,
            )
        )
    return tasks


class Blocks:
    """The solutions of ``tasks`` in turn, a block of them at a time (their rows, one byte a
    column), until ``limit`` solutions (None: all) or the request's deadline; ``placements`` and
    ``in_all`` (with ``unique``: how many solutions those listed stand for) as they grow,
    ``complete`` once every solution was listed. No numpy: a listing starts without it."""

    def __init__(self, request: Request, tasks: list[BitSubproblem]) -> None:
        self._request = request
        self._tasks = tasks
        self._flags = rule_flags(request.board.rules) | (_search.UNIQUE if request.unique else 0)
        self.n = request.n
        self.pieces = len(tasks)
        self.limit: int | None = None
        self.listed = 0
        self.placements = 0
        self.in_all = 0
        self.complete = False
        self.out_of_time = False

    def __iter__(self) -> Iterator[bytes]:
        n = self.n
        # The first block holds one solution, each next one twice as many, up to a megabyte:
        # the first solution comes at once (first, a reader of one line), and then large blocks.
        capacity, largest = 1, max(1, BLOCK_BYTES // n)
        tasks_in_all = 0
        for task in self._tasks:
            state = _search.start(n, self._flags, tuple(line_masks(task)[0]), n - 1, -1, 0, 0)
            over = False
            while not over:
                if self._request.out_of_time():
                    self.out_of_time = True
                    return
                room = capacity if self.limit is None else min(capacity, self.limit - self.listed)
                if room <= 0:
                    return
                out = bytearray(room * n)
                written, placed, over, stood_for = _search.fill(state, out, PLACEMENTS)
                self.placements += placed
                self.in_all = tasks_in_all + stood_for
                if written:
                    self.listed += written
                    capacity = min(2 * capacity, largest)
                    yield bytes(memoryview(out)[: written * n])
            tasks_in_all = self.in_all
        self.complete = True


class ListingStream(EngineStream):
    """The solutions of a listing, one at a time as every stream gives them, or a block at a
    time (``blocks``)."""

    lists_in_blocks = True

    def __init__(
        self,
        request: Request,
        tasks: list[BitSubproblem],
        engine: str,
        counter_names: tuple[str, str],
    ) -> None:
        self.n = request.n
        self._unique = request.unique
        self._engine = engine
        self._counter_names = counter_names
        self._listing = Blocks(request, tasks)
        self._source = iter(self._listing)
        self._block = b""  # the block next() takes its solutions from
        self._taken = 0  # the bytes of it taken
        self._started = time.monotonic()

    def stopping_after(self, limit: int | None) -> EngineStream:
        self._listing.limit = limit
        return super().stopping_after(limit)

    @property
    def in_all(self) -> int | None:
        return self._listing.in_all

    def blocks(self) -> Iterator[Any]:
        """The solutions left, a numpy array of ``rows`` (one solution a row, a byte a column)
        at a time; the stream ends with them."""
        import numpy

        for packed in self.packed_blocks():
            yield numpy.frombuffer(packed, dtype=numpy.uint8).reshape(-1, self.n)

    def packed_blocks(self) -> Iterator[bytes]:
        """The solutions left, a block at a time: their rows one after another, a byte a
        column; the stream ends with them. The rest of a block that next() began comes first."""
        while True:
            with self._one_thread():
                packed = self._next_block()
            if packed is None:
                return
            yield packed

    def _next_block(self) -> bytes | None:
        """The solutions not yet taken, up to a block of them; None once the stream ended."""
        if self._stats is not None:
            return None
        packed: bytes | None = self._block[self._taken :]
        self._block, self._taken = b"", 0
        if not packed:
            try:
                packed = next(self._source, None)
            except KeyboardInterrupt:
                self._end(Status.INTERRUPTED)
                raise
            if packed is None:
                self._end(self._ending())
                return None
        self._delivered += len(packed) // self.n
        return packed

    def _next_solution(self) -> Solution | None:
        n = self.n
        while self._taken >= len(self._block):
            packed = next(self._source, None)
            if packed is None:
                self._end(self._ending())
                return None
            self._block, self._taken = packed, 0
        rows = tuple(self._block[self._taken : self._taken + n])
        self._taken += n
        return Solution(rows=rows)

    def _ending(self) -> Status:
        if self._listing.complete:
            return Status.COMPLETE
        return Status.TIME_LIMIT if self._listing.out_of_time else Status.LIMIT

    def _end(self, status: Status) -> None:
        self._stats = Stats(
            n=self.n,
            solutions=self._delivered,
            conflicts=self._listing.pieces,
            branches=self._listing.placements,
            wall_time=time.monotonic() - self._started,
            status=status,
            unique=self._delivered if self._unique else None,
            engine=self._engine,
            counter_names=self._counter_names,
            strategy=FIRST_MIN,
        )

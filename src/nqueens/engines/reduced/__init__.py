"""The reduced engine: a puzzle solved on what its given queens and excluded diagonals leave.

Every given queen takes its row, its column and its two diagonals out of the problem. What is left
is an Excluded Diagonals problem on the free rows and columns: small for CSPLib problem 79's
published instances (N about 5,500, all but about 20 queens given), however large the board, and the
problem itself for the paper's Excluded Diagonals files. It is searched with one machine word per
column (the C module ``nqueens.engines.reduced._reduced``), the column with the fewest candidate
rows left first, and every answer is mapped back to the full board. A count is cut into pieces by
the search's own first choices, and the pieces are shared among processes."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

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
from nqueens.engines.reduced.model import NOTHING, Reduction, attacks, cut, reduce, search_size
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

_SLICE = 1 << 18  # placements per call of the search, between looks at the clock
_BATCH = 256  # solutions handed over per call when they are listed
_WORKERS_FROM = 14  # free columns from which a count is cut and shared among processes


def large(request: Request) -> bool:
    """Whether the free part is large enough to be cut and shared among processes (and the
    compiled search pays for loading itself)."""
    return request.board.free_columns >= _WORKERS_FROM


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

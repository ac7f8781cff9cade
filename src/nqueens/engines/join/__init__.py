"""The join engine: counts a plain board by joining the solutions of its quarters, without a search
over the whole board.

Every quarter's partial solutions are listed once (``nqueens.engines.join._join``, in C). For
each set R of rows whose queens stand in the east half (a *job*), the east half's solutions
are the north-east and south-east quarters' that fit together, the west half's likewise, and
the board's solutions are the pairs of an east and a west half that share no diagonal, counted
256 pairs at a time. The board's symmetries leave about one R in four to join, and the queens
on the long diagonals halve the rest (docs/explanation/counting.md draws it). A count is cut into
spans of jobs: the pieces for workers, a cluster and checkpoints.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from nqueens.engines.base import (
    COUNT,
    Engine,
    Request,
    Subcount,
    Subproblem,
    counted_in_slices,
)

if TYPE_CHECKING:
    from nqueens.engines.join import _join

NAME = "join"
STAT_NAMES = ("halves", "pairs")
"""What the engine's two counters count, as statistics and JSON name them: the half boards made,
and the pairs of halves compared."""

MAX_N = 21
"""Quarters of 10 x 10: the next size's lists of quarter solutions take tens of gigabytes."""

FROM_N = 12
"""The smallest board ``auto`` counts by the join: smaller ones end at once either way, and the
edge counter's start is the shorter (``benchmarks/counting.py`` measures both)."""

WORKERS_FROM_N = 16
"""From this size a count goes to every core: smaller ones end before workers start."""

PIECES = 1024
"""About how many spans of jobs a count is cut into from WORKERS_FROM_N: enough for every core,
a smooth progress bar and a checkpoint that loses little, few enough that handing them out
costs little. Smaller boards, counted in moments, are cut into SMALL_PIECES."""
SMALL_PIECES = 64

QUARTER_SOLUTIONS = (1, 2, 5, 18, 87, 462, 2635, 16870, 118969, 915442, 7535369)
"""The partial solutions of an h x h quarter (any number of queens), for h = 0 to 10: the lists
the engine keeps, which ``_join.placements`` counts as it makes them."""

_SLICE = 1 << 22
"""Work (half boards, or 256 pairs compared) per call of the C module: milliseconds."""


@dataclass(frozen=True)
class JoinSubproblem(Subproblem):
    """The jobs ``span[0]`` to ``span[1] - 1`` of a plain n x n board."""

    n: int = 0
    symmetry: bool = True
    span: tuple[int, int] = (0, 0)


class JoinEngine(Engine):
    """Quarter solutions joined into halves, halves into boards; every core, the symmetries."""

    name = NAME
    summary = "counts plain boards by joining their quarters' solutions"
    commands = frozenset({COUNT})
    puzzles = False
    max_n = MAX_N
    max_n_reason = "keeps every quarter's solutions in memory"
    stat_names = STAT_NAMES
    splits = True
    count_rank = 1
    solutions_per_second = 1e8

    def gains(self, request: Request) -> bool:
        return request.n >= FROM_N

    def wants_workers(self, request: Request) -> bool:
        return request.n >= WORKERS_FROM_N

    def memory_needed(self, request: Request) -> int:
        return memory_needed(request.n)

    def prepare(self, request: Request) -> None:
        quarters(request.n, request.symmetry)

    def subproblems(self, request: Request, deadline: float | None) -> list[JoinSubproblem]:
        from nqueens.engines.join import _join

        n, symmetry = request.n, request.symmetry
        total = _join.jobs(quarters(n, symmetry))
        pieces = PIECES if n >= WORKERS_FROM_N else SMALL_PIECES if n >= FROM_N else 1
        size = max(1, -(-total // pieces))
        base = JoinSubproblem(NAME, deadline, n, symmetry)
        return [replace(base, span=(at, min(at + size, total))) for at in range(0, total, size)]

    def finer(self, task: Subproblem) -> list[JoinSubproblem] | None:
        assert isinstance(task, JoinSubproblem)
        start, end = task.span
        if end - start <= 1:
            return None
        return [replace(task, span=(at, at + 1)) for at in range(start, end)]

    def count_subproblem(self, task: Subproblem) -> Subcount:
        assert isinstance(task, JoinSubproblem)
        from nqueens.engines.join import _join

        counter = _counter(task)
        found = (0, 0, 0, False)

        def step() -> None:
            nonlocal found
            found = _join.count(counter, _SLICE)

        def over() -> bool:
            return found[3]

        def total(complete: bool) -> Subcount:
            solutions, halves, pairs, _ = found
            return Subcount(solutions, None, halves, pairs, complete)

        return counted_in_slices(task.deadline, over, step, total)


def memory_needed(n: int) -> int:
    """Bytes a count of an n x n board takes at most in one process: the quarters' lists (4
    bytes for each set of rows and columns, 8 a solution); a count's copy of them for each
    quadrant (8 and 16 bytes); and the halves it joins, which a third of that bounds."""
    h = min(n, MAX_N) // 2
    cells = (1 << 2 * h) + 1
    solutions = QUARTER_SOLUTIONS[h]
    quadrants = 4 * (8 * cells + 16 * solutions)
    return 4 * cells + 8 * solutions + quadrants + quadrants // 3


@lru_cache(maxsize=2)
def quarters(n: int, symmetry: bool) -> _join.Quarters:
    """The quarters' lists and jobs of an n x n board, made once a process (they never change:
    every count and thread reads the same)."""
    from nqueens.engines.join import _join

    return _join.quarters(n, symmetry)


_counters = threading.local()
"""Each thread's count under way, kept between pieces: the quadrants it laid out for a
placement of the middle queens serve the next piece, which mostly has the same."""


def _counter(task: JoinSubproblem) -> _join.Counter:
    from nqueens.engines.join import _join

    board = quarters(task.n, task.symmetry)
    start, end = task.span
    kept: _join.Counter | None = getattr(_counters, "counter", None)
    if kept is not None and _join.board(kept) is board:
        _join.restart(kept, start, end)
        return kept
    counter = _join.start(board, start, end)
    _counters.counter = counter
    return counter


ENGINE = JoinEngine()

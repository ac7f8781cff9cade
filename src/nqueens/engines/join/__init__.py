"""The join engine: counts a plain board by joining the solutions of its quarters, without a search
over the whole board.

Every quarter's partial solutions are listed once (``nqueens.engines.join._join``, in C). For
each set R of rows whose queens stand in the left half (a *job*), the left halves are the top-
left and bottom-left quarters' solutions that fit together, the right halves likewise, and the
board's solutions are the pairs of a left and a right half that share no diagonal, counted 256
pairs at a time. The board's symmetries cut the work 3 to 8 times (docs/explanation/counting.md
draws it). A count is cut into spans of jobs: the pieces for workers, a cluster and checkpoints.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

from nqueens.engines.base import COUNT, Engine, Request, Subcount, Subproblem

NAME = "join"
STAT_NAMES = ("halves", "pairs")
"""What the engine's two counters count, as statistics and JSON name them: the half boards made,
and the pairs of halves compared."""

MAX_N = 21
"""Quarters of 10 x 10: the next size's lists of quarter solutions take tens of gigabytes."""

FROM_N = 14
"""The smallest board ``auto`` counts by the join: smaller ones take milliseconds either way, and
the edge search counts their symmetry classes too (``count 12 --stats`` shows them)."""

WORKERS_FROM_N = 17
"""From this size a count goes to every core: smaller ones end before workers start."""

PIECES = 1024
"""About how many spans of jobs a count is cut into from WORKERS_FROM_N: enough for every core,
a smooth progress bar and a checkpoint that loses little, few enough that handing them out
costs little. Smaller boards, counted in moments, are cut into SMALL_PIECES."""
SMALL_PIECES = 64

QUARTER_SOLUTIONS = (1, 2, 5, 18, 87, 462, 2635, 16870, 118969, 915442, 7535369)
"""The partial solutions of an h x h quarter (any number of queens), for h = 0 to 10: the lists
the engine keeps, which ``_join.placements`` counts as it makes them."""


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
        return memory_needed(request.n, request.symmetry)

    def prepare(self, request: Request) -> None:
        from nqueens.engines.join import jobs

        jobs.quarters(request.n, request.symmetry)

    def subproblems(self, request: Request, deadline: float | None) -> Sequence[Subproblem]:
        from nqueens.engines.join import jobs

        n = request.n
        pieces = PIECES if n >= WORKERS_FROM_N else SMALL_PIECES if n >= FROM_N else 1
        return jobs.spans(NAME, n, request.symmetry, pieces, deadline)

    def finer(self, task: Subproblem) -> Sequence[Subproblem] | None:
        from nqueens.engines.join import jobs

        return jobs.finer(task)

    def count_subproblem(self, task: Subproblem) -> Subcount:
        from nqueens.engines.join import jobs

        return jobs.count(task)


def memory_needed(n: int, symmetry: bool = True) -> int:
    """Bytes a count of an n x n board takes at most in one process: the quarters' lists (4
    bytes for each set of rows and columns, 8 a solution); a count's copy of them for each
    quadrant (8 and 16 bytes); the halves it joins, which a third of that bounds; and the list
    of jobs (12 bytes each, twice while it grows)."""
    h = min(n, MAX_N) // 2
    cells = (1 << 2 * h) + 1
    solutions = QUARTER_SOLUTIONS[h]
    quadrants = 4 * (8 * cells + 16 * solutions)
    return 4 * cells + 8 * solutions + quadrants + quadrants // 3 + 24 * job_count(n, symmetry)


def job_count(n: int, symmetry: bool) -> int:
    """How many jobs a count of an n x n board joins, at most: each set R of the left half's
    rows, for each placement of the middle row's and column's queens (odd N), an eighth of those
    placements with the board's symmetry."""
    h = n // 2
    if n % 2 == 0:
        return comb(n, h)
    if n < 3:
        return 1
    m = h
    placements = m * (m - 1) // 2 if symmetry else (n - 1) * (n - 3)
    return comb(n - 1, h) + placements * comb(n - 2, h)


ENGINE = JoinEngine()

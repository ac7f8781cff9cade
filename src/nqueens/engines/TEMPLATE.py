"""A template for a new engine: copy this file to ``engines/<name>/__init__.py``, rename, and
replace the search; then add ``ENGINE`` to ``_ENGINES`` in ``nqueens.engines.registry``.

It is a complete engine on purpose, the plainest there is (backtracking in Python, one column at
a time), so that the tests can register it and hold it to everything the registry promises:
exact counts, time limits, Ctrl-C, refusals that name the engines that can. What an engine
declares is all the registry, the API and the command line know of it:

- ``name``, ``summary`` (for ``--help``), the ``commands`` it answers;
- ``unique``, ``puzzles``, ``rules``, ``strategies``, ``options``: what it can take beyond the
  plain board, and the choices only it offers;
- ``max_n`` and, in a few words, why (``max_n_reason``);
- ``takes_seed``: whether its first solution follows ``--seed`` (random choices);
- ``stat_names``: what its two statistics count;
- ``count_rank``: its place in what ``count --engine auto`` tries, and ``gains``, whether a
  request is worth trying it on (a device that pays for its start only on large boards);
- ``solutions_per_second``: about how fast it counts or lists the plain board;
- ``memory_needed``, ``refusal``: what the flags cannot say; ``backend_for``: what runs it
  where that varies (a device's name), for ``--stats`` and JSON;
- ``resource`` and ``on_cpu``: what its pieces need of a cluster's worker (a GPU), and how a
  worker without it counts them;
- ``solve`` (a stream of solutions, which the API stops at ``solve``'s limit; ``count`` and
  ``first`` follow from it), or, to count on
  every core, ``splits = True`` with ``subproblems``, ``count_subproblem`` and ``prepare``
  (what to load once before workers start), and where one process counts them,
  ``count_in_order`` if the next piece may begin while one finishes (a device's launches).

Import a solver inside the methods that search, never at the top: ``nqueens --help`` reads every
engine's declaration and must stay fast.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from nqueens.core.results import Solution, Stats, Status
from nqueens.engines.base import Engine, Request
from nqueens.engines.streams import EngineStream

NAME = "template"
STAT_NAMES = ("placements", "dead ends")
"""What the engine's two counters count, as statistics and JSON name them."""


class TemplateStream(EngineStream):
    """Every solution of a plain board, found by trying each row of each column in turn."""

    def __init__(self, request: Request) -> None:
        self._request = request
        self._started = time.monotonic()
        self._placements = 0
        self._dead_ends = 0
        self._search = self._solutions(request.n)

    def _solutions(self, n: int) -> Iterator[tuple[int, ...]]:
        rows: list[int] = []

        def free(row: int) -> bool:
            col = len(rows)
            return all(r != row and abs(r - row) != col - c for c, r in enumerate(rows))

        def extend() -> Iterator[tuple[int, ...]]:
            if len(rows) == n:
                yield tuple(rows)
                return
            placed = False
            for row in range(n):
                if self._request.out_of_time():
                    return
                if free(row):
                    placed = True
                    self._placements += 1
                    rows.append(row)
                    yield from extend()
                    rows.pop()
            if not placed:
                self._dead_ends += 1

        yield from extend()

    def _next_solution(self) -> Solution | None:
        rows = next(self._search, None)
        if rows is None:
            self._end(Status.TIME_LIMIT if self._request.out_of_time() else Status.COMPLETE)
            return None
        return Solution(rows)

    def _end(self, status: Status) -> None:
        self._stats = Stats(
            n=self._request.n,
            solutions=self._delivered,
            conflicts=self._placements,
            branches=self._dead_ends,
            wall_time=time.monotonic() - self._started,
            status=status,
            engine=NAME,
            counter_names=STAT_NAMES,
        )


class TemplateEngine(Engine):
    """Backtracking in plain Python: the smallest engine that keeps every promise."""

    name = NAME
    summary = "a template for new engines: plain Python backtracking"
    puzzles = False
    max_n = 12
    max_n_reason = "searches in plain Python"
    stat_names = STAT_NAMES

    def solve(self, request: Request) -> EngineStream:
        return TemplateStream(request)


ENGINE = TemplateEngine()
"""Not registered: the tests register it to check that a new engine gets everything."""

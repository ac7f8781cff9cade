"""What a theorem answers without a search: no solution, or a line of queens.

A torus whose N is divisible by 2 or 3 has no solution, which a search proves only by going
through the whole board, nor do given squares that close a whole row, column or (on a torus)
wrapped diagonal; and a torus that has solutions has one on a line, where the searches get lost
from a few dozen columns on (``nqueens.core.theorems``).
"""

from __future__ import annotations

import time

from nqueens.core import theorems
from nqueens.core.results import Solution, Stats, Status
from nqueens.engines.base import COUNT, FIRST, Request
from nqueens.engines.streams import EngineStream
from nqueens.run import auto


class Answered(EngineStream):
    """The solutions a theorem gives, at once: none, or a line of queens."""

    def __init__(self, request: Request, solutions: tuple[Solution, ...], started: float) -> None:
        self._request = request
        self._waiting = list(solutions)
        self._started = started

    def _next_solution(self) -> Solution | None:
        if self._waiting:
            return self._waiting.pop(0)
        self._end(Status.COMPLETE)
        return None

    def _end(self, status: Status) -> None:
        request = self._request
        classes = (request.unique or request.command == COUNT) and request.board.symmetric
        self._stats = Stats(
            n=request.n,
            solutions=self._delivered,
            conflicts=0,
            branches=0,
            wall_time=time.monotonic() - self._started,
            status=status,
            engine=theorems.THEOREM,
            counter_names=theorems.COUNTERS,
            unique=self._delivered if classes else None,
        )


def theorem_answer(request: Request, engine: str) -> tuple[Solution, ...] | None:
    """What a theorem answers of ``request`` without a search, where nqueens picks the search
    (see ``auto.names_its_search``): no solution at all, or, for ``first``, a line of queens.
    None where no theorem answers."""
    if auto.names_its_search(engine, request.strategy, request.options):
        return None
    if theorems.unsolvable(request.board):
        return ()
    rows = theorems.line_of_queens(request.board) if request.command == FIRST else None
    return None if rows is None else (Solution(rows),)

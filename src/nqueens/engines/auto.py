"""The auto engine for ``first``: which engines and strategies reach a first solution fastest.

Measured with ``nqueens bench`` and ``benchmarks/completion.py`` (the figures are in the README,
"Benchmarks"):

- The plain problem: the original CP solver with the Oz tutorial's first-fail, middle-value
  search answers boards of thousands in seconds, where CP-SAT's default search stalls on
  hundreds.
- Completion puzzles: that same search answers most instances at once but gets lost in some,
  which CP-SAT decides. So the plan is a short portfolio: the fast search first, with a small
  budget, then CP-SAT.
"""

from __future__ import annotations

from dataclasses import dataclass

from nqueens.engines import cp, cpsat
from nqueens.puzzle import Puzzle
from nqueens.strategies import AUTO, FIRST_FAIL_MID

FIRST_TRY_SECONDS = 1.0
"""How long the fast search gets on a puzzle before CP-SAT takes over."""


@dataclass(frozen=True)
class Attempt:
    """Run ``engine`` with ``strategy`` for at most ``seconds`` (None: whatever time is left)."""

    engine: str
    strategy: str
    seconds: float | None = None


def first_plan(n: int, puzzle: Puzzle | None) -> list[Attempt]:
    """The attempts, in order, to find one solution for an n x n board and its given squares."""
    if puzzle is None or n > cpsat.ENGINE.max_n:
        return [Attempt(cp.NAME, FIRST_FAIL_MID)]
    return [Attempt(cp.NAME, FIRST_FAIL_MID, FIRST_TRY_SECONDS), Attempt(cpsat.NAME, AUTO)]

"""The auto engine for ``first``: which engine and strategy reach a first solution fastest.

Measured with ``nqueens bench`` (README, "Time to a first solution"): the original CP solver with
the Oz tutorial's first-fail, middle-value search answered every N from 1 to 3,000 in under two
seconds (N = 1,000 in 0.19 s, N = 2,000 in 0.8 s) and never fell behind the other engines, while
CP-SAT's default search needs seconds from N = 200 and finds nothing within 60 s for N = 500.
"""

from __future__ import annotations

from nqueens.puzzle import Puzzle
from nqueens.strategies import CP, FIRST_FAIL_MID


def choose_first(n: int, puzzle: Puzzle | None = None) -> tuple[str, str]:
    """The (engine, strategy) to find one solution for an n x n board and its given squares."""
    return CP, FIRST_FAIL_MID

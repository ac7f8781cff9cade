"""The auto engine for ``first``: which engines and strategies reach a first solution fastest.

Measured with ``nqueens bench`` and ``benchmarks/completion.py`` (the figures are in the README,
"Benchmarks"):

- The plain problem: the original CP solver with the Oz tutorial's first-fail, middle-value
  search answers boards of thousands in seconds, where CP-SAT's default search stalls on
  hundreds.
- Large boards: local search, whose numba start-up (about half a second) pays off from about
  N = 1,600 on, measured as whole processes; it cannot prove that no solution exists, but every
  board from 4 on has one.
- Completion puzzles: that same first-fail search answers most instances at once but gets lost in
  some, which CP-SAT decides. So the plan is a short portfolio: the fast search first, with a
  small budget, then CP-SAT. On large puzzles local search goes first, with a budget, as it is
  the only search that answers them in seconds.
- Excluded Diagonals (the paper's instances, n up to 22): first-fail for a third of a second,
  then the reduced engine's exact bitmask search, which decides the hard ones near the phase
  transition in about a second, where the paper's own solver takes up to tens of seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

from nqueens.core.board import Board
from nqueens.core.strategies import AUTO, FIRST_FAIL_MID
from nqueens.engines import bitboard, cp, cpsat, local, reduced

FIRST_TRY_SECONDS = 1.0
"""How long the fast search gets on a puzzle before CP-SAT takes over."""

LOCAL_FROM_N = 1_600
"""From this size on, local search answers the plain problem first (whole processes timed)."""

LOCAL_PUZZLE_FROM_N = 500
"""From this size on, local search gets the first try at a puzzle."""

LOCAL_TRY_SECONDS = 3.0
"""How long local search gets on a puzzle before the complete engines take over."""

REDUCED_MAX_FREE = 32
"""A puzzle on a large board with at most this many free columns goes to the reduced engine:
exact, and at once on CSPLib's published instances (about 20 free columns)."""

EXCLUDED_TRY_SECONDS = 0.3
"""How long first-fail gets on an Excluded Diagonals puzzle before the reduced engine: it
answers most of them in a blink, and starts a third of a second sooner (no numba to load)."""


@dataclass(frozen=True)
class Attempt:
    """Run ``engine`` with ``strategy`` for at most ``seconds`` (None: whatever time is left)."""

    engine: str
    strategy: str | None
    seconds: float | None = None


def first_plan(board: Board) -> list[Attempt]:
    """The attempts, in order, to find one solution for a board and its given squares."""
    n = board.n
    if not board.constrained:
        if n >= LOCAL_FROM_N:
            return [Attempt(local.NAME, None)]
        return [Attempt(cp.NAME, FIRST_FAIL_MID)]
    free = n - len(board.queens)
    if n > bitboard.ENGINE.max_n and free <= REDUCED_MAX_FREE:
        return [Attempt(reduced.NAME, None)]
    if board.excluded and free <= reduced.MAX_FREE:
        return [
            Attempt(cp.NAME, FIRST_FAIL_MID, EXCLUDED_TRY_SECONDS),
            Attempt(reduced.NAME, None),
        ]
    plan = []
    if n >= LOCAL_PUZZLE_FROM_N:
        plan.append(Attempt(local.NAME, None, LOCAL_TRY_SECONDS))
    if n > cpsat.ENGINE.max_n:
        return [*plan, Attempt(cp.NAME, FIRST_FAIL_MID)]
    return [
        *plan,
        Attempt(cp.NAME, FIRST_FAIL_MID, FIRST_TRY_SECONDS),
        Attempt(cpsat.NAME, AUTO),
    ]

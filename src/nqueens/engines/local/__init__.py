"""The local engine: one solution of a large board by min-conflicts repair (Minton; Sosic and Gu).

Local search finds a solution of a board of millions in seconds, where every complete search
stalls, but it cannot prove that none exists: it only answers ``first``, leaves boards under 4 to
the complete engines, and on a puzzle (given queens fixed, blocked squares avoided) is a fast
first try before them. The search is the C module ``nqueens.engines.local._local``; here it
is restarted with new seeds until it succeeds, the time is up or the user stops it.
"""

from __future__ import annotations

import os
import time
from array import array

from nqueens.core.geometry import RULES, SUPERQUEENS, TORUS
from nqueens.core.results import FirstResult, SearchInterrupted, Solution, Stats, Status
from nqueens.engines.base import FIRST, Engine, Request
from nqueens.engines.local import _local

NAME = "local"
STAT_NAMES = ("swaps", "moves")
"""What the engine's two counters count, as statistics and JSON name them."""

MIN_N = 4
"""Boards 2 and 3 have no solution, which local search cannot prove: complete engines answer."""

SUPERQUEENS_FROM_N = 10
"""Superqueens have solutions on every board from this size on (OEIS A051223), none below it
but N = 1."""

_MOVES_PER_ATTEMPT = 64
"""Partners tried per free column in one attempt, before a restart from a new shuffle."""

_STEPS_PER_CALL = 1 << 16
"""Steps of the kernel between two looks at the clock and at stop signals: milliseconds."""


class LocalEngine(Engine):
    """Min-conflicts repair of a permutation, in C: first solutions only."""

    name = NAME
    summary = "local search repairing a random board, boards of millions"
    commands = frozenset({FIRST})
    max_n = 10_000_000
    max_n_reason = "keeps eight numbers per column"
    rules = frozenset(RULES)
    stat_names = STAT_NAMES

    def takes_seed(self, strategy: str | None) -> bool:
        return True

    def memory_needed(self, request: Request) -> int:
        # The search's arrays (seven 32-bit numbers and a byte per column) and the solution as
        # a tuple of Python ints, beside the interpreter and OR-Tools once loaded.
        return int(0.2e9 + 100 * request.n)

    def refusal(self, request: Request) -> str | None:
        if request.n < MIN_N:
            return (
                "local search cannot prove that a board has no solution, and boards under 4 "
                "have none but N = 1"
            )
        if request.time_limit is not None:
            return None
        if request.board.constrained:
            return (
                "local search cannot prove that a puzzle has no completion: give it a time "
                "limit, or use a complete engine"
            )
        if TORUS in request.board.rules:
            return (
                "local search seldom finds the few solutions of a torus and cannot prove that "
                "there are none: give it a time limit, or use a complete engine"
            )
        if SUPERQUEENS in request.board.rules and request.n < SUPERQUEENS_FROM_N:
            return (
                "local search cannot prove that a board has no solution, and superqueens "
                f"boards under {SUPERQUEENS_FROM_N} have none but N = 1"
            )
        return None

    def first(self, request: Request) -> FirstResult:
        return local_first(request)


ENGINE = LocalEngine()


def local_first(request: Request) -> FirstResult:
    """Restart the search with seeds ``seed``, ``seed + 1``, ... until a solution is found."""
    n = request.n
    started = time.monotonic()
    board = request.board
    rules = (_local.TORUS if TORUS in board.rules else 0) | (
        _local.KNIGHT if SUPERQUEENS in board.rules else 0
    )
    rows = array("i", bytes(4 * n))
    fixed = bytearray(n)
    for row, col in board.queens:
        rows[col] = row
        fixed[col] = 1
    blocked = array("q", sorted(row * n + col for row, col in board.closed_squares()))
    # Without a seed, 31 bits from the system's randomness (2^32 values fold evenly onto 2^31).
    unseeded = int.from_bytes(os.urandom(4), "little") % (1 << 31)
    seed = request.seed if request.seed is not None else unseeded
    attempts = swaps = moves = 0  # those of the attempts before this one
    more_swaps = more_moves = 0  # this one's

    def stats(solutions: int, status: Status) -> Stats:
        return Stats(
            n=n,
            solutions=solutions,
            conflicts=swaps + more_swaps,
            branches=moves + more_moves,
            wall_time=time.monotonic() - started,
            status=status,
            engine=NAME,
            counter_names=STAT_NAMES,
        )

    try:
        while True:
            attempt = _local.start(
                n, rows, fixed, blocked, seed + attempts, _MOVES_PER_ATTEMPT * n, rules
            )
            left = _local.UNFINISHED
            while left == _local.UNFINISHED:
                if request.out_of_time():
                    return FirstResult(None, stats(0, Status.TIME_LIMIT))
                left, more_swaps, more_moves = _local.search(attempt, _STEPS_PER_CALL)
            if left == 0:
                solution = Solution(rows=_local.rows(attempt))
                return FirstResult(solution, stats(1, Status.COMPLETE))
            attempts += 1
            swaps, moves = swaps + more_swaps, moves + more_moves
            more_swaps = more_moves = 0
    except KeyboardInterrupt:
        raise SearchInterrupted(stats(0, Status.INTERRUPTED)) from None

"""The local engine: one solution of a large board by min-conflicts repair (Minton; Sosic and Gu).

Local search finds a solution of a board of millions in seconds, where every complete search
stalls, but it cannot prove that none exists: it only answers ``first``, leaves boards under 4 to
the complete engines, and on a puzzle (given queens fixed, blocked squares avoided) is a fast
first try before them. The search is ``nqueens.engines.local.kernel``; here it is restarted
with new seeds until it succeeds, the time is up or the user stops it.
"""

from __future__ import annotations

import itertools
import secrets
import time

from nqueens.core.geometry import RULES, SUPERQUEENS, TORUS
from nqueens.core.results import FirstResult, SearchInterrupted, Solution, Stats, Status
from nqueens.engines.base import FIRST, Engine, Request
from nqueens.engines.jit import rule

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
    """Min-conflicts repair of a permutation, compiled with numba: first solutions only."""

    name = NAME
    summary = "local search that repairs a random board: first only, boards of millions"
    commands = frozenset({FIRST})
    max_n = 10_000_000
    compiled_search = "nqueens.engines.local.kernel"
    max_n_reason = "keeps eight numbers per column"
    rules = frozenset(RULES)
    stat_names = STAT_NAMES

    def takes_seed(self, strategy: str | None) -> bool:
        return True

    def memory_needed(self, request: Request) -> int:
        # numba and numpy once loaded; the kernel's arrays (eight int64 per column) and the
        # solution as a tuple of Python ints.
        return int(0.3e9 + 120 * request.n)

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

    def compile_ahead(self) -> None:
        from nqueens.engines.local import kernel as localkernel

        for torus, knight in itertools.product((False, True), repeat=2):
            localkernel.compiled(torus, knight)

    def prepare(self, request: Request) -> None:
        from nqueens.engines.local import kernel as localkernel

        localkernel.compiled(TORUS in request.board.rules, SUPERQUEENS in request.board.rules)

    def first(self, request: Request) -> FirstResult:
        return local_first(request)


ENGINE = LocalEngine()


def local_first(request: Request) -> FirstResult:
    """Restart the kernel with seeds ``seed``, ``seed + 1``, ... until a solution is found."""
    import numpy

    from nqueens.engines.local import kernel as localkernel

    n = request.n
    started = time.monotonic()
    board = request.board
    torus, knight = TORUS in board.rules, SUPERQUEENS in board.rules
    kernel = localkernel.compiled(torus, knight)
    rows = numpy.zeros(n, dtype=numpy.int64)
    fixed = numpy.zeros(n, dtype=numpy.bool_)
    for row, col in board.queens:
        rows[col] = row
        fixed[col] = True
    codes = [row * n + col for row, col in board.closed_squares()]
    blocked = numpy.array(codes, dtype=numpy.int64)
    counters = numpy.zeros(2, dtype=numpy.int64)
    work = numpy.zeros(localkernel.WORK_PER_N * n, dtype=numpy.int64)
    state = numpy.zeros(localkernel.STATE_SIZE, dtype=numpy.int64)
    seed = request.seed if request.seed is not None else secrets.randbelow(1 << 31)
    attempts = 0

    def stats(solutions: int, status: Status) -> Stats:
        return Stats(
            n=n,
            solutions=solutions,
            conflicts=int(counters[0]),
            branches=int(counters[1]),
            wall_time=time.monotonic() - started,
            status=status,
            engine=NAME,
            counter_names=STAT_NAMES,
        )

    try:
        while True:
            state[:] = 0
            left = localkernel.UNFINISHED
            while left == localkernel.UNFINISHED:
                if request.out_of_time():
                    return FirstResult(None, stats(0, Status.TIME_LIMIT))
                left = kernel(
                    n,
                    rows,
                    fixed,
                    blocked,
                    seed + attempts,
                    _MOVES_PER_ATTEMPT * n,
                    counters,
                    work,
                    state,
                    _STEPS_PER_CALL,
                    rule(torus),
                    rule(knight),
                )
            attempts += 1
            if left == 0:
                solution = Solution(rows=tuple(rows.tolist()))
                return FirstResult(solution, stats(1, Status.COMPLETE))
    except KeyboardInterrupt:
        raise SearchInterrupted(stats(0, Status.INTERRUPTED)) from None

"""The public Python API: ``solve``, ``count`` and ``first``. The CLI is built on these.

They check their arguments, then hand the search to an engine; OR-Tools is imported only when a
search actually runs, so importing ``nqueens`` (and ``nqueens --help``) stays fast.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from nqueens.engines.streams import EngineStream, count_all, first_of
from nqueens.known_counts import KNOWN_TOTALS
from nqueens.puzzle import Puzzle
from nqueens.results import FirstResult, InputError, Square, Stats
from nqueens.strategies import (
    AUTO,
    CP,
    CP_SAT,
    ENGINES,
    FIRST_FAIL_MID,
    FIRST_MIN,
    MAX_CP_AUTO_N,
    MAX_ENGINE_N,
    MAX_UNBOUNDED_ENUMERATION_N,
    MIP,
    MIP_SOLVERS,
    STRATEGIES,
)

if TYPE_CHECKING:
    from nqueens.engines.counting import ProgressCallback

MAX_N = 10_000
"""The largest board accepted: beyond it, even building the model takes longer than is useful."""


MAX_MIP_ENUMERATION_N = 10
"""The mip engine solves once per solution: N = 10 (724 solutions) takes minutes already."""


def check_board_size(n: int) -> None:
    """Raise InputError unless ``n`` is a board size nqueens accepts."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise InputError(f"N must be a whole number, not {n!r}")
    if n < 1:
        raise InputError(f"N must be at least 1, not {n}")
    if n > MAX_N:
        raise InputError(
            f"N = {n} is larger than {MAX_N:,}, the largest board nqueens builds a model for"
        )


def _check_limits(n: int, *, limit: int | None, time_limit: float | None) -> None:
    """Raise InputError unless the board size and both limits are acceptable."""
    check_board_size(n)
    if limit is not None and limit < 1:
        raise InputError(f"the solution limit must be at least 1, not {limit}")
    if time_limit is not None and time_limit <= 0:
        raise InputError(f"the time limit must be positive, not {time_limit}")


def _how_many(n: int) -> str:
    """How many solutions the board has, in words, as far as anyone has counted."""
    known = KNOWN_TOTALS.get(n)
    if known is None:
        return f"nobody has counted the solutions for N = {n} yet (N = 27 alone has 2.3e17)"
    return f"N = {n} has {known:,} solutions"


def _check_enumeration(n: int, *, limit: int | None, time_limit: float | None) -> None:
    """Also refuse to enumerate every solution of a board so large that it could never finish."""
    _check_limits(n, limit=limit, time_limit=time_limit)
    if n <= MAX_UNBOUNDED_ENUMERATION_N or limit is not None or time_limit is not None:
        return
    raise InputError(
        f"{_how_many(n)}: enumerating them one by one would run for days or more. "
        "Give a time limit (--time-limit) for a partial count, a lower bound, "
        "or a solution limit (solve --limit)."
    )


def _check_engine(engine: str, strategy: str | None, mip_solver: str) -> None:
    if engine not in ENGINES:
        raise InputError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    if strategy is not None and strategy not in STRATEGIES:
        raise InputError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
    if mip_solver not in MIP_SOLVERS:
        raise InputError(f"unknown MIP solver {mip_solver!r}; choose from {', '.join(MIP_SOLVERS)}")
    if engine == MIP and strategy is not None:
        raise InputError("the mip engine has no search strategy: its MIP solver branches itself")


def _check_engine_size(engine: str, strategy: str | None, n: int) -> None:
    """Refuse a board an engine would take too long or too much memory to even start on."""
    largest = MAX_ENGINE_N.get(engine)
    if largest is not None and n > largest:
        why = f"builds N² = {n * n:,} binary variables" if engine == MIP else "runs out of memory"
        raise InputError(
            f"the {engine} engine {why} for N = {n}; it takes boards up to N = {largest:,} "
            "(the default engine of first goes to N = 10,000)"
        )
    if engine == CP and strategy == AUTO and n > MAX_CP_AUTO_N:
        raise InputError(
            f"the cp engine's auto strategy ignores time limits while it starts up on large "
            f"boards; it takes N up to {MAX_CP_AUTO_N} (first-fail-mid is fast at any size)"
        )


def _enumeration_strategy(
    engine: str, strategy: str | None, n: int, limit: int | None, *, listing: bool
) -> str:
    """The strategy for enumerating solutions, refusing one that would count wrongly."""
    if engine == CP and strategy == AUTO:
        raise InputError(
            "the cp engine's auto strategy (impact-based search with restarts) can report a "
            "solution twice, so it only finds first solutions; use first-min or first-fail-mid"
        )
    if strategy is not None:
        return strategy
    # A few solutions of a large board: CP-SAT's automatic search finds them far sooner, and so
    # does the original solver's first-fail (first-min finds none for N = 50 in 5 s).
    if limit is not None or n > MAX_UNBOUNDED_ENUMERATION_N:
        return FIRST_FAIL_MID if engine == CP else AUTO
    # Exhausting the tree, a fixed order is fastest. Listing keeps the guide's, which yields the
    # boards in lexicographic order; counting takes first-fail, middle value first (measured by
    # benchmarks/enumeration.py, CPU seconds: N = 14 in 10.6 against 13.1, N = 13 in 2.38
    # against 2.62; whole processes, count 14 in 5.4 s against 7.2 s).
    return FIRST_MIN if listing else FIRST_FAIL_MID


def _check_mip_enumeration(n: int, limit: int | None) -> None:
    if n > MAX_MIP_ENUMERATION_N and limit is None:
        raise InputError(
            f"the mip engine enumerates with one MIP solve per solution, and {_how_many(n)}; "
            "use cp-sat or cp to count, or give a solution limit"
        )


def _puzzle(n: int, queens: Iterable[Square], blocked: Iterable[Square]) -> Puzzle | None:
    """The validated constraints, or None for the plain problem."""
    puzzle = Puzzle(n, tuple(queens), tuple(blocked))
    return puzzle if puzzle.constrained else None


def solve(
    n: int,
    *,
    limit: int | None = None,
    time_limit: float | None = None,
    unique: bool = False,
    engine: str = CP_SAT,
    strategy: str | None = None,
    mip_solver: str = "scip",
    queens: Iterable[Square] = (),
    blocked: Iterable[Square] = (),
) -> EngineStream:
    """Every solution for an n x n board, yielded as the engine finds them.

    ``limit`` stops after that many solutions, ``time_limit`` after that many seconds; ``unique``
    yields one solution per class under the 8 symmetries of the square (cp-sat only).
    ``queens`` must be kept and ``blocked`` squares left empty (0-based ``(row, col)``). The
    stream's ``stats`` tell how the search ended once it is exhausted or closed.
    """
    _check_enumeration(n, limit=limit, time_limit=time_limit)
    _check_engine(engine, strategy, mip_solver)
    _check_engine_size(engine, strategy, n)
    puzzle = _puzzle(n, queens, blocked)
    if unique and engine != CP_SAT:
        raise InputError("unique solutions come from cp-sat's symmetry breaking: use cp-sat")
    if unique and puzzle is not None:
        raise InputError("unique solutions need a symmetric board: the given squares break it")
    if engine == MIP:
        _check_mip_enumeration(n, limit)
        from nqueens.engines.mip import MipSolutionStream

        return MipSolutionStream(
            n, backend=mip_solver, limit=limit, time_limit=time_limit, puzzle=puzzle
        )
    chosen = _enumeration_strategy(engine, strategy, n, limit, listing=True)
    if engine == CP:
        from nqueens.engines.cp import CpSolutionStream

        return CpSolutionStream(
            n, strategy=chosen, limit=limit, time_limit=time_limit, puzzle=puzzle
        )
    from nqueens.engines.cpsat import CpSatSolutionStream

    return CpSatSolutionStream(
        n, limit=limit, time_limit=time_limit, unique=unique, strategy=chosen, puzzle=puzzle
    )


def count(
    n: int,
    *,
    time_limit: float | None = None,
    workers: int | None = None,
    symmetry: bool = True,
    on_progress: ProgressCallback | None = None,
    engine: str = CP_SAT,
    strategy: str | None = None,
    mip_solver: str = "scip",
    queens: Iterable[Square] = (),
    blocked: Iterable[Square] = (),
) -> Stats:
    """Count the solutions for an n x n board exactly; ``stats.solutions`` is the count.

    On cp-sat, ``symmetry`` (the default) enumerates one solution per class under the 8
    symmetries of the square and ``stats.unique`` holds the number of classes; ``workers``
    processes share the search (default: every core; 1 searches in this process), and
    ``on_progress(done, total, solutions)`` is called as each subproblem finishes. The cp and mip
    engines search in this process, without symmetry breaking. ``queens`` must be kept and
    ``blocked`` squares left empty (0-based ``(row, col)``); they break the board's symmetry, so
    symmetry breaking is then off. Ctrl-C raises ``SearchInterrupted``, whose ``stats`` hold
    the partial count.
    """
    _check_enumeration(n, limit=None, time_limit=time_limit)
    _check_engine(engine, strategy, mip_solver)
    _check_engine_size(engine, strategy, n)
    puzzle = _puzzle(n, queens, blocked)
    if workers is not None and workers < 1:
        raise InputError(f"the number of workers must be at least 1, not {workers}")
    if engine == MIP:
        _check_mip_enumeration(n, None)
        from nqueens.engines.mip import MipSolutionStream

        return count_all(
            MipSolutionStream(
                n, backend=mip_solver, limit=None, time_limit=time_limit, puzzle=puzzle
            )
        )
    chosen = _enumeration_strategy(engine, strategy, n, None, listing=False)
    if engine == CP:
        from nqueens.engines.cp import CpSolutionStream

        return count_all(
            CpSolutionStream(n, strategy=chosen, limit=None, time_limit=time_limit, puzzle=puzzle)
        )
    from nqueens.engines.counting import count_solutions, default_workers

    return count_solutions(
        n,
        time_limit=time_limit,
        symmetry=symmetry and puzzle is None,
        strategy=chosen,
        workers=workers or default_workers(),
        on_progress=on_progress,
        puzzle=puzzle,
    )


def first(
    n: int,
    *,
    time_limit: float | None = None,
    engine: str = AUTO,
    strategy: str | None = None,
    mip_solver: str = "scip",
    queens: Iterable[Square] = (),
    blocked: Iterable[Square] = (),
) -> FirstResult:
    """Find one solution for an n x n board, or prove that none exists.

    ``queens`` must be kept and ``blocked`` squares left empty (0-based ``(row, col)``).

    ``engine="auto"`` runs the engines and strategies measured fastest to a first solution
    (see :mod:`nqueens.engines.auto`); ``stats.engine`` and ``stats.strategy`` say which one
    decided, and ``stats.wall_time`` covers every attempt.
    """
    _check_limits(n, limit=None, time_limit=time_limit)
    puzzle = _puzzle(n, queens, blocked)
    if engine != AUTO:
        _check_engine(engine, strategy, mip_solver)
        _check_engine_size(engine, strategy, n)
        return _first_on(engine, strategy, n, time_limit, mip_solver, puzzle)
    if strategy is not None:
        raise InputError("--strategy needs an engine: the auto engine picks both")
    from nqueens.engines.auto import first_plan

    started = time.monotonic()
    plan = first_plan(n, puzzle)
    for attempt in plan:
        budget = None if time_limit is None else time_limit - (time.monotonic() - started)
        if budget is not None and budget <= 0 and attempt is not plan[0]:
            break  # the time limit is spent: the previous attempt's result stands
        if attempt.seconds is not None:
            budget = attempt.seconds if budget is None else min(budget, attempt.seconds)
        result = _first_on(attempt.engine, attempt.strategy, n, budget, mip_solver, puzzle)
        decided = result.solution is not None or result.proven_infeasible
        if decided or attempt is plan[-1]:
            break
    wall_time = time.monotonic() - started
    return FirstResult(result.solution, replace(result.stats, wall_time=wall_time))


def _first_on(
    engine: str,
    strategy: str | None,
    n: int,
    time_limit: float | None,
    mip_solver: str,
    puzzle: Puzzle | None,
) -> FirstResult:
    """One engine's search for a first solution."""
    if engine == MIP:
        from nqueens.engines.mip import MipSolutionStream

        return first_of(
            MipSolutionStream(n, backend=mip_solver, limit=1, time_limit=time_limit, puzzle=puzzle)
        )
    if engine == CP:
        from nqueens.engines.cp import CpSolutionStream

        chosen = strategy or FIRST_FAIL_MID
        return first_of(
            CpSolutionStream(n, strategy=chosen, limit=1, time_limit=time_limit, puzzle=puzzle)
        )
    from nqueens.engines import cpsat

    return cpsat.find_first(n, strategy=strategy or AUTO, time_limit=time_limit, puzzle=puzzle)

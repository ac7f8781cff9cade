"""The public Python API: ``solve``, ``count`` and ``first``. The CLI is built on these.

They check their arguments, then hand the search to an engine; OR-Tools is imported only when a
search actually runs, so importing ``nqueens`` (and ``nqueens --help``) stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nqueens.known_counts import KNOWN_TOTALS
from nqueens.results import FirstResult, Stats

if TYPE_CHECKING:
    from nqueens.engines.counting import ProgressCallback
    from nqueens.engines.cpsat import SolutionStream

MAX_N = 10_000
"""The largest board accepted: beyond it, even building the model takes longer than is useful."""

MAX_UNBOUNDED_ENUMERATION_N = 18
"""The largest board whose solutions are enumerated with no time or solution limit.

N = 18 has 666,090,624 solutions, already hours of enumeration; N = 19 has 7.5 times as many.
"""


class InputError(ValueError):
    """An argument outside what nqueens accepts; the message says why, for the user to read."""


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


def _check_enumeration(n: int, *, limit: int | None, time_limit: float | None) -> None:
    """Also refuse to enumerate every solution of a board so large that it could never finish."""
    _check_limits(n, limit=limit, time_limit=time_limit)
    if n <= MAX_UNBOUNDED_ENUMERATION_N or limit is not None or time_limit is not None:
        return
    known = KNOWN_TOTALS.get(n)
    size = (
        f"N = {n} has {known:,} solutions"
        if known is not None
        else f"nobody has counted the solutions for N = {n} yet (N = 27 alone has 2.3e17)"
    )
    raise InputError(
        f"{size}: enumerating them one by one would run for days or more. Give a time limit "
        "(--time-limit) for a partial count, a lower bound, or a solution limit (solve --limit)."
    )


def solve(
    n: int, *, limit: int | None = None, time_limit: float | None = None, unique: bool = False
) -> SolutionStream:
    """Every solution for an n x n board, yielded as CP-SAT finds them.

    ``limit`` stops after that many solutions, ``time_limit`` after that many seconds; ``unique``
    yields one solution per class under the 8 symmetries of the square. The stream's ``stats``
    tell how the search ended once it is exhausted or closed.
    """
    _check_enumeration(n, limit=limit, time_limit=time_limit)
    from nqueens.engines.cpsat import SolutionStream

    exhaustive = limit is None and n <= MAX_UNBOUNDED_ENUMERATION_N
    return SolutionStream(
        n, limit=limit, time_limit=time_limit, unique=unique, exhaustive=exhaustive
    )


def count(
    n: int,
    *,
    time_limit: float | None = None,
    workers: int | None = None,
    symmetry: bool = True,
    on_progress: ProgressCallback | None = None,
) -> Stats:
    """Count the solutions for an n x n board exactly; ``stats.solutions`` is the count.

    With ``symmetry`` (the default) the solver enumerates one solution per class under the 8
    symmetries of the square and ``stats.unique`` holds the number of classes. ``workers``
    processes share the search (default: every core; 1 searches in this process).
    ``on_progress(done, total, solutions)`` is called as each subproblem finishes. Ctrl-C raises
    ``SearchInterrupted``, whose ``stats`` hold the partial count.
    """
    _check_enumeration(n, limit=None, time_limit=time_limit)
    if workers is not None and workers < 1:
        raise InputError(f"the number of workers must be at least 1, not {workers}")
    from nqueens.engines.counting import count_solutions, default_workers

    return count_solutions(
        n,
        time_limit=time_limit,
        symmetry=symmetry,
        workers=workers or default_workers(),
        on_progress=on_progress,
    )


def first(n: int, *, time_limit: float | None = None) -> FirstResult:
    """Find one solution for an n x n board, or prove that none exists."""
    _check_limits(n, limit=None, time_limit=time_limit)
    from nqueens.engines.cpsat import find_first

    return find_first(n, time_limit=time_limit)

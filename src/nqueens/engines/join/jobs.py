"""The join engine's pieces: spans of its jobs, counted by the C module a slice at a time.

Loaded when a count runs, not when the registry reads the engine's declaration.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from functools import lru_cache

from nqueens.engines.base import Subcount, Subproblem, counted_in_slices
from nqueens.engines.join import _join

_SLICE = 1 << 22
"""Work (half boards, or 256 pairs compared) per call of the C module: milliseconds."""


@dataclass(frozen=True)
class JoinSubproblem(Subproblem):
    """The jobs ``span[0]`` to ``span[1] - 1`` of a plain n x n board."""

    n: int = 0
    symmetry: bool = True
    span: tuple[int, int] = (0, 0)


def spans(
    name: str, n: int, symmetry: bool, pieces: int, deadline: float | None
) -> list[JoinSubproblem]:
    """The jobs of an n x n board in about ``pieces`` spans of as many jobs each."""
    total = _join.jobs(quarters(n, symmetry))
    size = max(1, -(-total // pieces))
    base = JoinSubproblem(name, deadline, n, symmetry)
    return [replace(base, span=(at, min(at + size, total))) for at in range(0, total, size)]


def finer(task: Subproblem) -> list[JoinSubproblem] | None:
    """A span cut into its jobs; a job cannot be cut."""
    assert isinstance(task, JoinSubproblem)
    start, end = task.span
    if end - start <= 1:
        return None
    return [replace(task, span=(at, at + 1)) for at in range(start, end)]


def count(task: Subproblem) -> Subcount:
    """Count a span of jobs; the jobs finished when a deadline or Ctrl-C stops it are a lower
    bound."""
    assert isinstance(task, JoinSubproblem)
    counter = _counter(task)
    found = (0, 0, 0, False)

    def step() -> None:
        nonlocal found
        found = _join.count(counter, _SLICE)

    def over() -> bool:
        return found[3]

    def total(complete: bool) -> Subcount:
        solutions, halves, pairs, _ = found
        return Subcount(solutions, None, halves, pairs, complete)

    return counted_in_slices(task.deadline, over, step, total)


@lru_cache(maxsize=2)
def quarters(n: int, symmetry: bool) -> _join.Quarters:
    """The quarters' lists and jobs of an n x n board, made once a process (they never change:
    every count and thread reads the same)."""
    return _join.quarters(n, symmetry)


_counters = threading.local()
"""Each thread's count under way, kept between pieces: the quadrants it laid out for a
placement of the middle queens serve the next piece, which mostly has the same."""


def _counter(task: JoinSubproblem) -> _join.Counter:
    """This thread's counter, set to ``task``'s span."""
    board = quarters(task.n, task.symmetry)
    start, end = task.span
    kept: _join.Counter | None = getattr(_counters, "counter", None)
    if kept is not None and _join.board(kept) is board:
        _join.restart(kept, start, end)
        return kept
    counter = _join.start(board, start, end)
    _counters.counter = counter
    return counter

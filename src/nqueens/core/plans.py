"""What nqueens decides before a search, as plain values: the engine it runs and why, what it
says first, and the engines that could take the request and those that could not."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from nqueens.core.board import Board
from nqueens.core.notes import Note
from nqueens.core.results import Solution


@dataclass(frozen=True)
class Attempt:
    """One search of a plan: ``engine`` with ``strategy`` (None: the engine's own) for at most
    ``seconds`` (None: whatever time is left)."""

    engine: str
    strategy: str | None
    seconds: float | None = None


@dataclass(frozen=True)
class Plan:
    """How nqueens will answer a request, decided before it searches.

    ``engine`` names the engine that searches (for ``first``, the first of ``attempts``), or
    ``"theorem"`` where a theorem answers without a search; ``reason`` says why that one.
    ``notes`` are what is worth saying before the search (the command line prints each as
    ``Note: ...``). ``known_total`` is the published number of solutions of a plain board,
    where one is known. ``time_limit`` is the search's, in seconds (None: none). ``workers``
    is how many processes of this machine count (1: this one; a local cluster's workers; None
    where the engine searches in one piece, or a remote cluster's workers count). Where nothing
    else bounds a count whose length only a timed sample of its pieces can tell, ``longest`` is
    the estimate, in seconds, from which the count refuses itself once it has timed them.
    ``answer`` holds what a theorem answers, where one does (``engine`` is ``"theorem"``): no
    solution, or a line of queens.
    ``refusals`` maps each engine that cannot take the request to why (computed when first
    read: some engines estimate the search to judge it).
    """

    command: str
    board: Board
    engine: str
    reason: str
    attempts: tuple[Attempt, ...]
    notes: tuple[Note, ...] = ()
    known_total: int | None = None
    time_limit: float | None = None
    workers: int | None = None
    longest: float | None = None
    answer: tuple[Solution, ...] = field(default=(), repr=False, compare=False)
    judged: Callable[[], Mapping[str, str | None]] = field(
        default=lambda: {}, repr=False, compare=False
    )

    @cached_property
    def refusals(self) -> dict[str, str]:
        """Each engine that has the command but cannot take this request, and why."""
        return {name: why for name, why in self._verdicts.items() if why is not None}

    @property
    def able(self) -> tuple[str, ...]:
        """The engines that can take this request (``refusals`` names the others)."""
        return tuple(name for name, why in self._verdicts.items() if why is None)

    @cached_property
    def _verdicts(self) -> dict[str, str | None]:
        return dict(self.judged())

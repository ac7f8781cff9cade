"""What nqueens decides before a search, as plain values: the engine it runs and why, what it
says first, and the engines that could take the request and those that could not."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from nqueens.core.board import Board


@dataclass(frozen=True)
class Note:
    """Something worth saying beside a search's answer, such as an engine far slower than the
    one nqueens would pick. Where it mentions an argument it writes it as ``{name}`` (each of
    ``names``): ``str()`` spells it as the API does (``engine=``), ``worded`` as a caller's
    ``spell`` does (the command line's ``--engine``)."""

    template: str
    names: tuple[str, ...] = ()

    def worded(self, spell: Callable[[str], str]) -> str:
        """The note, each argument it mentions spelled by ``spell``."""
        text = self.template
        for name in self.names:
            text = text.replace(f"{{{name}}}", spell(name))
        return text

    def __str__(self) -> str:
        return self.worded(lambda name: f"{name}=")


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
    where one is known. ``refusals`` maps each engine that cannot take the request to why
    (computed when first read: some engines estimate the search to judge it).
    """

    command: str
    board: Board
    engine: str
    reason: str
    attempts: tuple[Attempt, ...]
    notes: tuple[Note, ...] = ()
    known_total: int | None = None
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

"""The steps of a search as ``explain`` records them: what kind each is, and the board as it
stood."""

from __future__ import annotations

from dataclasses import dataclass

from nqueens.core.results import Square

DECISION = "decision"


PROPAGATION = "propagation"


DEAD_END = "dead-end"


BACKTRACK = "backtrack"


SOLUTION = "solution"


Domains = tuple[frozenset[int], ...]  # the rows still possible in each column


@dataclass(frozen=True)
class Event:
    """One step of the search, with the board as it stood: ``domains[c]`` are column c's rows."""

    step: int
    kind: str
    text: str
    domains: Domains
    removed: frozenset[Square] = frozenset()  # squares this step's propagation ruled out
    focus: Square | None = None  # the square the step is about (a decision, a refutation)
    decided: frozenset[Square] = frozenset()  # queens placed by open decisions; others forced

    @property
    def queens(self) -> frozenset[Square]:
        """Every column's queen where its column has one row left."""
        return frozenset(
            (next(iter(rows)), col) for col, rows in enumerate(self.domains) if len(rows) == 1
        )

    @property
    def forced(self) -> frozenset[Square]:
        """The queens no decision placed: propagation left their column one row."""
        return self.queens - self.decided

    @property
    def crossed(self) -> frozenset[Square]:
        """The squares ruled out so far."""
        n = len(self.domains)
        return frozenset(
            (row, col)
            for col, rows in enumerate(self.domains)
            for row in range(n)
            if row not in rows
        )

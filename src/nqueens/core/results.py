"""Values every layer shares: a solution, how a search ended, and its statistics.

Core code returns these; only the CLI decides how to show them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from nqueens.core.board import Board
from nqueens.core.errors import InputError as InputError
from nqueens.core.errors import Square as Square
from nqueens.core.notes import Note
from nqueens.core.wording import counted


@dataclass(frozen=True)
class Solution:
    """One placement of N queens: ``rows[c]`` is the 0-based row of the queen in column ``c``."""

    rows: tuple[int, ...]
    board: Board | None = field(default=None, compare=False, repr=False)
    """The board it was found on where that holds more than N queens (given queens, blocked
    squares, excluded diagonals, a rule), which its pictures show; None for the plain board."""

    @property
    def n(self) -> int:
        """The board size."""
        return len(self.rows)

    def __str__(self) -> str:
        """The board drawn in text, as ``solve`` writes it off a terminal: a line a row, ``Q`` a
        queen, ``_`` an empty square (beyond N = 100, the 1-based row of each column's queen)."""
        from nqueens.core.pictures import solution_text

        return solution_text(self.n, self.rows)

    def to_svg(self, *, ascii_only: bool = False) -> str:
        """The board as an SVG picture, as ``--svg`` draws it: its board's given queens, blocked
        squares, excluded diagonals and rule marked; queens as Q with ``ascii_only`` (up to
        N = 200: InputError beyond)."""
        from nqueens.core.pictures import board_svg

        return board_svg(self.n, self.squares(), board=self.board, ascii_only=ascii_only)

    def _repr_svg_(self) -> str | None:
        """The picture a notebook shows (none beyond N = 200, where it shows the text)."""
        from nqueens.core.pictures import notebook_svg

        return notebook_svg(self.n, self.squares(), self.board)

    def squares(self) -> list[Square]:
        """The queens as 0-based ``(row, col)`` pairs, as ``queens=`` takes them back."""
        return [(row, col) for col, row in enumerate(self.rows)]

    def one_based_squares(self) -> list[Square]:
        """The queens as 1-based ``(row, col)`` pairs, the way people read and type squares."""
        return [(row + 1, col + 1) for col, row in enumerate(self.rows)]


class Status(enum.Enum):
    """Why a search ended; only COMPLETE and LIMIT are whole answers."""

    COMPLETE = "complete"  # the search space was exhausted
    LIMIT = "limit"  # stopped after the number of solutions asked for
    TIME_LIMIT = "time-limit"  # stopped by the time limit: a partial answer
    INTERRUPTED = "interrupted"  # stopped by Ctrl-C or by the caller: a partial answer

    @property
    def partial(self) -> bool:
        """True when what was found is only a lower bound on what exists."""
        return self in (Status.TIME_LIMIT, Status.INTERRUPTED)


@dataclass(frozen=True)
class Finished:
    """How far a count that stopped got: ``pieces`` of its ``total`` pieces finished, holding
    ``solutions`` (what a checkpoint keeps, and a resumed count starts from; the count's own
    lower bound adds what the pieces cut short had found)."""

    pieces: int
    total: int
    solutions: int

    @property
    def share(self) -> float:
        """The part of the pieces finished, 0 to 1."""
        return self.pieces / self.total if self.total else 1.0


@dataclass(frozen=True)
class Stats:
    """The solver's own statistics for one search, as the OR-Tools guide's programs report them.

    ``conflicts`` and ``branches`` are the engine's two counters, which ``counter_names`` names as
    the engine does (``Engine.stat_names``): CP-SAT's conflicts and branches, the original CP
    solver's failures and branches, a MIP solver's simplex iterations and branch-and-bound nodes, or
    the bitboard engine's subproblems and nodes (queens placed)."""

    n: int
    solutions: int
    conflicts: int
    branches: int
    wall_time: float
    status: Status
    engine: str  # which solver: it decides what conflicts and branches mean
    counter_names: tuple[str, str]  # what the two counters count, as the engine names them
    unique: int | None = None  # solutions up to the 8 symmetries, when the search counted them
    strategy: str | None = None  # the search strategy, where the engine takes one
    backend: str | None = None  # the solver behind the engine, where it has a choice (mip)
    finished: Finished | None = None  # of a count cut into pieces that stopped: how far it got

    @property
    def solutions_per_second(self) -> float:
        """Solutions found per second of wall time (0 when no time was measured)."""
        return self.solutions / self.wall_time if self.wall_time > 0 else 0.0

    @property
    def figures(self) -> dict[str, int]:
        """The engine's two counters under the engine's names for them, e.g. ``{"subproblems":
        94, "nodes": 198511}`` for the bitboard engine: what ``--stats`` prints."""
        first_name, second_name = self.counter_names
        return {first_name: self.conflicts, second_name: self.branches}

    def __repr__(self) -> str:
        """The fields, with the engine's two counters under its names for them."""
        named = {
            "n": self.n,
            "solutions": self.solutions,
            **self.figures,
            "wall_time": round(self.wall_time, 6),
            "status": self.status.value,
            "unique": self.unique,
            "engine": self.engine,
            "strategy": self.strategy,
            "backend": self.backend,
        }
        shown = ", ".join(f"{name}={value!r}" for name, value in named.items() if value is not None)
        return f"Stats({shown})"


@dataclass(frozen=True)
class FirstResult:
    """The outcome of looking for one solution: ``solution`` is None when none was found."""

    solution: Solution | None
    stats: Stats
    notes: tuple[Note, ...] = ()
    """What is worth saying beside the answer, such as a seed that changed nothing."""

    @property
    def proven_infeasible(self) -> bool:
        """True when the search finished and proved that no solution exists."""
        return self.solution is None and self.stats.status is Status.COMPLETE


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a search; ``stats`` holds what was found until then (a lower bound).

    A KeyboardInterrupt, so code that does not care still sees an ordinary Ctrl-C.
    """

    def __init__(self, stats: Stats) -> None:
        super().__init__(f"interrupted after {counted(stats.solutions, 'solution')}")
        self.stats = stats

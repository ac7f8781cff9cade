"""``nqueens explain``: the original CP solver's real search, event by event.

A search monitor (``pywrapcp.SearchMonitor``) watches the solver run the OR-Tools guide's model:
every decision (a queen placed), what propagation removed, every dead end, every backtrack, every
solution. Each event carries the domains of all columns at that moment, so it can be drawn. The
failures and branches reported at the end are the solver's own counters for this very search.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ortools.constraint_solver import pywrapcp

from nqueens.core.board import Board
from nqueens.core.geometry import attack, square_name
from nqueens.core.results import InputError, Square
from nqueens.core.strategies import FIRST_FAIL_MID, FIRST_MIN
from nqueens.engines.cp.model import decision_builder, queens_on
from nqueens.explain.steps import (
    BACKTRACK,
    DEAD_END,
    DECISION,
    PROPAGATION,
    SOLUTION,
    Domains,
    Event,
)
from nqueens.explain.tree import SearchTree

MAX_EXPLAIN_N = 10
"""Every step is drawn; larger boards would scroll by unreadably."""


@dataclass(frozen=True)
class Explanation:
    """The narrated search, its tree, and the solver's own counters for it."""

    n: int
    strategy: str
    events: list[Event]
    solutions: int
    failures: int
    branches: int
    tree: SearchTree


_DECISION_TEXT = re.compile(r"col_(\d+)\([^)]*\) == (-?\d+)")


class _Narrator(pywrapcp.SearchMonitor):  # type: ignore[misc]
    """Records an Event at each hook the solver calls while it searches."""

    def __init__(
        self, solver: pywrapcp.Solver, queens: list[pywrapcp.IntVar], rules: frozenset[str]
    ) -> None:
        super().__init__(solver)
        self._queens = queens
        self._rules = rules
        self.events: list[Event] = []
        self._decisions: list[Square] = []  # the open decisions, oldest first
        self._before: Domains = self._domains()
        self.tree = SearchTree()

    def _domains(self) -> Domains:
        n = len(self._queens)
        return tuple(
            frozenset(row for row in range(n) if queen.Contains(row)) for queen in self._queens
        )

    def _record(self, kind: str, text: str, domains: Domains, focus: Square | None = None) -> None:
        removed = frozenset(
            (row, col)
            for col, (before, now) in enumerate(zip(self._before, domains, strict=True))
            for row in before - now
        )
        event = Event(
            len(self.events) + 1, kind, text, domains, removed, focus, frozenset(self._decisions)
        )
        self.events.append(event)
        self.tree.record(event)
        self._before = domains

    def _with(self, square: Square, *, placed: bool) -> Domains:
        """The current domains with a queen put on ``square``, or with ``square`` ruled out."""
        row, col = square
        domains = list(self._domains())
        domains[col] = frozenset({row}) if placed else domains[col] - {row}
        return tuple(domains)

    @staticmethod
    def _square(decision: pywrapcp.Decision) -> Square:
        match = _DECISION_TEXT.search(decision.DebugString())
        if match is None:  # the decision builders used here only ever make var == value
            raise RuntimeError(f"unexpected decision {decision.DebugString()}")
        return int(match.group(2)), int(match.group(1))

    def ApplyDecision(self, decision: pywrapcp.Decision) -> None:  # OR-Tools names the hooks
        square = self._square(decision)
        self._before = self._domains()
        self._decisions.append(square)
        self.tree.branch(f"queen {square_name(square)}", len(self._decisions) - 1)
        text = f"Decision {len(self._decisions)}: place a queen on {square_name(square)}."
        self._record(DECISION, text, self._with(square, placed=True), square)

    def RefuteDecision(self, decision: pywrapcp.Decision) -> None:
        square = self._square(decision)
        depth = self._decisions.index(square) + 1
        self._decisions = self._decisions[: depth - 1]
        self.tree.branch(f"not {square_name(square)}", depth - 1)
        self._before = self._domains()
        domains = self._with(square, placed=False)
        text = (
            f"Backtrack to decision {depth}: take the queen off {square_name(square)} "
            "and rule that square out"
        )
        _, col = square
        if len(domains[col]) == 1:
            forced = (next(iter(domains[col])), col)
            text += f", which leaves column {col + 1} one row: a queen is forced on "
            text += square_name(forced)
        self._record(BACKTRACK, text + ".", domains, square)

    def AfterDecision(self, decision: pywrapcp.Decision, apply: bool) -> None:
        domains = self._domains()
        removed = sum(len(before - now) for before, now in zip(self._before, domains, strict=True))
        forced = [
            (next(iter(rows)), col)
            for col, rows in enumerate(domains)
            if len(rows) == 1 and len(self._before[col]) > 1
        ]
        if not removed:
            return  # nothing to show: the step before already drew this board
        text = f"Propagation removes {removed} square{'s' if removed != 1 else ''}"
        if forced:
            text += " and forces " + ", ".join(f"a queen on {square_name(sq)}" for sq in forced)
        self._record(PROPAGATION, text + ".", domains)

    def BeginFail(self) -> None:
        # The solver fails in the middle of propagating, where its domains are half-updated; the
        # board shown is the previous one crossed out by plain forward checking to the dead end.
        reason, domains = _forward_check(self._before, self._rules)
        self._record(DEAD_END, f"Dead end: {reason}.", domains)

    def AcceptSolution(self) -> bool:
        text = "Solution: every column has its queen and none attacks another."
        self._record(SOLUTION, text, self._domains())
        return True


def _forward_check(before: Domains, rules: frozenset[str]) -> tuple[str, Domains]:
    """Why the board of the previous step cannot be completed, and the board that shows it.

    Every lone square in a column is a queen; squares those queens attack are crossed out in the
    other columns, again and again, until a column is left with nothing: that is the reason.
    """
    domains = [frozenset(rows) for rows in before]

    def said(wiped: str) -> str:
        """The reason, with the queens forced on the way to it: every queen on the board shown
        is one a step has named."""
        forced = [
            square_name((next(iter(rows)), col))
            for col, rows in enumerate(domains)
            if len(rows) == 1 and len(before[col]) > 1
        ]
        if not forced:
            return wiped
        queens = ", ".join(f"a queen on {square}" for square in forced)
        return f"the queens already placed force {queens}, and then {wiped}"

    while True:
        queens = [(next(iter(rows)), col) for col, rows in enumerate(domains) if len(rows) == 1]
        changed = False
        for col, rows in enumerate(domains):
            others = [queen for queen in queens if queen[1] != col]
            left = frozenset(
                row
                for row in rows
                if all(attack((row, col), q, len(domains), rules) is None for q in others)
            )
            if left != rows:
                domains[col] = left
                changed = True
            if not left:
                reason = f"column {col + 1} is wiped out, every square in it is attacked"
                return said(reason), tuple(domains)
        if not changed:
            return said("the solver's AllDifferent propagation finds no way on"), tuple(domains)


def explain(board: Board, *, strategy: str = FIRST_MIN, all_solutions: bool = False) -> Explanation:
    """Run the OR-Tools guide's original-CP search on a board (given squares kept), narrated."""
    n = board.n
    if not 1 <= n <= MAX_EXPLAIN_N:
        raise InputError(
            f"explain draws every step, so it takes boards of 1 to {MAX_EXPLAIN_N}, not {n}"
        )
    if strategy not in (FIRST_MIN, FIRST_FAIL_MID):
        raise InputError("explain follows a named strategy: first-min or first-fail-mid")
    solver = pywrapcp.Solver(f"{n}-queens explained")
    queens = queens_on(solver, board)
    builder = decision_builder(solver, queens, strategy)
    narrator = _Narrator(solver, queens, board.rules)
    solutions = 0
    solver.NewSearch(builder, [narrator])
    while solver.NextSolution():
        solutions += 1
        if not all_solutions:
            break
    solver.EndSearch()
    return Explanation(
        n,
        strategy,
        narrator.events,
        solutions,
        solver.Failures(),
        solver.Branches(),
        narrator.tree,
    )

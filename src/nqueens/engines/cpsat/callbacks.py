"""Solution callbacks: CP-SAT calls ``on_solution_callback`` once for every solution it finds.

Neither callback keeps the solutions it sees: one only counts them, the other hands each board to a
consumer as it arrives, so that enumerating millions of solutions takes constant memory.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from nqueens.core.results import Solution
from nqueens.core.symmetry import class_size
from nqueens.engines.cpsat.without_pandas import cp_model


class CountingCallback(cp_model.CpSolverSolutionCallback):
    """Counts solutions without reading them: the cheapest callback for ``count``."""

    def __init__(self) -> None:
        super().__init__()
        self.solution_count = 0

    def on_solution_callback(self) -> None:
        self.solution_count += 1


class ClassCountingCallback(cp_model.CpSolverSolutionCallback):
    """Counts the solutions of a symmetry-breaking model: one per class, weighted by class size.

    Each solution the solver finds stands for its whole class under the 8 symmetries of the
    square, so ``unique_count`` grows by one and ``solution_count`` by the class size (8, 4 or 2).
    """

    def __init__(self, queens: Sequence[cp_model.IntVar]) -> None:
        super().__init__()
        self._queens = list(queens)
        self.unique_count = 0
        self.solution_count = 0

    def on_solution_callback(self) -> None:
        self.unique_count += 1
        self.solution_count += class_size([self.value(queen) for queen in self._queens])


class StreamingCallback(cp_model.CpSolverSolutionCallback):
    """Turns each solution into a ``Solution`` and passes it to ``deliver``.

    ``deliver`` returns False when the consumer wants no more solutions; the search also stops once
    ``limit`` solutions have been delivered.
    """

    def __init__(
        self,
        queens: Sequence[cp_model.IntVar],
        deliver: Callable[[Solution], bool],
        limit: int | None = None,
    ) -> None:
        super().__init__()
        self._queens = list(queens)
        self._deliver = deliver
        self._limit = limit
        self.solution_count = 0
        self.reached_limit = False

    def on_solution_callback(self) -> None:
        solution = Solution(rows=tuple(self.value(queen) for queen in self._queens))
        if not self._deliver(solution):
            self.stop_search()
            return
        self.solution_count += 1
        if self._limit is not None and self.solution_count >= self._limit:
            self.reached_limit = True
            self.stop_search()

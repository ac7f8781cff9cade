"""The bitboard engine's count of plain boards by their edge queens, in its C module.

``nqueens.engines.bitboard._edges`` lists the canonical constellations of a board (the queens
on its four edges, one per class of the square's symmetries) and counts them with their images;
here a count is cut into spans of them, and a span counted a slice at a time. Where the package
was built without a C compiler the module is missing, and the engine counts as it does puzzles.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import replace
from functools import cache
from types import ModuleType

from nqueens.engines.base import Request, Subcount, SubproblemInterrupted
from nqueens.engines.bitboard.pieces import BitSubproblem
from nqueens.engines.jit import KernelFallbackWarning

FROM_N = 5
"""The smallest board with a queen on each edge that is not a corner's."""
WORKERS_FROM_N = 15
"""From this size a count by edges goes to every core: smaller ones end before workers start."""


@cache
def c_module() -> ModuleType | None:
    """The C counter of plain boards, or None (once saying so) where the package was built
    without it."""
    try:
        import nqueens.engines.bitboard._edges as _edges
    except ImportError as error:
        warnings.warn(
            f"the C counter of plain boards is not built ({error}): counting with the numba "
            "search, which is slower and a second slower to start; reinstalling the package "
            "where a C compiler is found builds it",
            KernelFallbackWarning,
            stacklevel=2,
        )
        return None
    return _edges


def counts(request: Request) -> bool:
    """Whether the request is counted by the C module: a plain board, with its symmetries."""
    board = request.board
    if not (request.symmetry and board.symmetric and not board.rules):
        return False
    if request.n < FROM_N:
        return False
    module = c_module()
    return module is not None and request.n <= module.MAX_N


def spans(n: int) -> list[tuple[int, int]]:
    """The constellations of an n x n board in pieces: one each from N = 16 (milliseconds and
    up), several together below, where one would take microseconds; one piece below N = 12."""
    module = c_module()
    assert module is not None
    total = len(module.constellations(n))
    size = total if n < 12 else 1 << max(0, 16 - n)
    return [(start, min(start + size, total)) for start in range(0, total, size)]


def finer(task: BitSubproblem) -> list[BitSubproblem] | None:
    """A span cut into its constellations; a constellation (or a part of one) by the rows of its
    next free line, to the line before the last two. The parts' symmetry classes are rounded
    down: they serve estimates, which time them."""
    start, end = task.span
    if end - start > 1:
        return [replace(task, span=(at, at + 1)) for at in range(start, end)]
    module = c_module()
    assert module is not None
    lines = module.free_lines(task.n, start)
    if len(task.fixed) >= len(lines) - 2:
        return None
    line = lines[len(task.fixed)]
    return [replace(task, fixed=(*task.fixed, (line, row))) for row in range(task.n)]


def count(task: BitSubproblem, budget: int) -> Subcount:
    """Count a piece of the bitboard engine: a span of constellations, or a part of one."""
    rows = tuple(row for _, row in task.fixed)
    return count_span(task.n, task.span, task.deadline, budget, rows)


def count_span(
    n: int,
    span: tuple[int, int],
    deadline: float | None,
    budget: int,
    rows: tuple[int, ...] = (),
) -> Subcount:
    """Count constellations ``span[0]`` to ``span[1] - 1`` (with ``rows`` on the first free lines
    of one) in the C module, ``budget`` placements at a time so that the deadline (a time.time()
    value) and Ctrl-C are heard."""
    module = c_module()
    if module is None:
        raise RuntimeError("this installation of nqueens has no C counter to count this piece")
    state = bytearray(module.STATE_SIZE)
    start, end = span
    solutions = classes = nodes = 0
    try:
        while True:
            if deadline is not None and time.time() >= deadline:
                return Subcount(solutions, classes, 1, nodes, complete=False)
            solutions, classes, nodes, over = module.count(n, start, end, state, budget, rows)
            if over:
                return Subcount(solutions, classes, 1, nodes, complete=True)
    except KeyboardInterrupt:
        raise SubproblemInterrupted(Subcount(solutions, classes, 1, nodes, False)) from None

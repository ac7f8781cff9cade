"""The bitboard engine's count of plain boards by their edge queens, in its C module.

``nqueens.engines.bitboard._edges`` lists the canonical constellations of a board (the queens
on its four edges, one per class of the square's symmetries) and counts them with their images;
here a count is cut into spans of them, and a span counted a slice at a time.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from nqueens.engines.base import Request, Subcount, counted_in_slices
from nqueens.engines.bitboard import _edges
from nqueens.engines.bitboard.pieces import BitSubproblem

FROM_N = 5
"""The smallest board with a queen on each edge that is not a corner's."""
WORKERS_FROM_N = 15
"""From this size a count by edges goes to every core: smaller ones end before workers start."""


def counts(request: Request) -> bool:
    """Whether the request is counted by the C module: a plain board, with its symmetries."""
    board = request.board
    if not (request.symmetry and board.symmetric and not board.rules):
        return False
    if request.n < FROM_N:
        return False
    return request.n <= _edges.MAX_N


def spans(n: int) -> list[tuple[int, int]]:
    """The constellations of an n x n board in pieces: one each from N = 16 (milliseconds and
    up), several together below, where one would take microseconds; one piece below N = 12."""
    total = len(_edges.constellations(n))
    size = total if n < 12 else 1 << max(0, 16 - n)
    return [(start, min(start + size, total)) for start in range(0, total, size)]


def finer(task: BitSubproblem) -> list[BitSubproblem] | None:
    """A span cut into its constellations; a constellation (or a part of one) by the rows of its
    next free line, to the line before the last two. The parts' symmetry classes are rounded
    down: they serve estimates, which time them."""
    start, end = task.span
    if end - start > 1:
        return [replace(task, span=(at, at + 1)) for at in range(start, end)]
    lines = _edges.free_lines(task.n, start)
    if len(task.fixed) >= len(lines) - 2:
        return None
    line = lines[len(task.fixed)]
    return [replace(task, fixed=(*task.fixed, (line, row))) for (row,) in piece_rows(task.n, 1)]


def piece_rows(n: int, lines: int) -> list[tuple[int, ...]]:
    """The pieces a constellation of an n x n board is cut into by the rows of its first
    ``lines`` free lines: each piece's rows, one a line, in the order the pieces are numbered
    (the first line's row changing fastest). ``_edges`` places a piece's rows before it searches
    (``start``'s ``rows``), and the gpu engine's kernel before each thread's search."""
    return [rows[::-1] for rows in itertools.product(range(n), repeat=lines)]


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
    start, end = span
    counter = _edges.start(n, start, end, rows)
    solutions = classes = nodes = 0
    over = False

    def step() -> None:
        nonlocal solutions, classes, nodes, over
        solutions, classes, nodes, over = _edges.count(counter, budget)

    def found(complete: bool) -> Subcount:
        return Subcount(solutions, classes, 1, nodes, complete)

    return counted_in_slices(deadline, lambda: over, step, found)

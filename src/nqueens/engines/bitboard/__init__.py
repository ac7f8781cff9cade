"""The bitboard engine: bitmask backtracking in C, using all 8 symmetries to count.

The search itself is the C module ``nqueens.engines.bitboard._search``; here the board is set up for
it and cut into subproblems. To count, the board's symmetry is used as in Takaken's counter: a
solution with a queen in a corner is counted through the one member of its class (always 8
solutions: no rotation keeps a corner queen) whose corner queen is on line 0, row 0 and whose line-1
queen is on a lower row than the transposed board's. Every other class is counted through its
members whose line-0 queen is nearer a corner than any other edge queen, in the upper half, with the
rotations compared at each solution: the smallest member counts, as 2, 4 or 8 solutions as a quarter
turn, a half turn or neither keeps it. Each of those starts is cut further by the placements of the
next free lines.

A plain board (no puzzle, no rule) up to N = 32 is counted faster, by the C module
``nqueens.engines.bitboard._edges``: by the queens of its four edges first, one search per class
of those under the symmetries, each a subproblem (EDGES).

Without symmetry (``--no-symmetry``, or a puzzle, whose given squares break it) the board is cut
by the placements of the queens of its first free lines only. Coordinates here are the search's: a
*line* is a column and its bits are rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from nqueens.core.geometry import RULES
from nqueens.core.strategies import FIRST_MIN
from nqueens.engines.base import (
    COUNT,
    Engine,
    Request,
    Subcount,
    Subproblem,
    counted_in_slices,
)
from nqueens.engines.bitboard import _search, edges, listing
from nqueens.engines.bitboard.pieces import (
    CORNER,
    EDGES,
    INSIDE,
    LONE,
    PLAIN,
    BitSubproblem,
    LineRow,
    line_masks,
    rule_flags,
)

NAME = "bitboard"
STAT_NAMES = ("subproblems", "nodes")
"""What the engine's two counters count, as statistics and JSON name them."""

WORKERS_FROM_N = 13
"""From this size a count goes to every core: smaller ones end before workers start."""

LARGE_N = 32
"""Beyond this size boards are only counted until a time limit: cut them coarsely."""

FINE_SPLIT_FROM_N = 20
FINE_SPLIT_TO_N = 26
"""Boards from hours to years of work (N = 26 was the largest count of its day in 2009)."""

RULED_UNBOUNDED_N = 19
"""The largest board under a rule (torus, superqueens) counted without a limit. The rules prune
the search so hard that a count of this size ends sooner than the plain count of N = 18, the
largest allowed without a limit (docs/how-to/variants.md gives the times)."""

_SLICE = 1 << 20
"""Placements per call of the search: a few milliseconds, between looks at the clock."""


class BitboardEngine(Engine):
    """Bitmask backtracking, line by line, lowest row first; every core, all 8 symmetries."""

    name = NAME
    summary = "a compiled bitmask search: puzzles, rules, families (boards up to 64)"
    unique = True
    strategies = (FIRST_MIN,)
    max_n = 64
    solutions_per_second = 5e6
    max_n_reason = "keeps a column in one 64-bit machine word"
    rules = frozenset(RULES)
    stat_names = STAT_NAMES
    splits = True
    count_rank = 2
    excluded_diagonals_rank = 2

    def strategy_for(self, request: Request) -> str | None:
        return FIRST_MIN

    def decides_without_limit(self, request: Request) -> bool:
        ruled = request.command == COUNT and bool(request.board.rules)
        return ruled and request.board.free_columns <= RULED_UNBOUNDED_N

    def wants_workers(self, request: Request) -> bool:
        if edges.counts(request):
            return request.n >= edges.WORKERS_FROM_N
        return request.n >= WORKERS_FROM_N

    def solve(self, request: Request) -> listing.ListingStream:
        given, closed = _search_squares(request)
        tasks = listing.pieces(request, given, closed)
        return listing.ListingStream(request, tasks, NAME, STAT_NAMES)

    def subproblems(
        self, request: Request, deadline: float | None, lines: int | None = None
    ) -> list[BitSubproblem]:
        """The starts of the search, each cut by its next ``lines`` free lines (default: as
        ``_split_lines`` says)."""
        n = request.n
        if edges.counts(request):
            base = BitSubproblem(NAME, deadline, n, EDGES)
            return [replace(base, span=span) for span in edges.spans(n)]
        given, blocked = _search_squares(request)
        if not (request.board.symmetric and request.symmetry):
            starts = [(PLAIN, 0, given)]
        elif n < 4:
            starts = [(LONE, 0, ())]
        else:
            # The first inside starts hold most of the work: handing them out first keeps every
            # core busy to the end.
            starts = [(INSIDE, row, ((0, row),)) for row in range(1, n) if row < n - 1 - row]
            starts += [(CORNER, row, ((0, 0), (1, row))) for row in range(2, n - 1)]
        tasks = []
        for kind, first_row, fixed in starts:
            base = BitSubproblem(
                NAME, deadline, n, kind, first_row, fixed, blocked, request.board.rules
            )
            tasks += [
                replace(base, fixed=prefix)
                for prefix in _prefixes(base, _split_lines(n, kind) if lines is None else lines)
            ]
        return tasks

    def finer(self, task: Subproblem) -> list[BitSubproblem] | None:
        assert isinstance(task, BitSubproblem)
        if task.kind == EDGES:
            return edges.finer(task)
        return [replace(task, fixed=prefix) for prefix in _prefixes(task, 1)]

    def count_subproblem(self, task: Subproblem) -> Subcount:
        assert isinstance(task, BitSubproblem)
        if task.kind == EDGES:
            return edges.count(task, _SLICE)
        search = BoardSearch(task)
        mode = _search.COUNT_CLASSES if task.kind == INSIDE else _search.COUNT
        counted = quarter = half = nodes = 0

        def found(complete: bool) -> Subcount:
            if task.kind == PLAIN:
                return Subcount(counted, None, 1, nodes, complete)
            if task.kind == LONE:
                return Subcount(counted, counted, 1, nodes, complete)
            solutions = 8 * counted - 6 * quarter - 4 * half
            return Subcount(solutions, counted, 1, nodes, complete)

        def step() -> None:
            nonlocal counted, quarter, half, nodes
            more, more_quarter, more_half, more_nodes = search.advance(_SLICE, mode)
            counted += more
            quarter += more_quarter
            half += more_half
            nodes += more_nodes

        return counted_in_slices(task.deadline, lambda: search.done, step, found)


def _search_squares(request: Request) -> tuple[tuple[LineRow, ...], tuple[LineRow, ...]]:
    """The request's given queens and closed squares (blocked, or on an excluded diagonal,
    which pre-sets that diagonal's bit on every line) as (line, row): (col, row) of the board."""
    board = request.board
    return (
        tuple((col, row) for row, col in board.queens),
        tuple((col, row) for row, col in board.closed_squares()),
    )


def _split_lines(n: int, kind: str) -> int:
    """Free lines each start is cut by: enough pieces for every core and a smooth progress bar,
    few enough that handing them out costs little; none for boards counted in a moment. Boards
    counted for hours to years are cut one line finer, into pieces of seconds, so that Ctrl-C or
    a lost worker loses little; larger ones are only counted until a time limit, whose start a
    finer cut would delay."""
    if n < 12:
        return 0
    finer = 1 if FINE_SPLIT_FROM_N <= n <= FINE_SPLIT_TO_N else 0
    if kind == PLAIN:
        return (3 if n < 16 else 2) + finer
    return (1 if n < 17 or n > LARGE_N else 2) + finer


def _prefixes(task: BitSubproblem, lines: int) -> Iterator[tuple[LineRow, ...]]:
    """The fixed queens of ``task`` with every placement of its next ``lines`` free lines that
    its rules allow, found by the search itself (stopping at the last of those lines)."""
    taken = {line for line, _ in task.fixed}
    free = [line for line in range(task.n) if line not in taken][:lines]
    if len(free) < lines or lines == 0:
        yield task.fixed
        return
    search = BoardSearch(task, last=free[-1])
    while True:
        solutions, _, _, _ = search.advance(_SLICE, _search.STOP_AT_SOLUTION)
        if search.done and not solutions:
            return
        if solutions:
            rows = search.rows()
            yield tuple(sorted({*task.fixed, *((line, rows[line]) for line in free)}))


class BoardSearch:
    """One resumable search of a subproblem, down to line ``last`` (default: the last line)."""

    def __init__(self, task: BitSubproblem, last: int | None = None) -> None:
        n = task.n
        blocked_rows, need_line, need_rows = line_masks(task)
        self._state = _search.start(
            n,
            rule_flags(task.rules),
            tuple(blocked_rows),
            n - 1 if last is None else last,
            need_line,
            need_rows,
            task.first_row,
        )
        self._done = False

    @property
    def done(self) -> bool:
        """True once every placement has been tried."""
        return self._done

    def advance(self, budget: int, mode: int) -> tuple[int, int, int, int]:
        """Search on for at most ``budget`` placements (in STOP_AT_SOLUTION mode: or a solution).

        Returns the solutions counted, those a quarter turn keeps and those only a half turn
        keeps (mode COUNT_CLASSES), and the placements.
        """
        solutions, quarter, half, nodes, self._done = _search.count(self._state, mode, budget)
        return solutions, quarter, half, nodes

    def rows(self) -> tuple[int, ...]:
        """The solution the last STOP_AT_SOLUTION call stopped at, as ``rows[c]``."""
        return _search.rows(self._state)


ENGINE = BitboardEngine()

"""The bitboard engine's search loop, compiled with numba where it can be, plain Python otherwise.

One source serves both: ``search`` only uses operations that mean the same on Python ints and
lists as on numba's ``uint64`` scalars and arrays, with the constants ``full`` and ``one`` passed
in so that numba types every operation as unsigned 64-bit. Compiled code is cached on disk (numba
falls back to a user-wide cache directory when site-packages is read-only), so only the first run
after an install pays for compiling.

The board is searched line by line (a line is a column, its bits are rows): ``cols``, ``ld`` and
``rd`` hold the rows and the two diagonals taken by the queens of earlier lines, as in Somers's
counter. ``blocked[line]`` holds the rows a line may not take for other reasons: blocked squares,
the rows and diagonals of queens fixed on other lines (a fixed line has every other row blocked),
and the rows the symmetry-breaking rules rule out. ``need_rows`` must all be taken by the end of
``need_line``, which prunes as early as Takaken's rule does.

On a torus (``torus``) the diagonal masks rotate instead of shifting, so a diagonal leaving one
edge comes back at the other. Superqueens (``knight``) also rule out the rows a knight's move from
the queens of the two lines before (on a torus, also from lines 0 and 1 at the last lines, which
wrap round to them). Each rule is True or None: numba compiles a search for each combination and
leaves out the code of a rule that is None, so the plain search pays nothing for the rules.

The search is iterative, with its whole state in arrays, so it can stop after ``budget``
placements and resume where it left off: that is how a deadline, Ctrl-C or a consumer of solutions
gets a word in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from nqueens.engines.jit import compile_search, compiled_or_plain, rule

COUNT = 0
"""Mode: count solutions."""
COUNT_CLASSES = 1
"""Mode: count only the solutions no rotation makes lexicographically smaller (their symmetry
classes, when the rules have already excluded the smaller reflections), and how many of them a
quarter or a half turn keeps. Line 0's queen is on row ``first_row``, nearer the corner than any
other edge queen."""
STOP_AT_SOLUTION = 2
"""Mode: return after each solution (or each placement of the lines up to ``last``), with
``placed`` holding it; call again for the next."""

Masks = Any
"""A list of Python ints, or a numpy ``uint64`` array for the compiled search."""


def search(
    n: Any,
    last: Any,
    full: Any,
    one: Any,
    blocked: Masks,
    need_line: Any,
    need_rows: Any,
    cols: Masks,
    ld: Masks,
    rd: Masks,
    avail: Masks,
    placed: Masks,
    line: Any,
    fresh: Any,
    budget: Any,
    mode: Any,
    first_row: Any,
    torus: Any,
    knight: Any,
) -> tuple[int, int, int, int, int]:
    """Go on with the search from ``line`` for at most ``budget`` placements, down to ``last``.

    ``fresh``: ``line`` is being entered, so its candidates are worked out first. Returns the line
    to resume from (``~0``, the line before line 0, when the search is over), then the solutions
    counted, those of them a quarter turn keeps and those only a half turn keeps (mode
    COUNT_CLASSES), and the placements.

    Lines are words like the masks (``line``, ``last`` and ``need_line``): compiled, an unsigned
    index spares every array access a check for negative indices. The search is entered
    ``fresh`` only at line 0, which no knight's move reaches before any queen is placed.
    """
    done = ~(one ^ one)  # -1 in Python, 2**64 - 1 compiled: the line before line 0
    m = n - 1
    solutions = 0
    quarter_kept = 0
    half_kept = 0
    nodes = 0
    two = one + one
    top_bit = one
    end_bit = one
    for _ in range(m):
        top_bit = top_bit << one
    for _ in range(m - first_row):
        end_bit = end_bit << one
    wrap = top_bit ^ top_bit  # m as a word: the shift that takes row 0 to the last row
    for _ in range(m):
        wrap += one
    second_last = wrap - one
    if fresh:
        free = ~(cols[line] | ld[line] | rd[line] | blocked[line]) & full
        if line == need_line:
            missing = need_rows & ~cols[line]
            if missing:
                free &= missing
                if missing & (missing - one):
                    free ^= free  # two rows still needed, and one queen left to take them
        avail[line] = free
    # The current line's candidates and masks live in locals; the arrays keep those of the
    # lines above, for backtracking and resuming.
    free = full ^ full
    taken_here = free
    left_here = free
    right_here = free
    if line != done:
        free = avail[line]
        taken_here = cols[line]
        left_here = ld[line]
        right_here = rd[line]
    while nodes < budget:
        if not free:
            line -= one
            if line == done:
                break
            free = avail[line]
            taken_here = cols[line]
            left_here = ld[line]
            right_here = rd[line]
            continue
        bit = free & (~free + one)
        free ^= bit
        nodes += 1
        if line == last:
            placed[line] = bit
            if mode == COUNT_CLASSES and (
                placed[m - first_row] == one or placed[m] == end_bit or placed[first_row] == top_bit
            ):
                # A rotation may bring another edge queen to line 0's row (the tests above):
                # compare the whole boards, rows[] against each rotation's.
                rows = [0] * n
                lines_of = [0] * n
                for at in range(n):
                    mask = placed[at]
                    row = 0
                    while mask > one:
                        mask = mask >> one
                        row += 1
                    rows[at] = row
                    lines_of[row] = at
                orders = [0, 0, 0]  # quarter, half, three quarters: -1 smaller, 0 same, 1 larger
                for turn in range(3):
                    for at in range(n):
                        if turn == 0:
                            turned = m - lines_of[at]
                        elif turn == 1:
                            turned = m - rows[m - at]
                        else:
                            turned = lines_of[m - at]
                        if turned != rows[at]:
                            orders[turn] = -1 if turned < rows[at] else 1
                            break
                if orders[0] < 0 or orders[1] < 0 or orders[2] < 0:
                    continue  # another member of the class is the one counted
                if orders[0] == 0:
                    quarter_kept += 1
                elif orders[1] == 0:
                    half_kept += 1
            solutions += 1
            if mode == STOP_AT_SOLUTION:
                break
            continue
        taken = taken_here | bit
        left = (left_here | bit) << one
        right = (right_here | bit) >> one
        if torus is not None:
            left = (left & full) | ((left_here | bit) >> wrap)
            right = right | (((right_here | bit) & one) << wrap)
        below = ~(taken | left | right | blocked[line + one]) & full
        if knight is not None and below:
            # Rows a knight's move (two rows, one line; one row, two lines) from the queens of
            # the lines before line + 1, on a torus wrapping round the rows and past the last line.
            placed[line] = bit
            near = _rows_apart(bit, two, wrap - one, torus)
            far = full ^ full
            if line:
                far = _rows_apart(placed[line - one], one, wrap, torus)
            if torus is not None:
                if line + one == wrap:  # the last line: lines 0 and 1 lie one and two lines on
                    near |= _rows_apart(placed[0], two, wrap - one, torus)
                    if line:
                        far |= _rows_apart(placed[1], one, wrap, torus)
                elif line + one == second_last:  # line 0 lies two lines on
                    far |= _rows_apart(placed[0], one, wrap, torus)
            below &= ~(near | far)
        if line + one == need_line:
            missing = need_rows & ~taken
            if missing:
                below &= missing
                if missing & (missing - one):
                    below ^= below
        if not below:
            continue  # a dead end: no need to enter the next line to find out
        avail[line] = free
        placed[line] = bit
        line += one
        cols[line] = taken
        ld[line] = left
        rd[line] = right
        free = below
        taken_here = taken
        left_here = left
        right_here = right
    if line != done:
        avail[line] = free
    return line, solutions, quarter_kept, half_kept, nodes


def _rows_apart(queens: Any, rows: Any, back: Any, torus: Any) -> Any:
    """The rows ``rows`` above and below the queens of the mask ``queens``; on a torus also
    those reached by wrapping round, ``back`` (N - ``rows``) the other way."""
    apart = (queens << rows) | (queens >> rows)
    if torus is not None:
        apart |= (queens >> back) | (queens << back)
    return apart


SearchFunction = Callable[..., tuple[int, int, int, int, int]]


@dataclass(frozen=True)
class Kernel:
    """A search function and the types it runs on: compiled (numba) or plain Python."""

    search: SearchFunction
    compiled: bool

    def masks(self, values: list[int]) -> Masks:
        """An array of masks the search can take."""
        if not self.compiled:
            return list(values)
        import numpy

        return numpy.array(values, dtype=numpy.uint64)

    def word(self, value: int) -> Any:
        """A mask, a constant or a line as the search takes it (a line may be -1: none)."""
        if not self.compiled:
            return value
        import numpy

        return numpy.uint64(value % (1 << 64))

    def line(self, word: Any) -> int:
        """A line the search returned, as an int: -1 for the line before line 0."""
        value = int(word)
        return -1 if value == (1 << 64) - 1 else value


PYTHON = Kernel(search, compiled=False)


@cache
def compiled(torus: bool = False, knight: bool = False) -> Kernel:
    """The numba-compiled kernel for boards with these rules (compiled or loaded from the cache
    on first use), or the plain one with a KernelFallbackWarning saying why."""

    def first_call(kernel: SearchFunction) -> None:
        import numpy

        zero, one = numpy.uint64(0), numpy.uint64(1)
        masks = numpy.zeros(1, dtype=numpy.uint64)
        rules = rule(torus), rule(knight)
        kernel(1, zero, one, one, masks, ~zero, one, *[masks] * 5, zero, True, 1, COUNT, 0, *rules)

    def build() -> Kernel:
        kernel = compile_search(cast(SearchFunction, search), first_call, helpers=("_rows_apart",))
        return Kernel(kernel, compiled=True)

    return compiled_or_plain(build, PYTHON, "bitboard search")

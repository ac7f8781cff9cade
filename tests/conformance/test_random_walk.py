"""A seeded random walk over what the fixed boards of the conformance suite leave out: random small
boards under random rules, with given queens, blocked squares and excluded diagonals, on a random
engine that takes them, split across processes or resumed from a checkpoint (another count's
file in its way, at times), with and without symmetry, counting unique solutions, solving to a
limit or finding a first solution. Every answer is the brute-force counter's here, which knows
nothing of the product.

Each case draws from its own seed, so a failure names the one case to run again. Walks of this
kind found a plain count answered from a torus count's checkpoint, and ``solve --limit`` ignored
by the reduced engine. ``NQUEENS_WALK_SEED`` walks other cases; ``-m slow`` walks more of them;
``NUMBA_ENABLE_CUDASIM=1`` takes the gpu engine along, on numba-cuda's simulator.
"""

from __future__ import annotations

import os
import random
from contextlib import suppress
from pathlib import Path

import pytest
from helpers import attacks, symmetry_images

import nqueens
from nqueens.core.board import BoardError
from nqueens.core.geometry import RULES
from nqueens.engines import registry
from nqueens.engines.base import COUNT, FIRST, SOLVE, Request

SEED = int(os.environ.get("NQUEENS_WALK_SEED", "2026"))
CASES = [pytest.param(case, marks=[] if case < 100 else [pytest.mark.slow]) for case in range(2000)]
"""100 cases in the default run, which must stay under 90 s; 2,000 with -m slow, which CI runs."""

Square = tuple[int, int]
Excluded = tuple[str, int]


def completions(
    n: int,
    rules: tuple[str, ...],
    queens: set[Square],
    blocked: set[Square],
    excluded: set[Excluded],
) -> set[tuple[int, ...]]:
    """Every completion, column by column, each queen checked by the tests' own rules."""
    given = {col: row for row, col in queens}
    found: set[tuple[int, ...]] = set()

    def place(rows: tuple[int, ...]) -> None:
        col = len(rows)
        if col == n:
            found.add(rows)
            return
        for row in [given[col]] if col in given else range(n):
            if (row, col) in blocked or ("sum", row + col) in excluded:
                continue
            if ("difference", row - col) in excluded:
                continue
            if not any(attacks((row, col), (r, c), n, rules) for c, r in enumerate(rows)):
                place((*rows, row))

    place(())
    return found


def _puzzle(draw: random.Random, n: int) -> tuple[set[Square], set[Square], set[Excluded]]:
    """Nothing given, most often; else a few queens, blocked squares and excluded diagonals."""
    if draw.random() < 0.5:
        return set(), set(), set()
    squares = [(row, col) for row in range(n) for col in range(n)]
    queens = set(draw.sample(squares, min(len(squares), draw.choice([0, 1, 2]))))
    free = [square for square in squares if square not in queens]
    blocked = set(draw.sample(free, min(len(free), draw.choice([0, 1, 3]))))
    excluded: set[Excluded] = set()
    for _ in range(draw.choice([0, 0, 1, 2])):
        if draw.random() < 0.5:
            excluded.add(("sum", draw.randint(0, 2 * n - 2)))
        else:
            excluded.add(("difference", draw.randint(1 - n, n - 1)))
    return queens, blocked, excluded


def _count_another_into(checkpoint: Path, draw: random.Random, n: int) -> None:
    """A count of N under other rules, or with a given queen, kept in ``checkpoint``."""
    rules = tuple(sorted(draw.sample(sorted(RULES), draw.randint(0, len(RULES)))))
    queens = [(0, draw.randrange(n))] if draw.random() < 0.3 else []
    with suppress(nqueens.InputError):  # a request that cannot have one: no file
        nqueens.count(nqueens.Board(n, queens=queens, rules=rules), checkpoint=checkpoint)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::nqueens.engines.gpu.SimulatorWarning")  # the gpu engine's
@pytest.mark.parametrize("case", CASES)
def test_a_random_request_is_answered_as_the_counter_here(case: int, tmp_path: Path) -> None:
    draw = random.Random(SEED * 100_003 + case)
    n = draw.randint(1, 9)
    rules = tuple(sorted(draw.sample(sorted(RULES), draw.randint(0, len(RULES)))))
    queens, blocked, excluded = _puzzle(draw, n)
    try:
        board = nqueens.Board(
            n,
            queens=sorted(queens),
            blocked=sorted(blocked),
            excluded=sorted(excluded),
            rules=rules,
        )
    except BoardError:  # a queen on a blocked diagonal, or two attacking: refused, as it should
        return
    expected = completions(n, rules, queens, blocked, excluded)
    command = draw.choice([COUNT, COUNT, SOLVE, FIRST])
    unique = command != FIRST and board.symmetric and draw.random() < 0.4
    request = Request(command, board, unique=unique, time_limit=10.0)
    takers = [
        name
        for name, engine in registry.ENGINES.items()
        if registry.refusal(engine, request) is None
        and (name != "local" or expected)  # local search cannot prove there is none
        and (name != "mip" or command == FIRST or len(expected) <= 40)  # a MIP solve each
    ]
    engine = draw.choice([*takers, "auto"])
    splits = engine == "auto" or registry.ENGINES[engine].splits
    said = f"case {case}: N = {n} {rules} {queens} {blocked} {excluded} {command} on {engine}"
    classes = len({min(symmetry_images(rows)) for rows in expected})
    if command == COUNT:
        workers = draw.choice([1, 2]) if splits and draw.random() < 0.4 else None
        checkpoint = tmp_path / "count.ckpt" if splits and draw.random() < 0.3 else None
        symmetry = unique or draw.random() < 0.7
        said += f" workers {workers} checkpoint {checkpoint} symmetry {symmetry} unique {unique}"
        if checkpoint is not None and draw.random() < 0.5:  # another count's file, finished
            _count_another_into(checkpoint, draw, n)
        for _ in range(1 if checkpoint is None else 2):  # a finished checkpoint answers again
            try:
                stats = nqueens.count(
                    board,
                    engine=engine,
                    unique=unique,
                    workers=workers,
                    checkpoint=checkpoint,
                    symmetry=symmetry,
                )
            except nqueens.InputError as refused:
                if "is the checkpoint of another count" in str(refused):
                    return  # refused, never answered from another count's file
                # or auto took an engine that counts in one piece
                assert engine == "auto" and (workers or checkpoint), f"{said}: {refused}"
                return
            assert stats.solutions == len(expected), said
            assert not unique or stats.unique == classes, said
    elif command == SOLVE:
        limit = draw.choice([None, None, 1, 3])
        with nqueens.solve(board, engine=engine, unique=unique, limit=limit) as stream:
            found = [solution.rows for solution in stream]
        assert len(found) == len(set(found)) and set(found) <= expected, said
        wanted = classes if unique else len(expected)
        assert len(found) == (wanted if limit is None else min(limit, wanted)), said
        if unique:
            assert all(rows == min(symmetry_images(rows)) for rows in found), said
    else:
        result = nqueens.first(board, engine=engine, time_limit=10.0)
        assert (result.solution is None) == (not expected), said
        assert result.solution is None or result.solution.rows in expected, said

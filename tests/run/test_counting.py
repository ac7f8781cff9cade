"""Counts you can trust: every engine, split and symmetry setting against independent answers.

The published counts (OEIS A000170 and A002562) and a plain backtracking counter written here are
the references; no count of the product's own decides what is right.
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Sequence

import pytest
from helpers import (
    assert_valid_board,
    bound,
    brute_force_solutions,
    count_completions,
    known_total,
    known_unique,
    run_nqueens,
    symmetry_images,
)

import nqueens
from nqueens.core.board import Board
from nqueens.engines import bitboard
from nqueens.engines.base import COUNT, Request
from nqueens.engines.cpsat import split as cpsat_split
from nqueens.run.executors import in_process


def _added_up(tasks: list[object]) -> tuple[int, int | None]:
    """The subproblems' solutions and classes added up (None: some piece did not count them)."""
    found = [sub for _, sub in in_process(list(enumerate(tasks)))]  # type: ignore[arg-type]
    uniques = [sub.unique for sub in found]
    unique = None if None in uniques else sum(u for u in uniques if u is not None)
    return sum(sub.solutions for sub in found), unique


@pytest.mark.parametrize("symmetry", [True, False])
@pytest.mark.parametrize("n", range(1, 12))
def test_bitboard_counts_exactly_for_every_split(n: int, symmetry: bool) -> None:
    """Every depth of the cut, 0 to 5 free lines placed per subproblem."""
    request = Request(COUNT, Board(n), symmetry=symmetry)
    for lines in range(6):
        tasks = bitboard.ENGINE.subproblems(request, None, lines=lines)
        solutions, unique = _added_up(list(tasks))
        assert solutions == known_total(n), f"split on {lines} lines"
        if symmetry:
            assert unique == known_unique(n), f"split on {lines} lines"


@pytest.mark.parametrize("n", [*range(1, 16), pytest.param(16, marks=pytest.mark.slow)])
def test_the_default_count_is_exact_with_its_unique_solutions(n: int) -> None:
    stats = nqueens.count(n, unique=True)
    assert stats.engine == "bitboard"
    assert (stats.solutions, stats.unique) == (known_total(n), known_unique(n))


@pytest.mark.slow
@pytest.mark.parametrize("symmetry", [True, False])
@pytest.mark.parametrize("columns", range(1, 5))
@pytest.mark.parametrize(
    "n",  # every split of every board up to 8 runs with -m slow; these cover the edges
    [n if n in (1, 4, 8) else pytest.param(n, marks=pytest.mark.slow) for n in range(1, 9)],
)
def test_cp_sat_counts_exactly_for_every_split(n: int, columns: int, symmetry: bool) -> None:
    """Every split depth; boards up to N = 12 run in benchmarks/differential.py (minutes)."""
    tasks = cpsat_split.subproblems(
        Request(COUNT, Board(n), symmetry=symmetry), None, columns=columns
    )
    solutions, unique = _added_up(list(tasks))
    assert solutions == known_total(n)
    if symmetry:
        assert unique == known_unique(n)


def test_cp_sat_presolve_no_longer_loses_the_issues_smallest_case() -> None:
    """N = 11 with the first queens on rows 2, 6, 3, 9: presolve declared it infeasible."""
    task = cpsat_split.CpSatSubproblem(
        "cp-sat", None, Board(11), (2, 6, 3, 9), True, "first-fail-mid"
    )
    found = cpsat_split.count_subproblem(task)
    rows_first = (2, 6, 3, 9)
    expected = [
        rows
        for rows in _solutions_starting_with(11, rows_first)
        if rows == min(symmetry_images(rows))
    ]
    assert found.unique == len(expected) == 2
    assert found.solutions == 12


def _solutions_starting_with(n: int, first: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every solution whose first queens are ``first``, by plain backtracking."""

    def extend(rows: tuple[int, ...]) -> list[tuple[int, ...]]:
        if len(rows) == n:
            return [rows]
        col = len(rows)
        return [
            solution
            for row in range(n)
            if all(r != row and abs(r - row) != col - c for c, r in enumerate(rows))
            for solution in extend((*rows, row))
        ]

    return extend(first)


PUZZLES = [
    ({(0, 2)}, {(4, 4), (5, 1)}),
    ({(3, 0), (7, 5)}, set()),
    (set(), {(0, 0), (1, 1), (2, 2), (5, 9)}),
    ({(9, 9)}, {(0, 4), (4, 0)}),
]


CP_SAT_SPLITS = range(1, 4)
"""The columns CP-SAT's subproblems fix (4 and 5: benchmarks/differential.py)."""


@pytest.mark.slow
@pytest.mark.parametrize(("queens", "blocked"), PUZZLES)
@pytest.mark.parametrize("engine", ["cp-sat", "bitboard", "cp"])
def test_every_engine_counts_puzzles_exactly_for_every_split(
    engine: str, queens: set[tuple[int, int]], blocked: set[tuple[int, int]]
) -> None:
    # CP-SAT builds a model per subproblem, seconds for every split of every puzzle: each
    # puzzle takes one split here, in turn, and -m slow takes them all.
    turn = PUZZLES.index((queens, blocked))
    _assert_counts_puzzle(engine, queens, blocked, [CP_SAT_SPLITS[turn % len(CP_SAT_SPLITS)]])


@pytest.mark.slow
@pytest.mark.parametrize(("queens", "blocked"), PUZZLES)
def test_cp_sat_counts_puzzles_exactly_for_every_split(
    queens: set[tuple[int, int]], blocked: set[tuple[int, int]]
) -> None:
    _assert_counts_puzzle("cp-sat", queens, blocked, CP_SAT_SPLITS)


def _assert_counts_puzzle(
    engine: str,
    queens: set[tuple[int, int]],
    blocked: set[tuple[int, int]],
    cp_sat_splits: Sequence[int],
) -> None:
    n = 10
    expected = count_completions(n, queens, blocked)
    request = Request(COUNT, nqueens.core.board.Board(n, tuple(queens), tuple(blocked)))
    if engine == "cp-sat":
        for columns in cp_sat_splits:
            assert (
                _added_up(list(cpsat_split.subproblems(request, None, columns=columns)))[0]
                == expected
            )
    elif engine == "bitboard":
        for lines in range(6):
            assert _added_up(list(bitboard.ENGINE.subproblems(request, None, lines=lines)))[0] == (
                expected
            )
    assert nqueens.count(n, queens=queens, blocked=blocked, engine=engine).solutions == expected


@pytest.mark.parametrize("n", range(1, 9))
def test_bitboard_solve_lists_the_brute_force_solutions_in_order(n: int) -> None:
    with nqueens.solve(n, engine="bitboard") as stream:
        boards = [solution.rows for solution in stream]
    assert boards == sorted(brute_force_solutions(n))
    assert stream.stats.status is nqueens.Status.COMPLETE


@pytest.mark.parametrize("n", range(1, 10))
def test_bitboard_unique_solutions_are_the_smallest_of_each_class(n: int) -> None:
    with nqueens.solve(n, engine="bitboard", unique=True) as stream:
        boards = [solution.rows for solution in stream]
    classes = {min(symmetry_images(rows)) for rows in brute_force_solutions(n)}
    assert sorted(classes) == boards


def test_bitboard_uses_all_64_bits() -> None:
    """A 64 x 64 board with all but 4 queens of a known solution given (evens, then odds)."""
    n = 64
    known = [2 * col + 1 if col < n // 2 else 2 * (col - n // 2) for col in range(n)]
    assert_valid_board(known, n)
    given = [(row, col) for col, row in enumerate(known) if col % 16 != 3]
    with nqueens.solve(n, engine="bitboard", queens=given) as stream:
        boards = [solution.rows for solution in stream]
    assert tuple(known) in boards
    for rows in boards:
        assert_valid_board(rows, n)
    assert len(boards) == count_completions(n, set(given), set())


def test_a_time_limit_that_ends_while_the_search_loads_ends_the_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Loading a compiled search cannot be interrupted and can outlast a short limit on a busy
    machine: the count answers at its limit with nothing counted, and the next count waits for
    the load before it searches."""
    engine = bitboard.ENGINE
    loaded = threading.Event()
    prepare = engine.prepare

    def slow_prepare(request: Request) -> None:
        loaded.wait(30)
        prepare(request)

    monkeypatch.setattr(engine, "prepare", slow_prepare)
    started = time.monotonic()
    stats = nqueens.count(9, engine="bitboard", symmetry=False, time_limit=0.2)
    assert time.monotonic() - started < bound(0.2 + 0.5)
    assert stats.status is nqueens.Status.TIME_LIMIT and stats.solutions == 0
    threading.Timer(0.3, loaded.set).start()
    assert nqueens.count(9, engine="bitboard", symmetry=False).solutions == known_total(9)


def test_a_search_that_fails_to_load_under_a_time_limit_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(request: Request) -> None:
        raise MemoryError("no room for the search")

    monkeypatch.setattr(bitboard.ENGINE, "prepare", broken)
    with pytest.raises(MemoryError, match="no room"):
        nqueens.count(9, engine="bitboard", symmetry=False, time_limit=10)


def test_more_workers_than_cores_are_capped_with_a_warning() -> None:
    """count 16 --workers 1024 forked a thousand processes for two cores."""
    from nqueens import api
    from nqueens.run.executors import WorkersCappedWarning, default_workers

    cores = default_workers()
    assert api.plan("count", 12, workers=cores + 30, engine="bitboard").workers == cores
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # as many as there are cores: no warning
        assert nqueens.count(10, workers=cores, engine="bitboard").solutions == known_total(10)
    with pytest.warns(WorkersCappedWarning, match=f"counting with {cores}"):
        assert nqueens.count(10, workers=cores + 30, engine="bitboard").solutions == 724
    done = run_nqueens("count", "14", "--workers", "1024", "-t", "2")  # a process: it forks
    assert done.returncode in (0, 3), done.stderr
    assert done.stderr.startswith("Warning: 1,024 worker processes would outnumber the ")
    assert int(done.stdout) == known_total(14)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["reduced", "cp", "mip"])
def test_an_engine_that_does_not_count_classes_says_none_not_zero(engine: str) -> None:
    """Its unique count is None (not counted) and --stats shows no row for it: the pieces'
    missing classes once added up to 0."""
    stats = nqueens.count(6, engine=engine)
    assert (stats.solutions, stats.unique) == (known_total(6), None)
    shown = run_nqueens("count", "6", "--engine", engine, "--stats")
    assert shown.returncode == 0, shown.stderr
    assert "unique" not in shown.stdout + shown.stderr


def test_an_engine_that_counts_classes_still_gives_them() -> None:
    assert nqueens.count(8, engine="cp-sat").unique == known_unique(8)
    assert nqueens.count(8, engine="bitboard").unique == known_unique(8)


def test_pieces_after_the_deadline_are_not_set_up_in_this_process() -> None:
    """Counted in this process, a count stops at its deadline: the 7,432 pieces of N = 19 were
    each set up after it had passed (`count 19 -t 0.1 --workers 1` ended at 0.9 s)."""
    request = Request(COUNT, Board(19), symmetry=True)
    tasks = list(enumerate(bitboard.ENGINE.subproblems(request, time.time() - 1)))
    assert len(tasks) > 1000
    counted = list(in_process(tasks))
    assert len(counted) == 1 and not counted[0][1].complete

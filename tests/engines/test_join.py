"""The join engine: quarter solutions joined into halves, halves into boards.

Counts are checked against the published counts and the tests' own brute force; the quarters'
lists against partial solutions counted here; pieces, stops and resumes against the whole.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import replace
from itertools import permutations

import pytest
from helpers import brute_force_solutions, known_total, run_nqueens

import nqueens
from nqueens.core.board import Board
from nqueens.engines.base import COUNT, Request
from nqueens.engines.join import ENGINE, MAX_N, QUARTER_SOLUTIONS, _join, job_count, memory_needed
from nqueens.engines.join.jobs import JoinSubproblem
from nqueens.run import auto


def whole_count(n: int, symmetry: bool = True) -> int:
    """The module's count of every job of an n x n board."""
    quarters = _join.quarters(n, symmetry)
    counter = _join.start(quarters, 0, _join.jobs(quarters))
    while True:
        solutions, _, _, over = _join.count(counter, 1 << 22)
        if over:
            return solutions


def partial_solutions(h: int) -> int:
    """Placements of any number of queens on an h x h quarter, none attacking another."""
    found = 0
    for queens in range(h + 1):
        for rows in _subsets(h, queens):
            for columns in _subsets(h, queens):
                for order in permutations(columns):
                    squares = list(zip(rows, order, strict=True))
                    found += all(
                        abs(r - s) != abs(c - d)
                        for i, (r, c) in enumerate(squares)
                        for s, d in squares[i + 1 :]
                    )
    return found


def _subsets(size: int, count: int) -> list[tuple[int, ...]]:
    from itertools import combinations

    return list(combinations(range(size), count))


@pytest.mark.parametrize("symmetry", [True, False])
@pytest.mark.parametrize("n", range(1, 17))
def test_every_board_up_to_16_is_counted_exactly(n: int, symmetry: bool) -> None:
    assert whole_count(n, symmetry) == known_total(n)


@pytest.mark.parametrize("n", range(1, 9))
def test_small_boards_agree_with_brute_force(n: int) -> None:
    assert whole_count(n) == whole_count(n, False) == len(brute_force_solutions(n))


@pytest.mark.slow
@pytest.mark.parametrize("symmetry", [True, False])
def test_n_17_is_counted_exactly(symmetry: bool) -> None:
    assert whole_count(17, symmetry) == known_total(17)


@pytest.mark.parametrize("h", range(6))
def test_the_quarters_list_every_partial_solution(h: int) -> None:
    expected = partial_solutions(h)
    assert QUARTER_SOLUTIONS[h] == expected
    assert _join.placements(_join.quarters(2 * h + 1, True)) == expected


def test_the_memory_prediction_rests_on_the_lists_the_module_makes() -> None:
    for h in range(6, 10):
        assert _join.placements(_join.quarters(2 * h, True)) == QUARTER_SOLUTIONS[h]
    assert memory_needed(20) > 500 * 2**20  # quarters of 10 x 10: hundreds of megabytes
    assert memory_needed(21) > memory_needed(20)  # the same quarters, more jobs
    assert memory_needed(21, False) > memory_needed(21) + 500 * 2**20  # 33 million jobs
    assert memory_needed(16) < 20 * 2**20


@pytest.mark.parametrize("n", range(1, 18))
def test_the_jobs_foreseen_are_the_jobs_made(n: int) -> None:
    """Every R for every placement of the middle queens without symmetry; at most as many with
    it (memory_needed rests on the figure)."""
    assert _join.jobs(_join.quarters(n, False)) == job_count(n, False)
    assert _join.jobs(_join.quarters(n, True)) <= job_count(n, True)


@pytest.mark.parametrize("n", [15, 16])
def test_pieces_counted_in_any_order_add_up_to_the_whole(n: int) -> None:
    request = Request(COUNT, Board(n))
    pieces = list(ENGINE.subproblems(request, None))
    assert len(pieces) >= 64  # every core, a checkpoint, a cluster: something to share
    random.Random(n).shuffle(pieces)
    found = [ENGINE.count_subproblem(piece) for piece in pieces]
    assert all(piece.complete for piece in found)
    assert sum(piece.solutions for piece in found) == known_total(n)
    one = pieces[0]
    cut = ENGINE.finer(one)
    assert cut is not None and ENGINE.finer(cut[0]) is None
    finer = list(cut)
    random.Random(0).shuffle(finer)
    assert sum(ENGINE.count_subproblem(p).solutions for p in finer) == (
        ENGINE.count_subproblem(one).solutions
    )


def test_a_count_stopped_by_its_deadline_is_a_lower_bound() -> None:
    request = Request(COUNT, Board(18))
    piece = ENGINE.subproblems(request, None)[0]
    assert isinstance(piece, JoinSubproblem)
    stopped = ENGINE.count_subproblem(replace(piece, deadline=time.time()))
    assert not stopped.complete and stopped.solutions == 0
    whole = ENGINE.count_subproblem(piece)
    assert whole.complete and whole.solutions > 0


def test_auto_counts_plain_boards_by_the_join_and_the_rest_as_before() -> None:
    assert auto.for_count(Request(COUNT, Board(16))).name == "join"
    assert auto.for_count(Request(COUNT, Board(13))).name == "bitboard"
    assert auto.for_count(Request(COUNT, Board(16), unique=True)).name == "bitboard"
    torus = Board(16, rules=frozenset({"torus"}))
    assert auto.for_count(Request(COUNT, torus)).name == "bitboard"
    puzzle = Board(16, queens=((0, 1),))
    assert auto.for_count(Request(COUNT, puzzle)).name == "bitboard"
    stats = nqueens.count(16, engine="auto")
    assert (stats.solutions, stats.engine, stats.unique) == (known_total(16), "join", None)


def test_the_command_line_counts_by_the_join_with_its_statistics() -> None:
    result = run_nqueens("count", "14", "--engine", "join", "--stats", "--format", "json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["solutions"] == known_total(14) and record["engine"] == "join"
    assert record["halves"] > 0 and record["pairs"] > 0


def test_hostile_arguments_to_the_module_are_refused() -> None:
    for n in (0, -1, MAX_N + 1, 64):
        with pytest.raises(ValueError):
            _join.quarters(n, True)
    with pytest.raises(OverflowError):
        _join.quarters(2**70, True)
    with pytest.raises(TypeError):
        _join.quarters("8", True)  # type: ignore[arg-type]
    quarters = _join.quarters(10, True)
    jobs = _join.jobs(quarters)
    for start, end in ((-1, 2), (0, jobs + 1), (3, 2), (2**62, 2**62)):
        with pytest.raises((IndexError, OverflowError)):
            _join.start(quarters, start, end)
    counter = _join.start(quarters, 0, jobs)
    for start, end in ((-1, 2), (0, jobs + 1), (3, 2)):
        with pytest.raises(IndexError):
            _join.restart(counter, start, end)
    with pytest.raises(TypeError):
        _join.start(counter, 0, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _join.count(quarters, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _join.count(bytearray(64), 1)  # type: ignore[arg-type]
    with pytest.raises(OverflowError):
        _join.count(counter, -1)
    with pytest.raises(TypeError):
        memoryview(counter)  # type: ignore[arg-type]
    assert _join.count(counter, 0)[0] >= 0  # one job at least: a call always makes progress
    del quarters  # the counter keeps what it counts
    while not _join.count(counter, 1 << 20)[3]:
        pass
    assert _join.count(counter, 1 << 20) == (known_total(10), *_join.count(counter, 1)[1:])
    _join.restart(counter, 0, jobs)
    while not (found := _join.count(counter, 1 << 20))[3]:
        pass
    assert found[0] == known_total(10)


@pytest.mark.slow
def test_a_count_stopped_and_resumed_from_its_checkpoint_is_exact(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "join.ckpt"
    stopped = run_nqueens("count", "18", "--engine", "join", "-t", "1", "--checkpoint", str(path))
    assert stopped.returncode == 3, stopped.stderr  # the time limit ended it: a lower bound
    assert 0 < int(stopped.stdout.split()[0]) < known_total(18)
    assert "pieces finished" in stopped.stderr
    resumed = run_nqueens("count", "18", "--engine", "join", "--checkpoint", str(path))
    assert resumed.returncode == 0, resumed.stderr
    assert int(resumed.stdout) == known_total(18)


@pytest.mark.slow
@pytest.mark.parametrize("n", [18, 19])
def test_large_boards_are_counted_exactly(n: int) -> None:
    result = run_nqueens("count", str(n), "--engine", "join", timeout=600)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) == known_total(n)

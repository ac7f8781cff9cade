"""Puzzles on large boards, reduced to what their given queens leave: CSPLib problem 79's
published instances and random ones, against answers computed independently."""

from __future__ import annotations

import random

import pytest
from helpers import DATA, count_completions, invoke, json_stream

import nqueens
from nqueens import Status

PUBLISHED = {  # completions of CSPLib's samples, counted exhaustively by its authors
    "completion-12-12-5.param": 0,
    "completion-16-14-2.param": 7,
    "completion-20-18-2.param": 275,
}


Squares = set[tuple[int, int]]


def _completions(n: int, queens: Squares, blocked: Squares) -> int:
    """Completions by plain backtracking over the columns without a given queen, checking rows
    and diagonals against every queen placed (an independent counter, fast for few free ones)."""
    rows = {row for row, _ in queens}
    sums = {row + col for row, col in queens}
    differences = {row - col for row, col in queens}
    if min(len(rows), len(sums), len(differences)) < len(queens):
        return 0
    free_columns = sorted(set(range(n)) - {col for _, col in queens})
    free_rows = sorted(set(range(n)) - rows)

    def place(index: int) -> int:
        if index == len(free_columns):
            return 1
        col = free_columns[index]
        total = 0
        for row in free_rows:
            if row in rows or (row, col) in blocked:
                continue
            if row + col in sums or row - col in differences:
                continue
            rows.add(row)
            sums.add(row + col)
            differences.add(row - col)
            total += place(index + 1)
            rows.remove(row)
            sums.remove(row + col)
            differences.remove(row - col)
        return total

    return place(0)


def _reduced_instance(seed: int, n: int, free: int) -> tuple[Squares, Squares]:
    """A solution of an n x n board with ``free`` of its queens taken away, and a few blocked
    squares among the freed rows and columns."""
    chooser = random.Random(seed)
    rows = nqueens.first(n, engine="local", seed=seed).solution
    assert rows is not None
    squares = rows.squares()
    chooser.shuffle(squares)
    kept, freed = squares[free:], squares[:free]
    free_rows = [row for row, _ in freed]
    free_cols = [col for _, col in freed]
    blocked = {(chooser.choice(free_rows), chooser.choice(free_cols)) for _ in range(free // 2)}
    return set(kept), blocked - set(freed)


def test_the_independent_counter_agrees_with_the_plain_one_on_a_small_board() -> None:
    queens, blocked = {(0, 1), (5, 3)}, {(2, 0), (7, 7)}
    assert _completions(8, queens, blocked) == count_completions(8, queens, blocked)


@pytest.mark.parametrize("seed", range(6))
def test_reduced_counts_match_an_independent_counter(seed: int) -> None:
    queens, blocked = _reduced_instance(seed, 80 + seed, 6 + seed)
    n = 80 + seed
    stats = nqueens.count(n, queens=sorted(queens), blocked=sorted(blocked))
    assert stats.engine == "reduced" and stats.status is Status.COMPLETE
    assert stats.solutions == _completions(n, queens, blocked) >= 1
    on_cp = nqueens.count(n, queens=sorted(queens), blocked=sorted(blocked), engine="cp")
    assert on_cp.solutions == stats.solutions  # another engine, on the unreduced model
    listed = list(nqueens.solve(n, queens=sorted(queens), blocked=sorted(blocked)))
    assert len({s.rows for s in listed}) == len(listed) == stats.solutions
    for solution in listed:
        squares = set(solution.squares())
        assert queens <= squares and not blocked & squares
        assert len({row + col for row, col in squares}) == n
        assert len({row - col for row, col in squares}) == n
        assert sorted(row for row, _ in squares) == list(range(n))


@pytest.mark.parametrize(("name", "completions"), PUBLISHED.items())
def test_published_instances_count_their_completions(name: str, completions: int) -> None:
    result = invoke("count", "--board", str(DATA / name), "--format", "json", "--stats")
    assert result.exit_code == 0, result.stderr
    (_, status) = json_stream(result.stdout)
    assert (status["solutions"], status["engine"]) == (completions, "reduced")


@pytest.mark.parametrize(("name", "completions"), PUBLISHED.items())
def test_first_on_a_published_instance_decides_it(name: str, completions: int) -> None:
    result = invoke("first", "--board", str(DATA / name), "--format", "json")
    records, status = json_stream(result.stdout)
    if completions == 0:
        assert (result.exit_code, status["status"]) == (1, "no-solution")
        assert "No completion exists" in result.stderr
    else:
        assert result.exit_code == 0 and len(records) == 1
        assert status["engine"] == "reduced"


def test_a_puzzle_with_too_many_free_columns_is_refused_by_the_reduced_engine() -> None:
    with pytest.raises(nqueens.InputError, match="up to 64 columns without a given queen"):
        nqueens.first(100, engine="reduced", queens=[(0, 0)])

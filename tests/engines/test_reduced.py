"""Puzzles on large boards, reduced to what their given queens leave: CSPLib problem 79's
published instances and random ones, against answers computed independently."""

from __future__ import annotations

import random
import re

import pytest
from helpers import DATA, count_completions, invoke, json_stream

import nqueens
from nqueens import Status
from nqueens.core.board import Board
from nqueens.engines.base import Request
from nqueens.engines.reduced import UNBOUNDED_POSITIONS
from nqueens.engines.reduced.model import reduce, search_size

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


def _assert_completion(squares: Squares, n: int, queens: Squares, blocked: Squares) -> None:
    """Fail unless ``squares`` solve the n x n board, keep ``queens`` and leave ``blocked``
    empty: checked line by line, since the pairwise checker is slow on boards of thousands."""
    assert queens <= squares and not blocked & squares
    assert sorted(row for row, _ in squares) == list(range(n))
    assert sorted(col for _, col in squares) == list(range(n))
    assert len({row + col for row, col in squares}) == n
    assert len({row - col for row, col in squares}) == n


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
        _assert_completion(set(solution.squares()), n, queens, blocked)


@pytest.mark.slow
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


def _given_queens(text: str) -> list[tuple[int, int]]:
    """The ``letting init`` squares of a CSPLib problem 79 file, 0-based (row, col) as written."""
    pairs = text.split("letting init", 1)[1]
    return [(int(row), int(col)) for row, col in re.findall(r"\[\s*(\d+)\s*,\s*(\d+)\s*\]", pairs)]


@pytest.mark.parametrize(("name", "completions"), list(PUBLISHED.items())[:2])
def test_solve_lists_a_published_instance_without_being_told_an_engine(
    name: str, completions: int
) -> None:
    """CP-SAT takes boards up to N = 1,000: left to pick its engine, solve refused these
    instances (N = 3,083 to 5,263) and had the user name one of the engines that could."""
    path = DATA / name
    result = invoke("solve", "--board", str(path), "--format", "json", "--stats")
    records, status = json_stream(result.stdout)
    assert result.exit_code == (0 if completions else 1), result.stderr
    assert (status["solutions"], status["engine"]) == (completions, "reduced")
    given = set(_given_queens(path.read_text()))
    listed = {tuple(record["rows"]) for record in records}
    assert len(listed) == len(records) == completions
    for rows in listed:
        _assert_completion({(row, col) for col, row in enumerate(rows)}, len(rows), given, set())


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ("count", "25", "--exclude-diagonal", "1,1/"),
        ("count", "25", "--exclude-diagonal", "1,1/", "--engine", "reduced"),
        ("solve", "25", "--exclude-diagonal", "1,1/"),
        ("solve", "25", "--exclude-diagonal", "1,1/", "--engine", "reduced"),
        ("solve", "25", "--exclude-diagonal", "1,1/", "--engine", "cp-sat"),
    ],
)
def test_an_excluded_diagonal_that_leaves_most_of_the_board_needs_a_limit(
    args: tuple[str, ...],
) -> None:
    """One excluded diagonal leaves N = 25 nearly whole, a count of days: it was taken without
    a limit, as though any excluded diagonal left the reduced engine a small problem (and any
    engine could list what the reduced engine decides)."""
    result = invoke(*args)
    assert result.exit_code == 2
    said = "counting them takes about" if args[0] == "count" else "too many to go through"
    assert said in result.stderr and "--time-limit" in result.stderr, result.stderr


@pytest.mark.slow
def test_given_queens_that_leave_a_large_problem_need_a_limit() -> None:
    """The first 36 queens of a solution of N = 100 leave 64 columns: far too many to count,
    though the board is one the reduced engine takes. 80 of its queens, drawn at random, leave
    20 columns but few ways to fill them (94), and are counted without a limit."""
    rows = nqueens.first(100, engine="local", seed=4).solution
    assert rows is not None
    squares = rows.squares()
    with pytest.raises(nqueens.InputError, match="64 columns have no given queen"):
        nqueens.count(100, queens=squares[:36])
    random.Random(5).shuffle(squares)
    given = squares[:80]
    assert nqueens.count(100, queens=given).solutions == _completions(100, set(given), set())


@pytest.mark.parametrize("n", [9, 11, 13])
def test_the_size_estimate_is_near_the_positions_the_search_visits(n: int) -> None:
    """Whether a puzzle may be counted without a limit rests on this estimate: it must be near
    the positions the search then visits (the count's own tally, in one piece below 14 columns)."""
    stats = nqueens.count(n, engine="reduced", workers=1)
    estimate = search_size(reduce(Request("count", Board(n))))
    assert stats.branches / 2 < estimate < stats.branches * 2


def test_the_limit_on_the_search_is_that_of_the_largest_board_counted_without_one() -> None:
    """Every engine counts the empty N = 18 without a limit, and none the empty N = 19."""
    sizes = [search_size(reduce(Request("count", Board(n)))) for n in (18, 19)]
    assert sizes[0] <= UNBOUNDED_POSITIONS < sizes[1]

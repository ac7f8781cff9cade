"""One solution at any size: the local engine, the auto plan for large boards, and everything
around a huge board (streamed output, verify, refusals). Boards are checked here, by the tests'
own checker, never the product's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import NQUEENS, assert_valid_board, invoke, json_stream, process_env, run_nqueens

import nqueens
from nqueens import InputError, Status
from nqueens.engines.base import Request
from nqueens.formats.boards import random_puzzle
from nqueens.run.auto import first_plan, fitting


def _assert_solution(rows: list[int] | tuple[int, ...]) -> None:
    """In O(N): a permutation whose sums and differences are all distinct."""
    n = len(rows)
    assert sorted(rows) == list(range(n))
    assert len({row + col for col, row in enumerate(rows)}) == n
    assert len({row - col for col, row in enumerate(rows)}) == n


@pytest.mark.parametrize("n", [*range(4, 21), 100, 1_000, 100_000])
def test_local_search_finds_a_solution(n: int) -> None:
    result = nqueens.first(n, engine="local", seed=n)
    assert result.solution is not None and result.stats.engine == "local"
    if n <= 100:
        assert_valid_board(result.solution.rows, n)
    _assert_solution(result.solution.rows)


def test_the_same_seed_gives_the_same_board() -> None:
    boards = {nqueens.first(500, engine="local", seed=7).solution for _ in range(2)}
    assert len(boards) == 1
    assert nqueens.first(500, engine="local", seed=8).solution not in boards


def test_local_search_keeps_the_givens_and_avoids_blocked_squares() -> None:
    board = random_puzzle(2_000, 50, seed=3)
    blocked = [(row, (col + 1) % 2_000) for row, col in board.queens[:20]]
    result = nqueens.first(
        2_000, engine="local", queens=board.queens, blocked=blocked, time_limit=30, seed=1
    )
    assert result.solution is not None
    _assert_solution(result.solution.rows)
    squares = set(result.solution.squares())
    assert set(board.queens) <= squares and not set(blocked) & squares


def test_local_search_on_a_puzzle_without_completion_stops_at_its_time_limit() -> None:
    # Queens on 0,0 and 1,2 of a 4 x 4 board leave no completion.
    result = nqueens.first(4, engine="local", queens=[(0, 0), (1, 2)], time_limit=0.3)
    assert result.solution is None and result.stats.status is Status.TIME_LIMIT
    assert not result.proven_infeasible


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: nqueens.first(3, engine="local"), "boards under 4"),
        (lambda: nqueens.first(8, engine="local", queens=[(0, 0)]), "give it a time limit"),
        (lambda: nqueens.count(8, engine="local"), "does not count"),
        (lambda: nqueens.first(10_000_001), "10,000,000"),
        (lambda: nqueens.solve(10_001, limit=1), "10,000"),
    ],
)
def test_what_local_search_cannot_do_is_refused(call: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        call()  # type: ignore[operator]


def test_auto_takes_local_search_for_large_boards_and_puzzles() -> None:
    assert nqueens.first(2_000).stats.engine == "local"
    assert nqueens.first(100).stats.engine == "cp"
    board = random_puzzle(10_000, 100, seed=0)
    # Local search first, for a few seconds: on a machine four times slower they may run out,
    # and the complete search after it answers instead.
    plan = fitting(first_plan(board), Request("first", board))
    assert [attempt.engine for attempt in plan] == ["local", "cp"]
    result = nqueens.first(10_000, queens=board.queens)
    assert result.solution is not None and result.stats.engine in ("local", "cp")
    assert set(board.queens) <= set(result.solution.squares())


@pytest.mark.parametrize("n", [2, 3])
def test_boards_without_solutions_are_answered_by_complete_engines(n: int) -> None:
    result = invoke("first", str(n))
    assert result.exit_code == 1
    assert "No solution exists" in result.stderr


@pytest.mark.slow  # seconds of processes: with -m slow, the README's command stays under 90 s
def test_a_huge_board_streams_as_json_and_compact_and_verifies(tmp_path: Path) -> None:
    n = 200_000
    done = run_nqueens("first", str(n), "--format", "json", "--seed", "1", timeout=120)
    assert done.returncode == 0, done.stderr
    (record,), status = json_stream(done.stdout)
    assert record["n"] == n and status["engine"] == "local"
    _assert_solution(record["rows"])
    compact = invoke("first", str(n), "--style", "compact", "--seed", "1")
    assert [int(row) - 1 for row in compact.stdout.split()] == record["rows"]
    path = tmp_path / "board.json"
    path.write_text(done.stdout)
    checked = invoke("verify", str(path), "--format", "json")
    assert checked.exit_code == 0
    assert json.loads(checked.stdout)["valid"] is True


def test_verify_counts_the_conflicts_of_a_large_board() -> None:
    rows = list(range(1, 100_000, 2)) + list(range(0, 100_000, 2))  # a permutation
    rows[0], rows[1] = rows[1], rows[0]
    text = json.dumps({"n": len(rows), "rows": rows}) + "\n"
    result = invoke("verify", "--format", "json", stdin=text)
    assert result.exit_code == 1
    record = json.loads(result.stdout)
    assert record["valid"] is False and record["conflicts"]["row"] == 0
    assert record["conflicts"]["diagonal"] > 0


MEASURED_CHILD = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
    "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)\n"
    "print(done.stdout, end='')\n"
)
"""Runs a command and prints its exit code, its peak memory in MiB, then what it printed."""


@pytest.mark.slow  # 3 s
def test_verify_names_the_pairs_of_an_invalid_board_of_millions_in_little_memory(
    tmp_path: Path,
) -> None:
    """Naming the first attacking pairs followed every line of every queen: 1.5 GiB and 9 s for
    this board of two million queens, against 0.6 GiB and 3 s now."""
    n = 1_999_999
    rows = list(range(1, n, 2)) + list(range(0, n, 2))  # a solution, as n % 6 is 1
    rows[0] = rows[2]
    path = tmp_path / "board.json"
    path.write_text(json.dumps({"n": n, "rows": rows}) + "\n")
    verify = [*NQUEENS, "verify", str(path)]
    done = subprocess.run(
        [sys.executable, "-c", MEASURED_CHILD, *verify],
        capture_output=True,
        text=True,
        env=process_env(),
        timeout=120,
    )
    head, *lines = done.stdout.splitlines()
    code, mebibytes = map(int, head.split())
    assert code == 1 and lines[0] == f"board 1 (N = {n}): queens 6,1 and 6,3 share a row"
    assert mebibytes < 1000, mebibytes


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["first", "1000", "--svg", "big.svg"], "--svg draws boards up to N = 200"),
        (["first", "5000", "--style", "board"], "--style board draws boards up to N = 1,000"),
        (["first", "0"], "at least 1"),
        (["first", "10000001"], "10,000,000"),
    ],
)
def test_pictures_too_large_and_sizes_out_of_range_are_refused(
    arguments: list[str], message: str, tmp_path: Path
) -> None:
    result = invoke(*[str(tmp_path / a) if a.endswith(".svg") else a for a in arguments])
    assert result.exit_code == 2
    assert message in result.stderr
    assert not list(tmp_path.iterdir())

"""Completion puzzles: exact counts against an independent counter, valid completions, every
validation error, board files, and `nqueens verify`."""

from __future__ import annotations

import functools
import json
import random
import re
import select
import signal
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest
from helpers import (
    DATA,
    NQUEENS,
    ROOT,
    TERMINAL_ENV,
    assert_valid_board,
    count_completions,
    invoke,
    json_stream,
    parse_plain_boards,
    process_env,
    run_nqueens,
)

import nqueens
from nqueens import InputError
from nqueens.cli.sources import TextLines
from nqueens.core.board import MAX_N
from nqueens.engines import registry
from nqueens.engines.base import COUNT, FIRST, SOLVE, Request

EXAMPLES = ROOT / "examples"


def random_instance(seed: int, n: int) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """Up to two non-attacking queens and a few blocked squares, from a seeded generator."""
    chooser = random.Random(seed)
    queens: set[tuple[int, int]] = set()
    for _ in range(chooser.randint(0, 2)):
        row, col = chooser.randrange(n), chooser.randrange(n)
        if all(r != row and c != col and abs(r - row) != abs(c - col) for r, c in queens):
            queens.add((row, col))
    squares = [(r, c) for r in range(n) for c in range(n) if (r, c) not in queens]
    blocked = set(chooser.sample(squares, chooser.randint(0, n)))
    return queens, blocked


INSTANCES = [(seed, 4 + seed % 7) for seed in range(24)]  # N from 4 to 10


@functools.cache
def expected_completions(seed: int, n: int) -> int:
    """The independent counter's answer for an instance, counted once for every engine."""
    return count_completions(n, *random_instance(seed, n))


def _keeps(
    rows: tuple[int, ...], queens: set[tuple[int, int]], blocked: set[tuple[int, int]]
) -> bool:
    placed = {(row, col) for col, row in enumerate(rows)}
    return queens <= placed and not blocked & placed


@pytest.mark.slow
@pytest.mark.parametrize(
    ("engine", "strategy"),
    [
        ("cp-sat", "first-min"),
        ("cp-sat", "auto"),
        ("cp", "first-min"),
        ("cp", "first-fail-mid"),
        ("bitboard", None),
    ],
)
@pytest.mark.parametrize(("seed", "n"), INSTANCES)
def test_completion_counts_match_an_independent_counter(
    seed: int, n: int, engine: str, strategy: str | None
) -> None:
    queens, blocked = random_instance(seed, n)
    stats = nqueens.count(n, queens=queens, blocked=blocked, engine=engine, strategy=strategy)
    assert stats.solutions == expected_completions(seed, n)


@pytest.mark.slow
@pytest.mark.parametrize("mip_solver", ["scip", "glpk"])
@pytest.mark.parametrize(("seed", "n"), [(seed, n) for seed, n in INSTANCES if n <= 7])
def test_completion_counts_on_the_mip_engine(seed: int, n: int, mip_solver: str) -> None:
    queens, blocked = random_instance(seed, n)
    stats = nqueens.count(n, queens=queens, blocked=blocked, engine="mip", mip_solver=mip_solver)
    assert stats.solutions == expected_completions(seed, n)


@pytest.mark.parametrize("engine", ["cp-sat", "bitboard"])
@pytest.mark.parametrize("workers", [1, 2])
def test_completion_counts_with_workers(workers: int, engine: str) -> None:
    queens, blocked = {(0, 2)}, {(4, 4), (5, 1)}
    stats = nqueens.count(10, queens=queens, blocked=blocked, workers=workers, engine=engine)
    assert stats.solutions == count_completions(10, queens, blocked)
    assert stats.unique is None  # given squares break the symmetry


@pytest.mark.parametrize("engine", ["auto", "cp-sat", "cp", "mip", "bitboard"])
@pytest.mark.parametrize(("seed", "n"), INSTANCES[:12])
def test_first_keeps_the_givens_or_proves_none(seed: int, n: int, engine: str) -> None:
    queens, blocked = random_instance(seed, n)
    result = nqueens.first(n, queens=queens, blocked=blocked, engine=engine)
    if count_completions(n, queens, blocked) == 0:
        assert result.proven_infeasible
    else:
        assert result.solution is not None
        assert_valid_board(result.solution.rows, n)
        assert _keeps(result.solution.rows, queens, blocked)


@pytest.mark.parametrize("engine", ["cp-sat", "bitboard"])
def test_solve_yields_only_completions(engine: str) -> None:
    queens, blocked = {(1, 2)}, {(0, 0)}
    with nqueens.solve(8, queens=queens, blocked=blocked, engine=engine) as stream:
        boards = [solution.rows for solution in stream]
    assert len(boards) == count_completions(8, queens, blocked)
    for rows in boards:
        assert_valid_board(rows, 8)
        assert _keeps(rows, queens, blocked)


@pytest.mark.slow
def test_auto_falls_back_to_cp_sat_when_the_fast_search_gets_lost() -> None:
    """Seed 0 of the completion benchmark at N = 100: first-fail-mid does not finish in 10 s."""
    from nqueens.formats.boards import random_puzzle

    board = random_puzzle(100, 10, seed=0)
    fast = nqueens.first(
        100, engine="cp", strategy="first-fail-mid", queens=board.queens, time_limit=1.5
    )
    result = nqueens.first(100, queens=board.queens)
    assert fast.solution is None and not fast.proven_infeasible
    assert result.solution is not None or result.proven_infeasible
    assert result.stats.engine == "cp-sat"
    if result.solution is not None:
        assert_valid_board(result.solution.rows, 100)
        assert board.allows(result.solution.rows)


def test_auto_stops_when_the_time_limit_is_spent_by_the_first_attempt() -> None:
    """The fast search gets the whole of a 0.5 s limit; CP-SAT must not start with none."""
    from nqueens.formats.boards import random_puzzle

    board = random_puzzle(100, 10, seed=0)
    result = nqueens.first(100, queens=board.queens, time_limit=0.5)
    assert result.solution is None and not result.proven_infeasible
    assert result.stats.status is nqueens.Status.TIME_LIMIT


def test_unique_is_refused_with_given_squares() -> None:
    with pytest.raises(InputError, match="break"):
        nqueens.solve(8, queens=[(0, 0)], unique=True)


# --- the command line: givens, board files, validation ----------------------------------------


def test_queen_and_block_options_are_one_based() -> None:
    result = invoke("solve", "6", "--queen", "1,2", "--block", "3,1", "--format", "json")
    assert result.exit_code == 0
    boards: list[tuple[int, ...]] = [
        tuple(cast(list[int], record["rows"])) for record in json_stream(result.stdout)[0]
    ]
    assert len(boards) == count_completions(6, {(0, 1)}, {(2, 0)}) > 0
    for rows in boards:
        assert rows[1] == 0 and rows[0] != 2


def test_board_file_gives_n_and_the_squares(tmp_path: Path) -> None:
    board = tmp_path / "puzzle.txt"
    board.write_text(
        "..Q.....\n........\n#.......\n........\n........\n........\n........\n........\n"
    )
    result = invoke("count", "--board", str(board))
    assert result.exit_code == 0
    assert int(result.stdout) == count_completions(8, {(0, 2)}, {(2, 0)})


def test_board_from_stdin_with_spaces_and_x_marks() -> None:
    text = "Q _ _ _ _\n_ _ X _ _\n_ _ _ _ _\n_ _ _ _ _\n_ _ _ _ _\n"
    result = invoke("count", "--board", "-", stdin=text)
    assert int(result.stdout) == count_completions(5, {(0, 0)}, {(1, 2)})


def test_csplib_instances_are_read_0_based_row_first() -> None:
    """CSPLib problem 79's Essence' model takes init of int(0..n-1), m[init[i,1], init[i,2]]."""
    text = "language Essence 1.3\nletting n = 8\nletting init = [[0, 0], [1, 4]]\n"
    result = invoke("count", "--board", "-", stdin=text)
    assert int(result.stdout) == count_completions(8, {(0, 0), (1, 4)}, set())
    # Without a 0, the file was silently moved one square: the same squares, 0-based.
    shifted = "letting n = 8\nletting init = [[1, 1], [2, 5]]\n"
    result = invoke("count", "--board", "-", stdin=shifted)
    assert int(result.stdout) == count_completions(8, {(1, 1), (2, 5)}, set())


def test_a_published_instance_is_completed_with_every_given_queen_kept() -> None:
    """completion-21-18-3 from CSPLib: N = 5,492, all but 21 queens placed, 37,590 completions."""
    path = DATA / "completion-21-18-3.param"
    text = path.read_text()
    n = int(text.split("letting n =")[1].split()[0])
    given = {(row, col) for row, col in json.loads(text.split("letting init =")[1])}
    result = invoke("first", "--board", str(path), "--format", "json", "--seed", "1")
    assert result.exit_code == 0, result.stderr
    (record,), _ = json_stream(result.stdout)
    rows = record["rows"]
    assert sorted(rows) == list(range(n))
    assert len({row + col for col, row in enumerate(rows)}) == n
    assert len({row - col for col, row in enumerate(rows)}) == n
    assert given <= {(row, col) for col, row in enumerate(rows)}


def test_example_puzzle_has_a_completion() -> None:
    result = invoke("first", "--board", str(EXAMPLES / "puzzle_8.txt"))
    assert result.exit_code == 0
    (rows,) = parse_plain_boards(result.stdout)
    assert_valid_board(rows, 8)
    assert _keeps(rows, {(1, 2), (7, 6)}, {(3, 4), (5, 5)})


def test_random_instance_example_feeds_the_solver() -> None:
    generated = subprocess.run(
        [
            sys.executable,
            str(EXAMPLES / "random_completion.py"),
            "20",
            "--queens",
            "2",
            "--seed",
            "4",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert sum(line.split().count("Q") for line in generated.splitlines()) == 2
    result = invoke("first", "--board", "-", stdin=generated)
    assert result.exit_code in (0, 1)
    if result.exit_code == 0:
        (rows,) = parse_plain_boards(result.stdout)
        assert_valid_board(rows, 20)


@pytest.mark.parametrize("command", ["solve", "first"])
def test_infeasible_puzzle_says_no_solution(command: str) -> None:
    givens = ["1,1", "2,3", "3,5", "4,7", "5,2", "6,4", "7,6"]  # no completion: checked below
    result = invoke(command, "8", *[arg for square in givens for arg in ("--queen", square)])
    assert (
        count_completions(8, {(0, 0), (1, 2), (2, 4), (3, 6), (4, 1), (5, 3), (6, 5)}, set()) == 0
    )
    assert result.exit_code == 1
    assert "No completion exists" in result.stderr
    json_result = invoke(command, "8", "--format", "json", *[f"--queen={s}" for s in givens])
    _, status = json_stream(json_result.stdout)
    assert (json_result.exit_code, status["status"], status["solutions"]) == (1, "no-solution", 0)


def test_infeasible_puzzle_counts_zero() -> None:
    result = invoke("count", "4", "--queen", "1,1")
    assert result.exit_code == 0
    assert result.stdout == "0\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--queen", "9,1"], "square 9,1 is off the 8 x 8 board"),
        (["--block", "1,9"], "square 1,9 is off the 8 x 8 board"),
        (["--queen", "2,2", "--queen", "2,2"], "queen 2,2 is given twice"),
        (["--queen", "2,2", "--block", "2,2"], "square 2,2 is both a queen and blocked"),
        (["--queen", "1,1", "--queen", "1,5"], "queens 1,1 and 1,5 share a row"),
        (["--queen", "1,1", "--queen", "6,1"], "queens 1,1 and 6,1 share a column"),
        (["--queen", "1,1", "--queen", "3,3"], "queens 1,1 and 3,3 share a diagonal"),
        (["--queen", "3;4"], "malformed square '3;4'"),
        (["--queen", "a,b"], "malformed square 'a,b'"),
        (["--block", "1,"], "malformed square '1,'"),
        (["--queen", "0,3"], "count from 1"),
    ],
)
@pytest.mark.parametrize("command", ["solve", "count", "first"])
def test_bad_squares_exit_2_naming_them(command: str, args: list[str], message: str) -> None:
    result = invoke(command, "8", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_squares_beyond_a_thousand_are_named_as_they_are_given() -> None:
    """Grouped by thousands, 'queens 1,1,000 and 1,1,001' read as three coordinates each."""
    result = invoke("count", "1200", "--queen", "1,1000", "--queen", "1,1001", "-t", "1")
    assert result.exit_code == 2
    assert "queens 1,1000 and 1,1001 share a row" in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Q...\n....\n...\n....\n", "row 3 has 3 squares"),
        ("Q..\n.?.\n...\n", "square 2,2 is '?'"),
        ("", "the board is empty"),
        ("Q.Q\n...\n...\n", "queens 1,1 and 1,3 share a row"),
        ("letting init = [[1, 1]]\n", "no 'letting n"),
        ("letting n = 8\nletting init = [[1, 1], [3]]\n", "pair 2 of 'letting init', [3], is"),
        ("letting n = 8\nletting init = [[8, 0]]\n", "square [8, 0] is off the 8 x 8 board"),
        ("letting n = 8\nletting init = [[0, 0], [1, 1]]\n", "[0, 0] and [1, 1] share a diag"),
        ("letting n = 8\nletting init = [[0, 0], [0, 0]]\n", "queen [0, 0] is given twice"),
        ("letting n = 8\nletting init = [[0, 1] [2, 3]]\n", "not a list of [row, col] pairs"),
        ("letting n = 8\nletting init = [[0,0]]]]\n", "line 2: the CSPLib instance's 'letting"),
        ("letting n = 8\n\nletting init = [[0,0]], 7\n", "line 3: the CSPLib instance's"),
        ("letting n = 8\nletting init = " + "[" * 5000 + "\n", "line 2: the CSPLib"),
        ("letting n = 8\nleting init = [[0, 3]]\n", "line 2: 'leting init = [[0, 3]]' is not"),
        ("letting n = 9\nletting n = 8\n", "line 2: a second 'letting n' (the first is on"),
        ("letting n = 8\nletting init = [[0, 3]]\nletting init = []\n", "line 3: a second"),
        ("letting n = 8\nn = 9\n", "line 2: 'n = 9' is not part of a CSPLib instance"),
        ("letting n = 8\nletting init = [[0, 3]] junk\n", "line 2: the CSPLib instance's"),
        ("letting n = -8\n", "line 1: the CSPLib instance's n must be a positive whole number"),
        ("n = 8;\ninit = [| 1,1 | 2,5 |];\n", "looks like a MiniZinc data file"),
        ('{"n": 8}\n', "looks like JSON"),
    ],
)
def test_bad_board_files_exit_2(text: str, message: str) -> None:
    result = invoke("count", "--board", "-", stdin=text)
    assert result.exit_code == 2
    assert message in result.stderr
    if "letting n" in text and re.search(r"pair|square|share|twice", message):  # 0-based
        assert "count rows and columns from 0" in result.stderr
    if "looks like" in message:  # the formats it reads are named
        assert "A board file is a drawing" in result.stderr


def test_a_drawing_with_more_rows_than_squares_is_refused_as_it_is_read() -> None:
    """`yes '. .' | nqueens count --board -` read a gigabyte before it was refused: it stops
    once the rows outnumber the first row's squares. A writer counts what was taken."""
    import threading

    process = subprocess.Popen(
        [*NQUEENS, "count", "--board", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=process_env(),
    )
    taken = [0]

    def write() -> None:
        assert process.stdin is not None
        try:
            for _ in range(400):  # 200 MB at most
                process.stdin.write(b". .\n" * (1 << 17))
                taken[0] += 1 << 19
        except (OSError, ValueError):  # the pipe closed as the process ended
            pass

    writer = threading.Thread(target=write)
    writer.start()
    _, err = process.communicate(timeout=60)
    writer.join()
    assert process.returncode == 2
    assert b"more rows than the 2 squares of its first row" in err
    assert taken[0] < 20 << 20


def test_a_csplib_instance_takes_comments_a_language_line_and_a_list_over_lines() -> None:
    """Essence' parameter files as people write them: ``$`` comments, a ``language`` line, and
    a long list broken over lines."""
    text = (
        "language ESSENCE' 1.0\n$ two queens given\nletting n = 8 $ the board\n"
        "letting init = [[0, 3],\n   [1, 5]]\n"
    )
    result = invoke("count", "--board", "-", stdin=text)
    expected = count_completions(8, {(0, 3), (1, 5)}, set())
    assert (result.exit_code, result.stdout) == (0, f"{expected}\n")


def test_n_must_agree_with_the_board() -> None:
    result = invoke("count", "6", "--board", "-", stdin="Q...\n....\n....\n....\n")
    assert result.exit_code == 2
    assert "4 x 4" in result.stderr


def test_n_or_a_board_is_needed() -> None:
    result = invoke("count")
    assert result.exit_code == 2
    assert "Missing argument 'N'" in result.stderr


# --- verify ------------------------------------------------------------------------------------


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_solve_output_verifies(output_format: str) -> None:
    solved = invoke("solve", "8", "--format", output_format)
    result = invoke("verify", "-", stdin=solved.stdout)
    assert result.exit_code == 0, result.stdout
    assert "92 boards checked: all valid" in result.stderr


def test_compact_and_labelled_boards_verify() -> None:
    compact = invoke("solve", "9", "--style", "compact").stdout
    labelled = invoke("first", "12", env=TERMINAL_ENV).stdout
    result = invoke("verify", stdin=compact + "\n" + labelled)
    assert result.exit_code == 0, result.stdout
    assert "353 boards checked: all valid" in result.stderr


LABELLED_4 = "   1  2  3  4\n1  .  Q  .  .\n2  .  .  .  Q\n3  Q  .  .  .\n4  .  .  Q  .\n"


@pytest.mark.parametrize(
    ("drawn", "code"),
    [
        (LABELLED_4, 0),
        # The queens moved to the 5th to 7th columns' places, past the header's four.
        ("   1  2  3  4\n1  .  .  .  .  Q\n2  .  .  .  .  .  Q\n3  .  .  .  .  .  .  Q\n"
         "4  .  .  Q  .\n", 2),
        (LABELLED_4.replace("2  .  .  .  Q", "2  .  .  .  .  Q"), 2),  # one queen past the last
    ],
)  # fmt: skip
def test_a_labelled_board_with_a_queen_off_it_is_never_valid(drawn: str, code: int) -> None:
    result = invoke("verify", stdin=drawn)
    assert result.exit_code == code, result.stderr
    if code:
        assert "drawn past the board's 4 columns" in result.stderr


def test_compact_lines_that_count_from_1_are_boards_not_a_labelled_header() -> None:
    """A compact line that starts 1 after a one-queen board, or 1 2 3 4 twice, is a board."""
    eight = invoke("first", "8", "--engine", "bitboard", "--style", "compact").stdout
    assert eight.startswith("1 ")
    both = invoke("verify", stdin="1\n" + eight)
    assert both.exit_code == 0, both.stderr
    assert "2 boards checked: all valid" in both.stderr
    twice = invoke("verify", stdin="1 2 3 4\n1 2 3 4\n")
    assert twice.exit_code == 1, twice.stderr
    assert "2 boards checked: 2 not valid" in twice.stderr


def test_verify_reads_rows_drawn_as_board_files_are() -> None:
    """Rows without spaces (``..Q.``) are read by verify as --board reads them."""
    drawn = "".join(
        "".join("Q" if row == queen else "." for row in range(8)) + "\n"
        for queen in (0, 4, 7, 5, 2, 6, 1, 3)
    )
    result = invoke("verify", stdin=drawn)
    assert result.exit_code == 0, result.stderr
    solved = invoke("count", "--board", "-", stdin=drawn.replace("Q", "."))
    assert solved.exit_code == 0 and solved.stdout.strip() == "92"


def test_verify_of_a_puzzle_file_says_it_is_a_puzzle() -> None:
    result = invoke("verify", str(Path(__file__).parents[2] / "examples" / "puzzle_8.txt"))
    assert result.exit_code == 2
    assert "a puzzle, not a solution" in result.stderr and "nqueens first --board" in result.stderr


def test_verify_reports_every_attacking_pair() -> None:
    text = 'Q _ _ _\n_ Q _ _\n_ _ _ Q\n_ _ Q _\n\n{"n": 4, "rows": [1, 3, 0, 2]}\n'
    result = invoke("verify", stdin=text)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert "board 1 (N = 4): queens 1,1 and 2,2 share a diagonal" in lines
    assert "board 1 (N = 4): queens 3,4 and 4,3 share a diagonal" in lines
    assert not any(line.startswith("board 2") for line in lines)
    assert "2 boards checked: 1 not valid" in result.stderr


def test_verify_output_is_bounded_and_counts_every_conflict() -> None:
    """5,000 queens on one row: 12,497,500 attacking pairs, counted, five of them named."""
    result = invoke("verify", "--format", "json", stdin=json.dumps({"rows": [0] * 5000}) + "\n")
    assert result.exit_code == 1
    (record,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert record["conflicts"] == {"row": 12_497_500, "column": 0, "diagonal": 0}
    assert len(record["problems"]) == 6
    assert record["problems"][-1] == "and 12,497,495 more attacking pairs"
    assert len(result.stdout) < 1000
    three = invoke("verify", stdin=json.dumps({"rows": [0] * 3}) + "\n")  # each to the first
    assert three.stdout.splitlines()[-1] == "board 1 (N = 3): and 1 more attacking pair"


def test_verify_counts_diagonals_in_both_directions() -> None:
    """rows (0, 1, 2) share one diagonal: 3 pairs; (2, 1, 0) the other: 3 pairs too."""
    for rows in ([0, 1, 2], [2, 1, 0]):
        result = invoke("verify", "--format", "json", stdin=json.dumps({"rows": rows}) + "\n")
        (record,) = [json.loads(line) for line in result.stdout.splitlines()]
        assert record["conflicts"] == {"row": 0, "column": 0, "diagonal": 3}


def test_verify_reads_a_byte_order_mark() -> None:
    result = invoke("verify", stdin='\ufeff{"rows": [1, 3, 0, 2]}\n')
    assert result.exit_code == 0
    assert "1 board checked: all valid" in result.stderr


def test_verify_json_and_missing_queens() -> None:
    result = invoke("verify", "--format", "json", stdin="Q _ _ _\n_ _ _ Q\n_ _ _ _\n_ _ _ _\n")
    (record,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert record["valid"] is False
    assert "2 queens on a 4 x 4 board, which needs 4" in record["problems"]
    alone = invoke("verify", stdin=". Q\n. .\n")
    assert "board 1 (N = 2): 1 queen on a 2 x 2 board, which needs 2" in alone.stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hello\n", "line 1"),
        ("", "Error: no board found in the input"),
        (". . # .\n", "line 1: a blocked square"),
        (LABELLED_4.replace("4  .  .  Q  .", "4  .  .  Q  x"), "'x' in row 4 is not part of"),
        ('{"n": 4}\n', 'a board in JSON needs "rows"'),
        ("Q _\n_ _ Q\n", "line 2: a row of 3 after a row of 2 (line 1)"),
        ("_ _ Q\nQ\n", "line 2: a row of 1 after a row of 3 (line 1)"),
        ("Q\nQ\n", "line 2: row 2 of a board of N = 1"),
        (". Q . .\n. . . Q\nQ . . .\n", "line 3: the board of N = 4 stops after row 3"),
        ("1 5 9\n", "row 5 is off"),
        # JSON that is not a board it can check: never "valid" (issue 17)
        ('{"n": 4.7, "rows": [1, 3, 0, 2]}\n', '"n" must be a whole number'),
        ('{"rows": []}\n', "not 0"),
        ('{"n": 5, "rows": [0]}\n', 'a board of N = 5 needs 5 rows, and "rows" has 1'),
        ('{"n": 0, "rows": []}\n', "not 0"),
        ('{"rows": [100, 3, 0, 2]}\n', "row 100 is off a board of N = 4"),
        ('{"rows": [1, 3, 0, -1]}\n', "row -1 is off"),
        ('{"rows": [1, 3, 0, 100000000000000000000000]}\n', "a row of 24 digits is off"),
        ('{"n": Infinity, "rows": [1]}\n', "not inf"),
        ('{"n": 1e400, "rows": [1]}\n', "not inf"),
        ('{"n": true, "rows": [0]}\n', "not true"),
        ("[1, 2]\n", "line 1"),
        ("   1  2  3  4\n1 \u265b \u265b \u265b \u265b\n", "two queens in one square"),
    ],
)
def test_verify_unreadable_input_exits_2(text: str, message: str) -> None:
    result = invoke("verify", stdin=text)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Invalid value" not in result.stderr and "Usage:" not in result.stderr


def test_verify_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "boards.txt"
    path.write_text(invoke("solve", "6").stdout)
    result = invoke("verify", str(path))
    assert result.exit_code == 0
    assert "4 boards checked" in result.stderr


def _verifying_json() -> subprocess.Popen[bytes]:
    """``nqueens verify --format json`` as a process, its three streams pipes to this one."""
    return subprocess.Popen(
        [*NQUEENS, "verify", "--format", "json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=process_env(),
    )


def test_verify_checks_each_board_as_it_arrives() -> None:
    """A stream of any length takes constant memory: a board is reported before the next one
    is written (reading all of the input first took 1.8 GB for 3.75 million boards)."""
    checking = _verifying_json()
    assert checking.stdin is not None and checking.stdout is not None
    try:
        checking.stdin.write(b"2 4 1 3\n")
        checking.stdin.flush()
        ready, _, _ = select.select([checking.stdout], [], [], 60)
        assert ready, "no report of the first board while the input stays open"
        assert json.loads(checking.stdout.readline())["valid"] is True
        checking.stdin.write(b"1 2 3 4\n")
        out, err = checking.communicate(timeout=60)
    finally:
        if checking.poll() is None:
            checking.kill()
            checking.wait()
    assert checking.returncode == 1
    assert json.loads(out)["valid"] is False
    assert b"2 boards checked: 1 not valid." in err


def test_a_stopped_verify_says_what_it_checked_with_the_signals_exit_code() -> None:
    """A stop while verify waited for more boards said 'Interrupted.' alone: the boards it had
    checked went unsaid, where every other command shows its partial result."""
    checking = _verifying_json()
    assert checking.stdin is not None and checking.stdout is not None
    try:
        for board in (b"2 4 1 3\n", b"1 3 2 4\n"):  # each reported: then verify waits
            checking.stdin.write(board)
            checking.stdin.flush()
            ready, _, _ = select.select([checking.stdout], [], [], 60)
            assert ready and checking.stdout.readline()
        checking.send_signal(signal.SIGINT)
        _, err = checking.communicate(timeout=60)
    finally:
        if checking.poll() is None:
            checking.kill()
            checking.wait()
    assert checking.returncode == 130, err
    assert b"Interrupted: 2 boards checked: 1 not valid, before the stop." in err


def test_an_endless_stream_of_rows_is_refused_at_the_first_row_too_many() -> None:
    """``yes Q | nqueens verify`` stops at line 2 rather than keeping rows until memory runs
    out: a board's rows are known to be too many before its end."""
    checking = subprocess.Popen(
        [*NQUEENS, "verify"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=process_env(),
    )
    assert checking.stdin and checking.stdout and checking.stderr
    try:
        checking.stdin.write(b"Q _\n_ Q\n_ Q\n")
        checking.stdin.flush()
        assert checking.wait(timeout=60) == 2  # with the input still open
        said = checking.stderr.read().decode()
    finally:
        if checking.poll() is None:
            checking.kill()
            checking.wait()
        checking.stdin.close()
        checking.stdout.close()
        checking.stderr.close()
    assert "line 3: row 3 of a board of N = 2" in said and "Traceback" not in said


def test_a_line_longer_than_any_board_is_refused_before_it_is_read_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(TextLines, "max_line_bytes", 64)
    result = invoke("verify", stdin="2 4 1 3\n" + "1 " * 40 + "\n")
    assert result.exit_code == 2
    assert "line 2 of standard input is longer than 0 MB, more than a board of" in result.stderr


def test_the_longest_line_taken_holds_the_json_of_the_largest_board() -> None:
    """``first 10000000 --format json`` writes its rows on one line, which verify reads back."""
    numbers_of_digits = {
        digits: min(MAX_N, 10**digits) - (10 ** (digits - 1) if digits > 1 else 0)
        for digits in range(1, len(str(MAX_N)) + 1)
    }
    rows = sum(digits * how_many for digits, how_many in numbers_of_digits.items())
    rows += 2 * (MAX_N - 1)  # ", " between them
    record = len(json.dumps({"solution": 1, "n": MAX_N, "rows": []})) + 1  # and a newline
    assert rows + record <= TextLines.max_line_bytes < 2 * (rows + record)


def test_verify_reports_the_boards_before_a_line_that_is_not_one() -> None:
    result = invoke("verify", "--format", "json", stdin="2 4 1 3\n3 1 4 2\nnot a board\n1 1\n")
    assert result.exit_code == 2
    assert [json.loads(line)["board"] for line in result.stdout.splitlines()] == [1, 2]
    assert "line 3: 'not a board' is not part of a board" in result.stderr
    assert "(2 boards checked: all valid before it)" in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x7fELF\x02\x01\x01\x00\x00\x00", "is a binary file, not text"),
        ("caf\u00e9 . Q\n".encode("latin-1"), "is not UTF-8 text (byte 0xe9 at offset 3)"),
        ("\ufeffQ\n".encode("utf-16-le") + b"Q", "is not UTF-16 text"),  # half a character
        ("\ufeffQ\n\0\n".encode("utf-16-be"), "is a binary file, not text"),
        ("\ufeffQ\n\0\n".encode("utf-32-le"), "is a binary file, not text"),
    ],
    ids=["binary", "latin-1", "utf-16-cut", "utf-16-nul", "utf-32-nul"],
)
@pytest.mark.parametrize("command", ["board", "verify"])
def test_files_that_are_not_text_are_refused(
    command: str, content: bytes, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "input"
    path.write_bytes(content)
    arguments = ["first", "--board", str(path)] if command == "board" else ["verify", str(path)]
    result = invoke(*arguments)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr


MARKED_ENCODINGS = ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]
"""Text with a byte-order mark in each of these: Windows' Notepad saves "Unicode" as UTF-16-LE,
and PowerShell 5's ``>`` writes it."""


@pytest.mark.parametrize("encoding", MARKED_ENCODINGS)
@pytest.mark.parametrize("command", ["board", "verify", "verify from stdin"])
def test_text_in_utf16_or_utf32_with_its_mark_is_read(
    command: str, encoding: str, tmp_path: Path
) -> None:
    """Its NUL bytes had it refused as a binary file."""
    board = ". Q . .\r\n. . . .\r\n. . . .\r\n. . . .\r\n"  # the puzzle of the mark test above
    solved = ". . Q .\r\nQ . . .\r\n. . . Q\r\n. Q . .\r\n"  # rows 1, 3, 0, 2
    text = board if command == "board" else solved
    path = tmp_path / "input.txt"
    path.write_bytes(("\ufeff" + text).encode(encoding))
    if command == "board":
        result = invoke("first", "--board", str(path), "--style", "compact")
        assert result.exit_code == 0, result.stderr
        assert result.stdout.split() == ["3", "1", "4", "2"]
        return
    if command == "verify":
        result = invoke("verify", str(path))
        assert result.exit_code == 0, result.stderr
        assert "1 board checked: all valid" in result.stderr
        return
    with path.open("rb") as typed:  # a process's stdin: CliRunner's cannot be looked ahead in
        done = run_nqueens("verify", "-", stdin=typed)
    assert done.returncode == 0 and "1 board checked: all valid" in done.stderr, done.stderr


def test_verify_stops_at_a_line_of_marked_text_that_is_not_a_board(tmp_path: Path) -> None:
    """The boards before it are reported, and the file is let go of without a word more."""
    path = tmp_path / "boards.txt"
    text = "\ufeff" + "2 4 1 3\n" * 3 + "not a board\n" + "2 4 1 3\n" * 3000
    path.write_bytes(text.encode("utf-16-le"))
    done = run_nqueens("verify", str(path), "--format", "json")
    assert done.returncode == 2 and len(done.stdout.splitlines()) == 3
    assert done.stderr.strip().endswith(
        "line 4: 'not a board' is not part of a board (3 boards checked: all valid before it)"
    ), done.stderr


@pytest.mark.parametrize("line_end", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_verify_reads_each_kind_of_line_end(line_end: str, tmp_path: Path) -> None:
    """Old Macs' lone carriage returns reached it as one line, refused (where --board read
    them). The lines are numbered as an editor shows them."""
    lines = ["2 4 1 3", "", ". . Q .", "Q . . .", ". . . Q", ". Q . .", "not a board"]
    path = tmp_path / "boards.txt"
    path.write_bytes(line_end.join(lines).encode() + line_end.encode())
    result = invoke("verify", str(path))
    assert result.exit_code == 2
    assert "line 7: 'not a board' is not part of a board" in result.stderr
    assert "(2 boards checked: all valid before it)" in result.stderr


def test_a_directory_is_refused_and_a_device_of_zeros_is_not_read_to_its_end() -> None:
    for arguments in (["first", "--board", "/tmp"], ["verify", "/dev/zero"]):
        result = invoke(*arguments)
        assert result.exit_code == 2, arguments
        assert "Traceback" not in result.stderr


def test_a_board_file_with_a_byte_order_mark_and_tabs_is_read(tmp_path: Path) -> None:
    path = tmp_path / "board.txt"
    path.write_text("\ufeff.\tQ\t.\t.\n.\t.\t.\t.\n.\t.\t.\t.\n.\t.\t.\t.\n", encoding="utf-8")
    result = invoke("first", "--board", str(path), "--style", "compact")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split() == ["3", "1", "4", "2"]  # the one completion with 1,2 kept


FULL_BOARDS = [(1, (0,)), (5, (0, 2, 4, 1, 3)), (6, (1, 3, 5, 0, 2, 4))]
"""Boards whose every queen is given: nothing is left to search."""


@pytest.mark.parametrize(("n", "rows"), FULL_BOARDS)
def test_every_engine_takes_a_board_whose_every_queen_is_given(
    n: int, rows: tuple[int, ...]
) -> None:
    """Left no free column, the reduced engine listed a row past the end of its list (solve and
    first ended in a traceback, where count said 1), and local search moved a given queen to
    a row of its own and searched until the time limit."""
    assert_valid_board(rows, n)
    board = nqueens.Board(n, queens=[(row, col) for col, row in enumerate(rows)])
    ran = set()
    for name, engine in registry.ENGINES.items():
        for command in (COUNT, SOLVE, FIRST):
            if registry.refusal(engine, Request(command, board, time_limit=30)) is not None:
                continue
            ran.add(name)
            if command == COUNT:
                assert nqueens.count(board, engine=name, time_limit=30).solutions == 1, name
            elif command == SOLVE:
                listed = nqueens.solve(board, engine=name, time_limit=30)
                assert [solution.rows for solution in listed] == [rows], name
            else:
                found = nqueens.first(board, engine=name, time_limit=30).solution
                assert found is not None and found.rows == rows, name
    assert {"cp-sat", "cp", "mip", "bitboard", "reduced"} | ({"local"} if n >= 4 else set()) <= ran


HUGE = "7" * 5_000  # past the 4,300 digits that Python reads or prints


@pytest.mark.parametrize(
    ("arguments", "stdin"),
    [
        (["first", HUGE], ""),
        (["explain", HUGE], ""),
        (["count", HUGE], ""),
        (["count", "8", "--queen", f"{HUGE},1"], ""),
        (["verify"], f"1 {HUGE} 3\n"),
        (["verify"], f'{{"rows": [1, {HUGE}]}}\n'),
        (["verify"], f'{{"n": {HUGE}, "rows": [1]}}\n'),
        (["count", "--board", "-"], f"letting n = {HUGE}\n"),
        (["count", "--board", "-"], f"letting n = 8\nletting init = [[0, {HUGE}]]\n"),
        (["count", "--board", "-"], f"n = 8\nnumdiags = 1\ndiags = [[{HUGE}, 0]]\n"),
        (["count", "--board", "-"], f"n = {HUGE}\nnumdiags = 1\ndiags = [[1, 0]]\n"),
    ],
)
def test_a_number_of_thousands_of_digits_is_refused_by_its_length(
    arguments: list[str], stdin: str
) -> None:
    result = invoke(*arguments, stdin=stdin)
    assert result.exit_code == 2, result.stderr
    assert re.search(r"a (number|row) of 5,000 digits", result.stderr), result.stderr
    assert "Traceback" not in result.stderr and "4300" not in result.stderr


def test_a_solution_limit_of_thousands_of_digits_is_no_limit() -> None:
    result = invoke("solve", "8", "--limit", HUGE, "--style", "compact")
    assert result.exit_code == 0, result.stderr
    assert "92 solutions for N = 8" in result.stderr


@pytest.mark.parametrize(
    ("arguments", "stdin", "message"),
    [
        (["verify"], '{"rows": ' + "[" * 50_000 + "]" * 50_000 + "}\n", "nested too deep"),
        (["count", "--board", "-"], "n = 8\ndiags = " + "[" * 100_000 + "]" * 100_000, "'diags'"),
        (["count", "--board", "-"], "letting n = 8.5\n", "whole number, not '8.5'"),
        (["count", "--board", "-"], "letting n = \u0663\n", "whole number, not"),
    ],
)
def test_deep_nesting_and_numbers_that_are_not_whole_are_refused(
    arguments: list[str], stdin: str, message: str
) -> None:
    result = invoke(*arguments, stdin=stdin)
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("rows", [MAX_N + 1, 30_000_000])
def test_a_compact_board_past_the_largest_is_refused_in_little_time_and_memory(
    rows: int, tmp_path: Path
) -> None:
    line = "1 " * rows
    path = tmp_path / "rows.txt"
    path.write_text(line.strip() + "\n")
    result = run_nqueens("verify", str(path), timeout=30)
    assert result.returncode == 2, result.stderr
    assert "more than the largest board, N = 10,000,000" in result.stderr


def test_a_json_board_past_the_largest_is_refused() -> None:
    result = invoke("verify", stdin=f'{{"n": {MAX_N + 1}, "rows": [0]}}\n')
    assert result.exit_code == 2
    assert "larger than the largest board" in result.stderr

"""The Excluded Diagonals problem (Gent, Jefferson and Nightingale, JAIR 2017): the paper's files,
--exclude-diagonal, every engine against a counter written here and the published counts."""

from __future__ import annotations

import random
import re
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import Result
from helpers import (
    DATA,
    TERMINAL_ENV,
    assert_valid_board,
    bound,
    count_completions,
    invoke,
    json_stream,
    strip_ansi,
)

import nqueens
from nqueens import Diagonal, Status

PUBLISHED = {  # (file, d): completions, counted exhaustively by CSPLib's authors
    ("diag-12-4-5.param", 12): 0,
    ("diag-16-4-1.param", 14): 0,
    ("diag-16-4-2.param", 14): 7,
    ("diag-20-4-2.param", 18): 275,
}

ENGINES = ("cp-sat", "cp", "mip", "bitboard", "reduced")


def _paper_pairs(path: Path) -> tuple[int, list[tuple[int, int]]]:
    """n and the [k, t] pairs of a diagonals file, read here with a regular expression."""
    numbers = [int(x) for x in re.findall(r"[0-9]+", path.read_text())]
    n, count, flat = numbers[0], numbers[1], numbers[2:]
    pairs = list(zip(flat[0::2], flat[1::2], strict=True))
    assert len(pairs) == count
    return n, pairs


def _lines(n: int, pairs: list[tuple[int, int]]) -> tuple[frozenset[int], frozenset[int]]:
    """The excluded row + col and row - col values of the paper's pairs."""
    sums = frozenset(k for k, t in pairs if t == 1)
    differences = frozenset(k - (n - 1) for k, t in pairs if t == 0)
    return sums, differences


def _keeps(rows: list[int], sums: frozenset[int], differences: frozenset[int]) -> bool:
    return not any(row + col in sums or row - col in differences for col, row in enumerate(rows))


def _random_instance(
    seed: int, n: int
) -> tuple[list[tuple[str, int]], frozenset[int], frozenset[int]]:
    chooser = random.Random(seed)
    sums = frozenset(chooser.sample(range(2 * n - 1), chooser.randint(0, 4)))
    differences = frozenset(chooser.sample(range(1 - n, n), chooser.randint(0, 4)))
    excluded = [("sum", s) for s in sorted(sums)] + [("difference", d) for d in sorted(differences)]
    return excluded, sums, differences


def test_the_pairs_read_here_mean_what_the_paper_says() -> None:
    # [k, 1]: row + col = k; [k, 0]: row - col = k - (n - 1), squares counted from 0.
    assert _lines(4, [(3, 1), (3, 0), (0, 0)]) == (frozenset({3}), frozenset({0, -3}))


def _on_published(command: str, name_and_d: tuple[str, int]) -> tuple[Path, int, Result]:
    """``command`` run in JSON on a published file with its first d diagonals."""
    name, d = name_and_d
    path = DATA / name
    return path, d, invoke(command, "--board", str(path), "--diagonals", str(d), "--format", "json")


@pytest.mark.parametrize(("name_and_d", "completions"), PUBLISHED.items())
def test_published_diagonal_files_count_their_completions(
    name_and_d: tuple[str, int], completions: int
) -> None:
    path, d, result = _on_published("count", name_and_d)
    assert result.exit_code == 0, result.stderr
    (_, status) = json_stream(result.stdout)
    n, pairs = _paper_pairs(path)
    # Beyond 18 free columns the reduced engine, whose estimate of its search lets it count
    # without a limit; within them the bitboard engine, as fast or faster.
    engine = "reduced" if n > 18 else "bitboard"
    assert (status["solutions"], status["engine"]) == (completions, engine)
    if n <= 12:
        assert count_completions(n, set(), set(), *_lines(n, pairs[:d])) == completions


@pytest.mark.parametrize(("name_and_d", "completions"), PUBLISHED.items())
def test_first_decides_a_published_diagonal_file(
    name_and_d: tuple[str, int], completions: int
) -> None:
    path, d, result = _on_published("first", name_and_d)
    records, status = json_stream(result.stdout)
    if completions == 0:
        assert (result.exit_code, status["status"]) == (1, "no-solution")
        assert "No completion exists" in result.stderr and "excluded diagonals" in result.stderr
        return
    assert result.exit_code == 0, result.stderr
    n, pairs = _paper_pairs(path)
    rows = records[0]["rows"]
    assert_valid_board(rows, n)
    assert _keeps(rows, *_lines(n, pairs[:d]))


def test_a_diagonal_file_takes_all_its_diagonals_without_diagonals_given() -> None:
    path = DATA / "diag-16-4-2.param"
    whole = invoke("count", "--board", str(path))
    _, pairs = _paper_pairs(path)
    assert whole.exit_code == 0, whole.stderr
    first_all = invoke("count", "--board", str(path), "--diagonals", str(len(pairs)))
    assert whole.stdout == first_all.stdout
    fewer = invoke("count", "--board", str(path), "--diagonals", "10")
    assert int(fewer.stdout) > int(whole.stdout)  # fewer diagonals, more solutions


@pytest.mark.parametrize(
    "seed", [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(1, 6))]
)
def test_every_engine_counts_excluded_diagonals_as_the_counter_here(seed: int) -> None:
    n = 5 + seed % 4
    excluded, sums, differences = _random_instance(seed, n)
    expected = count_completions(n, set(), set(), sums, differences)
    for engine in ENGINES:
        stats = nqueens.count(n, excluded=excluded, engine=engine)
        assert (engine, stats.solutions) == (engine, expected)
        listed = list(nqueens.solve(n, excluded=excluded, engine=engine))
        assert len({s.rows for s in listed}) == len(listed) == expected
        for solution in listed:
            assert_valid_board(solution.rows, n)
            assert _keeps(list(solution.rows), sums, differences)


@pytest.mark.parametrize("seed", range(4))
def test_diagonals_queens_and_blocked_squares_together(seed: int) -> None:
    chooser = random.Random(100 + seed)
    n = 7 + seed % 2
    excluded, sums, differences = _random_instance(seed, n)
    queen = next(
        (row, col)
        for row, col in ((chooser.randrange(n), chooser.randrange(n)) for _ in range(1000))
        if row + col not in sums and row - col not in differences
    )
    blocked = {(chooser.randrange(n), chooser.randrange(n)) for _ in range(3)} - {queen}
    expected = count_completions(n, {queen}, blocked, sums, differences)
    for engine in ENGINES:
        stats = nqueens.count(
            n, queens=[queen], blocked=sorted(blocked), excluded=excluded, engine=engine
        )
        assert (engine, stats.solutions) == (engine, expected)


@pytest.mark.parametrize(
    ("seed", "expected"), [pytest.param(4, 9, marks=pytest.mark.slow), (5, 66)]
)
def test_a_split_reduced_count_adds_up_on_every_core(seed: int, expected: int) -> None:
    n = 14
    chooser = random.Random(seed)
    sums = frozenset(chooser.sample(range(2 * n - 1), 5))
    differences = frozenset(chooser.sample(range(1 - n, n), 5))
    excluded = [("sum", s) for s in sums] + [("difference", d) for d in differences]
    split = nqueens.count(n, excluded=excluded, engine="reduced", workers=2)
    whole = nqueens.count(n, excluded=excluded, engine="bitboard", workers=1)
    assert split.status is Status.COMPLETE and split.conflicts > 1  # subproblems
    assert split.solutions == whole.solutions == expected
    assert expected == count_completions(n, set(), set(), sums, differences)


def test_exclude_diagonal_on_the_command_line() -> None:
    # 1,3/ is row + col = 2 (0-based); 2,1\ is row - col = 1.
    result = invoke("count", "8", "--exclude-diagonal", "1,3/", "--exclude-diagonal", "2,1\\")
    assert result.exit_code == 0, result.stderr
    expected = count_completions(8, set(), set(), frozenset({2}), frozenset({1}))
    assert int(result.stdout) == expected
    listed = invoke(
        "solve",
        "8",
        "--exclude-diagonal",
        "1,3/",
        "--exclude-diagonal",
        "2,1\\",
        "--format",
        "json",
    )
    records, status = json_stream(listed.stdout)
    assert status["solutions"] == len(records) == expected
    for record in records:
        assert _keeps(record["rows"], frozenset({2}), frozenset({1}))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--exclude-diagonal", "3,4"], "does not say which diagonal"),
        (["--exclude-diagonal", "9,1/"], "off the 8 x 8 board"),
        (["--exclude-diagonal", "0,1/"], "count from 1"),
        (["--queen", "1,3", "--exclude-diagonal", "1,3/"], "stands on the excluded diagonal 1,3/"),
        (["--diagonals", "3"], "--diagonals takes the first D diagonals of a --board file"),
    ],
)
def test_bad_diagonals_on_the_command_line(arguments: list[str], message: str) -> None:
    result = invoke("count", "8", *arguments)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_a_queen_on_an_excluded_diagonal_of_a_board_too_large_is_named_at_once() -> None:
    """Naming the diagonal walked every row of the board for its topmost square: on N = 10^20,
    for ever (found by a fuzzer of command lines)."""
    started = time.monotonic()
    arguments = ["--queen", "1,1", "--exclude-diagonal", "1,1/"]
    result = invoke("count", str(10**20), *arguments)
    assert result.exit_code == 2
    assert "stands on the excluded diagonal 1,1/" in result.stderr
    assert time.monotonic() - started < bound(0.5)


@pytest.mark.parametrize("n", range(7))
def test_a_diagonal_has_the_squares_of_the_board_on_it(n: int) -> None:
    for kind in ("sum", "difference"):
        for value in range(-2 * n - 1, 2 * n + 2):
            diagonal = Diagonal(kind, value)
            on_it = [
                (row, col)
                for row in range(n)
                for col in range(n)
                if (row + col if kind == "sum" else row - col) == value
            ]
            assert diagonal.squares(n) == on_it
            assert diagonal.on_board(n) == bool(on_it)
            if on_it:
                assert diagonal.topmost(n) == on_it[0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("numdiags = 1\ndiags = [[1, 1]]\n", "has no 'n = ...'"),
        ("n = 8\nnumdiags = 2\ndiags = [[3, 1], [5]]\n", "pair 2 of 'diags', [5], is not [k, t]"),
        (
            "n = 8\nnumdiags = 1\ndiags = [[15, 1]]\n",
            "pair 1 of 'diags', [15, 1]: k must be 0 to 14",
        ),
        ("n = 8\nnumdiags = 2\ndiags = [[3, 1], [4, 2]]\n", "pair 2 of 'diags', [4, 2]: t must be"),
        ("n = 8\nnumdiags = 3\ndiags = [[3, 1], [4, 0]]\n", "numdiags = 3 but lists 2"),
        ("n = 8\nnumdiags = 1\ndiags = [[3, 1]\n", "not a list of [k, t] pairs"),
        ("n = 8\nnumdiags = 1\ndiags = [[3, 1]]\njunk\n", "line 4: 'junk' is not part of an"),
        ("n = 8\nn = 9\ndiags = [[3, 1]]\n", "line 2: a second 'n' (the first is on line 1)"),
        ("n = 8\ndiags = [[3, 1]]\ndiags = [[4, 1]]\n", "line 3: a second 'diags'"),
        ("n = 8\nnumdigs = 1\ndiags = [[3, 1]]\n", "line 2: 'numdigs = 1' is not part"),
    ],
)
def test_malformed_diagonal_files_name_the_pair(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.param"
    path.write_text(text)
    result = invoke("count", "--board", str(path))
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_diagonals_beyond_the_file_or_with_another_kind_of_board(tmp_path: Path) -> None:
    too_many = invoke("count", "--board", str(DATA / "diag-12-4-5.param"), "--diagonals", "21")
    assert too_many.exit_code == 2
    assert "lists 20 diagonals, fewer than the first 21" in too_many.stderr
    drawing = tmp_path / "board.txt"
    drawing.write_text("Q . . .\n. . . .\n. . . .\n. . . .\n")
    other = invoke("count", "--board", str(drawing), "--diagonals", "1")
    assert other.exit_code == 2
    assert "only an Excluded Diagonals file" in other.stderr


def test_the_api_takes_excluded_diagonals_and_checks_them() -> None:
    assert nqueens.count(6, excluded=[("sum", 0)]).solutions == count_completions(
        6, set(), set(), frozenset({0})
    )
    with pytest.raises(nqueens.InputError, match="'sum', row \\+ col"):
        nqueens.count(6, excluded=[("rising", 0)])
    with pytest.raises(nqueens.InputError, match="off the 6 x 6 board"):
        nqueens.count(6, excluded=[("difference", 6)])


MARKED = (  # a given queen, a blocked square and two excluded diagonals, drawn
    "first",
    "8",
    "--queen",
    "1,4",
    "--block",
    "2,4",
    "--exclude-diagonal",
    "1,3/",
    "--exclude-diagonal",
    "2,1\\",
)


def test_the_terminal_board_marks_given_queens_blocked_squares_and_diagonals() -> None:
    result = invoke(*MARKED, env=TERMINAL_ENV)
    assert result.exit_code == 0, result.stderr
    screen = strip_ansi(result.stdout)
    lines = screen.splitlines()
    assert "[♛]" in lines[1]  # row 1: the given queen, in brackets
    rising, falling = (
        "\N{BOX DRAWINGS LIGHT DIAGONAL UPPER RIGHT TO LOWER LEFT}",
        "\N{BOX DRAWINGS LIGHT DIAGONAL UPPER LEFT TO LOWER RIGHT}",
    )
    assert [line.count(rising) for line in lines[1:4]] == [1, 1, 1]  # row + col = 2
    assert "#" in lines[2]
    assert sum(line.count(falling) for line in lines[1:9]) == 7  # row - col = 1: 7 squares
    assert "[♛] given queen" in screen and "# blocked square" in screen
    assert "excluded diagonal" in screen


def test_the_svg_marks_given_queens_blocked_squares_and_diagonals(tmp_path: Path) -> None:
    path = tmp_path / "board.svg"
    result = invoke(*MARKED, "--svg", str(path))
    assert result.exit_code == 0, result.stderr
    root = ET.parse(path).getroot()
    ns = {"svg": "http://www.w3.org/2000/svg"}
    lines = root.findall("svg:line[@class='excluded']", ns)
    assert len(lines) == 2
    titles = {line.find("svg:title", ns).text for line in lines}  # type: ignore[union-attr]
    assert titles == {"excluded diagonal 1,3/", "excluded diagonal 2,1\\"}
    assert len(root.findall("svg:rect[@class='given']", ns)) == 1
    assert len(root.findall("svg:rect[@class='blocked']", ns)) == 1
    given = root.findall("svg:text[@class='queen given']", ns)
    assert [q.find("svg:title", ns).text for q in given] == ["given queen on 1,4"]  # type: ignore[union-attr]

"""Board variants: queens on a torus and superqueens, on every engine that declares the rule.

Counts are checked against OEIS (A007705 for the torus, A051223 for superqueens) and against a
counter written here, which knows nothing of the product's rules; boards are checked by this
file's own checker, never by ``verify``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import TERMINAL_ENV, attacks, invoke, solutions, strip_ansi

import nqueens
from nqueens.core import theorems
from nqueens.core.board import Board
from nqueens.core.geometry import attack, lines_of, lines_through
from nqueens.core.results import InputError
from nqueens.engines import registry
from nqueens.engines.base import Request
from nqueens.run.bounds import LONGEST_WITHOUT_A_LIMIT, check_bounded, check_estimate

TORUS_COUNTS = {1: 1, 2: 0, 3: 0, 4: 0, 5: 10, 6: 0, 7: 28, 8: 0, 9: 0, 10: 0, 11: 88, 13: 4524}
SUPERQUEENS_COUNTS = {1: 1, 4: 0, 8: 0, 9: 0, 10: 4, 11: 44, 12: 156}
RULE_SETS = [("torus",), ("superqueens",), ("torus", "superqueens")]
EACH_RULE = [
    ("torus",),
    ("superqueens",),
    pytest.param(("torus", "superqueens"), marks=pytest.mark.slow, id="torus+superqueens"),
]
"""The rules alone in the default run, and together with -m slow, for the costlier tests."""


def plain_solutions(n: int) -> Iterator[tuple[int, ...]]:
    """The classic problem's solutions, one at a time, in lexicographic order."""

    def place(rows: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if len(rows) == n:
            yield rows
            return
        for row in range(n):
            if all(row != r and abs(row - r) != len(rows) - c for c, r in enumerate(rows)):
                yield from place((*rows, row))

    return place(())


def takers(rule_set: tuple[str, ...], command: str | None = None) -> list[str]:
    """The engines that take every rule of ``rule_set`` (and run ``command``)."""
    return [
        name
        for name, engine in registry.ENGINES.items()
        if set(rule_set) <= engine.rules and (command is None or command in engine.commands)
    ]


def checked(rows: tuple[int, ...], rule_set: tuple[str, ...]) -> bool:
    """Whether ``rows`` is a solution under ``rule_set``, by this file's checker."""
    n = len(rows)
    squares = [(row, col) for col, row in enumerate(rows)]
    return all(
        not attacks(a, b, n, rule_set) for i, a in enumerate(squares) for b in squares[i + 1 :]
    )


@pytest.mark.parametrize("rules", [(), ("torus",), ("superqueens",), ("torus", "superqueens")])
def test_the_lines_of_a_square_are_numbered_alike_one_at_a_time_and_a_list_at_a_time(
    rules: tuple[str, ...],
) -> None:
    """``lines_through`` (a square: attack checks) and ``lines_of`` (many: verify, the board's
    given queens) number every line the same, and the attacks they tell are the checker's."""
    n = 7
    squares = [(row, col) for row in range(n) for col in range(n)]
    ruled = frozenset(rules)
    assert list(zip(*lines_of(squares, n, ruled), strict=True)) == [
        lines_through(square, n, ruled) for square in squares
    ]
    for a in squares:
        for b in squares:
            if a != b:
                assert (attack(a, b, n, ruled) is not None) == attacks(a, b, n, rules), (a, b)


@pytest.mark.slow
def test_the_counter_here_agrees_with_oeis() -> None:
    for n, expected in TORUS_COUNTS.items():
        if n <= 11:
            assert len(solutions(n, ("torus",))) == expected
    for n, expected in SUPERQUEENS_COUNTS.items():
        if n <= 10:
            assert len(solutions(n, ("superqueens",))) == expected
    assert len(solutions(8, ())) == 92  # and the plain rule, as known


@pytest.mark.slow
@pytest.mark.parametrize("rule_set", RULE_SETS, ids="+".join)
@pytest.mark.parametrize("symmetry", [True, False])
def test_every_engine_that_takes_a_rule_counts_as_the_counter_here(
    rule_set: tuple[str, ...], symmetry: bool
) -> None:
    assert takers(rule_set, "count"), "no engine counts under the rule"
    for engine in takers(rule_set, "count"):
        if not symmetry and not registry.ENGINES[engine].splits:
            continue  # symmetry is a choice of the splitting engines only
        for n in range(1, 8):
            board = nqueens.Board(n, rules=rule_set)
            if registry.ENGINES[engine].splits:
                got = nqueens.count(board, engine=engine, symmetry=symmetry)
            else:
                got = nqueens.count(board, engine=engine)
            assert got.solutions == len(solutions(n, rule_set)), (engine, n)


@pytest.mark.parametrize(
    ("rule", "n", "expected"),
    [
        ("torus", 11, 88),
        pytest.param("torus", 13, 4524, marks=pytest.mark.slow),
        ("superqueens", 11, 44),
        pytest.param("superqueens", 12, 156, marks=pytest.mark.slow),
    ],
)
def test_counts_match_oeis_with_their_symmetry_classes(rule: str, n: int, expected: int) -> None:
    stats = nqueens.count(nqueens.Board(n, rules=[rule]), unique=True)
    assert stats.solutions == expected
    assert stats.unique is not None and 0 < stats.unique <= expected


@pytest.mark.parametrize(
    "where",
    [
        pytest.param(["-j", "2"], id="workers"),
        pytest.param(["--checkpoint", "CHECKPOINT"], id="checkpoint"),
        pytest.param(["--cluster", "local:2"], marks=pytest.mark.slow, id="cluster"),
    ],
)
@pytest.mark.parametrize(("rule", "n"), [("torus", 11), ("superqueens", 11)])
def test_a_count_under_a_rule_is_the_same_split_resumed_or_on_a_cluster(
    rule: str, n: int, where: list[str], tmp_path: Path
) -> None:
    """The rule goes with every subproblem: to worker processes, into a checkpoint's identity,
    and to a cluster's workers."""
    expected = {"torus": TORUS_COUNTS, "superqueens": SUPERQUEENS_COUNTS}[rule][n]
    assert len(solutions(n, (rule,))) == expected
    arguments = [str(tmp_path / "count.ckpt") if word == "CHECKPOINT" else word for word in where]
    for _ in range(2 if "CHECKPOINT" in where else 1):  # a finished checkpoint answers again
        result = invoke("count", str(n), f"--{rule}", *arguments)
        assert result.exit_code == 0, result.stderr
        assert int(result.stdout) == expected


@pytest.mark.parametrize("rule_set", RULE_SETS, ids="+".join)
def test_puzzles_under_a_rule_count_as_the_counter_here(rule_set: tuple[str, ...]) -> None:
    n, queen, blocked = 7, (2, 0), (0, 3)
    expected = sum(rows[0] == 2 and rows[3] != 0 for rows in solutions(n, rule_set))
    for engine in takers(rule_set, "count"):
        board = nqueens.Board(n, queens=[queen], blocked=[blocked], rules=rule_set)
        assert nqueens.count(board, engine=engine).solutions == expected, engine


@pytest.mark.parametrize("rule_set", RULE_SETS, ids="+".join)
def test_the_bitboard_search_counts_as_the_counter_here(rule_set: tuple[str, ...]) -> None:
    """The C search, its own copy for each set of rules, counts every small board, whole, split
    and as a puzzle, with and without the symmetry rules."""
    for n in range(1, 11):
        board = nqueens.Board(n, rules=rule_set)
        expected = len(solutions(n, rule_set))
        for symmetry in (True, False):
            got = nqueens.count(board, engine="bitboard", symmetry=symmetry, workers=1)
            assert got.solutions == expected, (n, symmetry)
    board = nqueens.Board(10, queens=[(2, 0)], blocked=[(0, 3)], rules=rule_set)
    expected = sum(rows[0] == 2 and rows[3] != 0 for rows in solutions(10, rule_set))
    assert nqueens.count(board, engine="bitboard", workers=1).solutions == expected


@pytest.mark.parametrize("rule_set", RULE_SETS, ids="+".join)
def test_the_local_search_repairs_the_attacks_of_the_rule(rule_set: tuple[str, ...]) -> None:
    """Every board the C search returns passes the checker here, on boards small enough for
    its attempts to fail often and on a larger one."""
    larger = [] if "torus" in rule_set else [(400, range(1))]  # a torus has few solutions
    for n, seeds in [(13, range(4)), *larger]:
        for seed in seeds:
            board = nqueens.Board(n, rules=rule_set)
            found = nqueens.first(board, engine="local", seed=seed, time_limit=30)
            assert found.solution is not None, (n, seed)
            assert checked(found.solution.rows, rule_set), found.solution.rows


@pytest.mark.parametrize(
    ("rule_set", "n", "flags"),
    [
        pytest.param(("superqueens",), 12, (), marks=pytest.mark.slow),
        pytest.param(("superqueens",), 40, (), marks=pytest.mark.slow),
        pytest.param(("torus",), 13, ("-t", "60"), marks=pytest.mark.slow),
        pytest.param(("torus", "superqueens"), 13, ("-t", "60"), marks=pytest.mark.slow),
    ],
)
def test_local_search_repairs_the_attacks_of_the_rule(
    rule_set: tuple[str, ...], n: int, flags: tuple[str, ...]
) -> None:
    rules = [f"--{rule}" for rule in rule_set]
    for seed in range(3):
        result = invoke(
            "first",
            str(n),
            *rules,
            *flags,
            "--engine",
            "local",
            "--seed",
            str(seed),
            "--format",
            "json",
        )
        assert result.exit_code == 0, result.stderr
        rows = tuple(json.loads(result.stdout.splitlines()[0])["rows"])
        assert checked(rows, rule_set), rows


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("11", "--torus"), "seldom finds the few solutions of a torus"),
        (("8", "--superqueens"), "superqueens boards under 10 have none but N = 1"),
    ],
)
def test_local_search_needs_a_time_limit_where_it_may_never_end(
    args: tuple[str, ...], reason: str
) -> None:
    result = invoke("first", *args, "--engine", "local")
    assert result.exit_code == 2
    assert reason in result.stderr
    assert "engines that can: cp-sat, cp, mip, bitboard" in result.stderr


@pytest.mark.slow
def test_first_on_a_large_superqueens_board_is_local_search() -> None:
    result = invoke("first", "1600", "--superqueens", "--format", "json")
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[-1]["engine"] == "local"
    assert checked(tuple(lines[0]["rows"]), ("superqueens",))


@pytest.mark.parametrize("rule_set", EACH_RULE, ids="+".join)
def test_solved_boards_pass_the_checker_here(rule_set: tuple[str, ...]) -> None:
    flags = [f"--{rule}" for rule in rule_set]
    result = invoke("solve", "11", *flags, "--format", "json")
    assert result.exit_code == 0, result.stderr
    boards = [json.loads(line)["rows"] for line in result.stdout.splitlines()[:-1]]
    assert {tuple(rows) for rows in boards} == solutions(11, rule_set)


@pytest.mark.parametrize("rule", ["torus", "superqueens"])
def test_engines_that_cannot_take_a_rule_refuse_naming_those_that_can(rule: str) -> None:
    refusing = [name for name, engine in registry.ENGINES.items() if rule not in engine.rules]
    for engine in refusing:
        command = "first" if "count" not in registry.ENGINES[engine].commands else "count"
        result = invoke(command, "7", f"--{rule}", "--engine", engine, "-t", "5")
        assert result.exit_code == 2, (engine, result.stderr)
        assert f"does not take the {rule} rule" in result.stderr
        assert f"engines that can: {', '.join(takers((rule,), command))}" in result.stderr


def test_a_variant_without_a_solution_is_an_answer_not_an_error() -> None:
    first = invoke("first", "8", "--torus")
    assert first.exit_code == 1 and "No solution exists for N = 8 (torus)" in first.stderr
    count = invoke("count", "8", "--torus")
    assert (count.exit_code, count.stdout) == (0, "0\n")


def test_a_search_chosen_where_a_theorem_answers_is_told_so_first() -> None:
    """`first 30 --torus --engine cp-sat` searched on without end, and without a word that the
    answer is known: the note comes before the search, and only where the search runs."""
    note = "Note: no solution exists for N = 6 (torus): N is divisible by 2"
    for command in ("solve", "count", "first"):
        chosen = invoke(command, "6", "--torus", "--engine", "cp-sat")
        assert chosen.exit_code == (0 if command == "count" else 1), chosen.stderr
        assert chosen.stderr.startswith(note) and "without --engine, --strategy" in chosen.stderr
    assert invoke("count", "6", "--torus", "--strategy", "first-min").stderr.startswith(note)
    assert note not in invoke("count", "6", "--torus").stderr  # the theorem answers
    refused = invoke("count", "6", "--torus", "--engine", "reduced")
    assert refused.exit_code == 2 and note not in refused.stderr  # it says why itself


def test_unique_with_a_rule_and_given_squares_is_refused_as_for_given_squares() -> None:
    result = invoke("count", "11", "--torus", "--queen", "1,1", "--unique")
    assert result.exit_code == 2
    assert "unique solutions need a symmetric board" in result.stderr


@pytest.mark.parametrize("rule_set", EACH_RULE, ids="+".join)
def test_verify_checks_boards_under_the_rule(rule_set: tuple[str, ...]) -> None:
    flags = [f"--{rule}" for rule in rule_set]
    valid = min(solutions(11, rule_set))
    plain = next(rows for rows in plain_solutions(11) if rows not in solutions(11, rule_set))
    lines = "\n".join(" ".join(str(row + 1) for row in rows) for rows in (valid, plain))
    result = invoke("verify", *flags, stdin=lines + "\n")
    assert result.exit_code == 1, result.stderr
    label = f"board 2 (N = 11, {', '.join(sorted(rule_set))})"  # the rules it was checked under
    assert label in result.stdout and "board 1" not in result.stdout
    assert "2 boards checked: 1 not valid" in result.stderr


@pytest.mark.parametrize("rule_set", EACH_RULE, ids="+".join)
def test_json_names_the_rules_and_verify_checks_under_them(rule_set: tuple[str, ...]) -> None:
    """solve --torus --format json | verify checked its boards as plain ones: a torus solution is
    one of the plain board too, so nothing under the rule was checked."""
    flags = [f"--{rule}" for rule in rule_set]
    solved = invoke("solve", "11", *flags, "--format", "json", "-n", "2")
    records = [json.loads(line) for line in solved.stdout.splitlines()]
    assert [record["rules"] for record in records] == [sorted(rule_set)] * 3
    assert all(checked(tuple(record["rows"]), rule_set) for record in records[:2])
    assert invoke("verify", stdin=solved.stdout).exit_code == 0
    counted = invoke("count", "11", *flags, "--format", "json", "-t", "10")
    assert json.loads(counted.stdout)["rules"] == sorted(rule_set)
    plain = next(rows for rows in plain_solutions(11) if rows not in solutions(11, rule_set))
    record = {"n": 11, "rules": sorted(rule_set), "rows": list(plain)}
    result = invoke("verify", stdin=json.dumps(record) + "\n")
    label = f"board 1 (N = 11, {', '.join(sorted(rule_set))})"
    assert result.exit_code == 1 and label in result.stdout, result.stderr
    checked_json = invoke("verify", "--format", "json", stdin=json.dumps(record) + "\n")
    assert json.loads(checked_json.stdout)["rules"] == sorted(rule_set)
    if rule_set == ("torus",):  # they said "share a diagonal" of queens on none of the board's
        assert "share a wrapped diagonal" in result.stdout
        assert "share a diagonal" not in result.stdout
    assert invoke("verify", stdin=json.dumps({**record, "rules": []}) + "\n").exit_code == 0
    for wrong in ("torus", ["moebius"], [["torus"]], [1]):
        refused = invoke("verify", stdin=json.dumps({**record, "rules": wrong}) + "\n")
        assert refused.exit_code == 2 and '"rules" must be a list of torus' in refused.stderr
    assert "rules" not in invoke("first", "8", "--format", "json").stdout


def test_given_queens_that_attack_under_a_rule_are_refused() -> None:
    result = invoke("first", "11", "--superqueens", "--queen", "1,1", "--queen", "2,3")
    assert result.exit_code == 2
    assert "queens 1,1 and 2,3 are a knight's move apart" in result.stderr
    with pytest.raises(nqueens.BoardError, match="share a wrapped diagonal"):
        nqueens.Board(5, queens=[(0, 0), (1, 4)], rules=["torus"])
    with pytest.raises(nqueens.BoardError, match=r"\(0, 0\) and \(2, 2\) share a diagonal"):
        nqueens.Board(5, queens=[(0, 0), (2, 2)], rules=["torus"])


def test_a_lone_queen_on_a_torus_attacks_nothing() -> None:
    """On a 1 x 1 torus every knight's move comes back to the queen's own square: verify counted
    the queen as attacking itself four times, where solve and the counter here find a solution."""
    assert solutions(1, ("torus", "superqueens")) == {(0,)}
    result = invoke("verify", "--torus", "--superqueens", stdin="1\n")
    assert (result.exit_code, result.stdout) == (0, ""), result.stdout
    assert "1 board checked: all valid" in result.stderr


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        pytest.param(
            ["25", "--torus"],
            "N = 25 (torus) has 25 columns to fill: counting them takes about",
            marks=pytest.mark.slow,  # a second's sample each: the estimate is tested below
        ),
        pytest.param(
            ["24", "--superqueens"],
            "N = 24 (superqueens) has 24 columns to fill: counting them takes about",
            marks=pytest.mark.slow,
        ),
        pytest.param(
            ["23", "--block", "1,1"],
            "N = 23 has 24,233,937,684,440 solutions: counting them takes about",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_a_long_count_under_a_rule_is_refused_in_its_own_words(
    arguments: list[str], said: str
) -> None:
    """Without a limit, a count of hours is too long under a rule as well; the message spoke of
    given queens where none were given, and a board with only blocked squares lost the classic
    count it had quoted. Each says how long the count would take, timed on a sample (N = 20 to
    22 have no solution on a torus, by the theorem)."""
    refused = invoke("count", *arguments)
    assert refused.exit_code == 2 and said in refused.stderr, refused.stderr


def test_a_count_estimated_at_hours_is_refused_with_its_estimate() -> None:
    """What a count's timed sample says, said in the refusal: on how many cores, how long."""
    torus = Request("count", Board(25, rules=("torus",)))
    with pytest.raises(InputError, match=r"counting them takes about 2\.0 h on 2 cores here"):
        check_estimate(torus, 7200.0, 2)
    check_estimate(torus, 3500.0, 2)  # under an hour: it runs
    with pytest.raises(InputError, match=r"counting them takes more than .* years on 2 cores"):
        nqueens.count(64, workers=2)  # beyond every count known: more than N = 27's


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_a_count_under_a_rule_takes_n_19_without_a_limit(rule_set: tuple[str, ...]) -> None:
    """The rules prune so hard that N = 19 under them counts sooner than the plain N = 18 on the
    bitboard engine (benchmarks/variants.py): it was refused without a limit all the same.
    Another engine named, listing its solutions, and N = 20 still need one."""
    count = Request("count", Board(19, rules=rule_set))
    bitboard = registry.ENGINES["bitboard"]
    assert check_bounded(count, resumable=False, engine=bitboard) is None
    with pytest.raises(InputError, match="too many to go through without a limit"):
        check_bounded(Request("solve", Board(19, rules=rule_set)), resumable=False, engine=bitboard)
    larger = Request("count", Board(20, rules=("superqueens",)))
    assert (
        check_bounded(larger, resumable=False, engine=bitboard) == LONGEST_WITHOUT_A_LIMIT
    )  # timed


def test_pictures_and_explain_show_the_rule(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    svg = tmp_path / "board.svg"
    result = invoke("first", "11", "--torus", "--superqueens", "--svg", str(svg))
    assert result.exit_code == 0, result.stderr
    picture = ET.parse(svg).getroot()
    marks = {element.get("class") for element in picture.iter()}
    assert {"torus", "superqueens"} <= marks
    title = picture.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == "11 x 11 superqueens torus board with 11 queens"
    plain = tmp_path / "plain.svg"
    assert invoke("first", "11", "--svg", str(plain)).exit_code == 0
    assert not {"torus", "superqueens"} & {e.get("class") for e in ET.parse(plain).iter()}
    explained = invoke("explain", "5", "--torus")
    assert explained.stdout.startswith("Rule: torus. The board wraps around")
    assert "Rule:" not in invoke("explain", "5").stdout


def test_messages_name_the_rule_beside_the_size() -> None:
    """The count on a terminal said "N = 7: 28 solutions", which reads as a wrong count of the
    classic board (40)."""
    solved = invoke("solve", "5", "--torus")
    assert "10 solutions for N = 5 (torus) in" in solved.stderr
    counted = invoke("count", "7", "--torus", "--stats", env=TERMINAL_ENV)
    assert strip_ansi(counted.stdout).strip() == "N = 7 (torus): 28 solutions"
    assert "7 x 7, torus" in strip_ansi(counted.stderr)
    found = invoke("first", "11", "--superqueens", "--stats")
    assert "11 x 11, superqueens" in found.stderr
    stopped = invoke("first", "30", "--torus", "--engine", "cp", "-t", "0.1")
    assert "No solution found for N = 30 (torus) within the time limit" in stopped.stderr


TORUS_RULE_SETS = [("torus",), ("torus", "superqueens")]


@pytest.mark.parametrize("rule_set", TORUS_RULE_SETS, ids="+".join)
def test_the_theorems_agree_with_the_counter_here(rule_set: tuple[str, ...]) -> None:
    for n in range(1, 12):
        board = nqueens.Board(n, rules=rule_set)
        found = solutions(n, rule_set)
        if theorems.without_solution(board) is not None:
            assert not found, n
        elif rule_set == ("torus",):
            assert found, n  # the theorem decides every torus: no solution, or a line of queens
            assert theorems.line_of_queens(board) in found or n == 1, n
        line = theorems.line_of_queens(board)
        assert line is None or line in found, n


@pytest.mark.parametrize("rule_set", TORUS_RULE_SETS, ids="+".join)
def test_a_line_of_queens_solves_large_tori_by_the_checker_here(rule_set: tuple[str, ...]) -> None:
    for n in (13, 25, 49, 77, 121, 143):
        rows = theorems.line_of_queens(nqueens.Board(n, rules=rule_set))
        assert rows is not None and sorted(rows) == list(range(n)), n
        assert checked(rows, rule_set), n
    smallest = 11 if "superqueens" in rule_set else 5
    for n in range(smallest, 2_000):
        if n % 2 and n % 3:  # every torus the theorem leaves open has its line
            assert theorems.line_of_queens(nqueens.Board(n, rules=rule_set)) is not None, n


def test_a_torus_that_two_or_three_divides_has_no_solution_at_once() -> None:
    """Without a limit a search went through the whole board: ``first 30 --torus`` ran for more
    than a minute, ``solve 16 --torus`` for 8 minutes; with one, count only said "at least 0"."""
    first = invoke("first", "30", "--torus", "-t", "10", "--format", "json")
    assert first.exit_code == 1, first.stderr
    status = json.loads(first.stdout.splitlines()[-1])
    assert (status["status"], status["engine"]) == ("no-solution", "theorem")
    assert "N = 30 (torus): N is divisible by 2" in first.stderr and "Pólya" in first.stderr
    count = invoke("count", "27", "--torus", "--unique", "-t", "10", "--format", "json")
    assert count.exit_code == 0, count.stderr
    record = json.loads(count.stdout)
    assert (record["solutions"], record["unique"], record["complete"]) == (0, 0, True)
    assert record["engine"] == "theorem"
    unlimited = invoke("count", "24", "--torus", "--superqueens")
    assert (unlimited.exit_code, unlimited.stdout) == (0, "0\n"), unlimited.stderr
    solved = invoke("solve", "16", "--torus", "-t", "10")
    assert (solved.exit_code, solved.stdout) == (1, ""), solved.stderr
    given = invoke("first", "30", "--torus", "--queen", "1,1", "-t", "10")
    assert given.exit_code == 1 and "N is divisible by 2" in given.stderr


def test_a_count_a_theorem_answers_says_what_it_did_not_need(tmp_path: Path) -> None:
    """A checkpoint asked for and not written, or workers not started, said on stderr, not
    dropped silently; stdout keeps the count alone."""
    saved = tmp_path / "count.ckpt"
    answered = invoke("count", "24", "--torus", "--checkpoint", str(saved), "-j", "2")
    assert (answered.exit_code, answered.stdout) == (0, "0\n"), answered.stderr
    assert "nothing was written or started for --checkpoint and --workers" in answered.stderr
    assert not saved.exists()
    remote = invoke("count", "24", "--torus", "--cluster", "local:2", "--format", "json")
    assert remote.exit_code == 0 and json.loads(remote.stdout)["solutions"] == 0
    assert "started for --cluster." in remote.stderr
    plain = invoke("count", "24", "--torus")
    assert (plain.exit_code, plain.stdout, plain.stderr) == (0, "0\n", "")


def lines_to_fill(n: int, rule_set: tuple[str, ...]) -> list[list[tuple[int, int]]]:
    """The lines every solution puts a queen on: rows, columns, and on a torus the wrapped
    diagonals, as lists of squares."""
    squares = [(row, col) for row in range(n) for col in range(n)]
    lines = [[(row, col) for row, col in squares if row == at] for at in range(n)]
    lines += [[(row, col) for row, col in squares if col == at] for at in range(n)]
    if "torus" in rule_set:
        for sign in (1, -1):
            lines += [[(r, c) for r, c in squares if (r + sign * c) % n == at] for at in range(n)]
    return lines


@pytest.mark.parametrize("rule_set", [(), *RULE_SETS], ids=lambda rules: "+".join(rules) or "plain")
def test_given_squares_that_close_a_line_leave_no_completion_by_the_counter_here(
    rule_set: tuple[str, ...],
) -> None:
    """A row, a column or (on a torus) a wrapped diagonal whose squares are all blocked or on
    excluded diagonals: said exactly when this file finds one, and then the counter here finds
    no completion. Searches took 9 to 24 s to prove it on ``first 101 --torus`` with excluded
    diagonals, and ``count`` with a blocked row of 40 gave "at least 0" after 30 s."""
    import random

    choose = random.Random(40)
    closed = 0
    for _ in range(150):
        n = choose.choice([4, 5, 6, 7])
        line = choose.choice(lines_to_fill(n, rule_set))
        left_free = set(choose.sample(line, choose.choice([0, 0, 1])))
        blocked, excluded = set(), set()
        for row, col in line:
            if (row, col) in left_free:
                continue
            how = choose.choice(["block", "sum", "difference"])
            if how == "block":
                blocked.add((row, col))
            else:
                excluded.add((how, row + col if how == "sum" else row - col))
        sums = {value for kind, value in excluded if kind == "sum"}
        differences = {value for kind, value in excluded if kind == "difference"}
        squares = [(row, col) for row in range(n) for col in range(n)]
        blocked |= set(choose.sample(squares, choose.randint(0, 3)))  # the line's free one too
        board = nqueens.Board(n, blocked=blocked, excluded=sorted(excluded), rules=rule_set)
        covered = {
            (row, col)
            for row, col in squares
            if (row, col) in blocked or row + col in sums or row - col in differences
        }
        found = any(set(each) <= covered for each in lines_to_fill(n, rule_set))
        assert (theorems.without_completion(board) is not None) == found, (n, blocked, excluded)
        if found:
            closed += 1
            assert not [
                rows
                for rows in solutions(n, rule_set)
                if not covered & {(row, col) for col, row in enumerate(rows)}
            ], (n, blocked, excluded)
    assert 60 < closed < 140


def test_a_closed_line_is_answered_at_once_on_boards_a_search_takes_long_over() -> None:
    refused = invoke("first", "101", "--torus", "--exclude-diagonal", "1,1\\", "--format", "json")
    assert refused.exit_code == 1, refused.stderr
    assert json.loads(refused.stdout)["engine"] == "theorem"
    assert (
        "No completion exists for N = 101 (torus): the excluded diagonals leave no square free "
        "on a whole wrapped diagonal falling to the right" in refused.stderr
    )
    both_parts = ["--exclude-diagonal", "1,2\\", "--exclude-diagonal", "101,1\\"]
    counted = invoke("count", "101", "--torus", *both_parts, "--block", "5,5")
    assert (counted.exit_code, counted.stdout) == (0, "0\n"), counted.stderr
    drawing = " ".join("#" * 40) + "\n" + (" ".join("." * 40) + "\n") * 39
    counted = invoke("count", "--board", "-", "--format", "json", stdin=drawing)
    assert counted.exit_code == 0 and json.loads(counted.stdout)["engine"] == "theorem"
    column = "".join(". " * 5 + "#" + " ." * 34 + "\n" for _ in range(40))
    solved = invoke("solve", "--board", "-", stdin=column)
    assert (solved.exit_code, solved.stdout) == (1, ""), solved.stderr
    assert "no square free on a whole column, and each of the N columns" in solved.stderr


@pytest.mark.parametrize("rule_set", TORUS_RULE_SETS, ids="+".join)
def test_a_line_of_queens_keeps_the_given_squares(rule_set: tuple[str, ...]) -> None:
    import random

    choose = random.Random(79)
    lines = with_excluded = 0
    for _ in range(300):
        n = choose.choice([5, 7, 11])
        found = sorted(solutions(n, rule_set))
        if not found:
            continue
        kept = choose.choice(found)
        queens = [(kept[col], col) for col in choose.sample(range(n), choose.randint(0, 2))]
        blocked = [(row, col) for row, col in choose.sample(SQUARES[n], 3) if kept[col] != row]
        diagonals = [("sum", value) for value in range(2 * n - 1)]
        diagonals += [("difference", value) for value in range(1 - n, n)]
        excluded = [
            (kind, value)
            for kind, value in choose.sample(diagonals, choose.choice([0, 0, 1, 3]))
            if all(row + (col if kind == "sum" else -col) != value for col, row in enumerate(kept))
        ]
        board = nqueens.Board(n, queens=queens, blocked=blocked, excluded=excluded, rules=rule_set)
        rows = theorems.line_of_queens(board)
        if rows is not None:
            lines += 1
            with_excluded += bool(excluded)
            assert rows in found
            assert all(rows[col] == row for row, col in queens)
            assert all(rows[col] != row for row, col in blocked)
            sums = {value for kind, value in excluded if kind == "sum"}
            differences = {value for kind, value in excluded if kind == "difference"}
            assert all(row + col not in sums for col, row in enumerate(rows))
            assert all(row - col not in differences for col, row in enumerate(rows))
    assert lines > 100 and with_excluded > 30


SQUARES = {n: [(row, col) for row in range(n) for col in range(n)] for n in (5, 7, 11)}


@pytest.mark.parametrize("rule_set", TORUS_RULE_SETS, ids="+".join)
def test_first_on_a_torus_that_has_solutions_is_a_line_at_once(rule_set: tuple[str, ...]) -> None:
    """``first 49 --torus`` found nothing in a minute, with one queen given in 30 s, with one
    excluded diagonal (one square, in a corner) in 20 s."""
    flags = [f"--{rule}" for rule in rule_set]
    result = invoke("first", "49", *flags, "-t", "10", "--format", "json")
    assert result.exit_code == 0, result.stderr
    found, status = (json.loads(line) for line in result.stdout.splitlines())
    assert status["engine"] == "theorem" and checked(tuple(found["rows"]), rule_set)
    given = ["--queen", "1,1", "--queen", "2,4", "--block", "4,2", "--exclude-diagonal", "4,4/"]
    result = invoke("first", "49", *flags, *given, "-t", "10", "--format", "json")
    assert result.exit_code == 0, result.stderr  # a search found nothing in 30 s
    rows = tuple(json.loads(result.stdout.splitlines()[0])["rows"])
    assert checked(rows, rule_set) and rows[0] == 0 and rows[3] == 1 and rows[1] != 3
    assert all(row + col != 6 for col, row in enumerate(rows))


@pytest.mark.slow
def test_an_engine_named_searches_what_a_theorem_answers() -> None:
    """So that the engines can be compared, and checked, on these boards too."""
    board = nqueens.Board(6, rules=["torus"])
    for engine in takers(("torus",), "count"):
        stats = nqueens.count(board, engine=engine)
        assert (stats.engine, stats.solutions) == (engine, 0)
    assert nqueens.count(board, strategy="first-min").engine != "theorem"
    assert nqueens.first(board, engine="cp-sat").stats.engine == "cp-sat"
    stream = nqueens.solve(board, engine="mip")
    assert list(stream) == [] and stream.stats.engine == "mip"
    hint = "nqueens answers at once: N is divisible by 2"
    for chosen in (["--engine", "bitboard"], ["--strategy", "first-min"]):
        refused = invoke("count", "30", "--torus", *chosen)
        assert refused.exit_code == 2
        assert "Left to pick its own search (no --engine NAME, --strategy NAME" in refused.stderr
        assert hint in refused.stderr


def test_a_refusal_of_years_writes_them_as_people_do() -> None:
    """Whole years with thousands separators: it said "930473.0 years"."""
    with pytest.raises(InputError) as refused:
        nqueens.count(100, workers=2)
    assert re.search(r"more than [0-9]{1,3}(,[0-9]{3})+ years on 2 cores", str(refused.value))
    assert ".0 years" not in str(refused.value)

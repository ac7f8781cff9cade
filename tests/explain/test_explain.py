"""`nqueens explain`, SVG pictures and the ASCII fallback."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import (
    NQUEENS,
    TERMINAL_ENV,
    assert_valid_board,
    invoke,
    process_env,
    run_on_terminal,
    strip_ansi,
)

import nqueens
from nqueens.cli.render import key_lines
from nqueens.core.board import Board
from nqueens.core.geometry import RULES
from nqueens.explain.events import explain

SVG = "{http://www.w3.org/2000/svg}"


def test_explain_4_tells_the_guides_story() -> None:
    """The corner queen fails, the first queen moves down one square, propagation does the rest."""
    story = explain(Board(4))
    kinds = [event.kind for event in story.events]
    assert kinds == [
        "decision",  # queen on 1,1 (the corner)
        "propagation",
        "decision",  # queen on 3,2
        "dead-end",
        "backtrack",  # 3,2 ruled out: column 2 must use 4,2
        "dead-end",
        "backtrack",  # back to the corner queen
        "decision",  # one square down: 2,1
        "propagation",  # forces the other three queens
        "solution",
    ]
    assert story.events[0].focus == (0, 0)
    assert story.events[7].focus == (1, 0)
    assert "forces a queen on 4,2, a queen on 1,3, a queen on 3,4" in story.events[8].text
    assert "column 3 is wiped out" in story.events[3].text
    final = story.events[-1].domains
    rows = tuple(next(iter(column)) for column in final)
    assert_valid_board(rows, 4)
    # The solver's own counters for this search, the same as a plain search with that strategy.
    assert (story.solutions, story.failures, story.branches) == (1, 2, 5)


def test_explain_counts_match_the_cp_engine() -> None:
    """Watching the search does not change it: same solutions, failures and branches."""
    for strategy in ("first-min", "first-fail-mid"):
        story = explain(Board(6), strategy=strategy, all_solutions=True)
        stats = nqueens.count(6, engine="cp", strategy=strategy)
        assert story.solutions == stats.solutions == 4
        assert (story.failures, story.branches) == (stats.conflicts, stats.branches)
        assert sum(event.kind == "solution" for event in story.events) == 4


def test_explain_command_prints_every_step() -> None:
    result = invoke("explain", "4")
    assert result.exit_code == 0
    assert result.stdout.count("Step ") == 10
    assert "Step 4: Dead end: column 3 is wiped out" in result.stdout
    assert "2 failures, 5 branches" in result.stderr
    board = result.stdout.split("Step 10:")[1].splitlines()[1:5]
    # The decided queen is Q; the three that propagation forced are F.
    assert board == ["x x F x", "Q x x x", "x x x F", "x F x x"]


def test_a_count_of_one_is_said_in_the_singular() -> None:
    """first-fail-mid decides N = 4 with one choice, which explain called "1 branches"."""
    result = invoke("explain", "4", "--strategy", "first-fail-mid")
    assert "1 solution in 3 steps: 0 failures, 1 branch (the solver's own counts)." in (
        result.stderr
    )


def test_explain_on_a_terminal_marks_fresh_crosses() -> None:
    result = invoke("explain", "4", env=TERMINAL_ENV)
    assert "\x1b[" in result.stdout
    assert "♛" in result.stdout and "x" in strip_ansi(result.stdout)


def test_explain_refuses_unreadable_boards() -> None:
    result = invoke("explain", "11")
    assert result.exit_code == 2
    assert "1 to 10" in result.stderr


def test_explain_without_solution_exits_1() -> None:
    result = invoke("explain", "3")
    assert result.exit_code == 1
    assert "0 solutions" in result.stderr


def test_step_is_skipped_when_stdin_is_not_a_terminal_and_says_so() -> None:
    result = invoke("explain", "4", "--step", stdin="")
    assert result.exit_code == 0
    assert result.stdout.count("Step ") == 10
    assert "Any key" not in result.stderr
    assert "--step waits for a key typed on a terminal, and stdin is not one" in result.stderr
    assert "stdin is not one" not in invoke("explain", "4", stdin="").stderr


def _queens(path: Path) -> list[tuple[int, int]]:
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    squares = [rect for rect in root.iter(f"{SVG}rect") if rect.get("class") == "square"]
    size = round(len(squares) ** 0.5)
    found = []
    for text in root.iter(f"{SVG}text"):
        if (text.get("class") or "").split()[0:1] == ["queen"]:
            col = int((float(text.get("x", 0)) - 24) // 40)
            row = int((float(text.get("y", 0)) - 24) // 40)
            found.append((row, col))
    assert all(0 <= row < size and 0 <= col < size for row, col in found)
    return found


def test_first_svg_has_one_queen_per_column(tmp_path: Path) -> None:
    picture = tmp_path / "board.svg"
    result = invoke("first", "8", "--svg", str(picture), "--format", "json")
    assert result.exit_code == 0
    queens = _queens(picture)
    assert sorted(col for _, col in queens) == list(range(8))
    rows = tuple(row for _, row in sorted((col, row) for row, col in queens))
    assert_valid_board(rows, 8)
    assert list(rows) == json.loads(result.stdout.splitlines()[0])["rows"]


def test_solve_svg_writes_one_numbered_file_per_solution(tmp_path: Path) -> None:
    result = invoke("solve", "6", "--svg", str(tmp_path / "six.svg"))
    assert result.exit_code == 0
    files = sorted(tmp_path.glob("six-*.svg"))
    assert [path.name for path in files] == ["six-1.svg", "six-2.svg", "six-3.svg", "six-4.svg"]
    for path in files:
        assert len(_queens(path)) == 6


def test_explain_svg_writes_a_frame_per_step(tmp_path: Path) -> None:
    result = invoke("explain", "4", "--svg", str(tmp_path / "step.svg"))
    assert result.exit_code == 0
    frames = sorted(tmp_path.glob("step-*.svg"))
    assert len(frames) == 10
    assert len(_queens(frames[-1])) == 4
    assert "Step 10" in frames[-1].read_text()


def test_svg_into_a_missing_folder_is_refused_before_solving(tmp_path: Path) -> None:
    result = invoke("first", "8", "--svg", str(tmp_path / "missing" / "b.svg"))
    assert result.exit_code == 2
    assert "does not exist" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("command", [["first", "6"], ["explain", "4"]])
def test_ascii_draws_queens_as_q(command: list[str]) -> None:
    result = invoke(*command, "--ascii", env=TERMINAL_ENV)
    text = strip_ansi(result.stdout)
    assert "♛" not in text and " Q " in text


def _marks(path: Path) -> set[str]:
    """Every mark an SVG picture writes as text, labels and captions aside."""
    root = ET.parse(path).getroot()
    skipped = {"label", "caption"}
    return {
        text.text or ""
        for text in root.iter(f"{SVG}text")
        if (text.get("class") or "").split()[0] not in skipped
    }


@pytest.mark.parametrize(
    "command",
    [
        ["first", "10", "--superqueens", "--format", "json"],
        ["solve", "6", "--limit", "1", "--format", "json"],
        ["explain", "4"],
    ],
)
def test_ascii_draws_pictures_in_letters_too(command: list[str], tmp_path: Path) -> None:
    for flags, folder in (([], "symbols"), (["--ascii"], "letters")):
        (tmp_path / folder).mkdir()
        result = invoke(*command, "--svg", str(tmp_path / folder / "b.svg"), *flags)
        assert result.exit_code == 0, result.stderr
    symbols = set().union(*map(_marks, (tmp_path / "symbols").iterdir()))
    letters = set().union(*map(_marks, (tmp_path / "letters").iterdir()))
    assert "♛" in symbols and not any(mark.isascii() for mark in symbols)
    assert "Q" in letters and all(mark.isascii() for mark in letters), letters
    if "--superqueens" in command:
        assert "N" in letters  # the rule's knight
    if command[0] == "explain":
        assert {"F", "x"} <= letters  # forced queens, ruled-out squares
    assert any(_queens(picture) for picture in (tmp_path / "letters").iterdir())


def test_ascii_draws_the_pages_boards_in_letters(tmp_path: Path) -> None:
    page = tmp_path / "tree.html"
    assert invoke("explain", "5", "--tree", str(page), "--ascii").exit_code == 0
    text = page.read_text()
    assert "♛" not in text and "\N{MULTIPLICATION SIGN}" not in text
    assert '"Q"' in text and "Q decided queen" in text
    assert invoke("explain", "5", "--tree", str(page)).exit_code == 0
    assert "♛ decided queen" in page.read_text()
    picture = invoke("explain", "5", "--tree", str(tmp_path / "tree.svg"), "--ascii")
    assert picture.exit_code == 2
    assert "a tree saved as .svg draws no queen" in picture.stderr


KEY_ITEMS = [
    "decided queen",
    "queen forced by propagation",
    "x ruled out earlier",
    "white x on red: ruled out by this step",
    "given queen",
    "blocked square",
    "excluded diagonal",
]


@pytest.mark.parametrize(
    "columns", [80, *(pytest.param(c, marks=pytest.mark.slow) for c in (44, 100, 200))]
)
def test_keys_and_rules_wrap_to_the_terminal_between_items_and_words(columns: int) -> None:
    """A terminal cuts a long line anywhere: the keys break between their items, the rule's
    sentence between words, and no line is wider than the terminal."""
    shown = ""
    for command in (
        ["explain", "4", "--torus"],
        ["first", "8", "--queen", "1,1", "--block", "3,3", "--exclude-diagonal", "2,2/"],
    ):
        code, screen = run_on_terminal(
            [*NQUEENS, *command], process_env({**TERMINAL_ENV, "COLUMNS": None}), columns=columns
        )
        assert code in (0, 1), screen
        shown += strip_ansi(screen)
    lines = shown.splitlines()
    assert all(len(line) <= columns for line in lines)
    for item in KEY_ITEMS:  # each item whole on one line
        assert any(item in line for line in lines), item
    rule = "Rule: torus. " + RULES["torus"]
    at = next(i for i, line in enumerate(lines) if line.startswith("Rule: torus"))
    assert " ".join(line.strip() for line in lines[at : at + 4] if line.strip()).startswith(rule)


def test_a_key_breaks_only_between_items() -> None:
    items = ["a b", "c d e", "f"]
    assert key_lines(items, None) == ["a b   c d e   f"]
    assert key_lines(items, 11) == ["a b   c d e", "f"]
    assert key_lines(items, 4) == ["a b", "c d e", "f"]  # an item wider than the line stays whole


def test_help_says_how_each_mark_of_a_step_is_drawn() -> None:
    """Steps draw forced queens as F: help named every other mark."""
    shown = " ".join(invoke("explain", "--help").stdout.split())
    assert "(Q)" in shown and "(x)" in shown and "(F, forced)" in shown
    steps = invoke("explain", "5").stdout
    assert "F" in steps and "Q" in steps


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["first-min", "first-fail-mid"])
@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_every_queen_on_a_step_s_board_was_named_by_a_step(n: int, strategy: str) -> None:
    """A reader sees where each queen came from: step 6 of `explain 4` showed a queen forced
    on 3,4 that no step had mentioned."""
    story = explain(Board(n), strategy=strategy, all_solutions=True)
    for at, event in enumerate(story.events):
        said = " ".join(earlier.text for earlier in story.events[: at + 1])
        for row, col in event.queens:
            assert f"{row + 1},{col + 1}" in said, (event.step, event.text, (row + 1, col + 1))

"""The command line through click's CliRunner, stdout and stderr apart, with rich pinned."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
from helpers import (
    DATA,
    NQUEENS,
    PLAIN_ENV,
    TERMINAL_ENV,
    assert_valid_board,
    bound,
    brute_force_solutions,
    every_command,
    invoke,
    json_lines,
    json_stream,
    known_total,
    known_unique,
    parse_plain_boards,
    process_env,
    run_nqueens,
    run_on_terminal,
    strip_ansi,
    symmetry_images,
)

import nqueens
from nqueens import InputError, SearchInterrupted, Stats, Status, api
from nqueens.cli import progress
from nqueens.engines import reduced, registry
from nqueens.engines.base import Request

COMMANDS_BY_NAME = every_command()
"""Every command of the command line, by name."""

# --- solve -------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 4, 5, 6, 8])
def test_solve_prints_every_board_as_the_seeds_do(n: int) -> None:
    result = invoke("solve", str(n))
    assert result.exit_code == 0, result.stderr
    boards = parse_plain_boards(result.stdout)
    for rows in boards:
        assert_valid_board(rows, n)
    assert set(boards) == brute_force_solutions(n)
    assert len(boards) == known_total(n)
    assert "\x1b[" not in result.stdout
    assert f"{len(boards):,} solution" in result.stderr


def test_solve_numbers_the_boards() -> None:
    result = invoke("solve", "6")
    headers = [line for line in result.stdout.splitlines() if line.startswith("Solution")]
    assert headers == ["Solution 1", "Solution 2", "Solution 3", "Solution 4"]


def test_solve_json_writes_one_object_per_solution() -> None:
    result = invoke("solve", "8", "--format", "json")
    assert result.exit_code == 0
    records, status = json_stream(result.stdout)
    assert (status["status"], status["solutions"], status["complete"]) == ("complete", 92, True)
    assert len(records) == 92
    assert [record["solution"] for record in records] == list(range(1, 93))
    for record in records:
        assert record["n"] == 8
        assert_valid_board(record["rows"], 8)
    assert len({tuple(record["rows"]) for record in records}) == 92


def test_solve_limit() -> None:
    result = invoke("solve", "10", "--limit", "3", "--format", "json")
    assert result.exit_code == 0
    records, status = json_stream(result.stdout)
    assert len(records) == status["solutions"] == 3 and status["status"] == "limit"
    assert "solution limit" in result.stderr


def test_solve_with_no_solution_says_so_and_exits_1() -> None:
    result = invoke("solve", "3")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "No solution exists for N = 3" in result.stderr


def test_solve_stopped_by_the_time_limit_is_partial() -> None:
    result = invoke("solve", "16", "--time-limit", "0.1", "--format", "json")
    assert result.exit_code == 3
    records, status = json_stream(result.stdout)
    assert (status["status"], status["complete"]) == ("time-limit", False)
    assert len(records) == status["solutions"] < known_total(16)
    for record in records[:: max(1, len(records) // 500)]:  # hundreds of thousands: a sample
        assert_valid_board(record["rows"], 16)
    assert "time limit" in result.stderr and "lower bound" in result.stderr


def test_solve_stats_table_goes_to_stderr() -> None:
    result = invoke("solve", "6", "--stats", "--engine", "cp-sat")
    assert "conflicts" in result.stderr and "branches" in result.stderr
    assert "conflicts" not in result.stdout


def test_solve_interrupted_reports_what_it_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    real_stream = nqueens.solve(8)

    class InterruptedAfterTwo:
        """Stands in for the stream: yields two boards, then the user presses Ctrl-C."""

        lists_in_blocks = False  # one solution at a time, as the engines' streams give them

        def __init__(self) -> None:
            self.given = 0

        def __iter__(self) -> InterruptedAfterTwo:
            return self

        def __next__(self) -> nqueens.Solution:
            if self.given == 2:
                raise KeyboardInterrupt
            self.given += 1
            return next(real_stream)

        def __enter__(self) -> InterruptedAfterTwo:
            return self

        def __exit__(self, *exc: object) -> None:
            real_stream.close()

        def close(self) -> None:
            real_stream.close()

        @property
        def stats(self) -> Stats:
            return real_stream.stats

    def interrupted_solve(
        *args: object, on_plan: Callable[[api.Plan], None], **kwargs: object
    ) -> Any:
        on_plan(api.plan("solve", 8))  # as the API does, before its search
        return InterruptedAfterTwo()

    monkeypatch.setattr("nqueens.api.solve", interrupted_solve)
    result = invoke("solve", "8")
    assert result.exit_code == 130
    assert len(parse_plain_boards(result.stdout)) == 2
    assert "2 solutions" in result.stderr and "interrupted" in result.stderr


# --- count -------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 3, 8, 12])  # the counts themselves: tests/test_counting.py
def test_count_prints_the_published_count(n: int) -> None:
    result = invoke("count", str(n))
    assert result.exit_code == 0  # a count of 0 is a success too
    assert result.stdout == f"{known_total(n)}\n"


def test_count_json_with_stats() -> None:
    result = invoke("count", "8", "--stats", "--format", "json")
    assert result.exit_code == 0
    record = json.loads(result.stdout)
    assert record["n"] == 8
    assert record["solutions"] == 92
    assert record["complete"] is True
    assert record["engine"] == "bitboard"
    for key in ("subproblems", "nodes", "wall_time", "solutions_per_second"):
        assert isinstance(record[key], (int, float))
    assert result.stderr == ""


@pytest.mark.parametrize(
    "one", [["first", "4"], ["solve", "4", "--limit", "1"], ["count", "1"], ["count", "3"]]
)
def test_a_solution_rate_is_given_only_over_more_than_one_solution(one: list[str]) -> None:
    record = json_lines(invoke(*one, "--stats", "--format", "json").stdout)[-1]
    assert "solutions_per_second" not in record and "wall_time" in record
    table = invoke(*one, "--stats").stderr
    assert "wall time" in table and "per second" not in table
    if one[0] != "first":
        many = json_lines(invoke(one[0], "6", "--stats", "--format", "json").stdout)
        assert many[-1]["solutions_per_second"] > 0


def test_a_stopped_count_says_the_time_since_the_command_started() -> None:
    """The time limit counts from the command's start, and so does the time it reports: a
    stopwatch's, not the search's alone (start-up took a third of it)."""
    ran = run_nqueens("count", "19", "-t", "0.6")
    assert ran.returncode == 3, ran.stderr
    said = re.search(r"in ([0-9.]+) s \(stopped by the time limit", ran.stderr)
    assert said is not None and float(said[1]) >= 0.6, ran.stderr


@pytest.mark.parametrize(("n", "rules"), [(8, []), (9, []), (11, ["--torus"])])
def test_solve_unique_says_how_many_solutions_its_boards_stand_for(
    n: int, rules: list[str]
) -> None:
    listed = invoke("solve", str(n), "--unique", "--style", "compact", *rules)
    lines = [line for line in listed.stdout.splitlines() if line[:1].isdigit()]
    boards = [tuple(int(v) - 1 for v in line.split()) for line in lines]
    in_all = sum(len(symmetry_images(rows)) for rows in boards)
    assert f"{len(boards)} unique solutions ({in_all:,} in all)" in listed.stderr
    if not rules:
        assert in_all == known_total(n)


def test_count_json_without_stats_is_small() -> None:
    record = json.loads(invoke("count", "6", "--format", "json").stdout)
    assert record == {
        "type": "status",
        "n": 6,
        "solutions": 4,
        "complete": True,
        "status": "complete",
        "engine": "bitboard",
        "strategy": "first-min",
    }


def test_count_stats_table() -> None:
    result = invoke("count", "8", "--stats")
    assert result.stdout == "92\n"
    for label in ("bitboard", "nodes", "wall time", "solutions per second", "92"):
        assert label in result.stderr
    result = invoke("count", "8", "--stats", "--engine", "cp-sat")
    for label in ("cp-sat", "conflicts", "branches", "92"):
        assert label in result.stderr


def test_count_time_limit_is_a_partial_lower_bound() -> None:
    result = invoke("count", "18", "--time-limit", "0.3", "--format", "json")
    assert result.exit_code == 3
    record = json.loads(result.stdout)
    assert record["complete"] is False
    assert record["status"] == "time-limit"
    assert record["solutions"] < known_total(18)
    assert "lower bound" in result.stderr


CP_SAT: dict[str, Any] = {"engine": "cp-sat", "counter_names": ("conflicts", "branches")}
"""What CP-SAT's statistics say of themselves, for statistics made up here."""


def test_count_interrupted_prints_the_partial_count(monkeypatch: pytest.MonkeyPatch) -> None:
    partial = Stats(
        n=14,
        solutions=1234,
        conflicts=1,
        branches=2,
        wall_time=0.5,
        status=Status.INTERRUPTED,
        **CP_SAT,
    )

    def interrupted_count(*args: object, **kwargs: object) -> Stats:
        raise SearchInterrupted(partial)

    monkeypatch.setattr("nqueens.api.count", interrupted_count)
    result = invoke("count", "14")
    assert result.exit_code == 130
    assert result.stdout == "1234\n"
    assert "interrupted" in result.stderr and "lower bound" in result.stderr


# --- first -------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 4, 8, 12])
def test_first_draws_a_valid_board(n: int) -> None:
    result = invoke("first", str(n))
    assert result.exit_code == 0
    boards = parse_plain_boards(result.stdout)
    assert len(boards) == 1
    assert_valid_board(boards[0], n)
    assert "Found in" in result.stderr


def test_first_50_json() -> None:
    result = invoke("first", "50", "--format", "json", "--stats")
    assert result.exit_code == 0
    (record,), status = json_stream(result.stdout)
    assert record["n"] == 50
    assert_valid_board(record["rows"], 50)
    assert status["status"] == "complete" and status["solutions"] == 1
    assert "wall_time" in status and "failures" in status


@pytest.mark.parametrize("n", ["2", "3"])
def test_first_with_no_solution_says_so_and_exits_1(n: str) -> None:
    result = invoke("first", n)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert f"No solution exists for N = {n}" in result.stderr


def test_first_large_board_off_a_terminal_is_compact() -> None:
    result = invoke("first", "101")
    rows = [int(value) - 1 for value in result.stdout.split()]
    assert_valid_board(rows, 101)


def test_first_style_board_forces_the_full_board() -> None:
    result = invoke("first", "101", "--style", "board")
    (board,) = parse_plain_boards(result.stdout)
    assert_valid_board(board, 101)


def test_first_style_compact() -> None:
    result = invoke("first", "8", "--style", "compact")
    rows = [int(value) - 1 for value in result.stdout.split()]
    assert_valid_board(rows, 8)


@pytest.mark.parametrize("command", ["solve", "first"])
@pytest.mark.parametrize(
    "style", [["--style", "compact"], ["--style", "board"], ["--ascii"]], ids=" ".join
)
def test_a_drawing_style_with_json_is_refused_not_dropped(command: str, style: list[str]) -> None:
    result = invoke(command, "6", *style, "--format", "json")
    assert result.exit_code == 2
    assert f"Error: {' '.join(style)} styles the boards drawn for people" in result.stderr
    assert result.stdout == ""
    kept = invoke(command, "6", "--style", "auto", "--format", "json")
    assert kept.exit_code == 0 and json_stream(kept.stdout)[1]["solutions"] >= 1


def test_first_interrupted_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted_first(*args: object, **kwargs: object) -> None:
        raise SearchInterrupted(
            Stats(
                n=500,
                solutions=0,
                conflicts=0,
                branches=0,
                wall_time=1.0,
                status=Status.INTERRUPTED,
                **CP_SAT,
            )
        )

    monkeypatch.setattr("nqueens.api.first", interrupted_first)
    result = invoke("first", "500")
    assert result.exit_code == 130
    assert result.stdout == ""
    assert "Interrupted" in result.stderr


def test_first_time_limit_without_a_solution_exits_3(monkeypatch: pytest.MonkeyPatch) -> None:
    unknown = nqueens.FirstResult(
        solution=None,
        stats=Stats(
            n=500,
            solutions=0,
            conflicts=0,
            branches=9,
            wall_time=0.1,
            status=Status.TIME_LIMIT,
            **CP_SAT,
        ),
    )
    monkeypatch.setattr("nqueens.api.first", lambda *args, **kwargs: unknown)
    result = invoke("first", "500", "--time-limit", "0.1")
    assert result.exit_code == 3
    assert "within the time limit" in result.stderr


# --- terminal rendering ------------------------------------------------------------------------


def test_terminal_board_is_checkered_and_labelled() -> None:
    result = invoke("first", "8", env=TERMINAL_ENV)
    assert result.exit_code == 0
    assert "\x1b[" in result.stdout  # colour
    lines = strip_ansi(result.stdout).splitlines()
    assert lines[0].split() == [str(col) for col in range(1, 9)]
    queens_by_row = {}
    for line in lines[1:9]:
        label, _, squares = line.partition(" ")
        queens_by_row[int(label)] = squares
    assert sorted(queens_by_row) == list(range(1, 9))
    rows = [-1] * 8
    for row, squares in queens_by_row.items():
        cells = [squares[i : i + 3] for i in range(0, 24, 3)]
        for col, cell in enumerate(cells):
            if cell.strip() == "♛":
                rows[col] = row - 1
    assert_valid_board(rows, 8)


def test_terminal_board_too_wide_is_compact() -> None:
    result = invoke("first", "40", env=TERMINAL_ENV)  # 3 * 40 cells > 100 columns
    text = strip_ansi(result.stdout)
    assert "Row of the queen in each column" in text
    rows = [int(value) - 1 for value in text.split(":", 1)[1].split()]
    assert_valid_board(rows, 40)


def test_no_color_changes_the_colours_only_not_the_layout() -> None:
    coloured = invoke("solve", "4", env=TERMINAL_ENV).stdout
    uncoloured = invoke("solve", "4", env={**TERMINAL_ENV, "NO_COLOR": "1"}).stdout
    codes = [
        int(code)
        for sequence in re.findall(r"\x1b\[([0-9;]*)m", uncoloured)
        for code in sequence.split(";")
        if code
    ]
    assert not [code for code in codes if 30 <= code <= 49 or 90 <= code <= 107], codes
    # The same board, cell for cell; only empty squares show a dot instead of a colour.
    assert strip_ansi(uncoloured).replace(".", " ") == strip_ansi(coloured)


def test_terminal_count_is_a_sentence() -> None:
    result = invoke("count", "8", env=TERMINAL_ENV)
    assert strip_ansi(result.stdout).strip() == "N = 8: 92 solutions"


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["solve", "count", "first"])
@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0", "at least 1"),
        ("-3", "positive whole number, not -3"),
        ("-5.5", "positive whole number, not -5.5"),
        ("9" * 96, "a number of 96 digits"),
        ("abc", "positive whole number (digits 0-9), not 'abc'"),
        ("8.5", "positive whole number (digits 0-9), not '8.5'"),
        ("\uff18", "(digits 0-9), not '\uff18'"),  # a full-width 8
        ("\u0668", "(digits 0-9), not '\u0668'"),  # an Arabic-Indic 8
        ("20000000", "largest board"),
    ],
)
def test_bad_n_is_a_usage_error(command: str, value: str, message: str) -> None:
    if value == "20000000" and command != "first":
        value = "20000"  # solve and count take boards up to 10,000, first up to 10,000,000
    result = invoke(command, value)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("command", ["solve", "count"])
def test_enumerating_an_absurd_board_is_refused_with_the_reason(command: str) -> None:
    result = invoke(command, "22")
    assert result.exit_code == 2
    assert "2,691,008,701,644 solutions" in result.stderr
    assert "--time-limit" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "8", "--limit", "0"], "--limit"),
        (["solve", "8", "--limit", "x"], "--limit"),
        (["count", "8", "--time-limit", "0"], "--time-limit"),
        (["count", "8", "--time-limit", "-1"], "--time-limit"),
        (["count", "8", "--time-limit", "soon"], "--time-limit"),
        (["count", "8", "--format", "xml"], "--format"),
        (["first", "8", "--style", "round"], "--style"),
        (["count", "8", "--bogus"], "--bogus"),
        (["count"], "Missing argument"),
        (["frobnicate", "8"], "No such command"),
    ],
)
def test_bad_options_are_usage_errors(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in result.stderr


# --- help and version --------------------------------------------------------------------------


def test_help_says_each_thing_once() -> None:
    """The exit codes, the conventions, the engines and the strategies are in nqueens --help;
    each command's help names them in one line, and lists only the engines it can run."""
    main = invoke("--help").stdout
    for text in ("Exit codes", "130", "rows[c]", "1-based", "Engines", "Strategies"):
        assert text in main
    for name, described in registry.ENGINES.items():
        assert re.search(
            rf"^    {re.escape(name)} +{re.escape(described.summary[:20])}", main, re.M
        )
    for command in COMMANDS_BY_NAME:
        text = invoke(command, "--help").stdout
        assert "Exit codes, and how rows and columns are numbered: nqueens --help." in text
        assert "130" not in text and "rows[c]" not in text
        option = next((p for p in COMMANDS_BY_NAME[command].params if p.name == "engine"), None)
        if option is not None:
            assert isinstance(option.type, click.Choice)
            able = {n for n, e in registry.ENGINES.items() if command in e.commands}
            assert set(option.type.choices) - {registry.AUTO_ENGINE} == able


@pytest.mark.parametrize("command", ["", "solve", "count", "first", "explain", "verify", "bench"])
def test_every_help_fits_70_lines_at_80_columns(command: str) -> None:
    shown = invoke(*([command] if command else []), "--help", env={**PLAIN_ENV, "COLUMNS": "80"})
    text = shown.stdout
    assert len(text.splitlines()) <= 70
    assert all(len(line) <= 80 for line in text.splitlines())


def test_version_names_every_part_and_comes_from_package_metadata() -> None:
    from importlib.metadata import version

    result = invoke("--version")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"nqueens {nqueens.__version__}" and nqueens.__version__ != "0+unknown"
    assert lines[1].startswith(f"Python {sys.version.split()[0]}")
    assert f"OR-Tools {version('ortools')}" in lines
    modules = next(line for line in lines if line.startswith("C modules: "))
    assert modules.startswith("C modules: counting, join, search, local, reduced, text (")
    assert not any(line.startswith("numba ") for line in lines)  # no search of numba's
    assert lines[-1].startswith("GPU: ")


def test_version_as_json_says_the_same_as_an_object() -> None:
    text = invoke("--version").stdout
    found = json.loads(invoke("--version", "json").stdout)
    assert found["nqueens"] == nqueens.__version__ and found["python"] in text
    assert set(found["c_modules"]) == {"counting", "join", "search", "local", "reduced", "text"}
    for name, file in found["c_modules"].items():
        assert file.startswith(f"_{'edges' if name == 'counting' else name}."), file
    assert found["instructions"] in text
    assert found["gpu"] in text
    refused = invoke("--version", "xml")
    assert refused.exit_code == 2 and "'xml' is not one of" in refused.stderr


# --- fast counting options ---------------------------------------------------------------------


@pytest.mark.parametrize("workers", ["1", "2"])
def test_count_unique_json_reports_both_counts(workers: str) -> None:
    result = invoke("count", "10", "--unique", "--workers", workers, "--format", "json")
    assert result.exit_code == 0
    record = json.loads(result.stdout)
    assert (record["unique"], record["solutions"]) == (known_unique(10), known_total(10))


def test_count_unique_text() -> None:
    result = invoke("count", "8", "--unique")
    assert result.stdout == "92\n12\n"  # off a terminal, bare numbers: the total, then unique
    terminal = invoke("count", "8", "--unique", env=TERMINAL_ENV)
    assert strip_ansi(terminal.stdout).strip() == "N = 8: 12 unique solutions (92 in all)"


def test_count_stats_show_the_unique_count() -> None:
    result = invoke("count", "8", "--stats")
    assert "unique up to symmetry" in result.stderr and "12" in result.stderr


def test_count_without_symmetry() -> None:
    result = invoke("count", "9", "--no-symmetry", "--format", "json")
    record = json.loads(result.stdout)
    assert record["solutions"] == known_total(9)
    assert "unique" not in record


def test_unique_needs_symmetry() -> None:
    result = invoke("count", "8", "--unique", "--no-symmetry")
    assert result.exit_code == 2
    assert "unique solutions come from the board's symmetry" in result.stderr


def test_workers_zero_means_every_core_and_less_is_refused() -> None:
    result = invoke("count", "12", "-j", "0", "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["solutions"] == known_total(12)
    result = invoke("count", "8", "--workers", "-1")
    assert result.exit_code == 2
    assert "--workers" in result.stderr


def test_more_workers_than_any_machine_runs_are_refused() -> None:
    """-j 99999 forked a process for each of the count's subproblems: 733 of them at N = 15."""
    result = invoke("count", "15", "-j", "99999")
    assert result.exit_code == 2 and not result.stdout
    assert "99,999 is more than 1,024 (0 counts on every core)" in result.stderr
    with pytest.raises(nqueens.InputError, match="workers must be at most 1,024, not 5,000"):
        nqueens.count(15, workers=5000)


def test_workers_the_system_will_not_start_are_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fork refused (ulimit -u) said "the output could not be written", with exit 74."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr("os.fork", refuse)
    result = invoke("count", "15", "-j", "2", "--engine", "bitboard")
    assert result.exit_code == 2 and not result.stdout, result.stderr
    assert (
        "cannot start 2 worker processes (Resource temporarily unavailable): ask for fewer "
        "with --workers" in result.stderr
    )


def test_workers_nobody_asked_for_that_will_not_start_leave_the_count_to_this_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the system starts no worker process (no /dev/shm for their locks, as on AWS
    Lambda; a limit on processes), `count 16` with its defaults ended with exit 2 and "ask for
    fewer with --workers", though nobody had asked for any."""
    from nqueens.run import executors

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr("os.fork", refuse)
    monkeypatch.setattr(executors, "default_workers", lambda: 2)
    said = "cannot start 2 worker processes [(]Read-only file system[)]: counting in this process"
    with pytest.warns(executors.OneProcessWarning, match=said):
        result = invoke("count", "15", "--engine", "bitboard")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"{known_total(15)}\n"
    with pytest.raises(nqueens.InputError, match="ask for fewer with --workers"):
        nqueens.count(15, engine="bitboard", workers=2)  # asked for: refused, as before


ARABIC_INDIC_TWO = "\u0662"


@pytest.mark.parametrize(
    "arguments",
    [
        ["first", "8", "--queen", f"{ARABIC_INDIC_TWO},1"],
        ["solve", "8", "--limit", ARABIC_INDIC_TWO],
        ["count", "8", "--workers", ARABIC_INDIC_TWO],
        ["count", "8", "--time-limit", ARABIC_INDIC_TWO],
        ["count", "8", "--time-limit", "nan"],
        ["bench", "--sizes", ARABIC_INDIC_TWO],
        ["bench", "--repeat", ARABIC_INDIC_TWO],
    ],
)
def test_numbers_are_ascii_digits_everywhere(arguments: list[str]) -> None:
    result = invoke(*arguments)
    assert result.exit_code == 2, result.stdout
    assert "Invalid value" in result.stderr and "Traceback" not in result.stderr


def test_solve_unique_prints_one_board_per_class() -> None:
    result = invoke("solve", "8", "--unique", "--format", "json")
    records, _ = json_stream(result.stdout)
    assert len(records) == known_unique(8)
    for record in records:
        assert_valid_board(record["rows"], 8)


def test_progress_bar_on_a_terminal_stderr() -> None:
    result = invoke("count", "12", env={**TERMINAL_ENV, "COLUMNS": "120"})
    assert "Counting N = 12" in strip_ansi(result.stderr)
    assert "100% · 14,200 solutions · 46/46 pieces" in strip_ansi(result.stderr)
    assert strip_ansi(result.stdout).strip() == "N = 12: 14,200 solutions"


def test_progress_bar_is_quiet_off_a_terminal_and_with_quiet() -> None:
    assert invoke("count", "12").stderr == ""
    assert invoke("count", "12", "--quiet", env=TERMINAL_ENV).stderr == ""


@pytest.mark.parametrize("command", sorted(COMMANDS_BY_NAME))
def test_every_command_has_help_with_h(command: str) -> None:
    """As sqlite-utils checks: every command documents itself, and -h is --help."""
    result = invoke(command, "-h")
    assert result.exit_code == 0
    assert result.stdout.startswith(f"Usage: cli {command}") or "Usage:" in result.stdout
    assert COMMANDS_BY_NAME[command].help, f"{command} has no help text"
    assert result.stdout == invoke(command, "--help").stdout
    # each value named in the user's words: bench --repeat and first --seed said INTEGER
    typed = r"^\s+(-\w, )?--[\w-]+ (INTEGER|FLOAT|TEXT|PATH|FILENAME|BOOLEAN)\b"
    assert not re.findall(typed, result.stdout, re.MULTILINE), command


@pytest.mark.parametrize("where", ["before", "after"])
def test_color_options_work_before_or_after_the_command_and_never_change_data(where: str) -> None:
    def run(option: str, env: dict[str, str | None] = PLAIN_ENV) -> str:
        args = ["solve", "4", "--limit", "1"]
        return invoke(*([option, *args] if where == "before" else [*args, option]), env=env).stdout

    plain = invoke("solve", "4", "--limit", "1").stdout
    assert run("--color") == plain == run("--no-color")  # into a pipe: data, whatever the colour
    assert "\x1b[" not in plain
    coloured = run("--color", TERMINAL_ENV)
    assert re.search(r"\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7])m", coloured)
    dropped = run("--no-color", TERMINAL_ENV)
    assert not re.search(r"\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7])m", dropped)


def test_svg_files_are_named_as_the_help_says_and_said_where(tmp_path: Path) -> None:
    assert "board-1.svg to board-4.svg for 4" in " ".join(invoke("solve", "--help").stdout.split())
    six = invoke("solve", "6", "--svg", str(tmp_path / "six.svg"))
    assert six.exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"six-{i}.svg" for i in range(1, 5)]
    assert f"Saved 4 pictures: {tmp_path}/six-1.svg to {tmp_path}/six-4.svg." in six.stderr
    assert invoke("solve", "8", "--limit", "12", "--svg", str(tmp_path / "e.svg")).exit_code == 0
    assert (tmp_path / "e-01.svg").is_file() and (tmp_path / "e-12.svg").is_file()
    one = invoke("first", "4", "--svg", str(tmp_path / "one"))  # .svg added, as solve adds it
    assert f"Saved the picture in {tmp_path}/one.svg." in one.stderr
    assert (tmp_path / "one.svg").read_text().startswith("<?xml")
    tree = invoke("explain", "4", "--tree", str(tmp_path / "t.svg"))
    assert f"Saved the search tree in {tmp_path}/t.svg." in tree.stderr


@pytest.mark.parametrize("name", ["-", "", " "])
@pytest.mark.parametrize(
    "arguments",
    [
        ["first", "6", "--svg"],
        ["solve", "4", "--svg"],
        ["explain", "4", "--svg"],
        ["explain", "4", "--tree"],
        ["count", "8", "--checkpoint"],
    ],
)
def test_a_file_without_a_name_is_refused_and_nothing_is_written(
    arguments: list[str], name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'--svg -' wrote '-.svg' (solve: '--1.svg', a name a shell takes for an option), and
    '--checkpoint -' a checkpoint called '-': - stands for stdin or stdout elsewhere."""
    monkeypatch.chdir(tmp_path)
    result = invoke(*arguments, name)
    assert result.exit_code == 2 and not result.stdout
    assert "give a file name" in result.stderr or "should end in .svg" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_bench_says_how_long_it_may_take_before_it_starts() -> None:
    result = invoke("bench", "--sizes", "4", "--first-sizes", "8", "--engines", "bitboard")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith("Measuring 2 cells, each at most 10 s per run: up to 20 s.")


def test_a_partial_count_reads_as_a_lower_bound_on_a_terminal() -> None:
    result = invoke("count", "18", "--time-limit", "0.3", env=TERMINAL_ENV)
    assert result.exit_code == 3
    assert re.fullmatch(r"N = 18: at least [\d,]+ solutions", strip_ansi(result.stdout).strip())


def _screen_pieces(text: str) -> list[str]:
    """What a terminal shows line by line, redraws (carriage returns) included."""
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    return [piece for piece in re.split(r"[\r\n]", plain) if piece.strip()]


@pytest.mark.slow
@pytest.mark.parametrize(("columns", "charset"), [(80, "utf-8"), (120, "utf-8"), (120, "ascii")])
def test_the_progress_bar_fits_the_terminal_and_says_what_its_numbers_are(
    columns: int, charset: str
) -> None:
    result = invoke("count", "15", env={**TERMINAL_ENV, "COLUMNS": str(columns)}, charset=charset)
    assert result.exit_code == 0, result.stderr
    bars = [piece for piece in _screen_pieces(result.stderr) if "N = 15" in piece]
    assert bars, result.stderr
    assert all(len(piece) <= columns and "…" not in piece for piece in bars), bars
    if charset == "ascii":  # drawn in what the terminal shows, not in Python's escapes
        assert all(piece.isascii() and "\\" not in piece for piece in bars), bars
    # How far in per cent, and the solutions found so far, named; pieces where there is room.
    assert all(re.search(r"\d+% .*[\d,]+ (found|solutions)", piece) for piece in bars), bars
    assert any("pieces" in piece for piece in bars) == (columns >= 120)


def test_the_bar_and_time_left_follow_the_solutions_where_their_number_is_known() -> None:
    """The first pieces of a count hold most of its work: a pace in pieces made the early time
    left twelve times too long. The known total of solutions tracks the work done."""
    from rich.console import Console
    from rich.progress import Progress

    from nqueens.cli.output import Output
    from nqueens.cli.progress import CountDisplay

    clock = [0.0]
    screen = Console(file=io.StringIO(), width=100)
    bar = Progress(get_time=lambda: clock[0], console=screen, auto_refresh=False)
    display = CountDisplay(Output("text"), bar, 17, lambda: None, False)
    display.planned(api.plan("count", 17))
    display.progress(0, 2282, 0)
    clock[0] = 2.0
    display.progress(119, 2282, known_total(17) // 5)  # a fifth found, 5 % of the pieces done
    task = bar.tasks[0]
    assert task.percentage == pytest.approx(20, abs=0.1)
    from nqueens.cli.columns import TimeLeftColumn

    assert str(TimeLeftColumn().render(task)) == "~0:08 left"  # not the pieces' ~0:36
    bar.stop()


@pytest.mark.slow
def test_a_search_without_progress_shows_a_spinner_after_a_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    quick = invoke("first", "8", env=TERMINAL_ENV)
    monkeypatch.setattr(progress, "SPINNER_DELAY_SECONDS", 0.2)  # a second spent on nothing
    # first-min does not find a first solution for N = 100 within the limit.
    arguments = ["first", "100", "--engine", "cp", "--strategy", "first-min", "-t", "0.6"]
    result = invoke(*arguments, env=TERMINAL_ENV)
    assert result.exit_code == 3
    assert any("Searching N = 100" in piece for piece in _screen_pieces(result.stderr))
    assert "Searching" not in quick.stderr
    # A terminal set to ASCII gets a spinner drawn in ASCII, not in Python's escapes.
    result = invoke(*arguments, env=TERMINAL_ENV, charset="ascii")
    spinning = [piece for piece in _screen_pieces(result.stderr) if "Searching" in piece]
    assert spinning and all(piece.isascii() and "\\u" not in piece for piece in spinning)


def test_first_takes_a_seed_for_its_randomised_searches() -> None:
    result = invoke("first", "30", "--engine", "cp-sat", "--seed", "3", "--format", "json")
    assert result.exit_code == 0, result.stderr
    (record,), _ = json_stream(result.stdout)
    assert_valid_board(record["rows"], 30)


def test_first_gives_another_solution_for_another_seed_without_an_engine() -> None:
    # Without a seed, auto's first-fail search gives one board of 8 for every seed it ignored.
    boards = {}
    for seed in range(1, 6):
        result = invoke("first", "8", "--seed", str(seed), "--format", "json")
        assert result.exit_code == 0, result.stderr
        assert "Note" not in result.stderr
        (record,), _ = json_stream(result.stdout)
        assert_valid_board(record["rows"], 8)
        boards[seed] = record["rows"]
    assert len({tuple(rows) for rows in boards.values()}) > 1, boards
    again = invoke("first", "8", "--seed", "2", "--format", "json")
    assert json_stream(again.stdout)[0][0]["rows"] == boards[2]
    # On a puzzle, CP-SAT takes over from the first-fail search, which ignores seeds.
    puzzle = invoke("first", "12", "--queen", "1,1", "--seed", "5", "--format", "json")
    assert json_stream(puzzle.stdout)[1]["engine"] == "cp-sat"
    assert invoke("first", "8", "--seed", "-1").exit_code == 2
    with pytest.raises(InputError, match="seed"):
        nqueens.first(8, seed=1.5)  # type: ignore[arg-type]


def test_a_count_whose_engine_reports_no_progress_spins_instead_of_freezing_a_bar(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(progress, "SPINNER_DELAY_SECONDS", 0.2)  # a second spent on nothing
    # The cp engine counts in one piece: no subproblems to show.
    result = invoke("count", "16", "--engine", "cp", "-t", "0.6", env=TERMINAL_ENV)
    assert result.exit_code == 3
    pieces = _screen_pieces(result.stderr)
    assert any("Counting N = 16" in piece for piece in pieces)
    assert not any("0/?" in piece for piece in pieces), pieces


@pytest.mark.slow
@pytest.mark.parametrize("loading", [0.0, 2.0], ids=["loaded", "still loading"])
def test_a_split_count_shows_its_total_from_the_first_frame(
    loading: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Also while its search loads, which on a busy machine can outlast the time limit."""
    prepare = reduced.ENGINE.prepare

    def slow_prepare(request: Request) -> None:
        time.sleep(loading)
        prepare(request)

    monkeypatch.setattr(reduced.ENGINE, "prepare", slow_prepare)
    board = DATA / "completion-21-18-3.param"
    result = invoke("count", "--board", str(board), "-t", "0.8", env=TERMINAL_ENV)
    assert result.exit_code == 3
    pieces = _screen_pieces(result.stderr)
    assert any("N = 5492" in piece and "%" in piece for piece in pieces), pieces
    assert not any("?" in piece for piece in pieces), pieces


HISTORY_WORDS = ["the guide", "blog post", "seed", "Oz tutorial", "four engines", "the paper"]


@pytest.mark.parametrize("command", sorted(COMMANDS_BY_NAME))
def test_every_command_has_examples_and_speaks_the_users_words(command: str) -> None:
    text = invoke(command, "--help").stdout
    assert "Examples:" in text
    examples = text.split("Examples:")[1].split("\n\n")[0].splitlines()
    assert all(line.strip().startswith("nqueens ") for line in examples if line.strip())
    lowered = text.lower().replace("--seed", "")
    assert not [word for word in HISTORY_WORDS if word.lower() in lowered]
    if command in ("solve", "count", "first"):
        assert "-q, --quiet" in text  # every search command can be told to be quiet


def test_bare_nqueens_shows_help_and_succeeds_and_a_bare_size_gets_a_hint() -> None:
    bare = invoke()
    assert bare.exit_code == 0 and "Examples:" in bare.stdout
    sized = invoke("8")
    assert sized.exit_code == 2
    assert "nqueens solve 8, nqueens count 8 or nqueens first 8" in sized.stderr


def test_errors_name_the_argument_one_way() -> None:
    assert "Invalid value for 'N':" in invoke("solve", "x").stderr
    assert "Invalid value for 'N':" in invoke("explain", "11").stderr
    assert "Invalid value for '[FILE]':" in invoke("verify", "/nonexistent/boards").stderr
    assert "N = 10,001 is larger than 10,000" in invoke("solve", "10001").stderr


def test_verify_on_a_terminal_says_it_is_waiting_for_boards() -> None:
    code, screen = run_on_terminal([*NQUEENS, "verify"], process_env(), typed=b"\x04")
    assert "Reading from the terminal" in screen and "Ctrl-D" in screen
    assert code == 2 and "no board found" in screen


def test_messages_wrap_between_words_on_a_narrow_terminal() -> None:
    """A terminal cuts a long line anywhere, in the middle of a word: rich wraps it first."""
    long_line = (
        "first-min: 1 solution in 10 steps: 2 failures, 5 branches (the solver's own counts)."
    )
    result = invoke("explain", "4", env={**TERMINAL_ENV, "COLUMNS": "40"})
    lines = strip_ansi(result.stderr).splitlines()
    summary = lines[lines.index(next(line for line in lines if line.startswith("first-min:"))) :]
    assert all(len(line) <= 40 for line in summary)
    assert " ".join(line.strip() for line in summary[:3]) == long_line
    piped = invoke("explain", "4", env={**PLAIN_ENV, "COLUMNS": "40"})
    assert long_line in piped.stderr.splitlines()  # whole off a terminal


def test_a_compact_board_on_a_terminal_wraps_between_its_numbers() -> None:
    """A terminal cuts a long line anywhere: a number was split across two lines."""
    code, screen = run_on_terminal(
        [*NQUEENS, "first", "60", "--style", "compact"],
        process_env({**TERMINAL_ENV, "COLUMNS": None}),
        columns=80,
    )
    assert code == 0, screen
    lines = strip_ansi(screen).split("Row of the queen in each column: ")[1].splitlines()
    numbers = " ".join(lines[:3]).split()
    assert all(len(line) <= 80 for line in lines)
    assert sorted(int(v) for v in numbers[:60]) == list(range(1, 61)), lines[:3]


@pytest.mark.parametrize(
    ("arguments", "stdin", "said"),
    [
        (
            ["count", "8", "--limt", "3"],
            None,
            "No such option '--limt'. Did you mean '--time-limit'?",
        ),
        (["count", "8", "--qiuet"], None, "Did you mean '--quiet'?"),
        (["verify"], "xxx\n", "line 1: 'xxx' is not part of a board"),
        (
            ["verify"],
            '{"n": null, "rows": [0]}\n',
            '"n" must be a whole number of at least 1, not null',
        ),
        (
            ["verify"],
            "1 " + "9" * 200 + "\n",
            "line 1: a row of 200 digits is off a board of N = 2",
        ),
        (["export", "4", "-o", "model.foo"], None, ".pbtxt, .txtpb or .pb (cp-sat)"),
        (
            ["count", "--board", "-"],
            "letting n = -8\n",
            "n must be a positive whole number, not '-8'",
        ),
    ],
)
def test_messages_say_what_the_input_is(arguments: list[str], stdin: str | None, said: str) -> None:
    result = invoke(*arguments, stdin=stdin)
    assert result.exit_code in (1, 2)
    assert said in result.stderr, result.stderr


@pytest.mark.parametrize(
    "arguments",
    [
        ["count", "8", "--queen", "+1,+2"],
        ["count", "8", "--block", "+3,04"],
        ["count", "+8"],
        ["count", "08"],
    ],
)
def test_a_number_is_typed_with_a_plus_or_a_leading_zero_alike(arguments: list[str]) -> None:
    result = invoke(*arguments)
    assert result.exit_code == 0, result.stderr
    plain = [argument.replace("+", "").replace("04", "4").lstrip("0") for argument in arguments]
    assert result.stdout == invoke(*plain).stdout


@pytest.mark.parametrize(
    ("command", "engine", "words"),
    [
        ("first", "gpu", "the gpu engine only counts (nqueens count --engine gpu); first takes"),
        ("solve", "gpu", "the gpu engine only counts (nqueens count --engine gpu); solve takes"),
        ("count", "local", "the local engine only finds one solution (nqueens first --engine"),
    ],
)
def test_an_engine_of_other_commands_is_said_to_be_so(
    command: str, engine: str, words: str
) -> None:
    """Named as an engine, with what it does and the engines the command takes: it was only
    "'gpu' is not one of ..."."""
    refused = invoke(command, "8", "--engine", engine)
    assert refused.exit_code == 2
    assert words in refused.stderr
    assert "auto" in refused.stderr.rsplit("takes", 1)[1]


@pytest.mark.parametrize("columns", ["80", "50"])
def test_every_command_summary_is_whole_in_the_main_help(columns: str) -> None:
    """bench, export, first and verify were cut with '...' at 80 columns."""
    shown = invoke("--help", env={**PLAIN_ENV, "COLUMNS": columns}).stdout
    listed = shown.split("Commands:", 1)[1].split("\n\n", 1)[0]
    assert "..." not in listed
    for name in ("bench", "export", "first", "verify"):
        assert f"  {name} " in listed


def _completed(words: str, stdin: int | None = None) -> subprocess.CompletedProcess[str]:
    """What bash's completion of nqueens offers for the last of ``words``."""
    env = process_env(
        COMP_WORDS=words, COMP_CWORD=str(len(words.split()) - 1), _NQUEENS_COMPLETE="bash_complete"
    )
    return subprocess.run(
        NQUEENS, stdin=stdin, capture_output=True, text=True, env=env, timeout=bound(10)
    )


PATHS = [
    "count --board",
    "count 8 --checkpoint",
    "solve 8 --svg",
    "first 8 --svg",
    "explain 4 --svg",
    "explain 4 --tree",
    "export 8 -o",
    "verify",
    "verify --dimacs",
]
"""Every option and argument that takes a path."""


@pytest.mark.slow
@pytest.mark.parametrize("words", PATHS)
def test_every_path_completes_as_a_file(words: str) -> None:
    done = _completed(f"nqueens {words} exa", stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["file,exa"]


def test_completion_reads_nothing_from_a_terminal() -> None:
    """With stdin a terminal, completing `verify FILE` printed "Reading from the terminal ..."
    into the line being typed: completion never runs a command's reading."""
    import pty

    leader, follower = pty.openpty()
    try:
        done = _completed("nqueens verify examples/puz", stdin=follower)
    finally:
        os.close(follower)
        os.close(leader)
    assert done.stdout.splitlines() == ["file,examples/puz"]
    assert "Reading" not in done.stdout + done.stderr

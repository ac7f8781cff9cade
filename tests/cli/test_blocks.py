"""``solve`` off a terminal writes a block of solutions at a time, and ``verify`` reads the
plainest lines in bulk: the same bytes, messages and exit codes as one solution or one line at a
time, at the speed of the output."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from helpers import (
    NQUEENS,
    START_UP,
    TERMINAL_ENV,
    assert_valid_board,
    bound,
    invoke,
    known_total,
    process_env,
    run_nqueens,
    run_with_a_reader_gone,
    strip_ansi,
    symmetry_images,
)

from nqueens.cli.output import Output
from nqueens.formats import _text

SOLVES = [
    ["8"],
    ["8", "--style", "compact"],
    ["8", "--format", "json"],
    ["9", "--unique", "--style", "compact"],
    ["11", "--torus", "--format", "json"],
    ["10", "--superqueens"],
    ["11", "--torus", "--superqueens", "--format", "json"],
    ["8", "--queen", "1,2", "--block", "3,3", "--format", "json"],
    ["8", "--exclude-diagonal", "1,3/"],
    ["12", "--limit", "100", "--format", "json"],
    ["1", "--format", "json"],
    ["3"],
]


@pytest.mark.parametrize("arguments", SOLVES, ids=" ".join)
def test_blocks_write_the_bytes_one_solution_at_a_time_writes(
    arguments: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    in_blocks = invoke("solve", *arguments)
    monkeypatch.setattr(Output, "in_blocks", lambda *arguments, **keywords: False)
    one_at_a_time = invoke("solve", *arguments)
    assert in_blocks.stdout == one_at_a_time.stdout
    assert in_blocks.exit_code == one_at_a_time.exit_code
    summary = [line.split(" in ")[0] for line in in_blocks.stderr.splitlines()]
    assert summary == [line.split(" in ")[0] for line in one_at_a_time.stderr.splitlines()]


def test_solve_lists_with_the_bitboard_engine_unless_told() -> None:
    listed = invoke("solve", "10", "--format", "json")
    assert listed.stdout.splitlines()[-1].count('"engine": "bitboard"') == 1
    boards = [line for line in listed.stdout.splitlines() if '"rows"' in line]
    assert len(boards) == known_total(10)
    told = invoke("solve", "10", "--format", "json", "--engine", "cp-sat")
    assert told.stdout.replace('"engine": "cp-sat"', '"engine": "bitboard"') == listed.stdout


@pytest.mark.slow  # two seconds of listing; every engine's time limit is walked by default
def test_a_time_limit_ends_a_long_listing_with_whole_records() -> None:
    started = time.monotonic()
    done = run_nqueens("solve", "16", "--style", "compact", "--time-limit", "2")
    assert time.monotonic() - started < bound(START_UP + 2)
    assert done.returncode == 3, done.stderr
    assert done.stdout.endswith("\n") and "time limit" in done.stderr
    boards = done.stdout.splitlines()
    assert 0 < len(boards) < known_total(16) and len(boards[-1].split()) == 16
    for line in boards[:: max(1, len(boards) // 500)]:
        assert_valid_board([int(value) - 1 for value in line.split()], 16)


def test_a_reader_that_leaves_ends_a_long_listing_at_once_without_error() -> None:
    started = time.monotonic()
    done = run_with_a_reader_gone([*NQUEENS, "solve", "16", "--style", "compact"], "stdout")
    assert time.monotonic() - started < bound(START_UP + 1)
    assert done.returncode == 0 and done.stderr == "", done.stderr


@pytest.mark.slow  # solve's own full-disk tests, which write in blocks too, run by default
def test_a_full_disk_ends_a_listing_with_exit_74() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*NQUEENS, "solve", "14", "--format", "json"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert done.returncode == 74 and len(done.stderr.splitlines()) == 1, done.stderr


def _compact_boards(n: int) -> list[str]:
    done = run_nqueens("solve", str(n), "--style", "compact")
    return done.stdout.splitlines()


@pytest.mark.slow  # seconds of processes: with -m slow, the README's command stays under 90 s
def test_verify_in_bulk_reports_what_it_reports_a_line_at_a_time(tmp_path: Path) -> None:
    """A stream of thousands of boards with a bad board and a bad line deep inside it: the same
    report, board numbers and line numbers included, as the lines read one at a time."""
    lines = _compact_boards(12)  # a line a board: 14,200 boards
    lines[8999] = "2 1 3 4 5 6 7 8 9 10 11 12"
    lines += ["2 1 4 3 5", "not a board", "2 4 1 3"]
    path = tmp_path / "boards.txt"
    path.write_text("\n".join(lines) + "\n")
    done = run_nqueens("verify", str(path))
    assert done.returncode == 2
    assert done.stdout.splitlines()[0].startswith("board 9000 (N = 12): ")
    assert "board 14201 (N = 5)" in done.stdout
    assert done.stderr == (
        f"Error: line {len(lines) - 1}: 'not a board' is not part of a board "
        "(14,201 boards checked: 2 not valid before it)\n"
    )


@pytest.mark.parametrize(
    "line_end",
    [
        pytest.param("\r\n", marks=pytest.mark.slow),
        pytest.param("\n", marks=pytest.mark.slow),
        pytest.param("\r", marks=pytest.mark.slow),
    ],
)
def test_verify_reads_every_line_end_and_a_byte_order_mark(tmp_path: Path, line_end: str) -> None:
    lines = _compact_boards(10)
    path = tmp_path / "boards.txt"
    path.write_bytes(b"\xef\xbb\xbf" + line_end.join(lines).encode() + line_end.encode())
    done = run_nqueens("verify", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stderr == "724 boards checked: all valid.\n"


@pytest.mark.slow  # four whole processes
def test_verify_reads_json_records_in_bulk_and_under_their_rules() -> None:
    listed = run_nqueens("solve", "11", "--torus", "--format", "json").stdout
    plain = run_nqueens("solve", "11", "--format", "json").stdout
    for records, boards in ((listed, 88), (plain, known_total(11))):
        done = subprocess.run(
            [*NQUEENS, "verify"],
            input=records,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0 and done.stderr == f"{boards:,} boards checked: all valid.\n"


@pytest.mark.parametrize(
    ("text", "read"),
    [
        (b"Solution 1\n2 4 1 3\n\n", (3, 1)),
        (b"2 4 1 3\n3 1 4 2\n", (2, 2)),
        (b"2 4 1 3", (0, 0)),  # a line whose end is still to come
        (b"2 4 1 3\r\n", (0, 0)),  # the reader of lines drops the return
        (b"02 4 1 3\n", (0, 0)),  # what read_whole reads, not this
        (b"2  4 1 3\n", (0, 0)),
        (b"1 2 3 4\n", (0, 0)),  # may head a board drawn with labels
        (b"1\n", (0, 0)),
        (b"2 4 1 5\n", (0, 0)),  # a row off the board
        (b"1 3 2 4\n", (0, 0)),  # not a solution: its messages come from the reader of lines
        (b"Solution x\n", (0, 0)),
        (b'{"type": "solution", "n": 4, "solution": 1, "rows": [1, 3, 0, 2]}\n', (1, 1)),
        (b'{"type": "solution", "n": 4, "rules": ["torus"], "solution": 1, "rows": [1]}\n', (0, 0)),
        (b'{"type": "solution", "n": 4, "solution": 1, "rows": [1, 3, 0]}\n', (0, 0)),
        (b'{"type": "status", "n": 4, "solutions": 2}\n', (0, 0)),
        (b" ".join(str(row).encode() for row in range(2, 300, 2)) + b"\n", (0, 0)),
    ],
)
def test_the_bulk_reader_reads_only_what_it_reads_as_the_reader_of_lines(
    text: bytes, read: tuple[int, int]
) -> None:
    lines, boards, used = _text.check(text)
    assert (lines, boards) == read
    assert used == sum(len(line) + 1 for line in text.split(b"\n")[:lines])


@pytest.mark.slow  # three seconds of listing
def test_a_listing_into_a_file_shows_its_progress_on_the_terminal(tmp_path: Path) -> None:
    """stdout a file, stderr a terminal: after a second, a bar of the boards written out of the
    known count, gone once the listing ends, and a file of whole records."""
    import pty

    leader, follower = pty.openpty()
    with (tmp_path / "boards.txt").open("w") as boards:
        process = subprocess.Popen(
            [*NQUEENS, "solve", "16", "--style", "compact", "--time-limit", "3"],
            stdout=boards,
            stderr=follower,
            env=process_env(TERMINAL_ENV),
        )
    os.close(follower)
    shown = b""
    try:
        while True:
            try:
                chunk = os.read(leader, 1 << 16)
            except OSError:  # every end of the terminal is closed
                break
            if not chunk:
                break
            shown += chunk
    finally:
        process.wait(timeout=60)
        os.close(leader)
    screen = strip_ansi(shown.decode("utf-8", "replace"))
    assert process.returncode == 3
    assert "Listing N = 16" in screen and "boards written" in screen
    assert "%" in screen  # the known count: how far
    listed = (tmp_path / "boards.txt").read_text()
    assert listed.endswith("\n") and len(listed.splitlines()[-1].split()) == 16


def test_a_block_is_written_whole_when_a_write_takes_a_part_of_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As a buffered write does when a signal handler runs in the middle of it."""
    import io
    import sys

    from nqueens.cli import output

    class Partial(io.BytesIO):
        def write(self, data: object) -> int:
            return super().write(bytes(memoryview(data))[:1000])  # type: ignore[arg-type]

    written = Partial()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(written))
    data = bytes(range(256)) * 100
    output.write_whole(data)
    assert written.getvalue() == data


@pytest.mark.parametrize("in_blocks", [True, False], ids=["in blocks", "one at a time"])
@pytest.mark.parametrize("unique", [False, True], ids=["all", "unique"])
def test_a_listing_stopped_between_search_and_write_counts_what_it_wrote(
    in_blocks: bool, unique: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stop signal after the search handed solutions over and before they were written: the
    status record and the summary count the records written, not the solutions found."""
    if not in_blocks:
        monkeypatch.setattr(Output, "in_blocks", lambda *arguments, **keywords: False)
    method = "solutions" if in_blocks else "solution"
    write = getattr(Output, method)
    calls = 0

    def stopped_on_the_fourth(self: Output, *arguments: object) -> None:
        nonlocal calls
        calls += 1
        if calls == 4:
            raise KeyboardInterrupt
        write(self, *arguments)

    monkeypatch.setattr(Output, method, stopped_on_the_fourth)
    ran = invoke("solve", "10", "--format", "json", *(["--unique"] if unique else []))
    records = [line for line in ran.stdout.splitlines() if '"rows"' in line]
    status = json.loads(ran.stdout.splitlines()[-1])
    assert ran.exit_code == 130, ran.stderr
    assert status["status"] == "interrupted" and 0 < len(records) < known_total(10)
    assert status["solutions"] == len(records), status
    assert f"{len(records):,} " in ran.stderr, ran.stderr
    if unique:
        rows = [tuple(json.loads(line)["rows"]) for line in records]
        in_all = sum(len(symmetry_images(board)) for board in rows)
        assert f"({in_all:,} in all)" in ran.stderr, ran.stderr


@pytest.mark.parametrize("in_blocks", [True, False], ids=["in blocks", "one at a time"])
def test_compact_rows_off_a_terminal_are_one_line_a_board(
    in_blocks: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """For other programs (``wc -l``, ``sort``, ``awk``): no heading, no blank line."""
    if not in_blocks:
        monkeypatch.setattr(Output, "in_blocks", lambda *arguments, **keywords: False)
    listed = invoke("solve", "8", "--style", "compact")
    lines = listed.stdout.splitlines()
    assert len(lines) == known_total(8) and len(set(lines)) == len(lines)
    for line in lines:
        assert_valid_board([int(value) - 1 for value in line.split()], 8)

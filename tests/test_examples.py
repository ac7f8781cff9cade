"""The scripts in examples/ run and print what they promise."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers import ROOT, assert_valid_board, known_total

EXAMPLES = ROOT / "examples"


def _env() -> dict[str, str]:
    """The environment with this interpreter's scripts (the nqueens command) first on PATH."""
    scripts = str(Path(sys.executable).parent)
    return {**os.environ, "PATH": scripts + os.pathsep + os.environ.get("PATH", "")}


def test_count_and_first_example() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "count_and_first.py")],
        capture_output=True,
        text=True,
        check=True,
        env=_env(),
    )
    lines = done.stdout.splitlines()
    for n in range(1, 11):
        noun = "solution" if known_total(n) == 1 else "solutions"  # "1 solutions" once
        assert lines[n - 1].startswith(f"N = {n:2}: {known_total(n):,} {noun} (")
        assert "1 subproblems" not in lines[n - 1] and "1 nodes" not in lines[n - 1]
    assert sum(line.startswith("8 queens at") for line in lines) == 3
    assert lines[-1].startswith("One solution for N = 60")
    rows = [int(value) for value in lines[-1].split(":", 1)[1].strip(" ()").split(",")]
    assert_valid_board(rows, 60)


def test_solutions_to_csv_example() -> None:
    done = subprocess.run(
        ["sh", str(EXAMPLES / "solutions_to_csv.sh")],
        capture_output=True,
        text=True,
        check=True,
        env=_env(),
    )
    rows = [[int(value) - 1 for value in line.split(",")] for line in done.stdout.splitlines()]
    assert len(rows) == 92
    for board in rows:
        assert_valid_board(board, 8)


def test_solutions_to_csv_example_ends_quietly_under_head() -> None:
    done = subprocess.run(
        ["sh", "-c", f'sh "{EXAMPLES / "solutions_to_csv.sh"}" | head -n 2'],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
    )
    assert len(done.stdout.splitlines()) == 2
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr


def test_plan_and_count_example_says_what_the_command_line_says() -> None:
    arguments = ["12", "--engine", "bitboard", "--torus"]
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "plan_and_count.py"), *arguments],
        capture_output=True,
        text=True,
        check=True,
        env=_env(),
    )
    first_line, note, count = done.stdout.splitlines()
    assert first_line == "N = 12 (torus): bitboard, the engine asked for"
    assert count == "0"
    command_line = subprocess.run(
        ["nqueens", "count", *arguments], capture_output=True, text=True, env=_env()
    )
    assert command_line.stdout == "0\n"
    assert (
        command_line.stderr
        == note.replace("engine=", "--engine").replace("strategy=", "--strategy") + "\n"
    )


def test_plan_and_count_example_stops_on_ctrl_c_with_the_count_so_far() -> None:
    counting = subprocess.Popen(
        [sys.executable, str(EXAMPLES / "plan_and_count.py"), "17"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    try:
        assert counting.stdout is not None
        assert counting.stdout.readline().startswith("N = 17: ")  # planned, and counting
        time.sleep(0.5)
        counting.send_signal(signal.SIGINT)
        out, err = counting.communicate(timeout=60)
    finally:
        if counting.poll() is None:
            counting.kill()
            counting.wait()
    assert counting.returncode == 130, err
    assert re.fullmatch(r"at least \d+ \(interrupted\)\n", out)
    assert int(out.split()[2]) < known_total(17)

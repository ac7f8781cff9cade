"""Test helpers: an independent board checker, brute-force solutions, output parsers, pinned env.

Nothing here uses nqueens' own code to decide what is right.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import click
from click.testing import CliRunner, Result

ROOT = Path(__file__).parent.parent
"""The repository: the README, docs/, examples/ and benchmarks/ beside the tests."""
DATA = Path(__file__).parent / "data"

SLOWER = 4
"""A test bounds a time only by what it takes on a quiet 2-core machine, SLOWER times over: a
machine four times slower (two other busy processes beside the suite's own) passes as well. How
tightly nqueens keeps a limit is measured by benchmarks/time_limits.py, not here."""

START_UP = 0.5
"""Seconds a quiet 2-core machine takes to start ``python -m nqueens`` and load a search."""


def bound(quiet_seconds: float) -> float:
    """The most a test allows for what takes ``quiet_seconds`` on a quiet machine."""
    return SLOWER * quiet_seconds


"""Boards, instances and counts the tests read."""
COUNTS_FILE = DATA / "counts.json"
"""The published counts (OEIS A000170 and A002562), kept with the tests so they run anywhere."""


def known_total(n: int) -> int:
    """Solutions on an n x n board (OEIS A000170)."""
    return int(json.loads(COUNTS_FILE.read_text())["total"][str(n)])


def known_unique(n: int) -> int:
    """Solutions up to the 8 symmetries of the square (OEIS A002562)."""
    return int(json.loads(COUNTS_FILE.read_text())["unique"][str(n)])


def assert_valid_board(rows: Sequence[int], n: int) -> None:
    """Fail unless ``rows`` places n non-attacking queens (rows[c]: 0-based row in column c)."""
    assert len(rows) == n, f"{len(rows)} queens on a {n} x {n} board"
    assert all(isinstance(row, int) and 0 <= row < n for row in rows), f"row off the board: {rows}"
    for col_a, col_b in itertools.combinations(range(n), 2):
        row_a, row_b = rows[col_a], rows[col_b]
        assert row_a != row_b, f"columns {col_a} and {col_b} share row {row_a}: {rows}"
        assert abs(row_a - row_b) != col_b - col_a, (
            f"columns {col_a} and {col_b} share a diagonal: {rows}"
        )


@functools.cache
def brute_force_solutions(n: int) -> frozenset[tuple[int, ...]]:
    """Every solution, by trying every row in every column with no solver: independent of any
    solver (small n only; computed once per n in a test process)."""
    return frozenset(_every_placement([range(n)] * n))


def _every_placement(
    choices: Sequence[Sequence[int]],
    rows: tuple[int, ...] = (),
    barred: frozenset[tuple[str, int]] = frozenset(),
) -> Iterator[tuple[int, ...]]:
    """The solutions that extend ``rows`` (rows[c]: the queen's row in column c), a queen in
    each column c on one of the rows ``choices[c]``, where ``barred`` holds the rows (``"row",
    r``) and diagonals (``"sum", r + c``; ``"difference", r - c``) the queens placed so far
    take: plain column-by-column backtracking."""
    col = len(rows)
    if col == len(choices):
        yield rows
        return
    for row in choices[col]:
        lines = {("row", row), ("sum", row + col), ("difference", row - col)}
        if not lines & barred:
            yield from _every_placement(choices, (*rows, row), barred | lines)


def parse_plain_boards(text: str) -> list[tuple[int, ...]]:
    """Read boards printed as the OR-Tools guide prints them: ``Q``/``_`` by spaces, a row a line.

    Lines that are not board rows (headers such as ``Solution 3``) separate boards.
    """
    boards: list[tuple[int, ...]] = []
    grid: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        cells = line.split()
        if cells and all(cell in ("Q", "_") for cell in cells):
            grid.append(cells)
            continue
        if grid:
            boards.append(board_from_grid(grid))
            grid = []
    return boards


def board_from_grid(grid: Sequence[Sequence[str]]) -> tuple[int, ...]:
    """Turn a grid of Q/_ cells (a list per row) into rows[c]; each column must hold one Q."""
    n = len(grid)
    assert all(len(row) == n for row in grid), f"ragged or non-square board: {grid}"
    rows = []
    for col in range(n):
        queens = [row for row in range(n) if grid[row][col] == "Q"]
        assert len(queens) == 1, f"column {col} has {len(queens)} queens"
        rows.append(queens[0])
    return tuple(rows)


def json_lines(text: str) -> list[dict[str, Any]]:
    """One JSON object per non-empty line (its values as JSON made them)."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def json_stream(text: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The solution records of a JSON stream, and the one status record that must close it."""
    records = json_lines(text)
    assert records, "no JSON record at all"
    *solutions, status = records
    assert status["type"] == "status", f"the stream does not end with a status record: {status}"
    assert all(record["type"] == "solution" for record in solutions), solutions
    return solutions, status


ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def strip_ansi(text: str) -> str:
    return ANSI_ESCAPE.sub("", text)


PLAIN_ENV = {
    "FORCE_COLOR": None,
    "NO_COLOR": None,
    "TTY_COMPATIBLE": None,
    "COLUMNS": "100",
    "TERM": "xterm-256color",
}
"""Environment for a run whose stdout is not a terminal (CliRunner's never is)."""

ON_TERMINAL = "NQUEENS_TESTS_ON_TERMINAL"
"""Read by :func:`invoke` alone, never by nqueens: run as if stdout were a terminal."""

TERMINAL_ENV = {**PLAIN_ENV, "FORCE_COLOR": "1", ON_TERMINAL: "1"}
"""A 100-column colour terminal: for :func:`invoke`, and for real processes on a pty
(:func:`run_on_terminal`)."""


def invoke(
    *args: str,
    stdin: str | None = None,
    env: dict[str, str | None] = PLAIN_ENV,
    charset: str = "utf-8",
) -> Result:
    """Run the command line in this process, stdout and stderr apart (click 8.2 and later).

    CliRunner's stdout is never a terminal; with ``env`` holding ON_TERMINAL, nqueens is told
    that it is one, as a real terminal would tell it (rich is told by FORCE_COLOR). The streams
    have the ``charset`` encoding, as Python gives them: stdout strict, stderr with backslashes
    for what it cannot write.
    """
    from unittest import mock

    from nqueens.cli import cli, output

    on_terminal = bool(env.get(ON_TERMINAL))
    with mock.patch.object(output, "is_terminal", lambda stream: on_terminal):
        runner = CliRunner(charset=charset)
        return runner.invoke(cli, list(args), input=stdin, env=env, catch_exceptions=False)


def every_command() -> dict[str, click.Command]:
    """Every command of the group, by name, each loaded (the group loads one when it runs)."""
    from nqueens.cli import COMMANDS, cli

    context = click.Context(cli)
    return {name: command for name in COMMANDS if (command := cli.get_command(context, name))}


def run_on_terminal(
    command: list[str],
    env: dict[str, str],
    *,
    columns: int = 100,
    timeout: float = 60,
    typed: bytes | None = None,
) -> tuple[int, str]:
    """Run a real process with stdout and stderr on a pseudo-terminal of ``columns`` columns;
    its exit code and what it wrote, with the terminal's CR LF line ends made LF. With
    ``typed``, stdin is the terminal too, and those keys are typed once it has written."""
    import fcntl
    import pty
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    stdin = follower if typed is not None else subprocess.DEVNULL
    process = subprocess.Popen(command, stdin=stdin, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    chunks = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            try:
                chunk = os.read(leader, 1 << 16)
            except OSError:  # EIO: every end of the terminal is closed
                break
            if not chunk:
                break
            chunks.append(chunk)
            if typed is not None:
                os.write(leader, typed)
                typed = None
        code = process.wait(timeout=max(0.1, deadline - time.monotonic()))
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(leader)
    return code, b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def run_with_a_reader_gone(command: list[str], stream: str) -> subprocess.CompletedProcess[str]:
    """Run ``command`` with ``stream`` (stdout or stderr) a pipe whose reader has already gone,
    as after ``| head -c 1`` or ``2>&1 >file | head -c 1``; the other stream is captured."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run(
            command,
            stdout=writer if stream == "stdout" else subprocess.PIPE,
            stderr=writer if stream == "stderr" else subprocess.PIPE,
            text=True,
            env=process_env(),
            timeout=60,
        )
    finally:
        os.close(writer)


def process_env(settings: dict[str, str | None] = PLAIN_ENV, **extra: str) -> dict[str, str]:
    """This process's environment with ``settings`` applied (None removes a variable), plus
    ``extra``: for commands run as real processes."""
    env = {key: value for key, value in os.environ.items() if key not in settings}
    env.update({key: value for key, value in settings.items() if value is not None})
    env.update(extra)
    return env


NQUEENS = (sys.executable, "-m", "nqueens")
"""The command line as a process of its own: this interpreter running the package."""


def start_nqueens(*arguments: str, **popen: Any) -> subprocess.Popen[str]:
    """``nqueens ARGUMENTS`` started as a process of its own, its stdout and stderr pipes of
    text, with the plain settings (:func:`process_env`), unless ``popen`` says otherwise."""
    settings: dict[str, Any] = {
        "stdout": subprocess.PIPE,
        "stderr": subprocess.PIPE,
        "env": process_env(),
    }
    process: subprocess.Popen[str] = subprocess.Popen(
        [*NQUEENS, *arguments], text=True, **(settings | popen)
    )
    return process


def run_nqueens(*arguments: str, **run: Any) -> subprocess.CompletedProcess[str]:
    """``nqueens ARGUMENTS`` run to its end as a process of its own, its output captured as
    text (where ``run`` names no stream), with the plain settings and a minute's timeout,
    unless ``run`` says otherwise."""
    settings: dict[str, Any] = {"env": process_env(), "timeout": 60}
    settings["capture_output"] = not {"stdout", "stderr"} & run.keys()
    done: subprocess.CompletedProcess[str] = subprocess.run(
        [*NQUEENS, *arguments], text=True, **(settings | run)
    )
    return done


def run_python(
    code: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``code`` run by this interpreter in a process of its own (in ``env``, or this process's
    with the plain settings), its output captured as text."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env or process_env(),
        timeout=timeout,
    )


def symmetry_images(rows: tuple[int, ...]) -> set[tuple[int, ...]]:
    """The 8 images of a solution, computed on the squares themselves (no permutation tricks)."""
    n = len(rows)
    squares = {(row, col) for col, row in enumerate(rows)}
    transforms: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, c: (r, c),
        lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (n - 1 - c, r),
        lambda r, c: (r, n - 1 - c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r),
        lambda r, c: (n - 1 - c, n - 1 - r),
    ]
    result = set()
    for transform in transforms:
        moved = sorted((col, row) for row, col in (transform(r, c) for r, c in squares))
        result.add(tuple(row for _, row in moved))
    return result


def count_completions(
    n: int,
    queens: set[tuple[int, int]],
    blocked: set[tuple[int, int]],
    sums: frozenset[int] = frozenset(),
    differences: frozenset[int] = frozenset(),
) -> int:
    """Solutions keeping every (row, col) in ``queens`` and none in ``blocked``, with no queen
    on an excluded diagonal (row + col in ``sums``, row - col in ``differences``), by plain
    column-by-column backtracking with no solver (0-based squares)."""
    return _completions(n, frozenset(queens), frozenset(blocked), sums, differences)


@functools.cache
def _completions(
    n: int,
    queens: frozenset[tuple[int, int]],
    blocked: frozenset[tuple[int, int]],
    sums: frozenset[int],
    differences: frozenset[int],
) -> int:
    """:func:`count_completions`, counted once per puzzle in a test process."""
    fixed = {col: row for row, col in queens}
    choices = [
        [
            row
            for row in ([fixed[col]] if col in fixed else range(n))
            if (row, col) not in blocked and row + col not in sums and row - col not in differences
        ]
        for col in range(n)
    ]

    return sum(1 for _ in _every_placement(choices))


def searched(blocked: Sequence[int], gaps: Sequence[int], lines: int, n: int) -> tuple[int, int]:
    """The tests' own search of a constellation as the gpu kernel takes it: a row on each free
    line, none taken or attacked by the edge queens (``blocked``) or by a queen above, the
    diagonals moved by the lines between free lines (``gaps``). Its completions, and its
    placements: the queens placed on free lines before the last."""
    full = (1 << n) - 1

    def below(line: int, taken: int, left: int, right: int) -> tuple[int, int]:
        if line == lines:
            return 1, 0
        free = full & ~(taken | left | right | int(blocked[line]))
        if line == lines - 1:
            return free.bit_count(), 0
        found = placed = 0
        while free:
            bit = free & -free
            free ^= bit
            shift = int(gaps[line])
            more = below(line + 1, taken | bit, (left | bit) << shift, (right | bit) >> shift)
            found, placed = found + more[0], placed + 1 + more[1]
        return found, placed

    return below(0, 0, 0, 0)


def every_constellation_searched(n: int) -> list[tuple[int, int]]:
    """:func:`searched` for each constellation of N, from the C module's masks, in its order."""
    from nqueens.engines.bitboard import _edges

    found = []
    for at in range(len(_edges.constellations(n))):
        masks, gaps, _ = _edges.masks(n, at)
        found.append(searched(masks, gaps, len(masks), n))
    return found


def attacks(a: tuple[int, int], b: tuple[int, int], n: int, rules: tuple[str, ...]) -> bool:
    """Whether queens on squares a and b attack each other under ``rules``: written here."""
    return _attacks_apart(a[0] - b[0], a[1] - b[1], n, rules)


@functools.cache
def _attacks_apart(dr: int, dc: int, n: int, rules: tuple[str, ...]) -> bool:
    """Whether queens ``dr`` rows and ``dc`` columns apart attack each other under ``rules``."""
    if "torus" in rules:
        dr, dc = dr % n, dc % n
        moves = {(abs(dr), abs(dc)), (n - dr, dc), (dr, n - dc), (n - dr, n - dc)}
    else:
        moves = {(abs(dr), abs(dc))}
    for r, c in moves:
        if r % n == 0 or c % n == 0 or r == c:
            return True
        if "superqueens" in rules and {r, c} == {1, 2}:
            return True
    return False


@functools.cache
def solutions(n: int, rules: tuple[str, ...]) -> frozenset[tuple[int, ...]]:
    """Every solution under ``rules``: column by column, each queen checked against those
    placed with the checker above (small n only)."""
    found = set()

    def place(rows: tuple[int, ...]) -> None:
        if len(rows) == n:
            found.add(rows)
            return
        col = len(rows)
        for row in range(n):
            if not any(attacks((row, col), (r, c), n, rules) for c, r in enumerate(rows)):
                place((*rows, row))

    place(())
    return frozenset(found)


def session_members(leader: int) -> list[int]:
    """The live processes of the session ``leader`` started (zombies have ended already), as
    Linux's /proc lists them."""
    members = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == leader and fields[0] != "Z":
            members.append(int(entry.name))
    return members

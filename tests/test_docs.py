"""The README's promises: CI runs its test command, the quick start names `nqueens solve 8`, and
every output it shows is what the command prints."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import PLAIN_ENV, ROOT, TERMINAL_ENV, known_total, process_env, run_on_terminal

from nqueens import bench
from nqueens.core.strategies import STRATEGIES
from nqueens.engines import registry
from nqueens.engines.mip import BACKENDS


def _shell_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL)


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    test_commands = [block.strip() for block in _shell_blocks(readme) if "pytest" in block]
    assert test_commands, "the README shows no test command"
    assert test_commands[0] in ci_lines


def test_quick_start_installs_and_runs_solve_8() -> None:
    readme = (ROOT / "README.md").read_text()
    first_command = _shell_blocks(readme)[0].strip()
    assert "pip install" in first_command and first_command.endswith("nqueens solve 8")


def test_the_readme_installs_from_the_checkout_not_from_pypi() -> None:
    """PyPI's ``nqueens`` is another project: ``pip install 'nqueens[cluster]'`` on a machine
    without this one installs that (and gTTS) in its place."""
    readme = (ROOT / "README.md").read_text()
    installs = re.findall(r"pip install ([^`\n]*)", readme)
    assert len(installs) >= 5
    by_name = [words for words in installs if re.match(r"""['"]?nqueens\b""", words)]
    assert not by_name, f"the README installs PyPI's nqueens: {by_name}"


TERMINAL_TOKEN = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r|\n|[^\x1b\r\n]+")


def screen(raw: str) -> list[str]:
    """What a terminal shows after ``raw``: just enough of one for rich's output (colours, and
    the carriage returns, line erases and cursor moves of a transient progress bar)."""
    lines, row, col = [""], 0, 0
    for token in TERMINAL_TOKEN.findall(raw):
        if token == "\n":
            row, col = row + 1, 0
            if row == len(lines):
                lines.append("")
        elif token == "\r":
            col = 0
        elif token.endswith("K"):
            lines[row] = ""
        elif token.endswith("A"):
            row = max(0, row - int(token[2:-1] or 1))
        elif not token.startswith("\x1b"):
            lines[row] = lines[row][:col].ljust(col) + token + lines[row][col + len(token) :]
            col += len(token)
    return lines


def normal(line: str, *, vague: bool) -> str:
    """A line with what changes from run to run (times, rates, padding) made the same; ``vague``
    also blurs every number, for a count stopped by a time limit."""
    line = re.sub(r"\d+\.\d+ s\b", "<t> s", line.rstrip())
    line = re.sub(r'("wall_time": |"solutions_per_second": )[\d.]+', r"\1<n>", line)
    line = re.sub(r"(solutions per second\s*│\s*)[\d,]+", r"\1<n>", line)
    line = re.sub(r" +", " ", re.sub(r"─+", "─", line))
    return re.sub(r"[\d,]+", "#", line) if vague else line


def _sessions() -> list[tuple[bool, str, list[str]]]:
    """Each ``$ command`` shown in the README with the output shown under it, and whether it is
    shown as on a terminal."""
    readme = (ROOT / "README.md").read_text()
    sessions = []
    for match in re.finditer(r"([^\n]*)\n\n```\n(.*?)```", readme, flags=re.DOTALL):
        on_terminal = "On a terminal" in match.group(1)
        command: str | None = None
        shown: list[str] = []
        for line in [*match.group(2).splitlines(), "$ "]:
            if line.startswith("$ "):
                if command is not None:
                    sessions.append((on_terminal, command, shown))
                command, shown = line[2:], []
            elif command is not None:
                shown.append(line)
    return [session for session in sessions if session[1].strip()]


@pytest.mark.parametrize(
    ("on_terminal", "command", "shown"), _sessions(), ids=[s[1] for s in _sessions()]
)
def test_readme_outputs_come_from_real_runs(
    on_terminal: bool, command: str, shown: list[str]
) -> None:
    env = process_env(
        TERMINAL_ENV if on_terminal else PLAIN_ENV,
        PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
        PYTHONUNBUFFERED="1",  # stdout and stderr in the order they were written
        TTY_INTERACTIVE="0",  # the progress bar, which a terminal erases, is not drawn
    )
    if on_terminal:
        _, printed = run_on_terminal(
            ["bash", "-c", f"cd {shlex.quote(str(ROOT))} && {command}"], env
        )
    else:
        printed = subprocess.run(
            ["bash", "-c", command],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            timeout=60,
        ).stdout
    vague = "--time-limit" in command
    got = [normal(line, vague=vague) for line in screen(printed)]
    while got and not got[-1]:
        got.pop()
    while got and not got[0]:
        got.pop(0)
    assert got == [normal(line, vague=vague) for line in shown]


def _bench_tables(readme: str) -> list[tuple[str, list[list[str]]]]:
    """Each table `nqueens bench` printed into the README: its title and its rows, split where
    two spaces or more part the cells."""
    tables: list[tuple[str, list[list[str]]]] = []
    for block in re.findall(r"```\n(Time to .*?)```", readme, flags=re.DOTALL):
        title = ""
        for line in block.splitlines():
            if line.startswith("Time to "):
                title = line
                tables.append((title, []))
            elif line.strip() and not line.strip().startswith("─"):
                tables[-1][1].append(re.split(r"\s{2,}", line.strip()))
    return tables


def test_the_readme_bench_tables_are_what_bench_prints_now() -> None:
    """Rows of engines the registry has, sizes as a header, and the known counts: a layout or an
    engine that changed since the tables were measured shows here."""
    tables = _bench_tables((ROOT / "README.md").read_text())
    assert len(tables) == 4
    for title, rows in tables:
        header, *body = rows
        assert header[0] == "N"
        sizes = [int(size.replace(",", "")) for size in header[1:]]
        table = bench.ALL if title.startswith("Time to find every") else bench.FIRST
        engines = [name for name in registry.ENGINES if name != "local" or table == bench.FIRST]
        known = {
            column.label.replace("\n", " ")
            for column in bench.columns(engines, STRATEGIES, table, BACKENDS)
        }
        for row in body:
            assert len(row) == len(sizes) + 1, row
            if row[0] == "solutions":
                assert row[1:] == [f"{known_total(n):,}" for n in sizes]
            elif row[0] != "guide published":
                assert row[0] in known, row


def test_every_count_the_readme_tables_show_is_the_published_one() -> None:
    """Each table whose first columns are N and its solutions (the benchmarks' and the GPU's)
    shows the published count for each N: a number copied by hand, or from a run whose own
    check was left out, cannot slip in."""
    readme = (ROOT / "README.md").read_text()
    rows = re.findall(r"^\| N \| solutions \|.*\n\|[-|]+\|\n((?:\|.*\n)+)", readme, re.MULTILINE)
    counts = [line.split("|")[1:3] for table in rows for line in table.splitlines()]
    assert len(rows) >= 5 and len(counts) >= 30
    for n, solutions in counts:
        assert solutions.strip() == f"{known_total(int(n)):,}", (n, solutions)

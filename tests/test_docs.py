"""The README's and the documentation's promises: CI runs the README's test command, the set-up
installs and runs `nqueens solve 8`, every output a page shows is what the command prints, every
command a page shows parses, and no page speaks of how the project was made."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from helpers import (
    PLAIN_ENV,
    ROOT,
    TERMINAL_ENV,
    every_command,
    invoke,
    known_total,
    process_env,
    run_on_terminal,
)

from nqueens import bench
from nqueens.cli import cli
from nqueens.core.strategies import STRATEGIES
from nqueens.engines import registry
from nqueens.engines.mip import BACKENDS

COMMANDS_BY_NAME = every_command()
"""Every command of the command line, by name."""

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
"""What a user reads: the README and every page of the documentation site."""


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def _all_pages() -> str:
    return "\n".join(_text(page) for page in PAGES)


def _shell_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL)


def test_ci_runs_the_readme_test_command() -> None:
    readme = _text(ROOT / "README.md")
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    test_commands = [block.strip() for block in _shell_blocks(readme) if "pytest" in block]
    assert test_commands, "the README shows no test command"
    assert test_commands[0] in ci_lines


def test_set_up_installs_and_runs_solve_8() -> None:
    for page in (ROOT / "README.md", ROOT / "docs" / "index.md"):
        first_command = _shell_blocks(_text(page))[0].strip()
        assert "pip install" in first_command and first_command.endswith("nqueens solve 8")


def test_the_readme_stays_short_and_links_a_puzzle_from_a_file_on_its_first_screen() -> None:
    lines = _text(ROOT / "README.md").splitlines()
    assert len(lines) <= 250
    first_screen = "\n".join(lines[:24])
    assert "(docs/how-to/puzzles.md)" in first_screen
    assert "from a file" in (ROOT / "docs" / "how-to" / "puzzles.md").read_text()


def test_nothing_installs_pypis_nqueens() -> None:
    """PyPI's ``nqueens`` is another project: ``pip install 'nqueens[cluster]'`` on a machine
    without this one installs that (and gTTS) in its place. The pages, the help and the
    messages install from the checkout."""
    shipped = _all_pages() + "".join(
        path.read_text() for path in (ROOT / "src" / "nqueens").rglob("*.py")
    )
    installs = re.findall(r"pip install ([^`\n]*)", shipped)
    assert len(installs) >= 8
    by_name = [words for words in installs if re.match(r"""['"]?nqueens(?![-\w])""", words)]
    assert not by_name, f"installs PyPI's nqueens: {by_name}"


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


OTHER_SOLVERS = ("minizinc", "minisat", "picosat", "glpsol")
"""Solvers a page runs the exported models with: where one is missing, its sessions skip."""

Session = tuple[bool, str, list[str]]
"""A ``$ command`` a page shows, the output shown under it, and whether it is shown as on a
terminal (the line before its block says "On a terminal")."""


def _sessions(page: Path) -> list[Session]:
    sessions: list[Session] = []
    for match in re.finditer(r"([^\n]*)\n\n```\n(.*?)```", _text(page), flags=re.DOTALL):
        on_terminal = "On a terminal" in match.group(1)
        command: str | None = None
        shown: list[str] = []
        for line in [*match.group(2).splitlines(), "$ "]:
            if line.startswith("$ "):
                if command is not None and command.strip():
                    sessions.append((on_terminal, command, shown))
                command, shown = line[2:], []
            elif command is not None:
                shown.append(line)
    return sessions


def _every_session() -> list[Any]:
    """Each session of every page, once however many pages show it. The README's run with every
    test run; those only the site shows run with ``-m slow`` (CI runs both), which keeps the
    README's test command under its 90 s."""
    once: dict[tuple[bool, str, tuple[str, ...]], Any] = {}
    for page in PAGES:
        for on_terminal, command, shown in _sessions(page):
            vague = "--time-limit" in command
            key = (on_terminal, command, tuple(normal(line, vague=vague) for line in shown))
            marks = [] if page.name == "README.md" else [pytest.mark.slow]
            once.setdefault(key, pytest.param(on_terminal, command, shown, marks=marks, id=command))
    return list(once.values())


@pytest.mark.slow
@pytest.mark.parametrize(("on_terminal", "command", "shown"), _every_session())
def test_every_output_shown_comes_from_a_real_run(
    on_terminal: bool, command: str, shown: list[str]
) -> None:
    for tool in OTHER_SOLVERS:
        if re.search(rf"(^|[|;&]\s*){tool}\b", command) and shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")
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


def test_the_bench_tables_shown_are_what_bench_prints_now() -> None:
    """Rows of engines the registry has, sizes as a header, and the known counts: a layout or an
    engine that changed since the tables were measured shows here."""
    tables = _bench_tables(_all_pages())
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


def test_every_count_the_tables_show_is_the_published_one() -> None:
    """Each table whose first columns are N and its solutions (the benchmarks' and the GPU's)
    shows the published count for each N: a number copied by hand, or from a run whose own
    check was left out, cannot slip in."""
    rows = re.findall(
        r"^\| N \| solutions \|.*\n\|[-|]+\|\n((?:\|.*\n)+)", _all_pages(), re.MULTILINE
    )
    counts = [line.split("|")[1:3] for table in rows for line in table.splitlines()]
    assert len(rows) >= 5 and len(counts) >= 30
    for n, solutions in counts:
        assert solutions.strip() == f"{known_total(int(n)):,}", (n, solutions)


def _commands_in_shell_blocks() -> list[list[str]]:
    """Each command of every ``sh`` block of every page, as its words (comments dropped, and
    command lines cut at ``&&``, ``|`` and ``;``)."""
    commands: list[list[str]] = []
    for block in _shell_blocks(_all_pages()):
        for line in block.splitlines():
            line = re.sub(r"\s\d?[<>]+&?\s*[^\s&|;]+", "", line)  # redirections
            lexer = shlex.shlex(line, posix=True, punctuation_chars="&|;")
            lexer.whitespace_split, lexer.commenters = True, "#"
            words: list[str] = []
            for word in [*lexer, ";"]:
                if word in {"&&", "||", "|", ";"}:
                    if words:
                        commands.append(words)
                    words = []
                else:
                    words.append(word)
    return commands


SHELL_COMMANDS = _commands_in_shell_blocks() + [
    shlex.split(span) for span in re.findall(r"`((?:python|bash) benchmarks/[^`]+)`", _all_pages())
]


@pytest.mark.parametrize(
    "words",
    [words for words in SHELL_COMMANDS if words[0] in {"nqueens", "python", "bash"}],
    ids=" ".join,
)
def test_every_command_shown_to_type_parses(
    words: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a page shows to type without its output (a long count, a cluster's set-up, a
    benchmark, in a block or in a sentence) is a command nqueens, or the benchmark named, takes
    as written. Files of the repository are read where they are; a file an earlier command of
    the page would have written (a model, a solver's answer) is there, empty."""
    if words[0] == "nqueens" and words[1].startswith("-"):  # the group's own: --version
        assert invoke(*words[1:]).exit_code == 0, words
        return
    if words[0] == "nqueens":
        monkeypatch.chdir(tmp_path)
        words = [str(ROOT / word) if (ROOT / word).is_file() else word for word in words]
        for word in words[2:]:
            if re.fullmatch(r"[\w-]+\.(?:txt|cnf|mzn)", word):
                (tmp_path / word).touch()
        name, *arguments = [word for word in words[1:] if word not in {"--no-color", "--color"}]
        command = COMMANDS_BY_NAME[name]
        parent = click.Context(cli, info_name="nqueens")
        with command.make_context(name, arguments, parent=parent):
            pass
        return
    if words[:2] == ["python3", "-m"] or words[1] in {"-m", "-c"}:
        return
    script = ROOT / words[1]
    assert script.is_file(), words
    source = script.read_text()
    for word in words[2:]:
        if word.startswith("--"):
            assert f'"{word.split("=")[0]}"' in source, (word, script)


MAKING_OF = re.compile(
    r"\.\./shared|\bthe seeds\b|\bseeds'|\bseed (?:programs?|documents?|CP-SAT)\b|"
    r"\bissues? #?\d+|\b(?:this|the|a|each) session\b|\blent\b|\bthe guide\b|\bblog post\b|"
    r"\bthis workplace\b|documents this project|\bbusy days\b|\bfiled by\b|README's table",
    re.IGNORECASE,
)
"""How the project was made, which a user of it does not know and need not: its working
folders, its sources by nickname rather than citation, its issue numbers and its sessions."""

SHIPPED = [
    *PAGES,
    ROOT / "CHANGELOG.md",
    ROOT / "pyproject.toml",
    *sorted((ROOT / "src" / "nqueens").rglob("*.py")),
    *sorted((ROOT / "src" / "nqueens").rglob("*.html")),
    *sorted((ROOT / "src" / "nqueens").rglob("*.c")),
    *sorted((ROOT / "benchmarks").rglob("*.py")),
    *sorted((ROOT / "benchmarks").glob("*.sh")),
    *sorted((ROOT / "examples").iterdir()),
]


def test_nothing_shipped_speaks_of_how_the_project_was_made() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in SHIPPED
        if path.is_file()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if MAKING_OF.search(line)
    ]
    assert not found, "\n".join(found)


def test_the_help_speaks_of_the_program_alone() -> None:
    """Every command's help, as a user reads it: no making-of words either."""
    for name in ["", *COMMANDS_BY_NAME]:
        shown = invoke(*([name] if name else []), "--help").stdout
        assert not MAKING_OF.search(shown), (name, MAKING_OF.search(shown))


def test_the_cli_reference_is_generated_from_the_commands() -> None:
    """The reference page holds no option by hand: the site's hook writes every command's help
    into it as the command prints it, and the API page is read from the docstrings."""
    page = _text(ROOT / "docs" / "reference" / "cli.md")
    spec = importlib.util.spec_from_file_location("reference", ROOT / "docs/hooks/reference.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    assert hook.MARKER in page and "--time-limit" not in page
    written = hook.on_page_markdown(page)
    for name in ["", *COMMANDS_BY_NAME]:
        shown = invoke(*([name] if name else []), "--help", env={**PLAIN_ENV, "COLUMNS": "80"})
        assert shown.stdout.replace("Usage: cli", "Usage: nqueens").strip() in written, name
    assert "::: nqueens.api.count" in _text(ROOT / "docs" / "reference" / "api.md")


def test_the_api_reference_documents_every_public_name_and_nothing_else() -> None:
    """Each name a program imports from ``nqueens.api`` or ``nqueens.export`` has its entry,
    made from its docstring, once; the page documents nothing a program is not offered (the
    command line's helpers were shown as if a program should use them)."""
    import nqueens.api
    import nqueens.export

    page = _text(ROOT / "docs" / "reference" / "api.md")
    entries = re.findall(r"^::: (\S+)$", page, flags=re.MULTILINE)
    assert len(entries) == len(set(entries))
    offered = [f"nqueens.api.{name}" for name in nqueens.api.__all__]
    offered += [f"nqueens.export.{name}" for name in nqueens.export.__all__]
    assert sorted(entries) == sorted(offered)


def test_every_link_of_the_readme_leads_somewhere() -> None:
    """The README is read on its own (a code host shows it), outside the site's checks: each of
    its links names a file of the checkout, or a heading of its own."""
    readme = _text(ROOT / "README.md")
    headings = {
        re.sub(r"[^\w\- ]", "", line.lstrip("#").strip()).lower().replace(" ", "-")
        for line in readme.splitlines()
        if line.startswith("#")
    }
    links = re.findall(r"\]\(([^)\s]+)\)", readme)
    assert len(links) >= 8
    for link in links:
        if link.startswith("#"):
            assert link[1:] in headings, link
        elif not link.startswith("http"):
            assert (ROOT / link.split("#")[0]).exists(), link


def test_every_output_shown_says_whether_a_terminal_or_a_pipe_printed_it() -> None:
    """A terminal prints more than a pipe (a sentence, colours, a board drawn): each block of
    output says which it shows, once."""
    unsaid = [
        f"{page.name}: {command}"
        for page in PAGES
        for on_terminal, command, _ in _sessions(page)
        if not on_terminal and not _says_pipe(page, command)
    ]
    assert unsaid == []
    for page in PAGES:
        assert not re.search(r"On a terminal[^\n]*\n\nOn a terminal", _text(page)), page.name


def _says_pipe(page: Path, command: str) -> bool:
    """Whether the line before the block that shows ``command`` says it is in a pipe."""
    for match in re.finditer(r"([^\n]*)\n\n```\n\$ ([^\n]*)", _text(page)):
        if match.group(2) == command:
            return "in a pipe" in match.group(1).lower()
    return True  # a later command of a block: its first line said

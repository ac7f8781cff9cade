"""Conformance: every command, on every engine it offers, with every option at its hostile values.

The walk is read from the command line as it is registered (each command's click parameters, the
engines its ``--engine`` offers), not from a list kept here: a new engine joins by being in the
registry, and a new option by having a type (or, for a plain string, a name) that
:func:`hostile_values` knows; an option it does not know fails
:func:`test_every_option_has_hostile_values` until its values are written down.

Whatever the input, a command ends with a documented exit code and no traceback, keeps usage
errors off stdout, writes no terminal codes into piped data, and, when it succeeds, prints what
the tests' own checkers accept. The quick run takes every engine with its defaults, time limits
and colour settings; ``-m slow`` walks every option and value on every engine, and the largest
board every engine takes under a time limit.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import click
import pytest
from helpers import (
    ANSI_ESCAPE,
    DATA,
    NQUEENS,
    PLAIN_ENV,
    TERMINAL_ENV,
    assert_valid_board,
    bound,
    every_command,
    invoke,
    json_lines,
    json_stream,
    known_total,
    process_env,
    run_nqueens,
    run_with_a_reader_gone,
    solutions,
    start_nqueens,
    strip_ansi,
)

import nqueens
from nqueens.cli import params, sources
from nqueens.core.board import Board
from nqueens.core.geometry import RULES
from nqueens.core.results import InputError
from nqueens.core.strategies import STRATEGIES
from nqueens.engines import registry
from nqueens.engines.base import Request

COMMANDS_BY_NAME = every_command()
"""Every command of the command line, by name."""

DOCUMENTED_EXIT_CODES = {0, 1, 2, 3, 74}
"""What a command may end with when no signal stops it (docs/reference/exit-codes.md)."""

BOARD = DATA / "completion-12-12-5.param"

CAPPED = "ignore::nqueens.run.executors.WorkersCappedWarning"
"""More workers than cores, which the option walk asks for, are capped with this warning (the
command line shows it in one line; its own tests are in test_counting.py)."""

BASE: dict[str, list[str]] = {
    "solve": ["solve", "6"],
    "count": ["count", "6"],
    "first": ["first", "8"],
    "explain": ["explain", "5"],
    "verify": ["verify", "{valid}"],
    "export": ["export", "6", "--to", "minizinc"],
    "bench": ["bench", "--sizes", "4", "--first-sizes", "8", "--engines", "bitboard"],
}
"""Each command on a small board: quick on every engine, so the walk stays in seconds."""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Files the hostile values name: {name} in a value is replaced by its path."""
    folder = tmp_path_factory.mktemp("conformance")
    (folder / "valid.txt").write_text("2 4 1 3\n")
    (folder / "drawing.txt").write_text("Q . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n")
    (folder / "binary.bin").write_bytes(bytes(range(256)) * 4)
    (folder / "latin1.txt").write_bytes("caf\xe9\n".encode("latin-1"))
    (folder / "empty.txt").write_text("")
    (folder / "directory").mkdir()
    return {
        "valid": str(folder / "valid.txt"),
        "drawing": str(folder / "drawing.txt"),
        "binary": str(folder / "binary.bin"),
        "latin1": str(folder / "latin1.txt"),
        "empty": str(folder / "empty.txt"),
        "directory": str(folder / "directory"),
        "missing": str(folder / "missing" / "nothing.txt"),
        "new": str(folder / "new-{case}"),
        "csplib": str(BOARD),
    }


HUGE = "9" * 40
"""A number no machine word holds."""

STRING_VALUES: dict[str, list[str]] = {
    "n": ["0", "1", "2", "3", "-1", "x", HUGE, "1e3", "8.0", "٣", "10001", "10000001", ""],
    "queen_squares": ["1,1", "0,0", "9,9", "a,b", "1", f"{HUGE},1", "1,1,1", ""],
    "block_squares": ["1,1", "0,0", "9,9", "a,b", f"1,{HUGE}", ""],
    "excluded_diagonals": ["1,1/", "1,1\\", "1,1", "0,0/", "9,9/", f"{HUGE},1/", "x"],
    "svg_path": ["{new}.svg", "{new}", "{directory}", "/dev/full", "{missing}", "-", ""],
    "tree_path": ["{new}.svg", "{new}", "{directory}", "/dev/full", "{missing}", "-", ""],
    "cluster": ["nonsense", "local:0", "local:x", f"local:{HUGE}", "inproc://x", "h:99999", ""],
}
"""Hostile values of the options whose type is a plain string, by parameter name."""

FILE_VALUES = [
    "{valid}",
    "{drawing}",
    "{csplib}",
    "{binary}",
    "{latin1}",
    "{empty}",
    "{directory}",
    "{missing}",
    "/dev/null",
]

SECONDS_VALUES = ["0", "-1", "nan", "x", "1e-320", "0.001", "0.3", "1e308", "inf", "-inf", HUGE]


def hostile_values(param: click.Parameter) -> list[str] | None:
    """The values to try for ``param`` (None: none known for its kind, which the suite reports)."""
    kind = param.type
    if isinstance(param, click.Option) and param.is_flag:
        return [""]  # the flag itself (and its --no- form: see tokens())
    if isinstance(kind, params.WholeNumber):
        values = ["0", "1", "-1", HUGE, "1.5", "x", "٣", ""]
        if kind.maximum is not None:
            values += [str(kind.maximum), str(kind.maximum + 1)]
        return values
    if isinstance(kind, params.Seconds):
        return SECONDS_VALUES
    if isinstance(kind, click.Choice):
        return [*kind.choices, "nonsense"]
    if isinstance(kind, (sources.TextFile, sources.TextLines)):
        return FILE_VALUES
    if isinstance(kind, click.Path):
        return ["{new}", "{directory}", "{binary}", "/dev/null", "/dev/full", "{missing}", "-"]
    if isinstance(kind, params.BoardSizes):
        return ["4", "0", "4-3", "x", "10001", "1-3", ""]
    if isinstance(kind, params.Names):
        return ["", ",", "nonsense", "bitboard,bitboard"]
    if param.name in STRING_VALUES:
        return STRING_VALUES[param.name]
    return None


def tokens(param: click.Parameter, value: str) -> list[list[str]]:
    """The command-line words that give ``param`` the ``value`` (both forms of a flag)."""
    if isinstance(param, click.Argument):
        return [[value]]
    assert isinstance(param, click.Option)
    if param.is_flag:
        return [[param.opts[-1]]] + [[name] for name in param.secondary_opts]
    return [[param.opts[-1], value]]


def engines_of(command: str) -> list[str]:
    """The engines ``command`` offers (none: it has no --engine)."""
    param = next((p for p in COMMANDS_BY_NAME[command].params if p.name == "engine"), None)
    if param is None:
        return [""]
    assert isinstance(param.type, click.Choice)
    return [str(choice) for choice in param.type.choices]


def option_cases() -> Iterator[object]:
    """(command, engine, parameter, words) for every hostile value of every parameter, on every
    engine (auto, the default, among them)."""
    for command in BASE:
        for engine in engines_of(command):
            for param in COMMANDS_BY_NAME[command].params:
                for value in hostile_values(param) or []:
                    for words in tokens(param, value):
                        yield pytest.param(
                            command,
                            engine,
                            param.name,
                            words,
                            id=f"{command}-{engine or 'none'}-{param.name}-{' '.join(words)}",
                        )


def command_line(command: str, engine: str, param_name: str, words: list[str]) -> list[str]:
    """The base command with ``words`` in place of the parameter's base value, on ``engine``."""
    base = list(BASE[command])
    if param_name in ("n", "source"):  # the argument: replace it
        base[1:2] = words
        words = []
    elif words and words[0] in base:  # an option the base gives: replace its value
        at = base.index(words[0])
        del base[at : at + 2]
    engine_words = ["--engine", engine] if engine and param_name != "engine" else []
    return [*base, *engine_words, *words]


def filled(arguments: list[str], files: dict[str, str], case: str) -> list[str]:
    """``arguments`` with the files their {names} stand for (a new file's name by ``case``)."""
    names = {**files, "new": files["new"].replace("{case}", case)}
    return [word.format(**names) if "{" in word else word for word in arguments]


class Ran(NamedTuple):
    """What a command ended with, from a process of its own."""

    exit_code: int
    stdout: str
    stderr: str


def assert_conforms(arguments: list[str], result: click.testing.Result | Ran) -> None:
    """What every run must be, whatever its input (see the module's docstring)."""
    code, stdout, stderr = result.exit_code, result.stdout, result.stderr
    assert code in DOCUMENTED_EXIT_CODES, f"exit {code}: {stderr}"
    if any(_names_a_folder(arguments, option) for option in WRITTEN_FILE_OPTIONS):
        assert code == 2, f"a folder to write a file to was not refused up front: {stderr}"
    assert "Traceback" not in stdout + stderr, stderr
    assert not ANSI_ESCAPE.search(stdout), "terminal codes in piped data"
    if code == 2:
        assert "Error" in stderr, stderr
        assert stdout == "", f"data on stdout after a usage error: {stdout!r}"
        return
    if code == 74:
        assert stderr.strip().splitlines()[-1].startswith("Error:"), stderr
        return
    command = arguments[0]
    if "json" in arguments and command in ("solve", "first", "count", "verify"):
        _assert_json(command, arguments, code, stdout)
    plain = not any(word.startswith("--") and word in PUZZLE_OPTIONS for word in arguments)
    if command == "count" and code == 0 and plain and "json" not in arguments:
        n = int(arguments[1])
        if n >= 1:
            assert stdout.split()[0] == str(known_total(n)), stdout


WRITTEN_FILE_OPTIONS = ("--svg", "--tree", "--checkpoint")
"""Options that name a file the command writes."""


def _names_a_folder(arguments: list[str], option: str) -> bool:
    """Whether ``option`` is given a folder (with .svg added, as --svg adds it where a name
    has no suffix)."""
    if option not in arguments[:-1]:
        return False
    value = Path(arguments[arguments.index(option) + 1])
    return value.is_dir() or (not value.suffix and value.with_suffix(".svg").is_dir())


PUZZLE_OPTIONS = {"--queen", "--block", "--exclude-diagonal", "--board", "--diagonals"} | {
    f"--{rule}" for rule in RULES
}
"""Options that change the board, and with it the count: the puzzle's and every rule's."""


def _assert_json(command: str, arguments: list[str], code: int, stdout: str) -> None:
    records = json_lines(stdout)
    if command == "verify":
        return
    if command == "count":
        (record,) = records
        assert record["complete"] is (code == 0), record
        return
    *solutions, status = records
    assert status["type"] == "status", status
    assert status["complete"] is (code in (0, 1)), status
    for record in solutions:
        assert record["type"] == "solution"
        assert_valid_board(record["rows"], len(record["rows"]))


def test_every_option_has_hostile_values() -> None:
    unknown = [
        f"{name} {param.name}"
        for name, command in COMMANDS_BY_NAME.items()
        for param in command.params
        if hostile_values(param) is None
    ]
    assert not unknown, f"give these parameters hostile values in this file: {unknown}"
    assert set(BASE) == set(COMMANDS_BY_NAME), "every command needs a base case here"


@pytest.mark.slow
@pytest.mark.filterwarnings(CAPPED)
@pytest.mark.parametrize(("command", "engine", "param_name", "words"), list(option_cases()))
def test_every_option_value_on_every_engine(
    command: str, engine: str, param_name: str, words: list[str], files: dict[str, str]
) -> None:
    arguments = command_line(command, engine, param_name, words)
    arguments = filled(arguments, files, f"{command}-{engine}-{param_name}")
    assert_conforms(arguments, invoke(*arguments))


ENGINE_COMMANDS = [
    (command, engine) for command in ("solve", "count", "first") for engine in engines_of(command)
]


def _takes(engine: str, command: str, n: int, rules: tuple[str, ...] = ()) -> bool:
    board = Board(n, rules=rules)
    return registry.refusal(registry.ENGINES[engine], Request(command, board)) is None


ENGINE_OPTIONS = [
    [],
    ["--format", "json"],
    ["--time-limit", "0.001"],
    ["--time-limit", "inf"],
    ["--time-limit", "1e308", "--format", "json", "--stats"],
    ["--queen", "1,2"],
    ["--block", "1,1", "--format", "json"],
    ["--torus", "--format", "json"],
    ["--superqueens", "--torus"],
]


@pytest.mark.slow
@pytest.mark.parametrize("extra", ENGINE_OPTIONS, ids=" ".join)
@pytest.mark.parametrize(("command", "engine"), ENGINE_COMMANDS)
def test_every_engine_conforms_with_defaults_and_time_limits(
    command: str, engine: str, extra: list[str], files: dict[str, str]
) -> None:
    arguments = filled([*BASE[command], "--engine", engine, *extra], files, f"{command}-{engine}")
    result = invoke(*arguments)
    assert_conforms(arguments, result)
    unlimited = not any(word.startswith("0.0") for word in extra)
    if unlimited and "--queen" not in extra and "--block" not in extra:
        n = int(BASE[command][1])
        rules = tuple(word[2:] for word in extra if word[2:] in RULES)
        able = engine == "auto" or _takes(engine, command, n, rules)
        answer = 0 if not rules or command == "count" else 1  # both boards have no solution
        assert result.exit_code == (answer if able else 2), result.stderr


SOLVERS_OF_8 = [e for e in engines_of("solve") if e == "auto" or _takes(e, "solve", 8)]


@pytest.mark.parametrize("engine", SOLVERS_OF_8)
def test_solve_stops_at_its_limit_on_every_engine(engine: str) -> None:
    """`solve 8 --engine reduced -n 3` printed all 92 boards: each engine's stream had to keep
    the limit itself, and that one did not."""
    result = invoke("solve", "8", "--engine", engine, "--limit", "3", "--format", "json")
    assert result.exit_code == 0, result.stderr
    records, status = json_stream(result.stdout)
    assert len(records) == 3 and len({tuple(record["rows"]) for record in records}) == 3
    for record in records:
        assert_valid_board(record["rows"], 8)
    assert status["solutions"] == 3, status


COLOUR_SETTINGS: list[tuple[dict[str, str | None], list[str]]] = [
    (PLAIN_ENV, []),
    ({**PLAIN_ENV, "FORCE_COLOR": "1"}, []),
    ({**PLAIN_ENV, "NO_COLOR": "1"}, []),
    ({**PLAIN_ENV, "TERM": "dumb"}, []),
    (PLAIN_ENV, ["--color"]),
    (PLAIN_ENV, ["--no-color"]),
    ({**PLAIN_ENV, "FORCE_COLOR": "1", "COLUMNS": "20"}, ["--color"]),
]


COLOUR_CASES = [
    (command, engine)
    for command, engine in ENGINE_COMMANDS
    if engine == "auto" or _takes(engine, command, int(BASE[command][1]))
]


Case = TypeVar("Case", bound=tuple[Any, ...])


def _one_per_engine(cases: list[Case]) -> list[Case]:
    """The default run's sample of ``cases`` (command, engine, ...): each engine once, on a
    command taken in turn, so that every engine and every command is walked."""
    by_engine: dict[str, list[Case]] = {}
    for case in cases:
        by_engine.setdefault(case[1], []).append(case)
    return [mine[turn % len(mine)] for turn, mine in enumerate(by_engine.values())]


@pytest.mark.parametrize("output_format", ["text", "json"])
@pytest.mark.parametrize(("command", "engine"), _one_per_engine(COLOUR_CASES))
def test_colour_settings_never_change_piped_data(
    command: str, engine: str, output_format: str
) -> None:
    _assert_colour_never_changes_data(command, engine, output_format)


@pytest.mark.slow
@pytest.mark.parametrize("output_format", ["text", "json"])
@pytest.mark.parametrize(("command", "engine"), COLOUR_CASES)
def test_colour_settings_never_change_piped_data_on_every_command(
    command: str, engine: str, output_format: str
) -> None:
    _assert_colour_never_changes_data(command, engine, output_format)


def _assert_colour_never_changes_data(command: str, engine: str, output_format: str) -> None:
    # A first solution may differ from run to run on a randomised or multi-threaded engine:
    # ask for one the engine finds the same way every time.
    steady = ["--seed", "1"] if command == "first" else []
    if command == "first" and engine in ("cp-sat", "auto"):
        steady = ["--engine", "cp", "--strategy", "first-min"]
    arguments = [*BASE[command], "--engine", engine, *steady, "--format", output_format]
    outputs = {invoke(*arguments, *flags, env=env).stdout for env, flags in COLOUR_SETTINGS}
    assert len(outputs) == 1, outputs
    (stdout,) = outputs
    assert stdout and not ANSI_ESCAPE.search(stdout)


PUZZLE_MARKS = ["--queen", "1,2", "--block", "2,2", "--exclude-diagonal", "5,5\\"]
"""A puzzle whose given queen, blocked square and excluded diagonal boards mark."""

TERMINAL_CASES = [
    pytest.param(arguments, id=" ".join(arguments))
    for arguments in [
        *BASE.values(),
        *([*BASE[command], *PUZZLE_MARKS] for command in ("solve", "first", "explain")),
    ]
]


@pytest.mark.parametrize("charset", ["ascii", "latin-1"])
@pytest.mark.parametrize("arguments", TERMINAL_CASES)
def test_a_terminal_without_chess_symbols_gets_every_command_in_letters(
    arguments: list[str], charset: str, files: dict[str, str]
) -> None:
    """On a terminal whose encoding has no chess queen (LANG=C, Latin-1), boards drew the queen
    anyway and stdout failed on it with a traceback: they are drawn in letters there."""
    arguments = filled(arguments, files, f"terminal-{charset}")
    result = invoke(*arguments, env=TERMINAL_ENV, charset=charset)
    assert result.exit_code in (0, 1), result.stderr
    screen = strip_ansi(result.stdout + result.stderr)
    assert screen.isascii() and "\\u" not in screen and "\\x" not in screen, screen
    if arguments[0] in ("solve", "first", "explain"):
        assert " Q " in screen, screen


def _largest_board(engine: str, command: str, cap: int) -> int | None:
    """The largest board up to ``cap`` that ``engine`` takes for ``command`` under a time limit
    (None for an engine that this machine cannot run: the gpu engine without a device)."""
    for n in (10_000_000, 1_000_000, 10_000, 1_000, 200, 64, 18, 10):
        request = Request(command, Board(n), time_limit=1.0)
        if n <= cap and registry.refusal(registry.ENGINES[engine], request) is None:
            return n
    return None


TIME_LIMIT = 1.0
OVER = 0.5
"""What a quiet 2-core machine adds to a time limit at most, start-up included (a tenth of a
second or two: docs/reference/limits.md quotes benchmarks/time_limits.py's figures)."""


def _limit_cases(cap: int) -> list[tuple[str, str, int]]:
    """Each engine, on each command it declares, on its largest board up to ``cap``."""
    cases = [
        (command, engine, _largest_board(engine, command, cap))
        for command, engine in ENGINE_COMMANDS
        if engine in registry.ENGINES and command in registry.ENGINES[engine].commands
    ]
    return [(command, engine, n) for command, engine, n in cases if n is not None]


def _assert_ends_on_time(
    command: str, engine: str, n: int, limit: float = TIME_LIMIT, extra: tuple[str, ...] = ()
) -> None:
    """The whole process ends within what a quiet machine takes (``limit`` and OVER) on a
    machine four times slower: a command that ignores its limit takes far longer."""
    arguments = [command, str(n), "--engine", engine, "-t", str(limit), "--format", "json"]
    arguments += extra
    started = time.monotonic()
    process = run_nqueens(*arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.monotonic() - started
    assert process.returncode in (0, 1, 3), process.stderr
    assert "Traceback" not in process.stderr
    assert took < bound(limit + OVER), f"{' '.join(arguments)} took {took:.2f} s"


@pytest.mark.slow
@pytest.mark.parametrize(
    "stream", ["stdout", pytest.param("stderr", marks=pytest.mark.slow)]
)  # stderr's reader gone too with -m slow: a process for each command, seconds in all
@pytest.mark.parametrize(
    "command",
    list(BASE),
)
def test_every_command_goes_on_quietly_when_a_pipes_reader_is_gone(
    command: str, stream: str, files: dict[str, str]
) -> None:
    """A reader gone from stdout ends the command quietly, with exit 0; one gone from stderr
    costs nothing on stdout. rich's own answer, exit 1 and no word (and, from stderr, stdout's
    data thrown away), ended ``bench | head`` and ``solve --stats`` with stderr's reader gone."""
    takes_stats = any(param.name == "stats" for param in COMMANDS_BY_NAME[command].params)
    arguments = filled([*BASE[command], *(["--stats"] if takes_stats else [])], files, command)
    ran = run_with_a_reader_gone([*NQUEENS, *arguments], stream)
    done = Ran(ran.returncode, ran.stdout or "", ran.stderr or "")
    assert done.exit_code == 0, done
    assert "Traceback" not in done.stdout + done.stderr
    if stream == "stdout":
        assert "Error" not in done.stderr, done.stderr
    else:
        assert bool(done.stdout.strip()) == bool(invoke(*arguments).stdout.strip()), done
        assert_conforms(arguments, done)


@pytest.mark.parametrize("arguments", [["--help"], ["--version"]])
def test_help_and_version_go_on_quietly_when_a_pipes_reader_is_gone(arguments: list[str]) -> None:
    """The group's own options print while the command line is read, before any command runs:
    click's answer to a closed pipe there was exit 1."""
    ran = run_with_a_reader_gone([*NQUEENS, *arguments], "stdout")
    assert (ran.returncode, ran.stderr) == (0, "")


@pytest.mark.slow
@pytest.mark.parametrize(
    "arguments", [["solve", "20"], ["count", "23"], ["solve", "25", "--torus"], ["count", "64"]]
)
def test_a_refusal_names_only_the_options_of_its_own_command(arguments: list[str]) -> None:
    """The advice of a refusal is something the user can type to the same command."""
    refused = invoke(*arguments)
    assert refused.exit_code == 2
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", refused.stderr))
    assert named, refused.stderr
    own = {opt for param in COMMANDS_BY_NAME[arguments[0]].params for opt in param.opts} | {
        "--help"
    }
    assert named <= own, refused.stderr


@pytest.mark.parametrize(
    ("command", "n"),
    [
        ("count", 1_001),
        ("solve", 5_000),
        *(
            pytest.param(*case, marks=pytest.mark.slow)
            for case in (("solve", 1_001), ("count", 5_000))
        ),
    ],
)
def test_auto_takes_a_board_that_some_engine_can(command: str, n: int) -> None:
    """Past CP-SAT's largest board, auto runs an engine that can take it, not one that cannot."""
    able = registry.able(Request(command, Board(n), time_limit=0.1))
    assert able
    ran = invoke(command, str(n), "-t", "0.1", "--format", "json")
    assert ran.exit_code == 3, ran.stderr
    assert json_lines(ran.stdout)[-1]["engine"] in able


@pytest.mark.parametrize(("command", "n"), [("first", 100), ("count", 100), ("count", 70)])
def test_every_refusal_of_a_board_names_the_same_engines_that_can(command: str, n: int) -> None:
    """Whatever strategy was asked of it, an engine that cannot take the board names the
    engines that can take it: bench's notes once named two lists for one board."""
    named = set()
    for engine in registry.ENGINES.values():
        for strategy in (None, *STRATEGIES):
            request = Request(command, Board(n), strategy=strategy, time_limit=1.0)
            if registry.refusal(engine, replace(request, strategy=None)) is None:
                continue  # it takes the board: only a strategy it does not follow is refused
            with pytest.raises(InputError) as refused:
                registry.check(engine, request)
            named.add(str(refused.value).partition("engines that can: ")[2])
    assert len(named) == 1, named


LIMIT_CASES = _limit_cases(cap=1_000)
STOP_CASES = _limit_cases(cap=10_000_000)
"""Boards whose search outlasts a Ctrl-C's delay on a quick machine: cp's first 1,000 and local
search's first 10,000 may not (0.4 s, start-up included)."""


@pytest.mark.slow
@pytest.mark.parametrize(("command", "engine", "n"), _one_per_engine(LIMIT_CASES))
def test_a_time_limit_covers_the_whole_command_on_every_engine(
    command: str, engine: str, n: int
) -> None:
    _assert_ends_on_time(command, engine, n, limit=0.5)  # -m slow: 1 s, every command


@pytest.mark.slow
@pytest.mark.parametrize(
    ("engine", "option", "value"),
    [
        (engine.name, option.name, value)
        for option, engine in registry.OPTIONS.values()
        for value in option.choices
    ],
)
def test_a_time_limit_holds_for_every_choice_of_an_engines_option_on_its_largest_board(
    engine: str, option: str, value: str
) -> None:
    """CBC took no interruption in its presolve: 20 s for first 200 -t 1."""
    largest = registry.ENGINES[engine].max_n
    flag = params.option_flag(option)
    _assert_ends_on_time("first", engine, largest, limit=0.5, extra=(flag, value))


@pytest.mark.slow  # seconds of processes: with -m slow, the README's command stays under 90 s
def test_a_first_solution_of_ten_million_queens_stops_at_its_time_limit() -> None:
    _assert_ends_on_time("first", "auto", 10_000_000)


@pytest.mark.slow
@pytest.mark.parametrize(("command", "engine", "n"), _limit_cases(cap=10_000_000))
def test_a_time_limit_covers_the_whole_command_on_every_command_and_the_largest_boards(
    command: str, engine: str, n: int
) -> None:
    _assert_ends_on_time(command, engine, n)


STOPPED_WITHIN = 0.5
"""The seconds a Ctrl-C may take on a quiet machine (benchmarks/time_limits.py measures how
few it takes)."""

STOP_DELAYS = (0.0, 0.4)
"""When Ctrl-C comes: as the command has set up its handling (still loading), and mid-search."""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "engine", "n", "delay"),
    [
        (*case, STOP_DELAYS[turn % len(STOP_DELAYS)])
        for turn, case in enumerate(_one_per_engine(STOP_CASES))
    ],
)
def test_ctrl_c_stops_every_engine_at_once(command: str, engine: str, n: int, delay: float) -> None:
    _assert_stops_at_once(command, engine, n, delay)


@pytest.mark.slow
@pytest.mark.parametrize("delay", STOP_DELAYS)
@pytest.mark.parametrize(("command", "engine", "n"), STOP_CASES)
def test_ctrl_c_stops_every_command_on_every_engine_at_once(
    command: str, engine: str, n: int, delay: float
) -> None:
    _assert_stops_at_once(command, engine, n, delay)


def _assert_stops_at_once(command: str, engine: str, n: int, delay: float) -> None:
    """SIGINT ``delay`` s after the command catches it: exit 130, no traceback, at once."""
    arguments = [command, str(n), "--engine", engine, "-t", "30", "--format", "json"]
    process = start_nqueens(*arguments, stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        _wait_for_handlers(process.pid)
        time.sleep(delay)
        if process.poll() is not None:  # an engine whose largest board here takes no time
            process.communicate()
            pytest.skip(f"{' '.join(arguments)} ended before the signal")
        sent = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    searched = re.search(r"Found in ([\d.]+) s", stderr)
    if process.returncode == 0 and searched and float(searched.group(1)) < delay:
        # The search had found its answer before the signal was sent; the process, slowed by a
        # busy machine, was still writing it and ending: it rightly ends with its answer.
        pytest.skip(f"{' '.join(arguments)} had its answer before the signal")
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr, stderr
    assert took < bound(STOPPED_WITHIN), f"{' '.join(arguments)} took {took:.2f} s to stop"


def _wait_for_handlers(pid: int) -> None:
    """Wait until the process catches SIGINT: nqueens' handling is in place."""
    status = Path(f"/proc/{pid}/status")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        fields = dict(line.split(":", 1) for line in status.read_text().splitlines())
        if int(fields["SigCgt"], 16) & (1 << (signal.SIGTERM - 1)):
            return
        time.sleep(0.005)
    pytest.fail("the process never set up its signal handlers")


ANSWER_BOARDS: list[tuple[int, tuple[str, ...], tuple[tuple[int, int], ...], tuple[Any, ...]]] = [
    (6, (), (), ()),
    (6, (), ((1, 3),), ()),
    (6, (), (), ((0, 1), (2, 2))),
    (5, ("torus",), (), ()),
    (5, ("torus",), ((0, 0),), ((2, 4),)),
    (8, ("superqueens",), (), ()),
    (7, ("torus", "superqueens"), (), ()),
]
"""(N, rules, given queens, blocked squares): plain boards, puzzles and every rule, small enough
for the counter here and every engine; some have no solution."""


def _answer_cases() -> Iterator[Any]:
    """Every engine x command x board; the default run takes one board per engine and command,
    in turn, so that each is walked and every board is met, and -m slow the rest (and local
    search under a rule, which numba compiles for each set of rules)."""
    for turn, (engine, command) in enumerate(
        (engine, command) for engine in registry.ENGINES for command in ("solve", "count", "first")
    ):
        for case, (_, rules, _, _) in enumerate(ANSWER_BOARDS):
            sampled = case == turn % len(ANSWER_BOARDS) and not (engine == "local" and rules)
            marks = [] if sampled else [pytest.mark.slow]
            yield pytest.param(command, engine, case, marks=marks)


ANSWER_CASES = list(_answer_cases())


@pytest.mark.parametrize(("command", "engine", "case"), ANSWER_CASES)
def test_every_engine_answers_as_the_counter_here(command: str, engine: str, case: int) -> None:
    """Every registered engine, on every command it declares, on plain boards, puzzles and board
    rules, with symmetry on and off where it splits: the answers are the counter's, or the
    engine refuses naming those that can. A new engine is walked here by being registered."""
    n, rules, queens, blocked = ANSWER_BOARDS[case]
    board = Board(n, queens=queens, blocked=blocked, rules=rules)
    expected = {
        rows
        for rows in solutions(n, rules)
        if all(rows[col] == row for row, col in queens)
        and all(rows[col] != row for row, col in blocked)
    }
    declared = registry.ENGINES[engine]
    limit = 10.0 if engine == "local" else None  # local search cannot prove there is none
    request = Request(command, board, time_limit=limit)
    if registry.refusal(declared, request) is not None:
        with pytest.raises(InputError, match="engines that can: "):
            getattr(nqueens, command)(board, engine=engine, time_limit=limit)
        return
    if command == "count":
        for symmetry in (True, False) if declared.splits else (True,):
            got = nqueens.count(board, engine=engine, symmetry=symmetry)
            assert got.solutions == len(expected), symmetry
    elif command == "solve":
        with nqueens.solve(board, engine=engine) as stream:
            found = [solution.rows for solution in stream]
        assert len(found) == len(set(found)) and set(found) == expected
        with nqueens.solve(board, engine=engine, limit=1) as limited:
            first_only = [solution.rows for solution in limited]
        assert len(first_only) == min(1, len(expected)) and set(first_only) <= expected
    elif expected or engine != "local":
        result = nqueens.first(board, engine=engine, time_limit=limit)
        assert (result.solution is None) == (not expected)
        assert result.solution is None or result.solution.rows in expected


@pytest.mark.parametrize("engine", engines_of("first"))
def test_a_seed_that_a_search_cannot_take_is_not_dropped_silently(engine: str) -> None:
    """Every engine of ``first``, with three seeds: a search that makes no random choices says on
    stderr that the seed changes nothing, and then indeed gives one solution for every seed;
    where nothing is said, the search that answered is one that declares it takes a seed."""
    found = set()
    for seed in ("1", "2", "3"):
        arguments = ["first", "10", "--engine", engine, "--seed", seed, "--format", "json"]
        result = invoke(*arguments)
        assert_conforms(arguments, result)
        if result.exit_code == 2:  # the gpu engine finds no first solution
            assert "engines that can: " in result.stderr
            return
        (record,), status = json_stream(result.stdout)
        assert_valid_board(record["rows"], 10)
        found.add(tuple(record["rows"]))
        said = "--seed changes nothing here; the engines that take it: " in result.stderr
        assert said != registry.takes_seed(status["engine"], status["strategy"]), result.stderr
    if said:
        assert len(found) == 1, found


SIMULATED_CASES = [
    ["bench", "--sizes", "5,6", "--first-sizes", "8", "--engines", "gpu", "--format", "json"],
    ["bench", "--sizes", "4", "--first-sizes", "8", "--engines", "gpu,bitboard"],
    *([*BASE["count"], "--engine", "gpu", *extra] for extra in ENGINE_OPTIONS),
]
"""The gpu engine's walk: CI has no device, so the walk above meets only its refusal."""


@pytest.mark.slow  # 3 s; bench with a stand-in device is in tests/engines/test_gpu.py
def test_the_gpu_engine_conforms_on_the_simulator() -> None:
    """``bench`` once crashed wherever the gpu engine runs (it warmed up every engine with
    ``first``, which the gpu engine does not do): only the simulator walks that path here."""
    program = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parents[1])!r})\n"
        "from helpers import invoke\n"
        "ran = [invoke(*arguments) for arguments in json.loads(sys.argv[1])]\n"
        "print(json.dumps([[r.exit_code, r.stdout, r.stderr] for r in ran]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, json.dumps(SIMULATED_CASES)],
        capture_output=True,
        text=True,
        env=process_env(NUMBA_ENABLE_CUDASIM="1"),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    results = [Ran(*result) for result in json.loads(done.stdout)]
    for arguments, result in zip(SIMULATED_CASES, results, strict=True):
        assert_conforms(arguments, result)
        rules = {word[2:] for word in arguments if word[2:] in RULES}
        if arguments[0] == "count" and "0.001" not in arguments:
            able = rules <= registry.ENGINES["gpu"].rules
            assert result.exit_code == (0 if able else 2), result.stderr
    alone, shared, *_ = results
    assert shared.exit_code == 0 and "Traceback" not in shared.stderr, shared.stderr
    rows = {words[0]: words[1:] for words in map(str.split, shared.stdout.splitlines()) if words}
    assert float(rows["gpu"][0]) >= 0 and "bitboard" in rows
    cells = json.loads(alone.stdout)
    assert {(cell["n"], cell["table"]) for cell in cells} == {(5, "all"), (6, "all")}
    assert all(cell["solutions"] == known_total(cell["n"]) for cell in cells), cells
    assert alone.stderr.count("simulator") == 1, alone.stderr  # said once, not once a count

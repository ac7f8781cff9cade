"""``nqueens export`` on the command line: every format, its header, files written whole or not at
all, and bad input; and ``verify`` reading the solvers' answers back."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import (
    NQUEENS,
    assert_valid_board,
    bound,
    invoke,
    process_env,
    session_members,
    solutions,
    start_nqueens,
)

from nqueens.export import FORMATS

HEADER_MARKS = {"minizinc": "%", "dimacs": "c", "lp": "\\", "mps": "*", "cp-sat": "#"}


def test_every_format_is_described_on_its_first_lines() -> None:
    assert set(HEADER_MARKS) == set(FORMATS)
    for name, mark in HEADER_MARKS.items():
        result = invoke("export", "6", "--to", name, "--queen", "2,3", "--torus")
        assert result.exit_code == 0, result.stderr
        lines = result.stdout.splitlines()
        head = [line for line in lines[:12] if line.startswith(mark)]
        assert "N-queens problem" in head[0] and "nqueens" in head[0], name
        assert head[1].startswith(f"{mark} Board: N = 6 (torus); queens at 2,3"), head[1]
        assert any(line.startswith(f"{mark} Run it: ") for line in head), name
        assert result.stderr == ""  # stdout alone: nothing said where the data goes


@pytest.mark.parametrize("suffix", [".mzn", ".cnf", ".lp", ".mps", ".pbtxt", ".pb"])
def test_the_file_name_names_the_format(suffix: str, tmp_path: Path) -> None:
    path = tmp_path / f"queens{suffix}"
    result = invoke("export", "5", "-o", str(path))
    assert result.exit_code == 0, result.stderr
    assert path.stat().st_size > 0
    assert result.stdout == ""
    assert f"to {path}" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # nothing else left beside it


def test_a_file_gets_the_permissions_of_a_file_written_in_place(tmp_path: Path) -> None:
    fresh, old = tmp_path / "fresh.cnf", tmp_path / "old.cnf"
    old.write_text("before\n")
    old.chmod(0o640)
    umask = os.umask(0o022)
    try:
        assert invoke("export", "4", "-o", str(fresh)).exit_code == 0
        assert invoke("export", "4", "-o", str(old)).exit_code == 0
    finally:
        os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o644
    assert old.stat().st_mode & 0o777 == 0o640
    assert old.read_text().startswith("c The N-queens problem")


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--to", "sat"], "Invalid value for '--to'"),
        (["-o", "queens.txt"], "queens.txt names no format: give --to FORMAT"),
        ([], "no format given: give --to FORMAT"),
        (["--to", "lp", "--queen", "1,1", "--queen", "2,2"], "queens 1,1 and 2,2 share a diagonal"),
        (["--to", "dimacs", "--queen", "9,1"], "off the 8 x 8 board"),
    ],
)
def test_bad_input_is_a_usage_error(arguments: list[str], words: str, tmp_path: Path) -> None:
    os.chdir(tmp_path)
    result = invoke("export", "8", *arguments)
    assert result.exit_code == 2
    assert words in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "n", "largest"),
    [
        ("dimacs", 100_000, "4,000"),
        ("lp", 100_000, "1,500"),
        ("mps", 5_000, "1,500"),
        ("cp-sat", 1_000_000, "100,000"),
    ],
)
def test_a_model_too_large_is_refused_before_anything_is_built(
    name: str, n: int, largest: str, tmp_path: Path
) -> None:
    path = tmp_path / "model"
    started = time.monotonic()
    result = invoke("export", str(n), "--to", name, "-o", str(path))
    assert time.monotonic() - started < bound(1.0)  # building it would take minutes
    assert result.exit_code == 2
    assert f"the {name} model of N = {n:,} would be too large" in result.stderr
    assert f"nqueens writes it up to N = {largest}" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("arguments", "largest"),
    [
        (["3000", "--superqueens", "--to", "dimacs"], "2,309"),
        (["2000000", "--superqueens", "--torus", "--to", "minizinc"], "1,000,000"),
    ],
)
def test_the_limits_follow_the_rules(arguments: list[str], largest: str) -> None:
    result = invoke("export", *arguments)
    assert result.exit_code == 2
    assert f"up to N = {largest} under these rules" in result.stderr


def test_a_board_larger_than_any_nqueens_takes_is_refused() -> None:
    result = invoke("export", "10000001", "--to", "minizinc")
    assert result.exit_code == 2
    assert "is larger than 10,000,000, the largest board nqueens takes" in result.stderr


def test_a_huge_board_exports_to_minizinc_at_once() -> None:
    for rules in ([], ["--superqueens"]):
        result = invoke("export", "10000000", *rules, "--to", "minizinc")
        assert result.exit_code == 0
        assert "int: n = 10000000;" in result.stdout
        assert len(result.stdout) < 5_000


@pytest.mark.parametrize(
    ("target", "code", "words"),
    [
        ("{missing}/queens.cnf", 74, "cannot write"),
        ("/dev/full", 74, "No space left on device"),
        ("{folder}", 2, "is a directory"),
    ],
)
def test_a_file_that_cannot_be_written(target: str, code: int, words: str, tmp_path: Path) -> None:
    path = target.format(missing=tmp_path / "gone", folder=tmp_path)
    result = invoke("export", "8", "--to", "dimacs", "-o", path)
    assert result.exit_code == code
    assert words in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_device_is_written_as_it_is() -> None:
    result = invoke("export", "8", "--to", "dimacs", "-o", "/dev/null")
    assert result.exit_code == 0
    assert Path("/dev/null").is_char_device()


def _wait_for_a_part_file(folder: Path, process: subprocess.Popen[str]) -> None:
    """Wait until the export writes its part file in ``folder``."""
    deadline = time.monotonic() + 30
    while not any(p.name.endswith(".part") for p in folder.iterdir()):
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.01)


def test_a_stopped_export_leaves_no_file(tmp_path: Path) -> None:
    """A file cut short would read as a model of fewer clauses: none is left, and the file that
    was there before is kept."""
    path = tmp_path / "big.cnf"
    path.write_text("the old model\n")
    process = start_nqueens("export", "3000", "-o", str(path))
    try:
        _wait_for_a_part_file(tmp_path, process)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130
    assert "Interrupted: nothing was written to" in stderr
    assert [p.name for p in tmp_path.iterdir()] == ["big.cnf"]
    assert path.read_text() == "the old model\n"


# The answers read back


def test_verify_reads_minizincs_output() -> None:
    answer = "q = [2, 4, 1, 3];\n----------\nq = [3, 1, 4, 2];\n----------\n==========\n"
    result = invoke("verify", stdin=answer)
    assert result.exit_code == 0
    assert "2 boards checked: all valid" in result.stderr
    wrong = invoke("verify", stdin="q = [1, 2, 3, 4];\n----------\n")
    assert wrong.exit_code == 1
    assert "queens 1,1 and 2,2 share a diagonal" in wrong.stdout
    none = invoke("verify", stdin="=====UNSATISFIABLE=====\n")
    assert none.exit_code == 2
    assert "MiniZinc found no solution" in none.stderr


def cnf_of(tmp_path: Path, *arguments: str) -> Path:
    path = tmp_path / "queens.cnf"
    assert invoke("export", *arguments, "-o", str(path)).exit_code == 0
    return path


def answer_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "answer.txt"
    path.write_text(text)
    return str(path)


def squares_true(n: int, rows: list[int], variables: int) -> list[int]:
    true = {row * n + col + 1 for col, row in enumerate(rows)}
    return [v if v in true else -v for v in range(1, variables + 1)]


def test_verify_reads_a_sat_solvers_answer_both_ways(tmp_path: Path) -> None:
    """MiniSat's result file and the competitions' s and v lines; the auxiliary variables are
    left out of the model given here, which is fine: only clauses they decide could fail."""
    cnf = cnf_of(tmp_path, "4")
    literals = " ".join(map(str, squares_true(4, [1, 3, 0, 2], 16)))
    for text in (f"SAT\n{literals} 0\n", f"c a solver\ns SATISFIABLE\nv {literals}\nv 0\n"):
        result = invoke("verify", "--dimacs", str(cnf), answer_file(tmp_path, text))
        assert result.exit_code == 0, result.stderr
        assert "1 board checked: all valid" in result.stderr


def test_verify_says_what_a_wrong_model_breaks(tmp_path: Path) -> None:
    cnf = cnf_of(tmp_path, "4", "--queen", "1,2")
    literals = " ".join(map(str, squares_true(4, [1, 3, 0, 2], 16)))  # not the given queen
    result = invoke("verify", "--dimacs", str(cnf), answer_file(tmp_path, f"SAT\n{literals} 0\n"))
    assert result.exit_code == 1
    assert re.search(r"the model leaves clause [0-9,]+ of the CNF false", result.stdout)
    attacking = " ".join(map(str, squares_true(4, [0, 1, 2, 3], 16)))
    result = invoke("verify", "--dimacs", str(cnf), answer_file(tmp_path, f"SAT\n{attacking} 0\n"))
    assert result.exit_code == 1
    assert "share a diagonal" in result.stdout


def test_verify_checks_under_the_rules_the_cnf_names(tmp_path: Path) -> None:
    """N = 5 keeps every line of the board to 5 squares: at most one is then a clause per
    pair, with no auxiliary variable that a model written here would have to give."""
    cnf = cnf_of(tmp_path, "5", "--torus")
    torus = min(solutions(5, ("torus",)))
    result = invoke("verify", "--dimacs", str(cnf), answer_file(tmp_path, model(5, torus)))
    assert result.exit_code == 0
    result = invoke(
        "verify", "--dimacs", str(cnf), answer_file(tmp_path, model(5, (0, 1, 2, 3, 4)))
    )
    assert result.exit_code == 1
    assert "board 1 (N = 5, torus)" in result.stdout


def model(n: int, rows: tuple[int, ...]) -> str:
    return "SAT\n" + " ".join(map(str, squares_true(n, list(rows), n * n))) + " 0\n"


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ("UNSAT\n", "the SAT solver found the CNF unsatisfiable"),
        ("s UNSATISFIABLE\n", "the SAT solver found the CNF unsatisfiable"),
        ("1 2 3 0\n", "is not a SAT solver's answer"),
        ("SAT\nQ . . .\n", "line 2 of the solver's answer"),
    ],
)
def test_verify_refuses_what_is_no_model(answer: str, words: str, tmp_path: Path) -> None:
    cnf = cnf_of(tmp_path, "4")
    result = invoke("verify", "--dimacs", str(cnf), answer_file(tmp_path, answer))
    assert result.exit_code == 2
    assert words in result.stderr


def test_verify_refuses_a_cnf_it_did_not_write(tmp_path: Path) -> None:
    cnf = tmp_path / "other.cnf"
    cnf.write_text("p cnf 3 1\n1 2 3 0\n")
    result = invoke("verify", "--dimacs", str(cnf), answer_file(tmp_path, "SAT\n1 2 3 0\n"))
    assert result.exit_code == 2
    assert "is not a CNF that nqueens export wrote" in result.stderr


@pytest.mark.slow  # a shell, minisat and a process of nqueens
@pytest.mark.skipif(shutil.which("minisat") is None, reason="minisat is not installed")
def test_the_header_runs_as_it_says(tmp_path: Path) -> None:
    """The "Run it" line of the CNF, run as it is in a shell."""
    cnf = cnf_of(tmp_path, "12", "--queen", "1,1")
    run = next(line for line in cnf.read_text().splitlines() if line.startswith("c Run it: "))
    nqueens = Path(sys.executable).parent / "nqueens"
    command = run.removeprefix("c Run it: ").replace("nqueens verify", f"{nqueens} verify")
    done = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "1 board checked: all valid" in done.stderr


@pytest.mark.slow  # a process of Python that loads OR-Tools
def test_the_cp_sat_header_runs_as_it_says(tmp_path: Path) -> None:
    """The Python the CP-SAT model's header shows, run as it is beside the file."""
    path = tmp_path / "queens.pbtxt"
    assert invoke("export", "8", "--queen", "1,1", "-o", str(path)).exit_code == 0
    lines = path.read_text().splitlines()
    start = lines.index("# Run it: in Python, with OR-Tools:") + 1
    code = "\n".join(line[4:] for line in lines[start:] if line.startswith("#   "))
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    status, rows = done.stdout.split(" ", 1)
    assert status == "OPTIMAL"
    found = [int(row) for row in rows.strip(" []\n").split(", ")]
    assert found[0] == 0
    assert_valid_board(found, 8)
    # a board with no solution (a torus of 12, as 12 is even) says so, and shows no rows
    assert invoke("export", "12", "--torus", "-o", str(path)).exit_code == 0
    code = "\n".join(line[4:] for line in path.read_text().splitlines() if line.startswith("#   "))
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert done.stdout == "INFEASIBLE\n"


def test_an_export_writes_through_a_symbolic_link(tmp_path: Path) -> None:
    """As ``>`` does: the link stays a link, and the file it names holds the model."""
    real = tmp_path / "real.mzn"
    real.write_text("the old model\n")
    link = tmp_path / "link.mzn"
    link.symlink_to(real.name)
    result = invoke("export", "4", "-o", str(link))
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == real.name
    assert "all_different" in real.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.mzn", "real.mzn"]


def test_a_part_file_of_a_killed_export_is_removed_by_the_next(tmp_path: Path) -> None:
    """A process killed outright cannot remove its part file: the next export to the same name
    removes it, and leaves a living process's alone."""
    path = tmp_path / "big.cnf"
    process = start_nqueens("export", "3000", "-o", str(path))
    try:
        _wait_for_a_part_file(tmp_path, process)
        process.kill()
        process.communicate()
        living = tmp_path / f".big.cnf.{os.getpid()}.abcd.part"
        living.write_text("")
        assert len(list(tmp_path.iterdir())) == 2
        assert invoke("export", "4", "-o", str(path)).exit_code == 0
    finally:
        process.kill()
    assert sorted(p.name for p in tmp_path.iterdir()) == [living.name, "big.cnf"]


def test_a_folder_that_takes_no_new_file_is_named() -> None:
    result = invoke("export", "4", "--to", "minizinc", "-o", "/proc/self/status")
    assert result.exit_code == 74
    assert result.stderr.startswith("Error: cannot write /proc/self/status: no new file can be")


def _glpk_report(n: int, queens: set[tuple[int, int]], status: str = "INTEGER OPTIMAL") -> str:
    """A report as glpsol -o writes it, of the 0-1 program's N x N variables."""
    head = f"Problem:    \nRows:       {2 * n}\nColumns:    {n * n}\nStatus:     {status}\n\n"
    table = "   No. Column name       Activity     Lower bound   Upper bound\n"
    for k in range(n * n):
        table += f"{k + 1:6} V{k:<12} *  {int(divmod(k, n) in queens):12}  0  1\n"
    return head + table


@pytest.mark.parametrize(
    ("report", "exit_code", "said"),
    [
        (_glpk_report(4, {(0, 1), (1, 3), (2, 0), (3, 2)}), 0, "1 board checked: all valid."),
        (_glpk_report(4, {(0, 1), (1, 3), (2, 0), (3, 3)}), 1, "1 not valid"),
        (_glpk_report(4, set(), "UNDEFINED"), 2, "GLPK's status is UNDEFINED: it found no"),
        (_glpk_report(4, set()).replace("V15", "V16"), 2, "holds 16 squares (V0, V1, ...)"),
    ],
)
def test_verify_reads_glpks_report_of_a_solution(report: str, exit_code: int, said: str) -> None:
    checked = invoke("verify", stdin=report)
    assert checked.exit_code == exit_code, checked.stderr
    assert said in checked.stderr, checked.stderr


def test_a_stopped_export_to_stdout_says_it_holds_a_cut_model() -> None:
    """What went down the pipe cannot be taken back: the message says stdout holds a model cut
    short, where it said that nothing was written."""
    with subprocess.Popen(
        [*NQUEENS, "export", "3000", "--to", "dimacs"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=process_env(),
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        try:
            assert process.stdout.read(1 << 20)  # a megabyte of the model came
            process.send_signal(signal.SIGINT)
            received = 1 << 20
            while chunk := process.stdout.read(1 << 20):
                received += len(chunk)
            stderr = process.stderr.read().decode()
        finally:
            process.kill()
    assert process.returncode == 130
    assert received > 1 << 20
    assert "Interrupted: stdout holds the dimacs model cut short, not a whole one." in stderr
    assert "nothing was written" not in stderr


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("form", [pytest.param("lp", marks=pytest.mark.slow), "mps"])
def test_a_stop_ends_an_lp_or_mps_export_at_once(form: str, tmp_path: Path) -> None:
    """OR-Tools' exporter holds Python's lock for seconds (7.8 s at N = 1,500): it runs in a
    process of its own, which a stop ends, leaving no file and no process behind."""
    path = tmp_path / f"big.{form}"
    process = start_nqueens("export", "1000", "--to", form, "-o", str(path), start_new_session=True)
    try:
        _wait_for_a_part_file(tmp_path, process)
        time.sleep(1.5)  # past building the program (0.7 s), into the exporter's call (5 s)
        stopped = time.monotonic()
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
        took = time.monotonic() - stopped
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 143, stderr
    assert "Interrupted: nothing was written to" in stderr
    assert list(tmp_path.iterdir()) == []
    assert session_members(process.pid) == []
    assert took < bound(0.5), f"the stop took {took:.2f} s"


@pytest.mark.parametrize(
    ("failure", "raised"),
    [
        (OSError(28, "No space left on device"), OSError),
        (BrokenPipeError(32, "Broken pipe"), BrokenPipeError),
        (MemoryError(), MemoryError),
    ],
)
def test_what_the_writing_process_met_is_raised_as_its_own(
    failure: BaseException, raised: type[BaseException], tmp_path: Path
) -> None:
    """The process that writes an LP or MPS model apart reports what stopped it: a full disk
    is still exit 74, a closed pipe still no error, memory running out still exit 2."""
    from nqueens.export.base import written_apart

    def fail() -> None:
        raise failure

    with (tmp_path / "out").open("wb") as stream, pytest.raises(raised) as caught:
        written_apart(stream, fail)
    if isinstance(failure, OSError):
        assert isinstance(caught.value, OSError) and caught.value.errno == failure.errno


def test_the_writing_process_writes_what_the_parent_would(tmp_path: Path) -> None:
    from nqueens.export.base import written_apart

    path = tmp_path / "out"
    with path.open("wb") as stream:

        def body() -> None:
            stream.write(b"body\n")

        stream.write(b"head\n")
        written_apart(stream, body)
        stream.write(b"tail\n")
    assert path.read_bytes() == b"head\nbody\ntail\n"

"""count --checkpoint: finished subproblems kept in a file, so a count resumes exactly where it
stopped, whatever stopped it (Ctrl-C, SIGTERM, SIGKILL, a line cut short)."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import (
    invoke,
    known_total,
    known_unique,
    run_nqueens,
    run_python,
    start_nqueens,
)

import nqueens


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


def test_a_checkpoint_keeps_every_subproblem_and_answers_again(tmp_path: Path) -> None:
    path = tmp_path / "count.ckpt"
    first = invoke("count", "12", "--checkpoint", str(path))
    assert first.exit_code == 0, first.stderr
    assert int(first.stdout) == known_total(12)
    lines = _lines(path)
    assert lines[0].startswith("nqueens checkpoint 1 ") and '"n": 12' in lines[0]
    places = [int(line.split()[0]) for line in lines[1:]]
    assert sorted(places) == list(range(len(places)))  # each subproblem once
    assert f'"subproblems": {len(places)}' in lines[0]
    again = invoke("count", "12", "--checkpoint", str(path), "--stats")
    assert int(again.stdout.split()[0]) == known_total(12)
    assert _lines(path) == lines  # nothing counted twice, nothing written twice


def test_a_finished_checkpoint_answers_without_loading_the_search(tmp_path: Path) -> None:
    """The documentation says a finished checkpoint answers at once: it took 3 s, cutting the board
    again with the compiled search. Now the file alone answers, unique count included."""
    path = tmp_path / "count.ckpt"
    assert nqueens.count(15, checkpoint=path, unique=True).solutions == known_total(15)
    probe = (
        "import sys\n"
        "from nqueens.cli import cli\n"
        f"for args in (['count', '15', '--unique', '--checkpoint', {str(path)!r}],):\n"
        "    try:\n"
        "        cli(args)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] in ('numba', 'numpy')]\n"
        "assert not loaded, loaded\n"
    )
    done = run_python(probe)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(known_total(15)), str(known_unique(15))]


@pytest.mark.parametrize("damage", ["cut", "flipped", "not text"])
def test_a_damaged_line_is_never_counted(tmp_path: Path, damage: str) -> None:
    """A line that is not UTF-8 made the whole file "not an nqueens checkpoint", where any
    other damaged line is counted again."""
    path = tmp_path / "count.ckpt"
    nqueens.count(12, checkpoint=path, workers=1)
    lines = _lines(path)
    if damage == "cut":  # a SIGKILL or a full disk in the middle of a line
        text = ("".join(lines[:20]) + lines[20][:7]).encode()
    elif damage == "flipped":  # a digit changed: the line's CRC no longer matches
        place, solutions, *rest = lines[20].split()
        wrong = f"{place} {int(solutions) + 1000} {' '.join(rest)}\n"
        text = ("".join(lines[:20]) + wrong + "".join(lines[21:])).encode()
    else:  # bytes a disk garbled
        garbled = lines[20].encode()[:3] + b"\xff\xfe" + lines[20].encode()[5:]
        text = "".join(lines[:20]).encode() + garbled + "".join(lines[21:]).encode()
    path.write_bytes(text)
    stats = nqueens.count(12, checkpoint=path, workers=1)
    assert stats.solutions == known_total(12)
    repaired = _lines(path)
    assert all(line.endswith("\n") for line in repaired)
    assert sorted(int(line.split()[0]) for line in repaired[1:]) == list(range(len(lines) - 1))


def test_a_checkpoint_with_cr_lf_line_ends_resumes(tmp_path: Path) -> None:
    """Copied through Windows, or saved by an editor that writes CR LF: it was "not an nqueens
    checkpoint"."""
    path = tmp_path / "count.ckpt"
    nqueens.count(12, checkpoint=path, workers=1)
    lines = _lines(path)
    path.write_bytes("".join(lines[:20]).replace("\n", "\r\n").encode())
    stats = nqueens.count(12, checkpoint=path, workers=1)
    assert stats.solutions == known_total(12)
    kept = path.read_bytes().decode().splitlines(keepends=True)
    assert kept[:20] == [line.replace("\n", "\r\n") for line in lines[:20]]
    assert sorted(int(line.split()[0]) for line in kept[1:]) == list(range(len(lines) - 1))


def test_a_first_line_cut_short_begins_the_count_again(tmp_path: Path) -> None:
    """A full disk as the count began left part of the first line: the file was "not an
    nqueens checkpoint", where the documentation says the same command resumes once it can write.
    A file that does not say it is a checkpoint is still never written over."""
    path = tmp_path / "count.ckpt"
    nqueens.count(11, checkpoint=path, workers=1)
    whole = path.read_bytes()
    path.write_bytes(whole[: whole.index(b"{") + 10])
    assert nqueens.count(11, checkpoint=path, workers=1).solutions == known_total(11)
    assert path.read_bytes() == whole
    path.write_bytes(b"nqueens che")
    refused = invoke("count", "11", "--checkpoint", str(path))
    assert refused.exit_code == 2 and "is not an nqueens checkpoint" in refused.stderr
    assert path.read_bytes() == b"nqueens che"


def test_a_checkpoint_of_another_count_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "count.ckpt"
    nqueens.count(10, checkpoint=path)
    for arguments in (["11"], ["10", "--no-symmetry"], ["10", "--queen", "1,2"]):
        result = invoke("count", *arguments, "--checkpoint", str(path))
        assert result.exit_code == 2
        assert "is the checkpoint of another count (N = 10, engine bitboard" in result.stderr
    other = tmp_path / "notes.txt"
    other.write_text("shopping list\n")
    refused = invoke("count", "10", "--checkpoint", str(other))
    assert refused.exit_code == 2 and "is not an nqueens checkpoint" in refused.stderr
    assert other.read_text() == "shopping list\n"
    binary = tmp_path / "picture.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    refused = invoke("count", "10", "--checkpoint", str(binary))
    assert refused.exit_code == 2 and "is not an nqueens checkpoint" in refused.stderr
    device = invoke("count", "10", "--checkpoint", "/dev/null")
    assert device.exit_code == 2


@pytest.mark.parametrize(("written", "asked"), [("--torus", ""), ("", "--superqueens")])
def test_a_finished_checkpoint_under_other_rules_is_refused_not_answered(
    tmp_path: Path, written: str, asked: str
) -> None:
    """A finished torus checkpoint answered a plain `count 13` with the torus's 4,524: the
    shortcut for a finished file compared only the keys a plain count has."""
    path = tmp_path / "count.ckpt"
    first = invoke("count", "13", *filter(None, [written]), "--checkpoint", str(path))
    assert first.exit_code == 0, first.stderr
    again = invoke("count", "13", *filter(None, [asked]), "--checkpoint", str(path))
    assert again.exit_code == 2 and again.stdout == "", again.stdout
    assert "is the checkpoint of another count (N = 13, engine bitboard" in again.stderr
    assert ("(N = 13, engine bitboard, torus," in again.stderr) == bool(written)


def _with_crc(text: str) -> str:
    """A line as a checkpoint writes it: its text and the CRC-32 of that text."""
    return f"{text} {zlib.crc32(text.encode()):08x}\n"


def _damaged(lines: list[str], how: str) -> tuple[str, int]:
    """The file's text damaged ``how``, and the line a reader must name."""
    body = "".join(lines)
    wrong = {
        "four fields": "3 10 - 1",
        "six fields": "3 10 - 1 2 7",
        "text": "three ten none one two",
        "a float": "3 10.5 - 1 2",
        "a negative count": "3 -10 - 1 2",
        "a place past the end": "99999 10 - 1 2",
    }
    if how == "joined to itself":  # cat f f > g
        return body + body, len(lines) + 1
    if how == "two headers":  # two counts started on one file
        return body + lines[0], len(lines) + 1
    if how == "recorded twice":
        return body + lines[3], len(lines) + 1
    if how in wrong:
        return body + _with_crc(wrong[how]), len(lines) + 1
    header = {"a JSON list": "[1, 2, 3]", "nested JSON": "[" * 100_000 + "]" * 100_000}[how]
    return _with_crc(f"nqueens checkpoint 1 {header}") + "".join(lines[1:]), 1


@pytest.mark.parametrize(
    "how",
    [
        "joined to itself",
        "two headers",
        "recorded twice",
        "four fields",
        "six fields",
        "text",
        "a float",
        "a negative count",
        "a place past the end",
        "a JSON list",
        "nested JSON",
    ],
)
def test_a_checkpoint_that_cannot_be_trusted_is_refused_and_left_as_it_is(
    tmp_path: Path, how: str
) -> None:
    path = tmp_path / "count.ckpt"
    nqueens.count(12, checkpoint=path, workers=1)
    text, line = _damaged(_lines(path), how)
    path.write_text(text)
    result = invoke("count", "12", "--checkpoint", str(path))
    assert result.exit_code == 2, result.stderr
    assert f"{path}, line {line}:" in " ".join(result.stderr.split()), result.stderr
    assert "cannot be trusted" in result.stderr
    assert path.read_text() == text


def test_two_counts_on_one_checkpoint_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "count.ckpt"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    first = start_nqueens("count", "17", "--checkpoint", str(path), **quiet)
    try:
        deadline = time.monotonic() + 60
        while not path.exists() or path.stat().st_size == 0:
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.02)
        before = path.read_bytes()
        second = invoke("count", "17", "--checkpoint", str(path))
        assert second.exit_code == 2
        assert "is in use by another count" in second.stderr
        assert path.read_bytes().startswith(before)  # the first count's lines, untouched
    finally:
        first.send_signal(signal.SIGINT)
        first.wait(timeout=60)


def test_a_checkpoint_that_is_not_a_file_or_cannot_be_made_is_refused(tmp_path: Path) -> None:
    for where in ("/dev/full", "/dev/zero", str(tmp_path), str(tmp_path / "no" / "c.ckpt")):
        result = invoke("count", "8", "--checkpoint", where)
        assert result.exit_code == 2, result.stderr
        assert where in result.stderr


def test_an_engine_that_counts_in_one_piece_has_no_checkpoint(tmp_path: Path) -> None:
    result = invoke("count", "8", "--engine", "cp", "--checkpoint", str(tmp_path / "c"))
    assert result.exit_code == 2
    assert "counts in one piece" in result.stderr


def _file_size_limit(size: int) -> Callable[[], None]:
    """In the child: files grow to ``size`` bytes at most, and a write past that fails (EFBIG)
    as a write to a full disk fails (ENOSPC): on the same path, with a line cut short."""

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return limit


def test_a_full_disk_stops_the_count_and_keeps_what_was_written(tmp_path: Path) -> None:
    path = tmp_path / "count.ckpt"
    full = run_nqueens(
        "count",
        "14",
        "--engine",
        "bitboard",
        "--checkpoint",
        str(path),
        preexec_fn=_file_size_limit(700),
        timeout=120,
    )
    assert full.returncode == 74, full.stderr
    assert full.stderr.startswith(f"Error: cannot write the checkpoint {path}: ")
    assert "the same command resumes" in full.stderr and "Traceback" not in full.stderr
    assert full.stdout == ""  # no count: nothing a script could take for the answer
    assert path.stat().st_size == 700 and not path.read_text().endswith("\n")  # cut short
    stats = nqueens.count(14, engine="bitboard", checkpoint=path)
    assert stats.solutions == known_total(14)
    assert len(_lines(path)) - 1 == int(stats.conflicts)  # every subproblem, once


def _count_process(n: int, path: Path, *extra: str) -> subprocess.Popen[str]:
    return start_nqueens("count", str(n), "--checkpoint", str(path), *extra)


def _wait_for_lines(path: Path, process: subprocess.Popen[str], count: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if path.exists() and len(_lines(path)) > count:
            return
        time.sleep(0.02)
    raise AssertionError("the count wrote no subproblems in time")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("stop", "code", "n", "workers"),
    [
        (signal.SIGTERM, 143, 16, "2"),  # worker processes: SIGINT takes the same path
        (signal.SIGKILL, -9, 15, "1"),  # counting in the process killed
    ],
)
def test_a_stopped_count_resumes_to_the_exact_total(
    tmp_path: Path, stop: signal.Signals, code: int, n: int, workers: str
) -> None:
    path = tmp_path / "count.ckpt"
    process = _count_process(n, path, "--workers", workers)
    try:
        _wait_for_lines(path, process, 3)
        process.send_signal(stop)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == code, err
    kept = len(_lines(path)) - 1
    assert kept >= 3
    assert "Traceback" not in err
    stats = nqueens.count(n, checkpoint=path)
    assert stats.solutions == known_total(n)
    first = _lines(path)[0]
    header = json.loads(first[first.index("{") : first.rindex("}") + 1])
    assert len(_lines(path)) - 1 == header["subproblems"]  # every subproblem, once


@pytest.mark.slow
def test_a_long_count_is_allowed_with_a_checkpoint(tmp_path: Path) -> None:
    refused = invoke("count", "23")
    assert refused.exit_code == 2 and "--checkpoint FILE" in refused.stderr
    path = tmp_path / "count.ckpt"
    process = _count_process(19, path)
    try:
        _wait_for_lines(path, process, 0)  # it started: the header is written
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130
    assert int(out.split()[0]) >= 0  # the partial count, a lower bound


def _kept_in(path: Path) -> int:
    """The solutions of the finished pieces a checkpoint file holds, read by its format."""
    return sum(int(line.split()[1]) for line in _lines(path)[1:])


@pytest.mark.slow  # a process, counting for a second
def test_a_stopped_count_says_how_far_it_got_and_what_its_checkpoint_holds(
    tmp_path: Path,
) -> None:
    """The pieces finished hold what the checkpoint keeps and a resumed count starts from; the
    lower bound also holds what pieces cut short found: the message says both, where the two
    numbers once disagreed with no word why."""
    path = tmp_path / "count.ckpt"
    stopped = run_nqueens("count", "19", "--checkpoint", str(path), "-t", "1", "--workers", "1")
    assert stopped.returncode == 3, stopped.stderr
    bound = int(stopped.stdout)
    finished = nqueens.count(19, checkpoint=path, time_limit=0.01, workers=1).finished
    assert finished is not None
    kept = _kept_in(path)
    assert kept <= bound
    pieces = len(_lines(path)) - 1
    said = stopped.stderr.replace(",", "")
    assert f"{pieces} of {finished.total} pieces finished" in said
    assert f"holding {kept} solutions" in said or f"holding {kept} solution." in said
    assert f"{path} keeps the finished pieces" in said
    if bound > kept:
        assert f"the {bound - kept} solutions found in pieces cut short are found again" in said
    starts: list[int] = []
    nqueens.count(
        19,
        checkpoint=path,
        time_limit=0.01,
        workers=1,
        on_progress=lambda done, total, solutions: starts.append(solutions),
    )
    assert not starts or starts[0] >= kept


def test_the_api_says_how_far_a_stopped_count_got() -> None:
    stats = nqueens.count(18, time_limit=0.3, workers=1)
    assert stats.status.partial and stats.finished is not None
    assert stats.finished.total > stats.finished.pieces
    assert stats.finished.solutions <= stats.solutions
    assert nqueens.count(12).finished is None  # a complete count has nothing left

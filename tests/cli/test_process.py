"""The installed command as a real process: pipes, Ctrl-C, start-up and a quiet stderr."""

from __future__ import annotations

import json
import os
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import (
    DATA,
    NQUEENS,
    START_UP,
    assert_valid_board,
    bound,
    invoke,
    parse_plain_boards,
    process_env,
    run_nqueens,
    run_python,
    start_nqueens,
)

NQ = shlex.join(NQUEENS)
"""The command line, for a shell."""


def test_python_m_nqueens_counts() -> None:
    done = run_nqueens("count", "6")
    assert done.returncode == 0
    assert done.stdout == "4\n"
    assert done.stderr == "", "solver log lines leaked to stderr"


def test_the_command_line_starts_without_reading_package_metadata() -> None:
    """importlib.metadata takes about as long to import as a small count: only a GPU count's
    kept machine code and --version need it."""
    probe = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import nqueens.cli\n"
        "print('importlib.metadata' in set(sys.modules) - before)\n"
    )
    done = run_python(probe)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "False\n"


def test_a_count_in_a_pipe_loads_no_console_cluster_checkpoint_or_other_command() -> None:
    """What a command does not use, it does not import: rich's consoles draw and speak only
    where there is something to draw or say, a cluster and a checkpoint only where asked for,
    worker processes and an estimate only for a count that needs them, and the other commands
    only when they run."""
    probe = (
        "import sys\n"
        "from nqueens.cli import cli\n"
        "try:\n"
        "    cli(['count', '8'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "unused = ('rich', 'nqueens.run.cluster', 'nqueens.run.checkpoint', 'multiprocessing',"
        " 'nqueens.run.estimate', 'nqueens.cli.commands.export', 'nqueens.export',"
        " 'nqueens.cli.commands.bench')\n"
        "print([module for module in unused if module in sys.modules])\n"
    )
    done = run_python(probe)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "92\n[]\n"


def test_first_leaves_stderr_to_the_timing_line() -> None:
    done = run_nqueens("first", "30")
    assert done.returncode == 0
    assert done.stderr.startswith("Found in") and done.stderr.count("\n") == 1


@pytest.mark.slow
def test_time_limited_count_of_a_large_board_ends_on_time() -> None:
    done = run_nqueens("count", "40", "--time-limit", "1", timeout=30)
    assert done.returncode == 3
    assert "stopped by the time limit" in done.stderr


def test_closed_pipe_ends_quietly() -> None:
    process = start_nqueens("solve", "12")
    assert process.stdout is not None and process.stderr is not None
    first_line = process.stdout.readline()
    assert first_line.startswith("Solution 1")
    process.stdout.close()  # like `| head -1`
    returncode = process.wait(timeout=30)
    stderr = process.stderr.read()
    process.stderr.close()
    assert returncode == 0
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr


LEAVE_EARLY = {
    "break": "for solution in nqueens.solve(12, engine=ENGINE):\n    break\n",
    "del": (
        "it = iter(nqueens.solve(12, engine=ENGINE))\n"
        "next(it)\n"
        "del it\n"
        "time.sleep(0.3)\n"
        "assert threading.active_count() == 1, threading.enumerate()\n"
    ),
    "kept to the end": "kept = nqueens.solve(12, engine=ENGINE)\nnext(kept)\n",
}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("engine", "how"),
    [
        # the engine whose search runs in a thread; one way to leave by default, all with -m slow
        *[
            pytest.param("cp-sat", how, marks=() if how == "del" else pytest.mark.slow)
            for how in LEAVE_EARLY
        ],
        ("mip", "del"),  # a solve runs in a thread too, briefly
        ("cp", "kept to the end"),
        ("bitboard", "kept to the end"),
    ],
)
def test_leaving_a_stream_early_ends_the_interpreter_cleanly(engine: str, how: str) -> None:
    """A running solver thread at exit used to abort the interpreter (SIGABRT, exit 134)."""
    script = (
        "import threading, time\nimport nqueens\n"
        f"ENGINE = {engine!r}\n{LEAVE_EARLY[how]}print('done')\n"
    )
    if engine == "mip":
        script = script.replace("solve(12,", "solve(12, limit=5,")
    done = run_python(script, timeout=60)
    assert (done.returncode, done.stdout) == (0, "done\n"), done.stderr


def test_a_full_disk_is_exit_74_with_one_line() -> None:
    with open("/dev/full", "w") as full:
        done = run_nqueens("solve", "8", stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 74
    assert done.stderr == "Error: the output could not be written: No space left on device.\n"
    with open("/dev/full", "w") as full:
        done = run_nqueens("solve", "8", stdout=subprocess.DEVNULL, stderr=full)
    assert done.returncode == 74  # the summary on stderr could not be written


@pytest.mark.parametrize(
    "arguments",
    [
        ["14", "--format", "json"],
        ["14", "--style", "compact"],
        ["10"],
        ["9", "--format", "json", "--engine", "cp-sat"],  # one solution at a time
    ],
    ids=" ".join,
)
def test_a_disk_that_fills_mid_listing_keeps_whole_records(
    arguments: list[str], tmp_path: Path
) -> None:
    """The disk fills (here: a file size limit, ulimit -f, which ends writes as a full disk
    does) part way through a record: the file ends with the last whole one, and what was in it
    before the listing (``>>``) stays."""
    before = "what the file held\n"
    path = tmp_path / "listing"
    path.write_text(before)

    def disk_full_at_20_kb() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    with path.open("a") as appended:
        done = run_nqueens(
            "solve",
            *arguments,
            stdout=appended,
            stderr=subprocess.PIPE,
            preexec_fn=disk_full_at_20_kb,
        )
    assert done.returncode == 74, done.stderr
    text = path.read_text()
    assert text.startswith(before) and 10_000 < len(text) <= 20_000
    listed = text.removeprefix(before)
    n = int(arguments[0])
    if "json" in arguments:
        boards = [json.loads(line)["rows"] for line in listed.splitlines()]
    elif "compact" in arguments:
        boards = [[int(value) - 1 for value in line.split()] for line in listed.splitlines()]
    else:
        assert listed.endswith("\n\n")
        boards = [list(board) for board in parse_plain_boards(listed)]
    assert listed.endswith("\n") and boards
    for board in boards:
        assert len(board) == n
        assert_valid_board(board, n)


def test_bad_usage_stays_exit_2_when_stderr_is_full() -> None:
    with open("/dev/full", "w") as full:
        done = run_nqueens("count", "0", stdout=subprocess.PIPE, stderr=full)
    assert (done.returncode, done.stdout) == (2, "")


def _in_a_shell(command_line: str) -> subprocess.CompletedProcess[str]:
    """``nqueens`` with ``command_line``, redirections included, run by bash."""
    return subprocess.run(
        ["bash", "-c", f"{NQ} {command_line}"],
        capture_output=True,
        text=True,
        env=process_env(),
        timeout=60,
    )


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        ("count 8", 74),
        ("solve 6 --format json", 74),
        ("export 8 --to dimacs", 74),
        ("count -1", 2),
        ("solve 8 --nonsense", 2),
    ],
)
def test_a_closed_stdout_is_said_and_exit_74_unless_the_usage_is_bad(
    arguments: str, code: int
) -> None:
    done = _in_a_shell(f"{arguments} >&-")
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr
    if code == 74:
        assert done.stderr.strip() == (
            "Error: the output could not be written: standard output is closed."
        )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("arguments", "code"),
    [("first 6 --style compact", 0), ("count 18 -t 0.3", 3), ("count 0", 2), ("verify -", 2)],
)
def test_a_closed_stderr_keeps_the_data_and_the_exit_code(arguments: str, code: int) -> None:
    """Started with stderr closed, every command ended with exit 1: flushing a stderr that
    Python had set to None failed as the process ended."""
    done = _in_a_shell(f"{arguments} 2>&- </dev/null")
    assert done.returncode == code, done.stdout
    assert "Traceback" not in done.stdout
    if code == 0:
        assert_valid_board([int(row) - 1 for row in done.stdout.split()], 6)


CHECKPOINT_BESIDE_A_CLOSED_STDERR = """
import os, subprocess, sys, time
path = sys.argv[1]
counting = subprocess.Popen(
    [sys.executable, "-m", "nqueens", "count", "19", "-j", "1", "--checkpoint", path],
    stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(2),
)
folder = f"/proc/{counting.pid}/fd"

def opened():
    found = {}
    for number in os.listdir(folder):
        try:
            found[number] = os.readlink(f"{folder}/{number}")
        except OSError:  # closed meanwhile
            pass
    return found

try:
    while path not in opened().values():
        time.sleep(0.01)  # until the count holds its checkpoint open
    print(opened().get("2", "nothing"))
finally:
    counting.kill()
    counting.wait()
"""


def test_a_file_opened_beside_a_closed_stderr_never_takes_its_place(tmp_path: Path) -> None:
    """A checkpoint opened by a process started with stderr closed could take its number, 2,
    and with it whatever a solver or a last message writes to stderr."""
    path = tmp_path / "n19.ckpt"
    done = run_python(CHECKPOINT_BESIDE_A_CLOSED_STDERR.replace("sys.argv[1]", repr(str(path))))
    assert done.stdout.strip() == os.devnull, done.stderr


@pytest.mark.slow  # processes under tight limits, seconds each: -m slow, as CI runs
def test_a_search_that_cannot_fit_in_memory_is_refused_at_once() -> None:
    """Under ulimit -v, CP-SAT on N = 1,000 died by SIGABRT after 45 s; now exit 2 at once."""
    import resource

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, resource.RLIM_INFINITY))

    def run_limited(*arguments: str) -> subprocess.CompletedProcess[str]:
        return run_nqueens(*arguments, preexec_fn=limit_memory)

    # The cp engine needs 2.4 GB for N = 10,000; the auto plan takes local search, which fits.
    refused = run_limited("first", "10000", "--engine", "cp")
    assert refused.returncode == 2, refused.stderr
    assert (
        "the cp engine needs about" in refused.stderr
        and "engines that can: local" in refused.stderr
    )
    auto = run_limited("first", "10000", "--style", "compact")
    assert auto.returncode == 0, auto.stderr
    assert sorted(int(row) for row in auto.stdout.split()) == list(range(1, 10_001))
    done = run_limited("first", "1000", "--engine", "cp-sat")
    assert done.returncode == 2, done.stderr
    assert "the cp-sat engine needs about" in done.stderr and "engines that can: cp" in done.stderr


def test_a_join_count_that_would_not_fit_in_memory_is_refused_at_once() -> None:
    """The join engine's lists for N = 20 take about 0.8 GB: under ulimit -v 600000 the count
    is refused before anything is made, with the figure and the engines that can."""
    from nqueens.engines.join import memory_needed

    limit = 600_000 * 1024  # room for Python and the command line, not for those lists
    assert memory_needed(20) > limit

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))

    started = time.monotonic()
    refused = run_nqueens("count", "20", "--engine", "join", preexec_fn=limit_memory)
    assert refused.returncode == 2, refused.stderr
    assert "the join engine needs about 0.8 GB for N = 20" in refused.stderr
    assert "ulimit -v" in refused.stderr and "engines that can: " in refused.stderr
    assert "Traceback" not in refused.stderr
    assert time.monotonic() - started < bound(10)


def _on_a_full_filesystem(shell: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run ``shell`` with $FULL a 64 KB tmpfs filled to the brim, in a mount namespace of its
    own, so the mount goes with the process."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("mounting a tmpfs needs root and unshare")
    full = tmp_path / "full"
    full.mkdir()
    script = (
        f'mount -t tmpfs -o size=64k tmpfs "{full}" || exit 99; '
        f'head -c 1000000 /dev/zero > "{full}/filler" 2>/dev/null; FULL="{full}"; {shell}'
    )
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        capture_output=True,
        text=True,
        env=process_env(),
        timeout=60,
    )
    if done.returncode == 99:
        pytest.skip(f"this machine does not allow a tmpfs mount: {done.stderr.strip()}")
    return done


FULL_WRITES = {
    "svg": (f'{NQ} solve 8 --limit 1 --svg "$FULL/b.svg" > /dev/null', "cannot write"),
    "tree": (f'{NQ} explain 5 --tree "$FULL/t.svg" > /dev/null', "cannot write"),
    "stdout": (f'{NQ} solve 8 > "$FULL/out.txt"', "the output could not be written"),
    "checkpoint": (f'{NQ} count 14 --checkpoint "$FULL/c.ckpt"', "cannot write the checkpoint"),
}


@pytest.mark.slow  # a file system filled, and a process for each kind of write
def test_every_write_on_a_full_filesystem_is_exit_74_in_one_line(tmp_path: Path) -> None:
    """--svg, --tree, stdout and a checkpoint, each on one full tmpfs (one mount for all)."""
    shell = "; ".join(
        f'{command} 2> "{tmp_path}/{name}.err"; echo $? > "{tmp_path}/{name}.code"'
        for name, (command, _) in FULL_WRITES.items()
    )
    done = _on_a_full_filesystem(f"{shell}; ls $FULL", tmp_path)
    for name, (_, message) in FULL_WRITES.items():
        stderr = (tmp_path / f"{name}.err").read_text()
        assert (tmp_path / f"{name}.code").read_text().strip() == "74", (name, stderr)
        errors = [line for line in stderr.splitlines() if line.startswith("Error")]
        assert len(errors) == 1 and message in errors[0], (name, stderr)
        assert "Traceback" not in stderr
    assert not {"b-1.svg", "t.svg"} & set(done.stdout.split())  # no picture cut short is left


def test_pictures_on_a_device_are_written_to_it_not_numbered_beside_it(tmp_path: Path) -> None:
    before = set(os.listdir("/dev"))
    written = invoke("solve", "8", "--limit", "2", "--svg", "/dev/null")
    assert written.exit_code == 0, written.stderr
    assert "Wrote 2 pictures to /dev/null." in written.stderr
    full = invoke("solve", "8", "--limit", "2", "--svg", "/dev/full")
    assert full.exit_code == 74
    assert (
        full.stderr.strip().splitlines()[-1]
        == "Error: cannot write /dev/full: No space left on device"
    )
    assert set(os.listdir("/dev")) == before


def test_a_non_blocking_stdout_loses_nothing_to_a_slow_reader() -> None:
    """A program that set its pipe non-blocking (as event loops do) and reads slowly: Python's
    stdout dropped what the full pipe refused, and `solve 10` kept 64 KB of its 160, exit 0."""
    whole = run_nqueens("solve", "10").stdout
    reader, writer = os.pipe()
    os.set_blocking(writer, False)
    try:
        process = start_nqueens("solve", "10", stdout=writer, stderr=subprocess.DEVNULL)
        os.close(writer)
        writer = -1
        time.sleep(0.5)  # the pipe fills meanwhile
        received = b""
        while chunk := os.read(reader, 1 << 16):
            received += chunk
        assert process.wait(timeout=60) == 0
    finally:
        os.close(reader)
        if writer != -1:
            os.close(writer)
    assert len(whole) > 2 * 65536  # more than a pipe holds
    assert received.decode() == whole


def test_a_non_blocking_stdin_is_read_to_its_end() -> None:
    """A writer that made its pipe non-blocking and writes in bursts: Python took the pipe,
    empty for the moment, for the end of the input, and `verify -` found no board."""
    boards = run_nqueens("solve", "8", "--style", "compact").stdout.encode()
    reader, writer = os.pipe()
    os.set_blocking(reader, False)
    try:
        process = start_nqueens("verify", "-", stdin=reader)
        os.close(reader)
        reader = -1
        time.sleep(0.5)  # it reads the empty pipe meanwhile
        os.write(writer, boards[: len(boards) // 2])
        time.sleep(0.2)
        os.write(writer, boards[len(boards) // 2 :])
    finally:
        os.close(writer)
        if reader != -1:
            os.close(reader)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert "92 boards checked: all valid." in out + err


def test_a_thread_refused_is_one_line_and_exit_2() -> None:
    """Under ulimit -v, a count's threads (its process pool's, the pool's stopper) may not
    start: Python's RuntimeError ended in a traceback and exit 1. Here every thread is
    refused, as such a limit refuses them."""
    probe = (
        "import sys, threading\n"
        "def refuse(thread):\n"
        '    raise RuntimeError("can\'t start new thread")\n'
        "threading.Thread.start = refuse\n"
        "sys.argv = ['nqueens', 'count', '17', '--workers', '2', '--time-limit', '0.5']\n"
        "from nqueens.__main__ import main\n"
        "main()\n"
    )
    done = run_python(probe)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("Error: out of memory or threads: this command could not")
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert done.stdout == ""


def test_a_usage_error_that_cannot_draw_its_usage_line_still_says_why() -> None:
    """Under ulimit -n 12 a count's process pool could not open its pipes, and said so as a
    usage error; but click imports a module to draw the usage line, which takes a file
    descriptor, and the message was lost: exit 2 and nothing on stderr. Here drawing the
    usage line fails as it did there."""
    probe = (
        "import sys\n"
        "from click import formatting\n"
        "def no_descriptor_left(*args, **kwargs):\n"
        "    raise OSError(24, 'Too many open files')\n"
        "formatting.wrap_text = no_descriptor_left\n"
        "sys.argv = ['nqueens', 'count', '16', '--workers', 'x']\n"
        "from nqueens.__main__ import main\n"
        "main()\n"
    )
    done = run_python(probe)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("Error: Invalid value for '-j' / '--workers'"), done.stderr
    assert done.stderr.count("\n") == 1 and done.stdout == ""


@pytest.mark.slow  # processes under tight limits, seconds each: -m slow, as CI runs
def test_memory_running_out_is_one_line_and_exit_2() -> None:
    """A compact board of 10 million ones (20 MB) needs more than 400 MB of address space to
    read: MemoryError ended in Python's traceback."""

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (400 << 20, 400 << 20))

    done = subprocess.run(
        [*NQUEENS, "verify"],
        input=b"1 " * 10_000_000 + b"\n",
        capture_output=True,
        env=process_env(),
        preexec_fn=limit_memory,
        timeout=120,
    )
    said = done.stderr.decode()
    assert done.returncode == 2, said
    assert said.startswith("Error: out of memory: this command needs more than this process")
    assert "Traceback" not in said and said.count("\n") == 1


def test_a_board_file_that_nobody_writes_to_is_waited_for_within_the_time_limit(
    tmp_path: Path,
) -> None:
    """Opening a named pipe waits for its writer: the time limit covers that wait too."""
    fifo = tmp_path / "board"
    os.mkfifo(fifo)
    started = time.monotonic()
    waited = run_nqueens("count", "--board", str(fifo), "-t", "0.5")
    assert time.monotonic() - started < bound(START_UP + 0.5)
    assert waited.returncode == 3, waited.stderr
    assert f"the time limit ended while waiting for {fifo} to be written" in waited.stderr


@pytest.mark.slow
@pytest.mark.parametrize("limit", [["-t", "30"], []])
def test_a_board_file_written_late_is_read_whole(limit: list[str], tmp_path: Path) -> None:
    fifo = tmp_path / "board"
    os.mkfifo(fifo)

    def write_late() -> None:
        time.sleep(0.3)
        with open(fifo, "w") as pipe:
            pipe.write(". . . .\n" * 4)

    writer = threading.Thread(target=write_late)
    writer.start()
    try:
        read = run_nqueens("count", "--board", str(fifo), *limit)
    finally:
        writer.join()
    assert (read.returncode, read.stdout) == (0, "2\n"), read.stderr


@pytest.mark.slow
@pytest.mark.parametrize("name", ["completion-16-14-2", "completion-21-18-3", "completion-20-18-2"])
def test_a_puzzle_under_a_memory_limit_keeps_its_time_limit(name: str) -> None:
    """Under ulimit -v 400000 these never ended, or aborted in LLVM (exit 134): numpy's BLAS
    threads alone took much of the address space."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (400_000 * 1024, resource.RLIM_INFINITY))

    started = time.monotonic()
    done = run_nqueens(
        "count", "--board", str(DATA / f"{name}.param"), "-t", "3", preexec_fn=limited
    )
    assert time.monotonic() - started < bound(START_UP + 3)
    assert done.returncode in (0, 2, 3), done.stderr
    assert "Traceback" not in done.stderr and "LLVM ERROR" not in done.stderr


@pytest.mark.parametrize(("given", "kept"), [(None, "1"), ("8", "1")])
def test_numpys_blas_starts_one_thread_whatever_the_environment_says(
    given: str | None, kept: str
) -> None:
    """Where threads are limited (ulimit -u), OpenBLAS failed to start the threads it was told
    to (one a core, or OPENBLAS_NUM_THREADS=8), said so, and raised SIGINT itself: an
    "Interrupted." nobody sent. No search uses them."""
    probe = (
        "import atexit, os, sys\n"
        "atexit.register(lambda: print('BLAS', os.environ.get('OPENBLAS_NUM_THREADS'), "
        "file=sys.stderr))\n"
        "sys.argv = ['nqueens', 'count', '8']\n"
        "from nqueens.__main__ import main\n"
        "main()\n"
    )
    env = process_env()
    env.pop("OPENBLAS_NUM_THREADS", None)
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == f"BLAS {kept}"


@pytest.mark.slow
def test_the_clock_starts_when_nqueens_starts_not_when_its_process_did() -> None:
    """A shell that waited, then ran nqueens in its own process (``sleep 2; exec nqueens``): the
    summary's time and the time limit leave out the wait, which /proc counts as the process's."""
    waited = 2.0
    script = f"sleep {waited}; exec {NQ} first 8 --time-limit {waited} --format json"
    ran = subprocess.run(
        ["sh", "-c", script], capture_output=True, text=True, env=process_env(), timeout=60
    )
    assert ran.returncode == 0, ran.stderr  # not "no solution within the time limit"
    assert '"status": "complete"' in ran.stdout, ran.stdout
    took = float(ran.stderr.rsplit("Found in ", 1)[1].split(" s")[0])
    assert took < waited, ran.stderr


def test_stop_signals_are_handled_before_the_package_loads_anything() -> None:
    """A Ctrl-C 10 to 30 ms into start-up gave a KeyboardInterrupt traceback: the package's
    own import, and the entry point's, ran before any handler was in place."""
    probe = (
        "import signal, sys\n"
        "before = set(sys.modules)\n"
        "import nqueens\n"
        "print(sorted(set(sys.modules) - before - {'nqueens'}))\n"
        "class Watch:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'nqueens.core':\n"
        "            print(signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL)\n"
        "        return None\n"
        "sys.meta_path.insert(0, Watch())\n"
        "import nqueens.__main__\n"
    )
    done = run_python(probe)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["[]", "True"], done.stdout


def test_auto_runs_an_engine_that_fits_the_memory_the_process_may_take() -> None:
    """Under ulimit -v 450000, auto's choice for first 1000 refused for want of memory, and
    named local search, which takes the board: auto runs it."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (450_000 * 1024, resource.RLIM_INFINITY))

    done = run_nqueens("first", "1000", "--format", "json", preexec_fn=limited)
    assert done.returncode == 0, done.stderr
    found, status = (json.loads(line) for line in done.stdout.splitlines())
    assert status["engine"] == "local" and status["status"] == "complete"
    assert_valid_board(found["rows"], 1000)


def _blocked_writing(process: subprocess.Popen[str]) -> None:
    """Wait until ``process`` waits in a write to its stdout, a pipe nobody reads."""
    deadline = time.monotonic() + bound(20)
    wchan = Path(f"/proc/{process.pid}/wchan")
    while "pipe_write" not in (wchan.read_text() if wchan.exists() else ""):
        assert process.poll() is None and time.monotonic() < deadline, "it never blocked"
        time.sleep(0.05)


@pytest.mark.skipif(not Path("/proc/self/wchan").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize(
    ("arguments", "stop"),
    [
        ("solve 16 --style compact", signal.SIGTERM),
        pytest.param("solve 16 --format json", signal.SIGINT, marks=pytest.mark.slow),
        pytest.param(
            "solve 12 --engine cp-sat --style compact", signal.SIGTERM, marks=pytest.mark.slow
        ),
        pytest.param(
            "solve 12 --engine reduced --format json", signal.SIGTERM, marks=pytest.mark.slow
        ),
    ],
)
def test_a_stop_ends_a_process_whose_stdout_nobody_reads(
    arguments: str, stop: signal.Signals
) -> None:
    """A stop waits for a record being written at most half a second, then ends the process
    and says on stderr where stdout was cut: it waited for the reader, maybe for ever."""
    with start_nqueens(*arguments.split()) as process:
        try:
            _blocked_writing(process)
            process.send_signal(stop)
            process.wait(timeout=bound(1.5))
            stderr = process.stderr.read() if process.stderr else ""
        finally:
            process.kill()
    assert process.returncode == 128 + stop
    assert "Output cut: stdout was not read" in stderr
    assert "(interrupted; partial, a lower bound)" in stderr

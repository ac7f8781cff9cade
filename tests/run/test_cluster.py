"""count --cluster: a real Dask scheduler and workers on loopback, stopped after every test,
failed or not; workers killed and schedulers lost on purpose."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import (
    invoke,
    known_total,
    known_unique,
    process_env,
    run_nqueens,
    session_members,
    start_nqueens,
)

import nqueens

pytest.importorskip("distributed", reason="the cluster extra is not installed")

DASK = shutil.which("dask", path=str(Path(sys.executable).parent))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start(
    arguments: list[str], log: Path, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    assert DASK is not None, "the dask command is missing from the environment"
    with log.open("wb") as out:
        return subprocess.Popen(
            [DASK, *arguments],
            stdout=out,
            stderr=out,
            env=env or process_env(),
            start_new_session=True,
        )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _wait_for(log: Path, text: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if text in log.read_text(errors="replace"):
            return
        assert process.poll() is None, log.read_text(errors="replace")
        time.sleep(0.05)
    raise AssertionError(f"{text!r} never appeared: {log.read_text(errors='replace')}")


class Cluster:
    """A scheduler and its workers, each in its own process group."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.processes: list[subprocess.Popen[bytes]] = []
        self.scheduler = self._run(
            [
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                self.address.rsplit(":", 1)[1],
                "--no-dashboard",
            ],
            "scheduler",
            "Scheduler at:",
        )
        self.workers: list[subprocess.Popen[bytes]] = []

    def _run(
        self, arguments: list[str], name: str, ready: str, env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        log = self.folder / f"{name}.log"
        process = _start(arguments, log, env)
        self.processes.append(process)
        _wait_for(log, ready, process)
        return process

    def add_worker(self, *extra: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        worker = self._run(
            [
                "worker",
                self.address,
                "--nthreads",
                "1",
                "--no-nanny",
                "--no-dashboard",
                "--host",
                "127.0.0.1",
                *extra,
            ],
            f"worker-{len(self.workers)}",
            "Registered to:",
            env,
        )
        self.workers.append(worker)
        return worker

    def stop(self) -> None:
        for process in self.processes:
            _stop(process)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    started = Cluster(tmp_path)
    try:
        yield started
    finally:
        started.stop()


@pytest.mark.slow
def test_a_local_cluster_is_started_and_stopped(tmp_path: Path) -> None:
    result = invoke("count", "12", "--cluster", "local:1")
    assert result.exit_code == 0, result.stderr
    assert int(result.stdout) == known_total(12)


def _count_on(cluster: Cluster, n: int, *extra: str) -> subprocess.Popen[str]:
    arguments = ["count", str(n), "--cluster", cluster.address, *extra]
    return start_nqueens(*arguments, start_new_session=True)


def _wait_for_lines(path: Path, counting: subprocess.Popen[str], lines: int) -> None:
    deadline = time.monotonic() + 60
    while not (path.exists() and len(path.read_text().splitlines()) > lines):
        assert time.monotonic() < deadline and counting.poll() is None
        time.sleep(0.02)


def _finish(counting: subprocess.Popen[str]) -> tuple[str, str]:
    try:
        return counting.communicate(timeout=120)
    finally:
        if counting.poll() is None:
            os.killpg(counting.pid, signal.SIGKILL)
            counting.wait()


@pytest.mark.slow
@pytest.mark.parametrize(("engine", "n"), [("bitboard", 15), ("join", 18)])
def test_a_dead_worker_changes_nothing_and_a_lost_scheduler_keeps_the_checkpoint(
    cluster: Cluster, tmp_path: Path, engine: str, n: int
) -> None:
    """Each engine's pieces (seconds of work in all, so that a worker dies in the middle): those
    a killed worker held are counted again by the other, and the count is exact."""
    doomed = cluster.add_worker()
    cluster.add_worker()
    path = tmp_path / "count.ckpt"
    counting = _count_on(cluster, n, "--engine", engine, "--checkpoint", str(path))
    _wait_for_lines(path, counting, 5)
    _stop(doomed)  # kill -9 in the middle: the scheduler gives its tasks to the other worker
    out, err = _finish(counting)
    assert counting.returncode == 0, err
    assert int(out) == known_total(n)
    lines = path.read_text().splitlines()[1:]
    assert sorted(int(line.split()[0]) for line in lines) == list(range(len(lines)))

    path = tmp_path / "lost.ckpt"
    counting = _count_on(cluster, n, "--engine", engine, "--checkpoint", str(path))
    _wait_for_lines(path, counting, 3)
    _stop(cluster.scheduler)
    _, err = _finish(counting)
    assert counting.returncode == 1, err
    assert "scheduler went away" in err and str(path) in err
    assert "Traceback" not in err
    resumed = invoke("count", str(n), "--engine", engine, "--checkpoint", str(path))
    assert int(resumed.stdout) == known_total(n)


@pytest.mark.slow  # the simulator counts on the worker's CPU, a few seconds
def test_a_worker_with_a_gpu_takes_the_gpu_engines_pieces_for_a_client_without_one(
    cluster: Cluster,
) -> None:
    """The worker that declares a GPU (numba-cuda's simulator standing in for it) counts the
    pieces; the client, which has no device, is not refused for lacking one."""
    cluster.add_worker("--resources", "GPU=1", env=process_env(NUMBA_ENABLE_CUDASIM="1"))
    cluster.add_worker()
    counting = _count_on(cluster, 8, "--engine", "gpu", "--unique", "--stats", "--format", "json")
    out, err = _finish(counting)
    assert counting.returncode == 0, err
    record = json.loads(out)
    assert (record["solutions"], record["unique"]) == (known_total(8), known_unique(8))
    assert record["pieces"] > 0 and "cluster" in record["backend"]


@pytest.mark.slow  # seconds of the simulator, and the few the client takes to see a worker go
def test_the_pieces_of_a_killed_gpu_worker_are_counted_on_the_cpus(
    cluster: Cluster, tmp_path: Path
) -> None:
    simulator = process_env(NUMBA_ENABLE_CUDASIM="1")  # the client too: a launch a piece
    doomed = cluster.add_worker("--resources", "GPU=1", env=simulator)
    cluster.add_worker()
    path = tmp_path / "gpu.ckpt"
    arguments = ["count", "9", "--engine", "gpu", "--unique", "--cluster", cluster.address]
    arguments += ["--checkpoint", str(path)]
    counting = start_nqueens(*arguments, env=simulator, start_new_session=True)
    _wait_for_lines(path, counting, 3)
    _stop(doomed)  # kill -9: what it held waits for a GPU no worker has any more
    out, err = _finish(counting)
    assert counting.returncode == 0, err
    assert out.split() == [str(known_total(9)), str(known_unique(9))]
    assert "Traceback" not in err and "exception" not in err, err


@pytest.mark.slow
def test_a_gpu_count_on_a_cluster_without_a_gpu_says_how_to_offer_one(cluster: Cluster) -> None:
    cluster.add_worker()
    counting = _count_on(cluster, 8, "--engine", "gpu")
    out, err = _finish(counting)
    assert counting.returncode == 2, err
    assert "--resources GPU=1" in err and "Traceback" not in err and not out


def test_a_gpu_count_on_local_workers_says_they_have_no_gpu_before_starting_them() -> None:
    """local:K's workers never offer a GPU: the advice to start dask workers with one was the
    only way out, and only after K processes had started."""
    import distributed

    def no_cluster(*arguments: object, **options: object) -> None:
        raise AssertionError("a local cluster was started")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(distributed, "LocalCluster", no_cluster)
        result = invoke("count", "8", "--engine", "gpu", "--cluster", "local:2")
    assert result.exit_code == 2 and not result.stdout
    assert "local:2 starts its workers without a GPU" in result.stderr, result.stderr
    assert "this machine's GPU without a cluster" in result.stderr


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("nowhere", "has no port"),
        ("tcp://127.0.0.1", "has no port"),
        ("tcp://[::1]:x", "is not a cluster"),
        ("inproc://nothing", "not inproc"),
        ("tcp://127.0.0.1:8786/path", "is not a cluster"),
        ("tcp://127.0.0.1:0", "from 1 to 65535"),
        ("tcp://127.0.0.1:65536", "from 1 to 65535"),
        ("x" * 130 + ":1:2", "is not a cluster"),
        ("local:0", "1 to 1,024 worker processes"),
        ("local:" + "9" * 40, "a number of 40 digits"),
        ("local:x", "takes a number"),
        ("tcp://caf\u00e9:8786", "is not a cluster"),
    ],
)
def test_a_malformed_cluster_address_exits_2_at_once(address: str, message: str) -> None:
    result = invoke("count", "10", "--cluster", address)
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["-j", "2", "--cluster", "local:1"], "--workers K shares a count among this machine's"),
        (["--connect-timeout", "5"], "--connect-timeout is how long --cluster waits"),
    ],
)
def test_a_cluster_option_that_would_change_nothing_exits_2(
    arguments: list[str], message: str
) -> None:
    """Each was silently ignored: -j with a cluster, whose workers count, and a connect timeout
    with no cluster to connect to."""
    result = invoke("count", "8", *arguments)
    assert result.exit_code == 2 and not result.stdout
    assert message in result.stderr, result.stderr
    with pytest.raises(nqueens.InputError, match=r"workers= shares a count"):
        nqueens.count(8, workers=1, cluster="local:1")


def test_without_dask_a_cluster_count_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The message is the API's and the command line's alike: it names no option."""
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    result = invoke("count", "10", "--cluster", "local:1")
    assert result.exit_code == 2, result.stderr
    assert "counting on a cluster needs Dask: the cluster extra, pip install '.[cluster]'" in (
        result.stderr
    )
    with pytest.raises(nqueens.InputError, match=r"needs Dask"):
        nqueens.count(10, cluster="local:1")


@pytest.mark.slow
def test_a_refused_connection_is_said_at_once() -> None:
    """A refusal is an answer: said as such, not waited on until the connect timeout (Dask
    retries it), and a host that does not resolve too."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    process = run_nqueens("count", "10", "--cluster", address, "--connect-timeout", "600")
    assert process.returncode == 1, process.stderr
    port = address.rsplit(":", 1)[1]
    assert process.stderr.strip() == (
        f"Error: cannot reach the cluster at {address}: nothing listens at 127.0.0.1 port "
        f"{port} (the connection was refused)"
    )
    process = run_nqueens("count", "10", "--cluster", "tcp://nowhere.invalid:8786")
    assert process.returncode == 1, process.stderr
    assert "the host nowhere.invalid is unknown" in process.stderr


def _silent_server() -> socket.socket:
    """A port that accepts and never answers (as a web server waits for a request)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    return server


@pytest.mark.slow
def test_a_server_that_is_not_dask_is_given_up_on_after_the_connect_timeout() -> None:
    """Dask's own timeout stops at the accept, and would wait for the greeting forever: the
    greeting is given the connect timeout, which the message names."""
    with _silent_server() as server:
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        process = run_nqueens("count", "10", "--cluster", address, "--connect-timeout", "0.3")
    assert process.returncode == 1, process.stderr
    assert process.stderr.strip() == (
        f"Error: cannot reach the cluster at {address}: no Dask scheduler answered within 0.3 s"
    )


def test_a_time_limit_shortens_the_wait_for_a_scheduler() -> None:
    """The count's time limit ends the wait before the connect timeout (10 s): the message
    says so, where it named what little was left of the limit ("within 0.001 s")."""
    with _silent_server() as server:
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        process = run_nqueens("count", "10", "--cluster", address, "-t", "0.5")
    assert process.returncode == 1, process.stderr
    assert process.stderr.strip() == (
        f"Error: cannot reach the cluster at {address}: no Dask scheduler answered before the "
        "count's time limit ran out"
    )


@pytest.mark.slow  # starts a local cluster: seconds
def test_a_time_limit_spent_starting_a_local_cluster_ends_as_a_time_limit() -> None:
    """It was exit 1, 'cannot reach the cluster at local:2 ... after 0.001 s', one run in three:
    the cluster's own scheduler was given what was left of the limit to answer in."""
    for _ in range(3):
        process = run_nqueens("count", "19", "--cluster", "local:2", "-t", "0.3")
        assert process.returncode == 3, process.stderr
        assert "stopped by the time limit" in process.stderr


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
@pytest.mark.parametrize(
    ("stop", "code", "when"),
    [
        (signal.SIGINT, 130, "counting"),  # to every process of the group, as a terminal does
        (signal.SIGTERM, 143, "counting"),
        (signal.SIGTERM, 143, "starting"),  # while Dask is imported and the cluster started
        (signal.SIGTERM, 143, "nannies"),  # to the group as the nannies start: they die first
        (signal.SIGHUP, 129, "nannies"),  # and Python's resource tracker with them, unless kept
    ],
    ids=[
        "Ctrl-C-counting",
        "SIGTERM-counting",
        "SIGTERM-starting",
        "SIGTERM-to-starting-nannies",
        "SIGHUP-to-starting-nannies",
    ],
)
def test_a_stopped_cluster_count_leaves_no_process_and_resumes(
    tmp_path: Path, stop: signal.Signals, code: int, when: str
) -> None:
    path = tmp_path / "count.ckpt"
    arguments = ["count", "16", "--cluster", "local:2", "--checkpoint", str(path)]
    counting = start_nqueens(*arguments, start_new_session=True)
    try:
        if when == "counting":
            _wait_for_lines(path, counting, 3)
        elif when == "nannies":  # this process, the resource tracker, a nanny at least
            deadline = time.monotonic() + 60
            while len(session_members(counting.pid)) < 3 and time.monotonic() < deadline:
                time.sleep(0.01)
        else:
            time.sleep(0.5)
        assert len(session_members(counting.pid)) >= 1
        if stop == signal.SIGINT or when == "nannies":
            os.killpg(counting.pid, stop)  # the local cluster's workers get it too
        else:
            counting.send_signal(stop)
        out, err = counting.communicate(timeout=60)
        deadline = time.monotonic() + 15
        while session_members(counting.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert session_members(counting.pid) == []  # the local cluster's workers are gone too
    finally:
        if counting.poll() is None or session_members(counting.pid):
            os.killpg(counting.pid, signal.SIGKILL)
            counting.wait()
    assert counting.returncode == code, err
    assert "Traceback" not in err
    if when == "counting":
        assert int(out) < known_total(16) and "interrupted; partial" in err
    resumed = invoke("count", "16", "--checkpoint", str(path))
    assert int(resumed.stdout) == known_total(16)


@pytest.mark.slow  # starts (and fails to start) a local cluster: seconds
def test_a_script_that_starts_a_local_cluster_unguarded_is_told_why_it_failed(
    tmp_path: Path,
) -> None:
    """Python starts the workers by running the main script again, which starts a cluster of
    its own there: Dask says only 'Nanny failed to start'."""
    script = tmp_path / "count.py"
    script.write_text(
        "import nqueens\n"
        "try:\n"
        "    nqueens.count(12, cluster='local:1')\n"
        "except Exception as error:\n"
        "    print(type(error).__name__, error)\n"
    )
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        env=process_env(),
        timeout=120,
    )
    said = done.stdout.strip().splitlines()[-1]
    assert said.startswith("ClusterUnreachable the cluster did not start"), done.stdout
    assert "if __name__ == '__main__':" in said


def test_a_local_cluster_started_from_a_deleted_folder_says_so(tmp_path: Path) -> None:
    """Python starts the workers in the current folder: one deleted under the command made Dask
    say 'Nanny failed to start', and nqueens blame a script without a main guard; on Python
    3.13, the resource tracker started for them printed a traceback too."""
    gone = tmp_path / "gone"
    gone.mkdir()
    # the child has moved into the folder when preexec_fn runs: it removes it under itself
    done = run_nqueens("count", "12", "--cluster", "local:2", cwd=gone, preexec_fn=gone.rmdir)
    assert not gone.exists()
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("Error: cannot reach the cluster at local:2"), done.stderr
    assert "the current folder no longer exists" in done.stderr
    assert "__main__" not in done.stderr and "Traceback" not in done.stderr


def test_a_local_cluster_without_locks_between_processes_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With /dev/shm read-only, Python makes no locks between processes and Dask says only
    'Nanny failed to start': nqueens blamed a script without a main guard."""
    import multiprocessing

    from nqueens.run import local_cluster

    class NoLocks:
        def Lock(self) -> None:  # multiprocessing's name
            raise OSError(30, "Read-only file system")

    monkeypatch.setattr(multiprocessing, "get_context", lambda method=None: NoLocks())
    said = local_cluster.not_started(RuntimeError("Nanny failed to start."))
    assert said == (
        "the cluster did not start: Nanny failed to start. (the system makes no locks between "
        "processes here: [Errno 30] Read-only file system)"
    )


def _files_limited_to(soft: int, hard: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.mark.slow
def test_a_local_cluster_that_cannot_open_its_files_is_refused_before_it_starts() -> None:
    """ulimit -n 16: Dask retried for half a minute, then blamed a script without a main
    guard."""
    done = run_nqueens(
        "count",
        "12",
        "--cluster",
        "local:2",
        "-q",
        "-t",
        "3",
        preexec_fn=lambda: _files_limited_to(16, 16),
    )
    assert done.returncode == 2, done.stderr
    assert "needs about 56 open files (ulimit -n), and this process may have 16" in done.stderr
    assert "__main__" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_local_cluster_raises_a_low_soft_limit_on_files_within_the_hard_one() -> None:
    done = run_nqueens(
        "count", "12", "--cluster", "local:2", "-q", preexec_fn=lambda: _files_limited_to(16, 4096)
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == known_total(12)


@pytest.mark.slow
def test_memory_running_out_as_a_local_cluster_starts_is_exit_2() -> None:
    """With 400 MB of address space a count runs, and a local cluster's threads do not start:
    said as for --workers, not as a cluster out of reach (exit 1)."""

    def limited() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (400_000 * 1024, resource.RLIM_INFINITY))

    assert run_nqueens("count", "12", "-q", preexec_fn=limited).returncode == 0
    done = run_nqueens("count", "12", "--cluster", "local:2", "-q", preexec_fn=limited)
    assert done.returncode == 2, done.stderr
    assert "Error: out of memory" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_local_cluster_larger_than_the_cores_is_capped_with_a_warning() -> None:
    from nqueens.run.executors import default_workers

    done = run_nqueens("count", "12", "--cluster", f"local:{default_workers() + 14}", "-q")
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == known_total(12)
    assert f"counting with {default_workers()}" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_signal_ends_a_local_cluster_count_at_once(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """The local workers are killed, not closed one by one (benchmarks/time_limits.py times
    how soon). A stop while the cluster starts waits for it to be up (tested with the stopped
    counts above), so the stop here is sent once the count is under way, as its checkpoint
    shows."""
    for attempt in range(3):
        path = tmp_path / f"{attempt}.ckpt"
        counting = start_nqueens(
            "count",
            "16",
            "--cluster",
            "local:2",
            "-q",
            "--checkpoint",
            str(path),
            start_new_session=True,
        )
        try:
            _wait_for_lines(path, counting, 3)
            counting.send_signal(stop)
            _, err = counting.communicate(timeout=30)
        finally:
            if counting.poll() is None:
                os.killpg(counting.pid, signal.SIGKILL)
                counting.wait()
        assert counting.returncode == 128 + stop, err
        assert "interrupted; partial, a lower bound" in err


def test_a_local_cluster_past_its_count_s_deadline_is_ended_not_awaited() -> None:
    """A count that its time limit ended kills its local workers, as a stop does, rather than
    waiting on their close (`count --cluster local:2 -t 1` ended after 2.2 to 4.1 s)."""
    import subprocess as processes
    from types import SimpleNamespace

    from nqueens.run import local_cluster

    worker = processes.Popen(["sleep", "60"])
    closed: list[str] = []
    local = SimpleNamespace(
        workers={"w": SimpleNamespace(process=SimpleNamespace(process=worker))},
        close=lambda: closed.append("closed"),
    )
    try:
        local_cluster.closing(local, deadline=time.time() - 1)(None)
        assert worker.wait(timeout=10) == -signal.SIGKILL
    finally:
        worker.kill()
        worker.wait()
    waiting = SimpleNamespace(workers={}, close=lambda: closed.append("awaited"))
    local_cluster.closing(waiting, deadline=time.time() + 60)(None)
    local_cluster.closing(waiting)(None)
    assert closed.count("awaited") == 2

"""Counting beyond one machine: a real Dask cluster on loopback, checkpoints, and projections.

Four measurements, every count checked against the published one (a wrong count stops the run):

1. A worker killed (kill -9) in the middle of ``count N --cluster`` on a scheduler with two
   worker processes, started with the ``dask`` command as a user would: the count is exact.
2. Throughput: ``count N`` on the local process pool against the same count on that running
   2-worker cluster, and on ``--cluster local:2`` (which starts its own), whole processes, in
   turn, medians of --repeat runs.
3. ``count N --checkpoint FILE`` stopped twice (SIGINT, then SIGTERM) and resumed, against one
   uninterrupted run: the totals of time, and the final count.
4. Projections: the estimate nqueens prints before a long count (random pieces timed, see
   src/nqueens/engines/estimate.py), for larger boards, on K workers as fast as this machine's.

    python benchmarks/cluster.py                   # 17 killed, 17 throughput, 19 resumed, 19..23
    python benchmarks/cluster.py --fault 14 --throughput 14 --resume 16 --project 17-18 --quick
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ortools_program import ROOT, machine, parse_sizes

COUNTS = json.loads((ROOT / "tests" / "data" / "counts.json").read_text())
DASK = shutil.which("dask", path=str(Path(sys.executable).parent)) or shutil.which("dask")


def check(n: int, solutions: int, who: str) -> None:
    truth = int(COUNTS["total"][str(n)])
    if solutions != truth:
        raise SystemExit(f"N = {n}: {who} counted {solutions:,}, the published count is {truth:,}")


ENGINE = "bitboard"
"""The engine counted (--engine): the edge search's pieces take seconds at the sizes these
measurements use, long enough to kill a worker or stop a count in the middle; the join engine
counts the same boards in a fraction of that."""


def nqueens(n: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "nqueens", "count", str(n), "--quiet", "--engine", ENGINE, *extra]


def lines_in(path: Path) -> int:
    return len(path.read_text().splitlines()) - 1 if path.exists() else 0


def run(command: list[str]) -> tuple[float, int]:
    """A whole process: its wall time and the count it printed (it must succeed)."""
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr}")
    return seconds, int(done.stdout.split()[0])


@contextmanager
def process(command: list[str]) -> Iterator[subprocess.Popen[str]]:
    """``command`` running with its output kept; killed at the end of the block if it still
    runs, whatever ended the block."""
    running = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield running
    finally:
        if running.poll() is None:
            running.kill()
            running.wait()


class Cluster:
    """``dask scheduler`` and ``dask worker`` processes on loopback, each in its own session."""

    def __init__(self, folder: Path) -> None:
        if DASK is None:
            raise SystemExit("the dask command is missing: pip install 'nqueens[cluster]'")
        self.folder = folder
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.address = f"tcp://127.0.0.1:{port}"
        self.processes: list[subprocess.Popen[bytes]] = []
        self.start(
            "scheduler",
            ["scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            "Scheduler at:",
        )
        worker = ["worker", self.address, "--nthreads", "1", "--no-nanny", "--no-dashboard"]
        self.workers = [
            self.start(f"worker-{number}", [*worker, "--host", "127.0.0.1"], "Registered to:")
            for number in range(2)
        ]

    def start(self, name: str, arguments: list[str], ready: str) -> subprocess.Popen[bytes]:
        log = self.folder / f"{name}.log"
        assert DASK is not None
        with log.open("wb") as out:
            process = subprocess.Popen(
                [DASK, *arguments], stdout=out, stderr=out, start_new_session=True
            )
        self.processes.append(process)
        deadline = time.monotonic() + 60
        while ready not in log.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{name} did not start: {log.read_text(errors='replace')}")
            time.sleep(0.05)
        return process

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@contextmanager
def cluster(folder: Path) -> Iterator[Cluster]:
    started = Cluster(folder)
    try:
        yield started
    finally:
        started.stop()


def fault(n: int, folder: Path) -> None:
    """A worker killed with kill -9 once a quarter of the subproblems are done."""
    print(f"## A worker killed in the middle: count {n} on a scheduler with two workers\n")
    print("| N | subproblems done when killed | count | published | seconds |")
    print("|---|---|---|---|---|")
    with cluster(folder) as running:
        path = folder / "fault.ckpt"
        started = time.perf_counter()
        total = _subproblems(n)
        command = nqueens(n, "--cluster", running.address, "--checkpoint", str(path))
        with process(command) as counting:
            while lines_in(path) < total // 4:
                if counting.poll() is not None:
                    raise SystemExit("the count ended before a worker could be killed")
                time.sleep(0.01)
            killed_at = lines_in(path)
            os.killpg(running.workers[0].pid, signal.SIGKILL)
            out, err = counting.communicate(timeout=3600)
        seconds = time.perf_counter() - started
        if counting.returncode != 0:
            raise SystemExit(f"the count failed after the kill: {err}")
        check(n, int(out), "the cluster with a worker killed")
        published = int(COUNTS["total"][str(n)])
        print(
            f"| {n} | {killed_at:,} of {total:,} | {int(out):,} | {published:,} | {seconds:.1f} |"
        )
    print()


def _subproblems(n: int) -> int:
    from nqueens.core.board import Board
    from nqueens.engines.base import Request
    from nqueens.engines.bitboard import ENGINE

    return len(ENGINE.subproblems(Request("count", Board(n)), None))


def throughput(n: int, repeat: int, folder: Path) -> None:
    """The process pool, a running 2-worker cluster, and local:2, in turn."""
    print(f"## Throughput: count {n}, two workers each way, medians of {repeat}\n")
    times: dict[str, list[float]] = {"pool": [], "cluster": [], "local": []}
    with cluster(folder) as running:
        for _ in range(repeat):
            for key, extra in (
                ("pool", ["--workers", "2"]),
                ("cluster", ["--cluster", running.address]),
                ("local", ["--cluster", "local:2"]),
            ):
                seconds, solutions = run(nqueens(n, *extra))
                check(n, solutions, key)
                times[key].append(seconds)
    pool = statistics.median(times["pool"])
    print("| how | median (s) | runs (s) | against the pool |")
    print("|---|---|---|---|")
    for key, label in (
        ("pool", "process pool, `--workers 2`"),
        ("cluster", "running cluster, 2 workers"),
        ("local", "`--cluster local:2` (starts it)"),
    ):
        median = statistics.median(times[key])
        runs = ", ".join(f"{seconds:.1f}" for seconds in times[key])
        print(f"| {label} | {median:.1f} | {runs} | {median / pool - 1:+.1%} |")
    print()


def resume(n: int, stops: list[float], folder: Path) -> float:
    """Stopped after each of ``stops`` seconds (SIGINT, then SIGTERM), resumed to the end;
    returns the uninterrupted run's time."""
    print(f"## count {n} --checkpoint, stopped {len(stops)} times and resumed\n")
    print("| run | ended by | exit | subproblems in the file | seconds |")
    print("|---|---|---|---|---|")
    path = folder / "resumed.ckpt"
    total_seconds = 0.0
    for number, after in enumerate(stops, 1):
        stop = signal.SIGINT if number % 2 else signal.SIGTERM
        started = time.perf_counter()
        with process(nqueens(n, "--checkpoint", str(path))) as counting:
            time.sleep(after)
            counting.send_signal(stop)
            _, err = counting.communicate(timeout=120)
        seconds = time.perf_counter() - started
        total_seconds += seconds
        expected = 130 if stop == signal.SIGINT else 143
        if counting.returncode != expected:
            raise SystemExit(f"stopped with {stop.name}: exit {counting.returncode}: {err}")
        print(
            f"| {number} | {stop.name} after {after:g} s | {counting.returncode} "
            f"| {lines_in(path):,} | {seconds:.1f} |"
        )
    seconds, solutions = run(nqueens(n, "--checkpoint", str(path)))
    total_seconds += seconds
    check(n, solutions, "the resumed count")
    print(f"| {len(stops) + 1} | the end: {solutions:,} | 0 | {lines_in(path):,} | {seconds:.1f} |")
    fresh_path = folder / "fresh.ckpt"
    fresh, solutions = run(nqueens(n, "--checkpoint", str(fresh_path)))
    check(n, solutions, "the uninterrupted count")
    print(f"\nStopped and resumed: {total_seconds:.1f} s in all (three processes); ", end="")
    print(f"one uninterrupted run: {fresh:.1f} s ({total_seconds / fresh - 1:+.1%}).\n")
    return fresh


def project(
    sizes: list[int], budget: float, workers: list[int], measured: dict[int, float]
) -> None:
    """The estimate nqueens prints, with more time to sample, for each size."""
    from nqueens.cli.render import duration
    from nqueens.core.board import Board
    from nqueens.engines.base import Request
    from nqueens.engines.bitboard import ENGINE
    from nqueens.run.estimate import estimate

    print(f"## Projected time of `count N`, from {budget:g} s of timed samples per size\n")
    heads = " | ".join(f"{k} workers" for k in workers)
    print(f"| N | subproblems | one core | ± | {heads} |")
    print("|---|---|---|---|" + "---|" * len(workers))
    checks = []
    for n in sizes:
        request = Request("count", Board(n))
        ENGINE.prepare(request)
        pieces = ENGINE.subproblems(request, None)
        guess = estimate(ENGINE, pieces, budget, share=1.0)
        assert guess is not None
        cells = " | ".join(duration(guess.seconds_on(k)) for k in workers)
        spread = f"{guess.error / guess.cpu_seconds:.0%}"
        print(f"| {n} | {len(pieces):,} | {duration(guess.cpu_seconds)} | {spread} | {cells} |")
        if n in measured:
            two = guess.seconds_on(2)
            checks.append(
                f"N = {n} measured on 2 workers: {measured[n]:.0f} s, projected {two:.0f} s "
                f"(measured / projected = {measured[n] / two:.2f})."
            )
    print("\n" + "\n".join(checks) + "\n" if checks else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="bitboard", help="the engine that counts (bitboard)")
    parser.add_argument("--fault", type=int, default=17, help="N counted with a worker killed")
    parser.add_argument("--throughput", type=int, default=17, help="N counted three ways")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--resume", type=int, default=19, help="N stopped twice and resumed (0: none)"
    )
    parser.add_argument("--project", default="19-23", help="sizes to project, or none")
    parser.add_argument("--budget", type=float, default=30.0, help="seconds of samples per size")
    parser.add_argument(
        "--quick", action="store_true", help="small stops and budgets, to check the script"
    )
    arguments = parser.parse_args()
    global ENGINE
    ENGINE = arguments.engine
    print(f"Machine: {machine()}; counted by the {ENGINE} engine\n")
    measured: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        fault(arguments.fault, Path(folder))
        throughput(arguments.throughput, arguments.repeat, Path(folder))
        if arguments.resume:
            stops = [1.5, 1.5] if arguments.quick else [120.0, 120.0]
            measured[arguments.resume] = resume(arguments.resume, stops, Path(folder))
    if arguments.project != "none":
        budget = 1.0 if arguments.quick else arguments.budget
        project(parse_sizes(arguments.project), budget, [2, 8, 32, 128], measured)


if __name__ == "__main__":
    main()

"""How closely whole processes keep a time limit, and how fast Ctrl-C stops them.

Every engine, on every command it declares, on the largest board it takes under a time limit
(as the conformance suite walks them): ``--time-limit LIMIT`` timed from the process's start to
its end, and SIGINT sent once the process handles it (``--delay`` seconds later) timed to its
end; and a count on a local Dask cluster of two workers stopped the same way. Medians over
--repeat runs; the documentation quotes them, and the tests hold a bound four times looser.
``--busy K`` runs K processes that keep a core busy meanwhile, as other jobs would.

    python benchmarks/time_limits.py                 # the tables of docs/reference/limits.md
    python benchmarks/time_limits.py --busy 2
    python benchmarks/time_limits.py --limit 0.5 --repeat 1
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from ortools_program import machine

from nqueens.core.board import Board
from nqueens.engines import registry
from nqueens.engines.base import Request

NQUEENS = [sys.executable, "-m", "nqueens"]
BOARDS = (10_000_000, 1_000_000, 10_000, 1_000, 200, 64, 18, 10)


def largest_board(engine: str, command: str) -> int | None:
    """The largest board ``engine`` takes for ``command`` under a time limit here (None: none,
    as for the gpu engine on a machine without a device)."""
    for n in BOARDS:
        request = Request(command, Board(n), time_limit=1.0)
        if registry.refusal(registry.ENGINES[engine], request) is None:
            return n
    return None


def limited(arguments: list[str], limit: float) -> float:
    """Seconds from start to end of ``nqueens ARGUMENTS -t LIMIT``."""
    started = time.monotonic()
    done = subprocess.run(
        [*NQUEENS, *arguments, "-t", str(limit), "--format", "json"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
    )
    took = time.monotonic() - started
    if done.returncode not in (0, 1, 3):
        raise SystemExit(f"{' '.join(arguments)}: exit {done.returncode}: {done.stderr}")
    return took


@contextlib.contextmanager
def busy(processes: int) -> Iterator[None]:
    """``processes`` processes that each keep a core busy, ended with the block."""
    spinning = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(processes)
    ]
    try:
        yield
    finally:
        for process in spinning:
            process.kill()
            process.wait()


def stopped(arguments: list[str], delay: float) -> float:
    """Seconds from SIGINT, ``delay`` s after the process handles it, to the process's end."""
    process = subprocess.Popen(
        [*NQUEENS, *arguments, "-t", "60", "--format", "json"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _wait_for_handlers(process.pid)
        time.sleep(delay)
        sent = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)
        _, said = process.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    if process.returncode != 130:
        raise SystemExit(
            f"{' '.join(arguments)}: exit {process.returncode} after SIGINT: {said[-2000:]}"
        )
    return took


def _wait_for_handlers(pid: int) -> float:
    """Wait until nqueens catches stop signals; the seconds that took. SIGTERM tells: Python
    itself catches SIGINT from its first milliseconds, before nqueens has loaded."""
    started = time.monotonic()
    status = Path(f"/proc/{pid}/status")
    while not int(_field(status, "SigCgt"), 16) & (1 << (signal.SIGTERM - 1)):
        time.sleep(0.001)
    return time.monotonic() - started


def handlers_set_after() -> float:
    """Seconds from the start of ``nqueens count 8`` until it handles stop signals."""
    process = subprocess.Popen(
        [*NQUEENS, "count", "8"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        return _wait_for_handlers(process.pid)
    finally:
        process.wait()


def _field(status: Path, name: str) -> str:
    for line in status.read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].strip()
    raise SystemExit(f"no {name} in {status}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=1.0, help="the time limit (s)")
    parser.add_argument("--delay", type=float, default=0.4, help="SIGINT after this (s)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--busy", type=int, default=0, help="busy processes beside (default 0)")
    options = parser.parse_args()
    beside = f"; {options.busy} busy processes beside" if options.busy else ""
    print(
        f"Machine: {machine()}; --time-limit {options.limit:g}, medians of {options.repeat}"
        f"{beside}\n"
    )
    with busy(options.busy):
        measure(options)


def measure(options: argparse.Namespace) -> None:
    """The tables, on the machine as it is."""
    window = statistics.median(handlers_set_after() for _ in range(max(options.repeat, 5)))
    print(f"Stop signals are handled {window * 1000:.0f} ms after the process starts.\n")
    print("| command | engine | N | ends after (s) | over the limit (s) | Ctrl-C at start (s) "
          f"| Ctrl-C after {options.delay:g} s (s) |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    cannot = []
    for name, engine in registry.ENGINES.items():
        for command in sorted(engine.commands):
            n = largest_board(name, command)
            if n is None:
                cannot.append(f"{command} --engine {name}")
                continue
            arguments = [command, str(n), "--engine", name]
            ends = statistics.median(
                limited(arguments, options.limit) for _ in range(options.repeat)
            )
            at_start = statistics.median(stopped(arguments, 0.0) for _ in range(options.repeat))
            later = statistics.median(
                stopped(arguments, options.delay) for _ in range(options.repeat)
            )
            print(
                f"| {command} | {name} | {n:,} | {ends:.2f} | {ends - options.limit:+.2f} "
                f"| {at_start:.2f} | {later:.2f} |",
                flush=True,
            )
    # the edge search's pieces: seconds of work at N = 16, which the join counts in a moment
    cluster = ["count", "16", "--engine", "bitboard", "--cluster", "local:2"]
    cluster_stop = statistics.median(stopped(cluster, 3.0) for _ in range(options.repeat))
    print(f"\nA count on a local cluster of two workers, Ctrl-C 3 s in: {cluster_stop:.2f} s.")
    if cannot:
        print(f"\nNot on this machine (it takes no board here): {', '.join(cannot)}.")


if __name__ == "__main__":
    main()

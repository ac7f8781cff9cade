"""Time `nqueens count N` against the seed's CP-SAT program, side by side in one run.

Every program is timed as a whole process (start-up included), in turn for each repeat so that
machine noise hits them alike; the table shows medians over --repeat runs, the seed/nqueens
ratio, and the peak memory of the nqueens process and its workers.

    python benchmarks/compare_seed.py                      # N = 4..14, seed up to 13, 3 runs
    python benchmarks/compare_seed.py --sizes 8-12 --repeat 5

The seed programs live in shared/peers beside this repository (see --peers).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PEERS = ROOT.parent / "shared" / "peers"


@dataclass(frozen=True)
class Run:
    seconds: float
    solutions: int
    peak_mb: float


def parse_sizes(text: str) -> list[int]:
    """``4-13`` or ``8,10,12`` (or a mix) into a list of board sizes."""
    sizes: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        sizes.extend(range(int(low), int(high or low) + 1))
    return sizes


def timed(command: list[str], solutions_pattern: str) -> Run:
    """Run a command to completion: wall time, the count it printed, and its peak memory.

    The peak comes from wait4, which on Linux covers the process and the workers it waited for.
    """
    with tempfile.TemporaryFile("w+") as stdout, tempfile.TemporaryFile("w+") as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=stdout, stderr=stderr, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        stderr.seek(0)
        output = stdout.read()
        if process.returncode != 0:
            raise RuntimeError(f"{command} failed ({process.returncode}): {stderr.read()}")
    match = re.search(solutions_pattern, output, flags=re.MULTILINE)
    if match is None:
        raise RuntimeError(f"no solution count in the output of {command}: {output!r}")
    return Run(seconds, int(match.group(1)), usage.ru_maxrss / 1024)  # Linux reports KiB


def nqueens_command(n: int, workers: int | None) -> list[str]:
    command = [sys.executable, "-m", "nqueens", "count", str(n), "--quiet"]
    return command if workers is None else [*command, "--workers", str(workers)]


def machine() -> str:
    """One line naming the machine, for the README next to the table."""
    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = re.findall(r"model name\s*:\s*(.+)", cpuinfo.read_text())
        if names:
            cpu = names[0].strip()
    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()}, Python {platform.python_version()}, "
        f"ortools {version('ortools')}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=parse_sizes, default=parse_sizes("4-14"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--seed-max", type=int, default=13, help="largest N to time the seed on (it is slow)"
    )
    parser.add_argument(
        "--peers", type=Path, default=DEFAULT_PEERS, help="the folder with seed_nqueens_sat.py"
    )
    args = parser.parse_args()
    seed_program = args.peers / "seed_nqueens_sat.py"
    if not seed_program.is_file():
        raise SystemExit(
            f"{seed_program} is missing: this benchmark runs the seed program beside nqueens; "
            "pass --peers with the folder that holds it (shared/peers)"
        )

    print(f"Machine: {machine()}; medians of {args.repeat} runs, whole processes.\n")
    print(
        "| N | solutions | nqueens count (s) | nqueens --workers 1 (s) | seed CP-SAT (s) "
        "| seed / nqueens | nqueens peak memory (MB) |"
    )
    print("|---|---|---|---|---|---|---|")
    for n in args.sizes:
        times: dict[str, list[float]] = {"all": [], "one": [], "seed": []}
        counts: set[int] = set()
        peak = 0.0
        for _ in range(args.repeat):
            for key, workers in (("all", None), ("one", 1)):
                run = timed(nqueens_command(n, workers), r"^(\d+)")
                times[key].append(run.seconds)
                counts.add(run.solutions)
                peak = max(peak, run.peak_mb)
            if n <= args.seed_max:
                seed = [sys.executable, str(seed_program), str(n), "--quiet"]
                run = timed(seed, r"solutions found: (\d+)")
                times["seed"].append(run.seconds)
                counts.add(run.solutions)
        if len(counts) != 1:
            raise SystemExit(f"N = {n}: the programs disagree on the count: {sorted(counts)}")
        ours, one = statistics.median(times["all"]), statistics.median(times["one"])
        if times["seed"]:
            seed_median = statistics.median(times["seed"])
            seed_cells = f"{seed_median:.2f} | {seed_median / ours:.1f}x"
        else:
            seed_cells = "not run | —"
        print(
            f"| {n} | {counts.pop():,} | {ours:.2f} | {one:.2f} | {seed_cells} | {peak:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()

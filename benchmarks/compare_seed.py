"""Time `nqueens count N` against the seed's CP-SAT program, side by side in one run.

Both are timed as whole processes (start-up included), alternating so that machine noise hits
both alike; the table shows medians over --repeat runs and the seed/nqueens ratio.

    python benchmarks/compare_seed.py                 # N = 4..13, 3 runs each
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
import time
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PEERS = ROOT.parent / "shared" / "peers"


def parse_sizes(text: str) -> list[int]:
    """``4-13`` or ``8,10,12`` (or a mix) into a list of board sizes."""
    sizes: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        sizes.extend(range(int(low), int(high or low) + 1))
    return sizes


def timed(command: list[str]) -> tuple[float, str]:
    """Run a command to completion; its wall time in seconds and its stdout."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout


def nqueens_count(n: int) -> tuple[float, int]:
    seconds, stdout = timed([sys.executable, "-m", "nqueens", "count", str(n)])
    return seconds, int(stdout)


def seed_count(peers: Path, n: int) -> tuple[float, int]:
    seconds, stdout = timed([sys.executable, str(peers / "seed_nqueens_sat.py"), str(n), "--quiet"])
    match = re.search(r"solutions found: (\d+)", stdout)
    if match is None:
        raise RuntimeError(f"no solution count in the seed's output: {stdout!r}")
    return seconds, int(match.group(1))


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=parse_sizes, default=parse_sizes("4-13"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--peers", type=Path, default=DEFAULT_PEERS)
    args = parser.parse_args()

    print(f"Machine: {machine()}; medians of {args.repeat} runs, whole processes.\n")
    print("| N | solutions | nqueens count (s) | seed CP-SAT (s) | seed / nqueens |")
    print("|---|---|---|---|---|")
    for n in args.sizes:
        ours: list[float] = []
        seeds: list[float] = []
        for _ in range(args.repeat):
            seconds, count = nqueens_count(n)
            ours.append(seconds)
            seed_seconds, seed_solutions = seed_count(args.peers, n)
            seeds.append(seed_seconds)
            if count != seed_solutions:
                raise SystemExit(f"N = {n}: nqueens counted {count}, the seed {seed_solutions}")
        ours_median, seed_median = statistics.median(ours), statistics.median(seeds)
        print(
            f"| {n} | {count:,} | {ours_median:.2f} | {seed_median:.2f} "
            f"| {seed_median / ours_median:.2f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()

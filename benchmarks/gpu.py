"""Time `nqueens count N --engine gpu` and check every count: the table of the README's GPU section.

Whole processes (start-up, the kernel's compile and the copies included), medians over --repeat
runs; each count and class count is checked against the published ones (tests/data/counts.json),
and a wrong one stops the run. For each N: the time, the pieces, the time the device took, and
solutions per second (the kernel counts no placements: a placements-per-second column needs a
counter in it, to be weighed against its cost on a device). The device is named above the table,
with the date.

    python benchmarks/gpu.py                                   # N = 16..22 on the GPU
    python benchmarks/gpu.py --sizes 18-20 --repeat 3
    NUMBA_ENABLE_CUDASIM=1 python benchmarks/gpu.py --sizes 6-7  # the script itself, no GPU
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import sys
import time

from compare_seed import ROOT, parse_sizes

COUNTS = json.loads((ROOT / "tests" / "data" / "counts.json").read_text())


def counted(n: int) -> tuple[float, dict[str, object]]:
    """One whole-process count on the gpu engine: its seconds and its JSON record."""
    command = [sys.executable, "-m", "nqueens", "count", str(n), "--engine", "gpu"]
    command += ["--unique", "--stats", "--format", "json"]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"N = {n}: nqueens exited {done.returncode}: {done.stderr.strip()}")
    record: dict[str, object] = json.loads(done.stdout)
    truth = (int(COUNTS["total"][str(n)]), int(COUNTS["unique"][str(n)]))
    if (record["solutions"], record["unique"]) != truth:
        raise SystemExit(
            f"N = {n}: the gpu engine counted {record['solutions']} ({record['unique']} "
            f"classes), the published counts are {truth[0]} ({truth[1]})"
        )
    return seconds, record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=parse_sizes, default=parse_sizes("16-22"))
    parser.add_argument("--repeat", type=int, default=1)
    options = parser.parse_args()
    rows = []
    device = ""
    for n in options.sizes:
        runs = [counted(n) for _ in range(options.repeat)]
        seconds = statistics.median(run[0] for run in runs)
        record = runs[-1][1]
        device = str(record["backend"])
        device_seconds = (
            statistics.median(int(str(run[1]["device microseconds"])) for run in runs) / 1e6
        )
        solutions = int(str(record["solutions"]))
        rows.append(
            f"| {n} | {solutions:,} | {seconds:.2f} | {record['pieces']:,} | "
            f"{device_seconds:.2f} | {solutions / seconds:,.0f} |"
        )
    print(f"Device: {device}; {datetime.date.today()}; medians of {options.repeat} runs.\n")
    print("| N | solutions | seconds | pieces | on the device (s) | solutions per second |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    sizes = ", ".join(map(str, options.sizes))
    print(f"\nEvery count and class count checked against the published ones: N = {sizes}.")


if __name__ == "__main__":
    main()

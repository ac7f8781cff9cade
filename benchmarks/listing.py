"""Time `nqueens solve N` in each format it writes, and `verify` reading it back, against a C
program that prints every solution, side by side, and check every count.

Whole processes, start-up included, output to a file (the listing) or a pipe (verify), in turn
for each repeat so that machine noise hits them alike; medians over --repeat runs, peak memory
from wait4 (the largest process of a pipeline). The peer, ``benchmarks/peers/printer.c``, is
compiled here with gcc -O3 -march=native: bitmask backtracking that writes each solution's
1-based rows through a large buffer, the least a program can do to print them all. Every output
is counted (its records, lines or boards checked) against the published counts, and a wrong one
stops the run.

    python benchmarks/listing.py                        # N = 12, 14, 16, 3 runs: the docs' table
    python benchmarks/listing.py --sizes 10,12 --repeat 1
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from counting import compile_peer
from ortools_program import ROOT, machine, parse_sizes

COUNTS = json.loads((ROOT / "tests" / "data" / "counts.json").read_text())
NQUEENS = [sys.executable, "-m", "nqueens"]


def timed(command: str, output: Path) -> tuple[float, float, str]:
    """Run a shell command line with stdout to ``output``: its seconds, its peak memory in MB
    and its stderr."""
    with output.open("wb") as stdout, tempfile.TemporaryFile("w+") as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(["bash", "-c", command], stdout=stdout, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        stderr.seek(0)
        errors = stderr.read()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{command} failed ({code}): {errors[-500:]}")
    return seconds, usage.ru_maxrss / 1024, errors


def lines_with(path: Path, marker: bytes) -> int:
    """How many lines of a file hold ``marker`` (a record's, a board's), read in chunks."""
    count = 0
    with path.open("rb") as text:
        for line in text:
            count += marker in line
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=parse_sizes, default=parse_sizes("12,14,16"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--peers", type=Path, default=ROOT / "benchmarks" / "peers")
    args = parser.parse_args()
    nqueens = " ".join(NQUEENS)
    with tempfile.TemporaryDirectory() as folder:
        printer = compile_peer(args.peers / "printer.c", Path(folder))
        output = Path(folder) / "output"
        print(f"Machine: {machine()}; medians of {args.repeat}, whole processes.\n")
        print("| N | work | solutions | seconds | peak memory (MB) | against printer.c |")
        print("|---|---|---|---|---|---|")
        for n in args.sizes:
            total, unique = int(COUNTS["total"][str(n)]), int(COUNTS["unique"][str(n)])
            solve = f"{nqueens} solve {n} --quiet"
            works = [  # what runs, its command line, the count it must hold, how to count it
                ("printer.c", f"{printer} {n}", total, b"\n"),
                ("solve --style compact", f"{solve} --style compact", total, b"\n"),
                ("solve --format json", f"{solve} --format json", total, b'"rows"'),
                (
                    "solve --unique --style compact",
                    f"{solve} --unique --style compact",
                    unique,
                    b"\n",
                ),
                (
                    "solve --style compact, piped to verify",
                    f"{solve} --style compact | {nqueens} verify",
                    total,
                    None,
                ),
            ]
            runs: dict[str, list[tuple[float, float]]] = {work[0]: [] for work in works}
            for _ in range(args.repeat):
                for name, command, expected, marker in works:
                    seconds, peak, errors = timed(command, output)
                    if marker is None:  # verify says how many boards it checked
                        found = (
                            expected if f"{expected:,} boards checked: all valid." in errors else -1
                        )
                    else:
                        found = lines_with(output, marker)
                    if found != expected:
                        raise SystemExit(f"N = {n}, {name}: {found:,} solutions, not {expected:,}")
                    runs[name].append((seconds, peak))
            printer_seconds = statistics.median(seconds for seconds, _ in runs["printer.c"])
            for name, _, expected, _ in works:
                seconds = statistics.median(second for second, _ in runs[name])
                peak = max(peak for _, peak in runs[name])
                ratio = seconds / printer_seconds if printer_seconds else float("nan")
                print(
                    f"| {n} | {name} | {expected:,} | {seconds:.2f} | {peak:.0f} | {ratio:.2f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()

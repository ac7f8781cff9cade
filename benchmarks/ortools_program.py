"""Time `nqueens count N` against the CP-SAT program of the OR-Tools N-queens guide, side by side
in one run; with --solve, `nqueens solve N` against that program printing every board.

Every program is timed as a whole process (start-up included), in turn for each repeat so that
machine noise hits them alike; the table shows medians over --repeat runs, the program/nqueens
ratio, and the peak memory of the nqueens process and its workers.

    python benchmarks/ortools_program.py --program P       # N = 4..14, the program to 13, 3 runs
    python benchmarks/ortools_program.py --program P --sizes 8-12 --repeat 5
    python benchmarks/ortools_program.py --program P --solve --sizes 4-10 --repeat 11

The program is the OR-Tools guide's, another project's code that this one does not hold: give
its path with --program. It is ortools/sat/samples/nqueens_sat.py in the repository
google/or-tools (at commit 189bd79aaecaeef171a234426657c8cea3339d36, Apache License 2.0). It is
run as published: it prints every board, here into a file, when it counts too.

    python benchmarks/ortools_program.py --program ~/or-tools/ortools/sat/samples/nqueens_sat.py
"""

from __future__ import annotations

import argparse
import json
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
WHERE = (
    "ortools/sat/samples/nqueens_sat.py of github.com/google/or-tools "
    "(commit 189bd79aaecaeef171a234426657c8cea3339d36)"
)
PROGRAM_COUNT = r"solutions found: (\d+)"
KNOWN_COUNTS = json.loads((ROOT / "tests" / "data" / "counts.json").read_text())["total"]


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
    """Run a command to completion: wall time, the count it printed (on stdout, or else on
    stderr), and its peak memory.

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
        output, errors = stdout.read(), stderr.read()
        if process.returncode != 0:
            raise RuntimeError(f"{command} failed ({process.returncode}): {errors}")
    match = re.search(solutions_pattern, output, flags=re.MULTILINE) or re.search(
        solutions_pattern, errors, flags=re.MULTILINE
    )
    if match is None:
        raise RuntimeError(f"no solution count in the output of {command}: {errors[-300:]!r}")
    solutions = int(match.group(1).replace(",", ""))
    return Run(seconds, solutions, usage.ru_maxrss / 1024)  # Linux reports KiB


def nqueens_command(n: int, workers: int | None) -> list[str]:
    command = [sys.executable, "-m", "nqueens", "count", str(n), "--quiet"]
    return command if workers is None else [*command, "--workers", str(workers)]


def solve_command(n: int) -> list[str]:
    """``nqueens solve N``, every board printed (to a file: plain text, as in a pipe)."""
    return [sys.executable, "-m", "nqueens", "solve", str(n)]


def machine() -> str:
    """One line naming the machine, for the documentation, next to the table."""
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
        "--program-max", type=int, default=13, help="largest N to time the program on (it is slow)"
    )
    parser.add_argument(
        "--program", type=Path, required=True, help=f"the OR-Tools guide's program: {WHERE}"
    )
    parser.add_argument(
        "--solve",
        action="store_true",
        help="time `nqueens solve N` against the OR-Tools program, both printing every board",
    )
    args = parser.parse_args()
    program = args.program
    if not program.is_file():
        raise SystemExit(
            f"{program} is missing: this benchmark runs the OR-Tools guide's program beside "
            f"nqueens; give --program its path, {WHERE}"
        )

    print(f"Machine: {machine()}; medians of {args.repeat} runs, whole processes.\n")
    if args.solve:
        compare_solve(args.sizes, args.repeat, program, args.program_max)
    else:
        compare_count(args.sizes, args.repeat, program, args.program_max)


def compare_count(sizes: list[int], repeat: int, program: Path, program_max: int) -> None:
    """The table of ``nqueens count N`` (all cores and one) against the OR-Tools program, which
    prints every board as it counts."""
    print(
        "| N | solutions | nqueens count (s) | nqueens --workers 1 (s) | OR-Tools program (s) "
        "| program / nqueens | nqueens peak memory (MB) |"
    )
    print("|---|---|---|---|---|---|---|")
    for n in sizes:
        times: dict[str, list[float]] = {"all": [], "one": [], "program": []}
        counts: set[int] = set()
        peak = 0.0
        for _ in range(repeat):
            for key, workers in (("all", None), ("one", 1)):
                run = timed(nqueens_command(n, workers), r"^(\d+)")
                times[key].append(run.seconds)
                counts.add(run.solutions)
                peak = max(peak, run.peak_mb)
            if n <= program_max:
                run = timed([sys.executable, str(program), str(n)], PROGRAM_COUNT)
                times["program"].append(run.seconds)
                counts.add(run.solutions)
        ours, one = statistics.median(times["all"]), statistics.median(times["one"])
        cells = f"{ours:.2f} | {one:.2f} | {program_cells(times['program'], ours)} | {peak:.0f}"
        print(f"| {n} | {agreed(n, counts):,} | {cells} |", flush=True)


def compare_solve(sizes: list[int], repeat: int, program: Path, program_max: int) -> None:
    """The table of ``nqueens solve N`` against the OR-Tools program, both printing every board."""
    print("| N | solutions | nqueens solve (s) | OR-Tools program (s) | program / nqueens |")
    print("|---|---|---|---|---|")
    for n in sizes:
        times: dict[str, list[float]] = {"ours": [], "program": []}
        counts: set[int] = set()
        for _ in range(repeat):
            run = timed(solve_command(n), r"^([\d,]+) solutions? for N")
            times["ours"].append(run.seconds)
            counts.add(run.solutions)
            if n <= program_max:
                run = timed([sys.executable, str(program), str(n)], PROGRAM_COUNT)
                times["program"].append(run.seconds)
                counts.add(run.solutions)
        ours = statistics.median(times["ours"])
        print(
            f"| {n} | {agreed(n, counts):,} | {ours:.2f} "
            f"| {program_cells(times['program'], ours)} |",
            flush=True,
        )


def agreed(n: int, counts: set[int]) -> int:
    """The one count every program gave for N; the run fails where they differ, or where it is
    not the published count."""
    if counts != {KNOWN_COUNTS[str(n)]}:
        raise SystemExit(
            f"N = {n}: the programs counted {sorted(counts)}, not {KNOWN_COUNTS[str(n)]:,}"
        )
    return counts.pop()


def program_cells(program_times: list[float], ours: float) -> str:
    """The program's median and its ratio to nqueens, or why there are none."""
    if not program_times:
        return "not run | —"
    program_median = statistics.median(program_times)
    return f"{program_median:.2f} | {program_median / ours:.1f}x"


if __name__ == "__main__":
    main()

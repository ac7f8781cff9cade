"""One solution at any size: whole processes of ``nqueens first`` and ``nqueens verify``.

Times (medians over --repeat runs) and peak memory of ``first`` for growing N on the auto plan,
the local engine and the original CP solver's first-fail search, and of ``verify`` on the JSON of
the largest board. Every board printed is checked here in O(N) (a permutation whose sums and
differences are distinct), never by nqueens itself.

    python benchmarks/large.py                       # the tables of docs/explanation/performance.md
    python benchmarks/large.py --sizes 1000,10000 --repeat 1
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

from ortools_program import machine, parse_sizes

NQUEENS = [sys.executable, "-m", "nqueens"]


def check_board(rows: list[int]) -> None:
    """Exit unless ``rows`` (0-based) is a solution."""
    n = len(rows)
    if (
        sorted(rows) != list(range(n))
        or len({row + col for col, row in enumerate(rows)}) != n
        or len({row - col for col, row in enumerate(rows)}) != n
    ):
        raise SystemExit(f"N = {n}: the board printed is not a solution")


def run(arguments: list[str], stdout_path: Path | None = None) -> tuple[float, float, int]:
    """Run nqueens as a whole process: seconds, its own peak memory (MB, from wait4), exit code."""
    with open(stdout_path or os.devnull, "w") as out:
        started = time.perf_counter()
        process = subprocess.Popen([*NQUEENS, *arguments], stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
    return seconds, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def first_row(n: int, engine: str, repeat: int, folder: Path, time_limit: float) -> str:
    """One table cell: the median time and the peak memory, each board checked."""
    times = []
    peak = 0.0
    for attempt in range(repeat):
        path = folder / f"{engine}-{n}-{attempt}.json"
        arguments = ["first", str(n), "--format", "json", "--time-limit", f"{time_limit:g}"]
        if engine != "auto":
            arguments += ["--engine", engine]
        seconds, memory, code = run(arguments, path)
        if code == 3:
            return f"> {time_limit:g} s"
        if code != 0:
            return f"exit {code}"
        check_board(json.loads(path.read_text().splitlines()[0])["rows"])
        path.unlink()
        times.append(seconds)
        peak = max(peak, memory)
    return f"{statistics.median(times):.2f} s, {peak:.0f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--sizes", type=parse_sizes, default=parse_sizes("500,1000,1600,2000,5000,10000")
    )
    parser.add_argument("--large", type=parse_sizes, default=parse_sizes("100000,1000000,10000000"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args()
    print(f"Machine: {machine()}; medians of {args.repeat} runs, whole processes.\n")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        print("| N | first (auto) | first --engine local | first --engine cp |")
        print("|---|---|---|---|")
        for n in args.sizes:
            cells = [
                first_row(n, engine, args.repeat, folder, args.time_limit)
                for engine in ("auto", "local", "cp")
            ]
            print(f"| {n:,} | " + " | ".join(cells) + " |", flush=True)
        print("\n| N | first (auto) | verify of its JSON |")
        print("|---|---|---|")
        for n in args.large:
            cell = first_row(n, "auto", args.repeat, folder, args.time_limit)
            board = folder / "board.json"
            run(["first", str(n), "--format", "json", "--seed", "1"], board)
            check_board(json.loads(board.read_text().splitlines()[0])["rows"])
            times = []
            peak = 0.0
            for _ in range(args.repeat):
                seconds, memory, code = run(["verify", str(board)])
                if code != 0:
                    raise SystemExit(f"N = {n}: verify said exit {code} for a solution")
                times.append(seconds)
                peak = max(peak, memory)
            board.unlink()
            verified = f"{statistics.median(times):.2f} s, {peak:.0f} MB"
            print(f"| {n:,} | {cell} | {verified} |", flush=True)


if __name__ == "__main__":
    main()

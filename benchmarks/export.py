"""Time `nqueens export N` in every format, with the size of each file and the memory it took,
beside the time OR-Tools' own exporter takes to write the LP and MPS text of the same program.

Whole processes, start-up included, writing to a file; medians over --repeat runs, taken in turn
so that machine noise hits every format alike; peak memory from wait4. Each file is checked: its
header names the board, and a DIMACS file holds as many clauses as its `p cnf` line says.

    python benchmarks/export.py                       # N = 1,000, 3 runs: the docs' table
    python benchmarks/export.py --sizes 100,1000 --repeat 1
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ortools_program import machine, parse_sizes

from nqueens.core.board import Board
from nqueens.export import FORMATS

NQUEENS = [sys.executable, "-m", "nqueens"]


def timed(arguments: list[str]) -> tuple[float, float]:
    """Run a command: its seconds and its peak memory in MB."""
    start = time.perf_counter()
    process = subprocess.Popen(arguments, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    errors = process.stderr.read().decode() if process.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(arguments)} failed: {errors[-500:]}")
    return seconds, usage.ru_maxrss / 1024


def checked(path: Path, n: int, name: str) -> None:
    """Stop the run where a file is not what it says."""
    with path.open("rb") as text:
        head = [text.readline() for _ in range(2)]
        if f"Board: N = {n}.".encode() not in head[1]:
            raise SystemExit(f"{name}: the header does not name N = {n}: {head[1]!r}")
        if name != "dimacs":
            return
        clauses = 0
        declared = -1
        for line in text:
            if line.startswith(b"p cnf"):
                declared = int(line.split()[3])
            elif not line.startswith(b"c"):
                clauses += 1
    if clauses != declared:
        raise SystemExit(f"dimacs: {clauses:,} clauses, and its p line says {declared:,}")


def exporter_alone(n: int, form: str) -> float:
    """Seconds OR-Tools' exporter takes to write the program's text, the program built first."""
    from ortools.linear_solver import pywraplp

    from nqueens.export.linear import _program

    program = _program(Board(n), maximize=form == "lp")
    options = pywraplp.ModelExportOptions()
    start = time.perf_counter()
    if form == "lp":
        pywraplp.ExportModelAsLpFormat(program, options)
    else:
        pywraplp.ExportModelAsMpsFormat(program, options)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=parse_sizes, default=parse_sizes("1000"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"Machine: {machine()}; medians of {args.repeat}, whole processes.\n")
    print("| N | format | seconds | file (MB) | peak memory (MB) | OR-Tools' exporter alone (s) |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for n in args.sizes:
            runs: dict[str, list[tuple[float, float]]] = {name: [] for name in FORMATS}
            sizes: dict[str, int] = {}
            for _ in range(args.repeat):
                for name in FORMATS:
                    path = Path(folder) / f"model-{name}"
                    runs[name].append(
                        timed([*NQUEENS, "export", str(n), "--to", name, "-o", str(path)])
                    )
                    checked(path, n, name)
                    sizes[name] = path.stat().st_size
                    path.unlink()
            for name in FORMATS:
                seconds = statistics.median(second for second, _ in runs[name])
                peak = max(peak for _, peak in runs[name])
                alone = "-"
                if name in ("lp", "mps"):
                    exporter = [exporter_alone(n, name) for _ in range(args.repeat)]
                    alone = f"{statistics.median(exporter):.2f}"
                size = sizes[name] / 1e6
                print(
                    f"| {n:,} | {name} | {seconds:.2f} | {size:.1f} | {peak:.0f} | {alone} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()

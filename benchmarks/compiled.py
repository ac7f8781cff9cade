"""nqueens's searches in C as a user meets them, beside another installation of nqueens.

``--against PYTHON`` names the other installation's interpreter (a release whose searches numba
compiled on first use, say); both run the same commands side by side in one run, as whole
processes, in turn for each repeat so that machine noise hits them alike: medians of --repeat
runs (``count 8``: the best of 5). Rows:

- the installation's size: ``du -sm`` of its environment (sys.prefix);
- the first run after an install, ``first 100000 -t 1.5 | verify``, with nothing kept by an
  earlier run (an installation with numba gets an empty cache each time), and a later run;
- start-up, ``count 8``; a large first solution, ``first 1000000``;
- puzzles and rules counted on every core;
- Excluded Diagonals instances at the phase transition (benchmarks/diagonals.py's generator,
  after the JAIR 2017 paper), decided (``first``) and counted.

Every count is checked against the published counts, and the two installations must agree.

    python benchmarks/compiled.py
    python benchmarks/compiled.py --against ../numba-release/.venv/bin/python --repeat 3
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

from diagonals import generate, instance_text
from ortools_program import ROOT, machine

COUNTS = json.loads((ROOT / "tests" / "data" / "counts.json").read_text())["total"]

RULED = {
    "count 16 --queen 1,2 --queen 2,4": None,  # checked between the installations
    "count 17 --torus": 140692,  # OEIS A007705
    "count 15 --superqueens": 32516,  # OEIS A051223
}


def run(python: str, arguments: str, env: dict[str, str]) -> tuple[float, str]:
    """Seconds for ``python -m nqueens arguments`` (a ``|`` pipes into a second nqueens), and
    the last process's stdout; a failure stops the benchmark."""
    commands = [[python, "-m", "nqueens", *part.split()] for part in arguments.split("|")]
    started = time.perf_counter()
    feed = None
    processes = []
    for at, command in enumerate(commands):
        last = at == len(commands) - 1
        process = subprocess.Popen(
            command,
            stdin=feed,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE if last else subprocess.DEVNULL,
            env=env,
            text=last,
        )
        if feed is not None:
            feed.close()
        feed = process.stdout
        processes.append(process)
    output, errors = processes[-1].communicate()
    for process in processes[:-1]:
        process.wait()
    seconds = time.perf_counter() - started
    if any(process.returncode not in (0, 1, 3) for process in processes):  # 1: no solution
        codes = [process.returncode for process in processes]
        raise SystemExit(f"{python} -m nqueens {arguments}: exit {codes}: {errors}")
    return seconds, output


def environment_size(python: str) -> int:
    prefix = subprocess.run(
        [python, "-c", "import sys; print(sys.prefix)"], capture_output=True, text=True, check=True
    ).stdout.strip()
    du = subprocess.run(["du", "-sm", prefix], capture_output=True, text=True, check=True)
    return int(du.stdout.split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--against", help="another installation's Python, run side by side")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    installations = {"this": sys.executable}
    if args.against:
        installations["other"] = args.against
    print(f"Machine: {machine()}; medians of {args.repeat} runs, whole processes.\n")
    names = list(installations)
    print("| work | " + " | ".join(f"{name} (s)" for name in names) + " |")
    print("|---|" + "---|" * len(names))
    sizes = [f"{environment_size(python)} MB" for python in installations.values()]
    print("| the installation, du -sm | " + " | ".join(sizes) + " |")

    def row(label: str, arguments: str, expected: int | None, fresh: bool = False) -> None:
        times: dict[str, list[float]] = {name: [] for name in names}
        answers: dict[str, str] = {}
        runs = 5 if arguments == "count 8" else args.repeat
        for _ in range(runs):
            for name, python in installations.items():
                with tempfile.TemporaryDirectory() as cache:
                    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
                    if not fresh:  # a later run: what the first one kept is there
                        run(python, arguments, env)
                    seconds, output = run(python, arguments, env)
                times[name].append(seconds)
                answers[name] = output.split()[0] if "count" in arguments else "ok"
        if expected is not None and any(int(a) != expected for a in answers.values()):
            raise SystemExit(f"{arguments}: counted {answers}, the published count is {expected}")
        if len(set(answers.values())) != 1:
            raise SystemExit(f"{arguments}: the installations disagree: {answers}")
        pick = min if arguments == "count 8" else statistics.median
        print(f"| {label} | " + " | ".join(f"{pick(times[name]):.2f}" for name in names) + " |")

    pipeline = "first 100000 -t 1.5 | verify"
    shown = "`first 100000 -t 1.5` piped to `verify`"  # a bar in a table's code shows its escape
    row(f"{shown}, first run after an install", pipeline, None, fresh=True)
    row(f"{shown}, a later run", pipeline, None)
    row("`count 8` (best of 5)", "count 8", COUNTS["8"])
    row("`first 1000000`", "first 1000000", None)
    for arguments, expected in RULED.items():
        row(f"`{arguments}`", arguments, expected)
    with tempfile.TemporaryDirectory() as folder:
        for n in (18, 20):
            diagonals = generate(n, 1)
            path = Path(folder) / f"diag-{n}-1.param"
            path.write_text(instance_text(n, diagonals))
            for d in (n - 2, n):
                board = f"--board {path} --diagonals {d}"
                row(f"`first` n = {n}, d = {d}", f"first {board} --format json", None)
                row(f"`count` n = {n}, d = {d}", f"count {board}", None)


if __name__ == "__main__":
    main()

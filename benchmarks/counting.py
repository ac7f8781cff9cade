"""Time `nqueens count N` against C bitmask counters, side by side, and check every count.

Whole processes, start-up included, in turn for each repeat so that machine noise hits them alike;
medians over --repeat runs. The peers, compiled here with gcc -O3 -march=native (their fastest
build on the machine at hand):

- ``bitboard.c`` (benchmarks/peers): Somers-style bitmasks with the left-right mirror, one core;
- ``takaken.c`` (benchmarks/peers): Takaken's counter with all 8 symmetries, one core, so
  ``nqueens --workers 1`` against it is the per-core comparison.

With --join-counter FOLDER, it also times the fastest counter that does not backtrack, beside
``nqueens count N`` (the join engine, for plain boards from N = 14) for --join-sizes: the
quadrant-join counter of EvgenyKluev/N-Queens-Count-Sol on GitHub (commit
580f44458d14a3352bf37ccd58d9f0b96de41c05, MIT), another project's code that this one does not
hold. It is built from FOLDER (a clone of that repository) once per size, as its solcounter.h
asks: the size and its table's settings for that size written in, prefetching and BMI2 turned on
where the table says, ``g++ -std=c++20 -O3 -march=x86-64-v3``. ``--join-bmi2 off`` leaves BMI2
off at every size: the table's choice for N = 19 on, it is the slower build on processors whose
BMI2 is microcoded (AMD's before Zen 3). Both run on one core and on both:
wall time, processor time, and the peak memory of the whole process tree (sampled every 20 ms).

Every count is checked against the published counts (tests/data/counts.json); a wrong one stops
the run. (The first run after an install is benchmarks/compiled.py's.)

    python benchmarks/counting.py                       # N = 8, 12..17, 3 runs
    python benchmarks/counting.py --sizes 16-18 --repeat 1
    python benchmarks/counting.py --sizes 8 --repeat 1 --join-counter ~/N-Queens-Count-Sol \
        --join-sizes 16-20
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ortools_program import ROOT, machine, parse_sizes, timed

COUNTS = json.loads((ROOT / "tests" / "data" / "counts.json").read_text())


def compile_peer(source: Path, folder: Path) -> Path:
    """``gcc -O3 -march=native`` a C counter into ``folder``; SystemExit with the reason when it
    cannot."""
    if not source.exists():
        raise SystemExit(f"{source} is missing: pass --peers with the folder that holds it")
    binary = folder / source.stem
    command = ["gcc", "-O3", "-march=native", "-o", str(binary), str(source)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"gcc could not build {source}: {done.stderr}")
    return binary


def nqueens(n: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "nqueens", "count", str(n), "--quiet", *extra]


def check(n: int, solutions: int, who: str) -> None:
    truth = int(COUNTS["total"][str(n)])
    if solutions != truth:
        raise SystemExit(f"N = {n}: {who} counted {solutions:,}, the published count is {truth:,}")


def speed_table(sizes: list[int], repeat: int, bitboard: Path, takaken: Path) -> None:
    print(
        "| N | solutions | nqueens count (s) | nqueens --workers 1 (s) | bitboard.c (s) "
        "| takaken.c (s) | nqueens / takaken.c | nqueens -w1 / takaken.c | peak memory (MB) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        runs: dict[str, list[float]] = {"all": [], "one": [], "bitboard": [], "takaken": []}
        peak = 0.0
        for _ in range(repeat):
            for key, command, pattern in (
                ("all", nqueens(n), r"^(\d+)"),
                ("one", nqueens(n, "--workers", "1"), r"^(\d+)"),
                ("bitboard", [str(bitboard), str(n)], r"^(\d+)"),
                ("takaken", [str(takaken), str(n)], r"^(\d+)"),
            ):
                run = timed(command, pattern)
                check(n, run.solutions, key)
                runs[key].append(run.seconds)
                if key in ("all", "one"):
                    peak = max(peak, run.peak_mb)
        medians = {key: statistics.median(times) for key, times in runs.items()}
        print(
            f"| {n} | {COUNTS['total'][str(n)]:,} | {medians['all']:.2f} | {medians['one']:.2f} "
            f"| {medians['bitboard']:.2f} | {medians['takaken']:.2f} "
            f"| {medians['all'] / medians['takaken']:.2f} "
            f"| {medians['one'] / medians['takaken']:.2f} | {peak:.0f} |",
            flush=True,
        )


JOIN_COUNTER = "EvgenyKluev/N-Queens-Count-Sol on GitHub (commit 580f444, MIT)"

JOIN_SETTINGS = {  # its solcounter.h's table: sieveCuts, matchMinSize, BMI2, prefetch
    16: (0, 40, False, True),
    17: (0, 40, False, True),
    18: (0, 40, False, True),
    19: (0, 40, True, True),
    20: (3, 60, True, True),
    21: (3, 60, True, False),
    22: (6, 80, True, True),
}


def build_join_counter(source: Path, n: int, folder: Path, bmi2: bool) -> Path:
    """The join counter for size n, built from its source folder as its solcounter.h asks (BMI2
    only where ``bmi2`` allows; main() has checked that ``source`` holds it)."""
    if n not in JOIN_SETTINGS:
        raise SystemExit(f"the join counter's table has settings for N = 16..22, not {n}")
    cuts, minimum, bmi, prefetch = JOIN_SETTINGS[n]
    bmi = bmi and bmi2
    build = folder / f"join{n}"
    shutil.copytree(source, build)
    header = (build / "solcounter.h").read_text()
    for name, value in (
        ("size", str(n)),
        (".sieveCuts", str(cuts)),
        (".matchMinSize", str(minimum)),
        (".bmiIntrin", str(bmi).lower()),
        (".prefetch", str(prefetch).lower()),
    ):
        header = re.sub(rf"({re.escape(name)} = )[^,;]+", rf"\g<1>{value}", header, count=1)
    (build / "solcounter.h").write_text(header)
    for file, include, wanted in (
        ("prefetch.h", "prefetchx86.h", prefetch),
        ("bmintrin.h", "bmi2.h", bmi),
    ):
        if wanted:
            text = (build / file).read_text()
            (build / file).write_text(
                text.replace(f'//#include "{include}"', f'#include "{include}"')
            )
    binary = build / "join"
    command = ["g++", "-std=c++20", "-O3", "-march=x86-64-v3", "main.cpp", "-o", "join"]
    done = subprocess.run([*command, "-lpthread"], cwd=build, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"g++ could not build the join counter for N = {n}: {done.stderr[-2000:]}")
    return binary


@dataclass(frozen=True)
class TreeRun:
    seconds: float
    processor: float
    solutions: int
    peak_mb: float


def tree_memory(pid: int) -> int:
    """The resident memory of ``pid`` and every process below it, in bytes."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            statm = Path(f"/proc/{current}/statm").read_text().split()
            total += int(statm[1]) * os.sysconf("SC_PAGE_SIZE")
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(child) for child in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return total


def timed_tree(command: list[str], pattern: str) -> TreeRun:
    """A whole process run: wall and processor time (its children's included), the count it
    printed and the peak resident memory of its process tree."""
    before = os.times()
    with tempfile.TemporaryFile("w+") as stdout, tempfile.TemporaryFile("w+") as stderr:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=stdout, stderr=stderr, text=True)
        peak = 0
        while process.poll() is None:
            peak = max(peak, tree_memory(process.pid))
            time.sleep(0.02)
        seconds = time.perf_counter() - started
        after = os.times()  # the process was waited for: its times, and its children's, are in
        stdout.seek(0)
        stderr.seek(0)
        output, errors = stdout.read(), stderr.read()
    processor = after.children_user - before.children_user
    processor += after.children_system - before.children_system
    if process.returncode != 0:
        raise SystemExit(f"{command} failed ({process.returncode}): {errors[-500:]}")
    match = re.search(pattern, output, flags=re.MULTILINE)
    if match is None:
        raise SystemExit(f"no count in the output of {command}: {output[-300:]!r}")
    return TreeRun(seconds, processor, int(match.group(1)), peak / 2**20)


def join_table(sizes: list[int], repeat: int, source: Path, bmi2: bool) -> None:
    """``nqueens count N`` beside the join counter on one core and on both, for each size."""
    print(
        "\n| N | work | nqueens (s) | join counter (s) | nqueens / join counter "
        "| nqueens CPU (s) | join counter CPU (s) | nqueens peak (MB) | join counter peak (MB) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for n in sizes:
            binary = build_join_counter(source, n, Path(folder), bmi2)
            for cores in (1, 2):
                ours = nqueens(n, "--workers", str(cores))
                theirs = [str(binary), str(cores)]
                runs: dict[str, list[TreeRun]] = {"ours": [], "theirs": []}
                for _ in range(repeat):
                    for key, command, pattern in (
                        ("ours", ours, r"^(\d+)"),
                        ("theirs", theirs, r"^Result: (\d+)"),
                    ):
                        run = timed_tree(command, pattern)
                        check(n, run.solutions, key)
                        runs[key].append(run)
                wall = {k: statistics.median(r.seconds for r in v) for k, v in runs.items()}
                cpu = {k: statistics.median(r.processor for r in v) for k, v in runs.items()}
                peak = {k: max(r.peak_mb for r in v) for k, v in runs.items()}
                work = "`--workers 1` / 1 thread" if cores == 1 else "both cores / 2 threads"
                print(
                    f"| {n} | {work} | {wall['ours']:.2f} | {wall['theirs']:.2f} "
                    f"| {wall['ours'] / wall['theirs']:.2f} | {cpu['ours']:.2f} "
                    f"| {cpu['theirs']:.2f} | {peak['ours']:.0f} | {peak['theirs']:.0f} |",
                    flush=True,
                )


def unique_check(sizes: list[int]) -> None:
    """``count --unique`` in JSON, checked against both published sequences."""
    for n in sizes:
        done = subprocess.run(
            nqueens(n, "--unique", "--format", "json"), capture_output=True, text=True, check=True
        )
        record = json.loads(done.stdout)
        check(n, record["solutions"], "nqueens")
        if record["unique"] != int(COUNTS["unique"][str(n)]):
            raise SystemExit(f"N = {n}: nqueens counted {record['unique']:,} unique solutions")
    print(f"\ncount --unique checked against A000170 and A002562 for N = {sizes[0]}..{sizes[-1]}.")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=parse_sizes, default=parse_sizes("8,12-17"))
    parser.add_argument("--unique-sizes", type=parse_sizes, default=parse_sizes("1-16"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--peers",
        type=Path,
        default=ROOT / "benchmarks" / "peers",
        help="the folder with bitboard.c (benchmarks/peers)",
    )
    parser.add_argument(
        "--join-counter",
        type=Path,
        help=f"a clone of {JOIN_COUNTER}: time it beside nqueens for --join-sizes",
    )
    parser.add_argument("--join-sizes", type=parse_sizes, default=parse_sizes("16-20"))
    parser.add_argument(
        "--join-bmi2",
        choices=("table", "off"),
        default="table",
        help="BMI2 in the join counter where its table says (table), or nowhere (off)",
    )
    args = parser.parse_args()
    if args.join_counter is not None and not (args.join_counter / "solcounter.h").exists():
        raise SystemExit(
            f"{args.join_counter} holds no solcounter.h: pass --join-counter with a clone of "
            f"{JOIN_COUNTER}"
        )
    with tempfile.TemporaryDirectory() as folder:
        bitboard = compile_peer(args.peers / "bitboard.c", Path(folder))
        takaken = compile_peer(ROOT / "benchmarks" / "peers" / "takaken.c", Path(folder))
        print(f"Machine: {machine()}; medians of {args.repeat} runs, whole processes.\n")
        speed_table(args.sizes, args.repeat, bitboard, takaken)
    if args.join_counter is not None:
        join_table(args.join_sizes, args.repeat, args.join_counter, args.join_bmi2 == "table")
    unique_check(args.unique_sizes)


if __name__ == "__main__":
    main()

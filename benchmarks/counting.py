"""Time `nqueens count N` against C bitmask counters, side by side, and check every count.

Whole processes, start-up included, in turn for each repeat so that machine noise hits them alike;
medians over --repeat runs. The peers, compiled here with gcc -O3 -march=native (their fastest
build on the machine at hand):

- ``bitboard.c`` (benchmarks/peers): Somers-style bitmasks with the left-right mirror, one core;
- ``takaken.c`` (benchmarks/peers): Takaken's counter with all 8 symmetries, one core, so
  ``nqueens --workers 1`` against it is the per-core comparison.

Every count is checked against the published counts (tests/data/counts.json); a wrong one stops
the run. (The first run after an install is benchmarks/compiled.py's.)

    python benchmarks/counting.py                       # N = 8, 12..17, 3 runs
    python benchmarks/counting.py --sizes 16-18 --repeat 1
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        bitboard = compile_peer(args.peers / "bitboard.c", Path(folder))
        takaken = compile_peer(ROOT / "benchmarks" / "peers" / "takaken.c", Path(folder))
        print(f"Machine: {machine()}; medians of {args.repeat} runs, whole processes.\n")
        speed_table(args.sizes, args.repeat, bitboard, takaken)
    unique_check(args.unique_sizes)


if __name__ == "__main__":
    main()

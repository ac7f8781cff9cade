"""Hard Excluded Diagonals instances at the phase transition: nqueens against the paper's solver.

Instances come from a generator written here, after the method of Gent, Jefferson and
Nightingale ("Complexity of n-Queens Completion", JAIR 2017): shuffle all the board's diagonals,
keep one only while every row and column still has at least 4 free squares, and take the first d
of the list. For each instance this times, side by side and as whole processes:

- ``nqueens first`` (auto) and ``nqueens count`` (auto), which use both cores;
- ``shiftqueensdiags``, the paper's bit-manipulation solver, built here from its source, which
  --shiftqueens names (it stops at the first solution, so it decides);
- CP-SAT and the original CP solver on the unreduced model (``first --engine cp-sat|cp``),
  stopped at --time-limit.

Every decision is checked: a board printed by nqueens keeps the instance's diagonals (checked
here, never by nqueens), and nqueens, shiftqueensdiags and the count agree on solvable or not.

    python benchmarks/diagonals.py --shiftqueens shiftqueensdiags.cc   # the Performance table
    python benchmarks/diagonals.py --shiftqueens shiftqueensdiags.cc --sizes 16,17 --seeds 1

The solver is another project's code, which this one does not hold: it is
Problems/prob079/models/shiftqueensdiags.cc in the repository csplib/csplib (at commit
0746d85bd3304d6500caab806915f13db94eb332; MIT, Christopher Jefferson).

With ``--count-engines D1,D2,...`` it times instead the two engines that count such boards,
``nqueens count --engine reduced`` and ``--engine bitboard`` (each with --time-limit, which the
bitboard engine needs beyond 18 free columns), on the first d diagonals of each list for each d
given, beside the share of squares those diagonals exclude and the engine ``auto`` counts with;
the three counts must agree. This is what the auto count's choice between them rests on:

    python benchmarks/diagonals.py --count-engines 2,6,10,14,16,18 --sizes 17,18 --time-limit 300
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ortools_program import machine, parse_sizes

NQUEENS = [sys.executable, "-m", "nqueens"]
MIN_FREE = 4
"""Free squares the generator keeps in every row and column, as the paper's generator does."""


def generate(n: int, seed: int) -> list[tuple[int, int]]:
    """The paper's ``diags`` list for an n x n board: pairs [k, t], t = 1 for the diagonal
    row + col = k, t = 0 for row - col = k - (n - 1), shuffled, each kept only while every row
    and column keeps at least MIN_FREE free squares."""
    chooser = random.Random(seed)
    diagonals = [(k, t) for k in range(2 * n - 1) for t in (0, 1)]
    chooser.shuffle(diagonals)
    closed: set[tuple[int, int]] = set()
    free_in_row = [n] * n
    free_in_col = [n] * n
    kept = []
    for k, t in diagonals:
        squares = [(row, k - row if t == 1 else row - (k - (n - 1))) for row in range(n)]
        squares = [(r, c) for r, c in squares if 0 <= c < n and (r, c) not in closed]
        rows = [r for r, _ in squares]
        cols = [c for _, c in squares]
        if any(free_in_row[r] - rows.count(r) < MIN_FREE for r in rows) or any(
            free_in_col[c] - cols.count(c) < MIN_FREE for c in cols
        ):
            continue
        for r, c in squares:
            closed.add((r, c))
            free_in_row[r] -= 1
            free_in_col[c] -= 1
        kept.append((k, t))
    return kept


def instance_text(n: int, diagonals: list[tuple[int, int]]) -> str:
    """The instance in the paper's generator format."""
    pairs = ", ".join(f"[{k}, {t}]" for k, t in diagonals)
    return f"n =  {n}\nnumdiags =  {len(diagonals)}\ndiags =  [{pairs}]\n"


def keeps_diagonals(n: int, diagonals: list[tuple[int, int]], rows: list[int]) -> bool:
    """Whether ``rows`` (0-based, one per column) is a solution avoiding the diagonals."""
    sums = {k for k, t in diagonals if t == 1}
    differences = {k - (n - 1) for k, t in diagonals if t == 0}
    return (
        sorted(rows) == list(range(n))
        and len({r + c for c, r in enumerate(rows)}) == n
        and len({r - c for c, r in enumerate(rows)}) == n
        and not any(r + c in sums or r - c in differences for c, r in enumerate(rows))
    )


@dataclass
class Timing:
    seconds: float
    solvable: bool | None  # None: not decided (time limit)
    count: int | None = None


def timed(
    command: list[str], stdin: str | None = None
) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, check=False)
    return time.perf_counter() - started, done


def run_nqueens_first(
    path: Path, d: int, n: int, diagonals: list[tuple[int, int]], engine: str, time_limit: float
) -> Timing:
    command = [*NQUEENS, "first", "--board", str(path), "--diagonals", str(d), "--format", "json"]
    if engine != "auto":
        command += ["--engine", engine, "--time-limit", f"{time_limit:g}"]
    seconds, done = timed(command)
    records = [json.loads(line) for line in done.stdout.splitlines()]
    if done.returncode == 0:
        rows = records[0]["rows"]
        if not keeps_diagonals(n, diagonals[:d], rows):
            raise SystemExit(
                f"{path} d={d}: nqueens first --engine {engine} printed a non-solution"
            )
        return Timing(seconds, True)
    if done.returncode == 1:
        return Timing(seconds, False)
    if done.returncode == 3:
        return Timing(seconds, None)
    raise SystemExit(
        f"{path} d={d}: nqueens first --engine {engine} exited {done.returncode}: {done.stderr}"
    )


def run_nqueens_count(path: Path, d: int) -> Timing:
    command = [*NQUEENS, "count", "--board", str(path), "--diagonals", str(d), "--quiet"]
    seconds, done = timed(command)
    if done.returncode != 0:
        raise SystemExit(f"{path} d={d}: nqueens count exited {done.returncode}: {done.stderr}")
    total = int(done.stdout.split()[0])
    return Timing(seconds, total > 0, total)


def run_shiftqueens(binary: Path, n: int, diagonals: list[tuple[int, int]], d: int) -> Timing:
    numbers = " ".join(str(x) for pair in diagonals for x in pair)
    seconds, done = timed([str(binary), str(d)], stdin=f"{n} {len(diagonals)} {numbers}\n")
    if "Timeout Reached" in done.stdout:
        return Timing(seconds, None)
    last = done.stdout.strip().splitlines()[-1]
    return Timing(seconds, not last.startswith("Solutions: 0"))


SHIFTQUEENS_WHERE = (
    "Problems/prob079/models/shiftqueensdiags.cc of github.com/csplib/csplib "
    "(commit 0746d85bd3304d6500caab806915f13db94eb332)"
)


def build_shiftqueens(source: Path | None, folder: Path) -> Path:
    if source is None or not source.is_file():
        raise SystemExit(
            f"this table times the paper's solver beside nqueens: give --shiftqueens the path of "
            f"its source, {SHIFTQUEENS_WHERE}"
        )
    binary = folder / "shiftqueensdiags"
    subprocess.run(["g++", "-O3", "-o", str(binary), str(source)], check=True)
    return binary


def excluded_share(n: int, diagonals: list[tuple[int, int]]) -> float:
    """The share of the board's squares that ``diagonals`` exclude."""
    sums = {k for k, t in diagonals if t == 1}
    differences = {k - (n - 1) for k, t in diagonals if t == 0}
    squares = [(r, c) for r in range(n) for c in range(n)]
    return sum(r + c in sums or r - c in differences for r, c in squares) / n**2


def count_on(path: Path, d: int, engine: str, time_limit: float) -> tuple[float, int, str]:
    """Seconds, solutions and engine of ``nqueens count`` on the first d diagonals of
    ``path`` (engine "auto": the one auto chose)."""
    command = [*NQUEENS, "count", "--board", str(path), "--diagonals", str(d)]
    command += ["--engine", engine, "--time-limit", f"{time_limit:g}", "--format", "json"]
    seconds, done = timed(command)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr}")
    record = json.loads(done.stdout)
    return seconds, int(record["solutions"]), str(record["engine"])


def compare_counts(args: argparse.Namespace, depths: list[int], folder: Path) -> None:
    """The reduced and bitboard engines' counts side by side: --count-engines."""
    print("| n | seed | d | excluded squares | solutions | reduced (s) | bitboard (s) ", end="")
    print("| reduced / bitboard | auto |")
    print("|---|---|---|---|---|---|---|---|---|")
    ratios = []
    for n in args.sizes:
        for seed in range(1, args.seeds + 1):
            diagonals = generate(n, seed)
            path = folder / f"diag-{n}-{seed}.param"
            path.write_text(instance_text(n, diagonals))
            for d in [d for d in depths if d <= len(diagonals)]:
                reduced_s, solutions, _ = count_on(path, d, "reduced", args.time_limit)
                bitboard_s, again, _ = count_on(path, d, "bitboard", args.time_limit)
                _, by_auto, auto = count_on(path, d, "auto", args.time_limit)
                if again != solutions or by_auto != solutions:
                    raise SystemExit(
                        f"n={n} seed={seed} d={d}: reduced {solutions:,}, bitboard {again:,}, "
                        f"auto ({auto}) {by_auto:,}"
                    )
                ratios.append(reduced_s / bitboard_s)
                print(
                    f"| {n} | {seed} | {d} | {excluded_share(n, diagonals[:d]):.0%} | "
                    f"{solutions:,} | {reduced_s:.2f} | {bitboard_s:.2f} | "
                    f"{ratios[-1]:.2f} | {auto} |",
                    flush=True,
                )
    if ratios:
        print(f"\nreduced / bitboard: median {statistics.median(ratios):.2f}, ", end="")
        print(f"from {min(ratios):.2f} to {max(ratios):.2f}, over {len(ratios)} boards.")


def cell(timing: Timing, time_limit: float | None = None) -> str:
    if timing.solvable is None:
        return f"> {time_limit:g} s" if time_limit else "undecided"
    return f"{timing.seconds:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--shiftqueens", type=Path, help=f"the paper's solver's source: {SHIFTQUEENS_WHERE}"
    )
    parser.add_argument("--sizes", type=parse_sizes, default=parse_sizes("16,17,18,19,20,21"))
    parser.add_argument("--seeds", type=int, default=2, help="instances (lists) per size")
    parser.add_argument("--below", type=int, default=4, help="d runs from n - BELOW to n")
    parser.add_argument("--time-limit", type=float, default=10.0, help="for CP-SAT and cp")
    parser.add_argument("--no-models", action="store_true", help="skip CP-SAT and cp")
    parser.add_argument(
        "--count-engines",
        type=parse_sizes,
        help="time the reduced and bitboard engines' counts on these d instead",
    )
    args = parser.parse_args()
    print(f"Machine: {machine()}; whole processes, seconds.\n")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        if args.count_engines:
            compare_counts(args, args.count_engines, folder)
            return
        binary = build_shiftqueens(args.shiftqueens, folder)
        header = "| n | seed | d | answer | nqueens first | nqueens count | shiftqueensdiags |"
        if not args.no_models:
            header += " CP-SAT | cp |"
        print(header)
        print("|" + "---|" * (header.count("|") - 1))
        decided: dict[int, list[tuple[float, float]]] = {}
        for n in args.sizes:
            for seed in range(1, args.seeds + 1):
                diagonals = generate(n, seed)
                path = folder / f"diag-{n}-{seed}.param"
                path.write_text(instance_text(n, diagonals))
                for d in range(max(n - args.below, 1), min(n, len(diagonals)) + 1):
                    first = run_nqueens_first(path, d, n, diagonals, "auto", args.time_limit)
                    counted = run_nqueens_count(path, d)
                    peer = run_shiftqueens(binary, n, diagonals, d)
                    answers = {first.solvable, counted.solvable, peer.solvable}
                    if len(answers) != 1:
                        raise SystemExit(f"n={n} seed={seed} d={d}: the solvers disagree")
                    row = (
                        f"| {n} | {seed} | {d} | {counted.count:,} | {first.seconds:.2f} | "
                        f"{counted.seconds:.2f} | {peer.seconds:.2f} |"
                    )
                    if not args.no_models:
                        models = [
                            run_nqueens_first(path, d, n, diagonals, engine, args.time_limit)
                            for engine in ("cp-sat", "cp")
                        ]
                        row += "".join(f" {cell(m, args.time_limit)} |" for m in models)
                    print(row, flush=True)
                    decided.setdefault(n, []).append((first.seconds, peer.seconds))
        print("\nDeciding (nqueens first against shiftqueensdiags), whole processes:")
        groups: dict[str, list[tuple[float, float]]] = {str(n): p for n, p in decided.items()}
        target = [pair for n, pairs in decided.items() if n >= 20 for pair in pairs]
        if target:
            groups["20 and 21"] = target  # the target
        for n, pairs in groups.items():
            ours = [a for a, _ in pairs]
            theirs = [b for _, b in pairs]
            print(
                f"- n = {n}: total {sum(ours):.1f} s against {sum(theirs):.1f} s; "
                f"median {statistics.median(ours):.2f} against {statistics.median(theirs):.2f} s; "
                f"worst {max(ours):.2f} against {max(theirs):.2f} s"
            )


if __name__ == "__main__":
    main()

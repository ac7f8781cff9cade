"""How nqueens tunes CP-SAT to enumerate: inprocessing and presolve off, how many columns to fix.

Three tables, measured on one core in this process, so seconds of wall time are seconds of CPU:

1. every solution of the OR-Tools guide's model (no symmetry breaking) with CP-SAT's SAT
   inprocessing on (CP-SAT's default) and off (what nqueens uses), per search strategy;
2. the symmetry-broken count of `nqueens count --engine cp-sat`, split into subproblems by fixing
   the queens of the first 1, 2, 3... columns, all subproblems one after another. The column
   nqueens picks for the board (engines/cpsat/split.py, leading_columns) is marked with *;
3. that count at nqueens's split with CP-SAT's presolve on (its default) and off (nqueens).

Every count is checked against the published one (tests/data/counts.json) and marked WRONG when it
differs; the run fails if a count with nqueens's own settings is wrong.

    python benchmarks/enumeration.py --sizes 10-12 --split-sizes 12-14 --columns 1-3
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager

from ortools_program import ROOT, parse_sizes

from nqueens.core.board import Board
from nqueens.core.strategies import FIRST_FAIL_MID, FIRST_MIN
from nqueens.engines.base import COUNT, Request
from nqueens.engines.cpsat import split
from nqueens.engines.cpsat.callbacks import CountingCallback
from nqueens.engines.cpsat.model import build_model
from nqueens.engines.cpsat.solver import enumeration_solver

STRATEGIES = (FIRST_MIN, FIRST_FAIL_MID)
COUNTS = json.loads((ROOT / "tests" / "data" / "counts.json").read_text())["total"]
wrong: list[str] = []  # counts with nqueens's own settings that differ from the published ones


def checked(n: int, count: int, *, ours: bool = True) -> str:
    """The count, marked WRONG (and remembered, for nqueens's settings) when it is not A000170's."""
    if count == int(COUNTS[str(n)]):
        return f"{count:,}"
    if ours:
        wrong.append(f"N = {n}: {count:,}")
    return f"{count:,} WRONG"


def mark_if_wrong(n: int, count: int) -> str:
    """Nothing for a right count; a WRONG mark with the count otherwise (and remember it)."""
    return "" if count == int(COUNTS[str(n)]) else f" WRONG: {checked(n, count)}"


@contextmanager
def presolve(on: bool) -> Iterator[None]:
    """Count with CP-SAT's presolve on or off (nqueens: off)."""
    original = split.enumeration_solver

    def solver(time_limit: float | None, *, strategy: str) -> object:
        made = original(time_limit, strategy=strategy)
        made.parameters.cp_model_presolve = on
        return made

    split.enumeration_solver = solver  # type: ignore[assignment]
    try:
        yield
    finally:
        split.enumeration_solver = original


def enumerate_all(n: int, strategy: str, *, inprocessing: bool) -> tuple[float, int]:
    """Seconds to enumerate every solution of the plain model, and how many there were."""
    queens_model = build_model(Board(n), strategy=strategy)
    solver = enumeration_solver(None, strategy=strategy)
    solver.parameters.use_sat_inprocessing = inprocessing
    callback = CountingCallback()
    started = time.perf_counter()
    solver.solve(queens_model.model, callback)
    return time.perf_counter() - started, callback.solution_count


def split_count(n: int, strategy: str, columns: int) -> tuple[float, int, int]:
    """Seconds to count with ``columns`` fixed columns, the count, and the subproblems."""
    request = Request(COUNT, Board(n), strategy=strategy)
    tasks = split.subproblems(request, None, columns=columns)
    started = time.perf_counter()
    solutions = sum(split.count_subproblem(task).solutions for task in tasks)
    return time.perf_counter() - started, solutions, len(tasks)


def inprocessing_table(sizes: list[int]) -> None:
    headings = [f"{strategy} {state}" for strategy in STRATEGIES for state in ("on", "off")]
    print("Every solution, no symmetry breaking, SAT inprocessing on and off (s):\n")
    print("| N | solutions | " + " | ".join(headings) + " |")
    print("|---" * (len(headings) + 2) + "|")
    for n in sizes:
        cells = []
        count = 0
        for strategy in STRATEGIES:
            for inprocessing in (True, False):
                seconds, count = enumerate_all(n, strategy, inprocessing=inprocessing)
                cells.append(f"{seconds:.3f}")
        print(f"| {n} | {checked(n, count)} | " + " | ".join(cells) + " |", flush=True)


def split_table(sizes: list[int], column_counts: list[int], strategy: str) -> None:
    print(f"\nSymmetry-broken count ({strategy}), by the number of columns fixed: seconds")
    print("(subproblems); * marks nqueens's choice:\n")
    print("| N | solutions | " + " | ".join(f"{k} fixed" for k in column_counts) + " |")
    print("|---" * (len(column_counts) + 2) + "|")
    for n in sizes:
        cells = []
        count = 0
        for columns in column_counts:
            seconds, count, tasks = split_count(n, strategy, columns)
            mark = "*" if columns == split.leading_columns(n) else ""
            cells.append(f"{seconds:.2f}{mark} ({tasks:,}){mark_if_wrong(n, count)}")
        print(f"| {n} | {COUNTS[str(n)]:,} | " + " | ".join(cells) + " |", flush=True)


def presolve_table(cases: list[tuple[int, int]], strategy: str) -> None:
    print(f"\nSymmetry-broken count ({strategy}), CP-SAT's presolve on and off: seconds: count\n")
    print("| N | columns fixed | presolve on | presolve off (nqueens) |")
    print("|---|---|---|---|")
    for n, columns in cases:
        cells = []
        for on in (True, False):
            with presolve(on):
                seconds, count, _ = split_count(n, strategy, columns)
            cells.append(f"{seconds:.2f}: {checked(n, count, ours=not on)}")
        print(f"| {n} | {columns} | " + " | ".join(cells) + " |", flush=True)


def parse_cases(text: str) -> list[tuple[int, int]]:
    """``11:4,12:5`` into (N, columns fixed) pairs."""
    return [(int(n), int(columns)) for n, columns in (part.split(":") for part in text.split(","))]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="10-12", help="boards for the inprocessing table")
    parser.add_argument("--split-sizes", default="12-14", help="boards for the split table")
    parser.add_argument("--columns", default="1-3", help="column counts to fix")
    parser.add_argument("--strategy", default=FIRST_FAIL_MID, choices=STRATEGIES)
    parser.add_argument(
        "--presolve-cases",
        type=parse_cases,
        default=parse_cases("11:4,12:5,13:2,14:2"),
        help="N:columns pairs for the presolve table",
    )
    args = parser.parse_args()
    inprocessing_table(parse_sizes(args.sizes))
    split_table(parse_sizes(args.split_sizes), parse_sizes(args.columns), args.strategy)
    presolve_table(args.presolve_cases, args.strategy)
    if wrong:
        raise SystemExit(f"wrong counts with nqueens's settings: {'; '.join(wrong)}")


if __name__ == "__main__":
    main()

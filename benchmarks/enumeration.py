"""How nqueens tunes CP-SAT to enumerate: SAT inprocessing off, and how many columns to fix.

Two tables, measured on one core in this process, so seconds of wall time are seconds of CPU:

1. every solution of the guide's model (no symmetry breaking) with CP-SAT's SAT inprocessing on
   (CP-SAT's default) and off (what nqueens uses), per search strategy;
2. the symmetry-broken count of `nqueens count`, split into subproblems by fixing the queens of
   the first 1, 2, 3... columns, all subproblems one after another. The column nqueens picks for
   the board (engines/counting.py, leading_columns) is marked with *.

    python benchmarks/enumeration.py --sizes 10-12 --split-sizes 12-14 --columns 1-3
"""

from __future__ import annotations

import argparse
import time

from compare_seed import parse_sizes

from nqueens.callbacks import CountingCallback
from nqueens.engines.counting import count_subproblem, leading_columns, subproblems
from nqueens.engines.cpsat import enumeration_solver
from nqueens.model import build_model
from nqueens.strategies import FIRST_FAIL_MID, FIRST_MIN

STRATEGIES = (FIRST_MIN, FIRST_FAIL_MID)


def enumerate_all(n: int, strategy: str, *, inprocessing: bool) -> tuple[float, int]:
    """Seconds to enumerate every solution of the plain model, and how many there were."""
    queens_model = build_model(n, strategy=strategy)
    solver = enumeration_solver(None, strategy=strategy)
    solver.parameters.use_sat_inprocessing = inprocessing
    callback = CountingCallback()
    started = time.perf_counter()
    solver.solve(queens_model.model, callback)
    return time.perf_counter() - started, callback.solution_count


def split_count(n: int, strategy: str, columns: int) -> tuple[float, int, int]:
    """Seconds to count with ``columns`` fixed columns, the count, and the subproblems."""
    tasks = subproblems(n, symmetry=True, strategy=strategy, deadline=None, columns=columns)
    started = time.perf_counter()
    solutions = sum(count_subproblem(task).solutions for task in tasks)
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
        print(f"| {n} | {count:,} | " + " | ".join(cells) + " |", flush=True)


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
            mark = "*" if columns == leading_columns(n) else ""
            cells.append(f"{seconds:.2f}{mark} ({tasks:,})")
        print(f"| {n} | {count:,} | " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="10-12", help="boards for the inprocessing table")
    parser.add_argument("--split-sizes", default="12-14", help="boards for the split table")
    parser.add_argument("--columns", default="1-3", help="column counts to fix")
    parser.add_argument("--strategy", default=FIRST_FAIL_MID, choices=STRATEGIES)
    args = parser.parse_args()
    inprocessing_table(parse_sizes(args.sizes))
    split_table(parse_sizes(args.split_sizes), parse_sizes(args.columns), args.strategy)


if __name__ == "__main__":
    main()

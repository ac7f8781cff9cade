"""Time to a first solution of random completion instances, per engine and strategy.

Each instance pre-places N/10 random non-attacking queens (nqueens.core.board.random_puzzle); every
engine gets the same instances, in one run, each with a time limit. A cell shows the median time
over the instances that were decided (a completion found, or proof that none exists) and how many
were decided. The auto engine's choice for puzzles comes from this table.

    python benchmarks/completion.py --sizes 10,20,50,100,200 --seeds 5 --time-limit 10
"""

from __future__ import annotations

import argparse
import statistics
import time

import nqueens
from nqueens.formats.boards import random_puzzle

COLUMNS = [
    ("auto", None),
    ("cp-sat", "auto"),
    ("cp-sat", "first-fail-mid"),
    ("cp", "first-fail-mid"),
    ("cp", "auto"),
    ("mip", None),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="10,20,50,100,200")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--time-limit", type=float, default=10.0)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]

    headings = [
        engine if strategy is None else f"{engine} {strategy}" for engine, strategy in COLUMNS
    ]
    print(f"Median seconds to a first solution or a proof of none (decided / {args.seeds} seeds),")
    print(f"N/10 queens pre-placed at random, time limit {args.time_limit:g} s per instance.\n")
    print("| N | queens | " + " | ".join(headings) + " |")
    print("|---" * (len(headings) + 2) + "|")
    for n in sizes:
        puzzles = [random_puzzle(n, max(1, n // 10), seed=seed) for seed in range(args.seeds)]
        cells = []
        for engine, strategy in COLUMNS:
            times = []
            for board in puzzles:
                started = time.perf_counter()
                result = nqueens.first(
                    n,
                    engine=engine,
                    strategy=strategy,
                    time_limit=args.time_limit,
                    queens=board.queens,
                )
                elapsed = time.perf_counter() - started
                if result.solution is not None or result.proven_infeasible:
                    if result.solution is not None:
                        assert board.allows(result.solution.rows)
                    times.append(elapsed)
            median = f"{statistics.median(times):.3f}" if times else "—"
            cells.append(f"{median} ({len(times)}/{len(puzzles)})")
        print(f"| {n} | {max(1, n // 10)} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()

"""The benchmark scripts that need nothing beyond this repository run and count correctly."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

from helpers import known_total

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


def test_enumeration_benchmark_counts_every_board_it_times() -> None:
    arguments = ["--sizes", "6-7", "--split-sizes", "8", "--columns", "1-2"]
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "enumeration.py"), *arguments],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [line.strip("| ").split(" | ") for line in done.stdout.splitlines()]
    counted = {row[0]: row[1] for row in rows if row[0].isdigit()}
    assert counted == {str(n): f"{known_total(n):,}" for n in (6, 7, 8)}
    one_column, two_columns = next(row for row in rows if row[0] == "8")[2:]
    # With symmetry breaking the first queen stays in the upper half: rows 0..3 of 8.
    pairs = [
        (first, second)
        for first, second in itertools.product(range(4), range(8))
        if abs(first - second) > 1
    ]
    assert one_column.endswith("* (4)"), "nqueens fixes one column for N = 8"
    assert two_columns.endswith(f" ({len(pairs)})")

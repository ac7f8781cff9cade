"""Time `nqueens count N --torus` and `--superqueens` against the plain `count N`, side by side.

Whole processes, start-up included, on one engine, in turn for each repeat so that machine noise
hits them alike; medians over --repeat runs, and each rule's time as a ratio of the plain one's
(under 1: the rule counts faster). Every count is checked against the published counts: the plain
ones in tests/data/counts.json, the torus's OEIS A007705 and the superqueens' OEIS A051223; a
wrong one stops the run.

    python benchmarks/variants.py                          # torus 17, superqueens 16, 3 runs
    python benchmarks/variants.py --torus 13 --superqueens 12 --engine cp-sat --repeat 1
    python benchmarks/variants.py --torus 19 --superqueens 19 --plain 18

The last compares the largest boards under a rule that `count` takes without a time limit with
the largest plain one it takes so.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass

from ortools_program import ROOT, machine, timed

PLAIN_COUNTS = json.loads((ROOT / "tests" / "data" / "counts.json").read_text())["total"]
TORUS_COUNTS = {5: 10, 7: 28, 11: 88, 13: 4524, 17: 140692, 19: 820496}
"""OEIS A007705, for the boards that have solutions (N prime to 6); the others have none."""
SUPERQUEENS_COUNTS = {
    **{10: 4, 11: 44, 12: 156, 13: 1876, 14: 5180, 15: 32516, 16: 202900},
    **{17: 1330622, 18: 8924976, 19: 64492432},
}
"""OEIS A051223."""


@dataclass(frozen=True)
class Case:
    """One row of the table: count N under ``rule`` beside the plain count of ``plain_n``."""

    rule: str
    n: int
    plain_n: int

    def expected(self) -> int:
        if self.rule == "torus":
            return TORUS_COUNTS.get(self.n, 0) if self.n % 2 and self.n % 3 else 0
        return SUPERQUEENS_COUNTS[self.n]


def command(n: int, engine: str, workers: int | None, rule: str | None) -> list[str]:
    """The whole-process count, as a user types it."""
    argv = [sys.executable, "-m", "nqueens", "count", str(n), "--engine", engine]
    if workers is not None:
        argv += ["--workers", str(workers)]
    return argv + ([f"--{rule}"] if rule else [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torus", type=int, default=17, help="N for the torus (default 17)")
    parser.add_argument(
        "--superqueens", type=int, default=16, help="N for superqueens (default 16)"
    )
    parser.add_argument(
        "--plain", type=int, help="N of the plain count beside them (default: the rule's N)"
    )
    parser.add_argument("--engine", default="bitboard", help="the engine (default bitboard)")
    parser.add_argument("--workers", type=int, help="cores to count on (default: all)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per cell (default 3)")
    options = parser.parse_args()
    cases = [
        Case(rule, n, options.plain or n)
        for rule, n in (("torus", options.torus), ("superqueens", options.superqueens))
    ]
    print(f"Machine: {machine()}; engine {options.engine}, workers {options.workers or 'all'}")
    print("| N | rule | solutions | plain N | plain s | with the rule s | ratio |")
    print("|---|---|---|---|---|---|---|")
    for case in cases:
        plain, ruled = [], []
        for _ in range(options.repeat):
            for times, rule, expected in (
                (plain, None, PLAIN_COUNTS[str(case.plain_n)]),
                (ruled, case.rule, case.expected()),
            ):
                n = case.n if rule else case.plain_n
                run = timed(command(n, options.engine, options.workers, rule), r"^(\d+)$")
                if run.solutions != expected:
                    raise SystemExit(
                        f"count {n} {rule or 'plain'}: {run.solutions}, expected {expected}"
                    )
                times.append(run.seconds)
        plain_median, ruled_median = statistics.median(plain), statistics.median(ruled)
        print(
            f"| {case.n} | {case.rule} | {case.expected():,} | {case.plain_n} | "
            f"{plain_median:.2f} | {ruled_median:.2f} | {ruled_median / plain_median:.2f} |"
        )


if __name__ == "__main__":
    main()

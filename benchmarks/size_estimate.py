"""How near the reduced engine's estimate of its search comes to the positions it then visits.

Before a count or listing without a limit, the reduced engine estimates its search (Knuth's
estimate from random descents, ``search_size`` in nqueens/engines/reduced) and goes on only where
that is no larger than the empty N = 18's. This sets each estimate beside the positions the count
then visited (its ``nodes``, from ``nqueens count --stats --format json`` run as a whole process),
on CSPLib problem 79's sample instances (tests/data holds them) and on empty boards. Every count
is checked: an instance against the completions its README publishes, an empty board against
counts.json.

    python benchmarks/size_estimate.py                  # the figures of docs/explanation/engines.md
    python benchmarks/size_estimate.py --sizes 15-17 --instances none
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from ortools_program import machine, parse_sizes

from nqueens.core.board import Board
from nqueens.engines.base import Request
from nqueens.engines.reduced.model import reduce, search_size
from nqueens.formats.boards import read_board

NQUEENS = [sys.executable, "-m", "nqueens"]
COUNTS = Path(__file__).parent.parent / "tests" / "data" / "counts.json"

PUBLISHED = {
    # file: (diagonals used, completions), from prob079's README (each diag file with the d
    # shown has the completions of CSPLib's completion file translated from it)
    "completion-12-12-5.param": (None, 0),
    "completion-16-14-1.param": (None, 0),
    "completion-16-14-2.param": (None, 7),
    "completion-20-18-1.param": (None, 253),
    "completion-20-18-2.param": (None, 275),
    "completion-21-18-3.param": (None, 37_590),
    "diag-12-4-5.param": (12, 0),
    "diag-16-4-1.param": (14, 0),
    "diag-16-4-2.param": (14, 7),
    "diag-20-4-1.param": (18, 253),
    "diag-20-4-2.param": (18, 275),
    "diag-21-4-3.param": (18, 37_590),
}


def counted(arguments: list[str]) -> tuple[int, int]:
    """The solutions and the positions visited of ``nqueens count`` on the reduced engine."""
    command = [*NQUEENS, "count", *arguments, "--engine", "reduced", "--stats", "--format", "json"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr}")
    record = json.loads(done.stdout)
    return int(record["solutions"]), int(record["nodes"])


def row(name: str, board: Board, arguments: list[str], expected: int) -> float:
    """Print one case's estimate beside its count's positions; return their ratio."""
    started = time.perf_counter()
    estimate = search_size(reduce(Request("count", board)))
    seconds = time.perf_counter() - started
    solutions, nodes = counted(arguments)
    if solutions != expected:
        raise SystemExit(f"{name}: counted {solutions:,}, published {expected:,}")
    ratio = estimate / nodes
    print(f"| {name} | {solutions:,} | {nodes:,} | {estimate:,.0f} | {ratio:.2f} | {seconds:.2f} |")
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=parse_sizes, default=parse_sizes("15-17"))
    parser.add_argument(
        "--instances",
        default=str(Path(__file__).parent.parent / "tests" / "data"),
        help="a folder of prob079's sample files ('none' for empty boards alone)",
    )
    args = parser.parse_args()
    print(f"Machine: {machine()}; the count as a whole process, the estimate in this one.\n")
    print("| board | solutions | positions visited | estimate | estimate / visited | seconds |")
    print("|---|---|---|---|---|---|")
    ratios = []
    if args.instances != "none":
        folder = Path(args.instances)
        for name, (diagonals, expected) in PUBLISHED.items():
            path = folder / name
            if not path.is_file():
                continue
            board = read_board(path.read_text(), diagonals)
            arguments = ["--board", str(path)]
            if diagonals is not None:
                arguments += ["--diagonals", str(diagonals)]
            title = f"{name} (N = {board.n:,})"
            if diagonals is not None:
                title = f"{name} (N = {board.n:,}, its first {diagonals} diagonals)"
            ratios.append(row(title, board, arguments, expected))
    totals = json.loads(COUNTS.read_text())["total"]
    for n in args.sizes:
        ratios.append(row(f"empty N = {n}", Board(n), [str(n)], int(totals[str(n)])))
    if ratios:
        furthest = max(ratios, key=lambda ratio: abs(ratio - 1))
        print(f"\nEstimate / visited from {min(ratios):.2f} to {max(ratios):.2f}: ", end="")
        print(f"at most {abs(furthest - 1):.0%} away, over {len(ratios)} boards.")


if __name__ == "__main__":
    main()

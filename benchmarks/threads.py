"""Threads against worker processes: the same subproblems counted on both, side by side.

Each call into the C search releases Python's lock, so threads could share the cores as worker
processes do. This counts each board's subproblems on one thread, on --workers threads (a
ThreadPoolExecutor) and with nqueens's own worker processes (``nqueens.count(..., workers=)``),
in turn for each repeat; medians of --repeat runs, every count checked against the others and
the published ones.

    python benchmarks/threads.py
    python benchmarks/threads.py --repeat 1 --workers 2
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from ortools_program import machine

import nqueens
from nqueens.engines.base import COUNT, Request
from nqueens.engines.bitboard import ENGINE

CASES: dict[str, tuple[nqueens.Board, bool, int]] = {
    "count 17 --torus": (nqueens.Board(17, rules=["torus"]), True, 140692),
    "count 16 --superqueens": (nqueens.Board(16, rules=["superqueens"]), True, 202900),
    "count 16 --no-symmetry": (nqueens.Board(16), False, 14772512),
}
"""Boards the bitboard search counts (not the edge counter): rules, and no symmetry."""


def on_threads(board: nqueens.Board, symmetry: bool, workers: int) -> int:
    """The board counted by its subproblems on ``workers`` threads."""
    request = Request(COUNT, board, symmetry=symmetry)
    tasks = ENGINE.subproblems(request, None)
    with ThreadPoolExecutor(workers) as pool:
        return sum(found.solutions for found in pool.map(ENGINE.count_subproblem, tasks))


def on_processes(board: nqueens.Board, symmetry: bool, workers: int) -> int:
    """The board counted as ``nqueens count`` does, on ``workers`` worker processes."""
    return nqueens.count(board, engine="bitboard", workers=workers, symmetry=symmetry).solutions


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ways: dict[str, tuple[Callable[[nqueens.Board, bool, int], int], int]] = {
        "1 thread": (on_threads, 1),
        f"{args.workers} threads": (on_threads, args.workers),
        f"{args.workers} processes": (on_processes, args.workers),
    }
    print(f"Machine: {machine()}; medians of {args.repeat} runs.\n")
    print("| count | " + " | ".join(f"{way} (s)" for way in ways) + " |")
    print("|---|" + "---|" * len(ways))
    for name, (board, symmetry, expected) in CASES.items():
        times: dict[str, list[float]] = {way: [] for way in ways}
        for _ in range(args.repeat):
            for way, (count, workers) in ways.items():
                started = time.perf_counter()
                solutions = count(board, symmetry, workers)
                times[way].append(time.perf_counter() - started)
                if solutions != expected:
                    raise SystemExit(f"{name} on {way}: {solutions:,}, not {expected:,}")
        medians = [f"{statistics.median(times[way]):.2f}" for way in ways]
        print(f"| `{name}` | " + " | ".join(medians) + " |", flush=True)


if __name__ == "__main__":
    main()

"""Every engine's count against the published counts and a plain counter, over every split.

The long form of tests/run/test_counting.py (minutes, not seconds): for N = 1..12, with and without
symmetry, CP-SAT split on 1 to 5 columns and the bitboard engine on 0 to 5 free lines; random
completion puzzles on every engine and split, against plain backtracking written here; the mip
engine's counts up to N = 9. Any difference is printed and fails the run.

    python benchmarks/differential.py                 # N up to 12, 20 puzzles
    python benchmarks/differential.py --max-n 10 --puzzles 5
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence

from ortools_program import ROOT

import nqueens
from nqueens.core.board import Board
from nqueens.engines import bitboard, cpsat
from nqueens.engines.base import COUNT, Request, Subproblem
from nqueens.formats.boards import random_puzzle
from nqueens.run.executors import default_workers, in_process, process_pool

COUNTS = json.loads((ROOT / "tests" / "data" / "counts.json").read_text())
problems: list[str] = []


def added_up(tasks: Sequence[Subproblem]) -> tuple[int, int | None]:
    """The pieces' solutions and classes, on every core (None: classes not counted)."""
    workers = min(default_workers(), max(1, len(tasks)))
    found = list(in_process(tasks) if workers == 1 else process_pool(tasks, workers, None))
    uniques = [sub.unique for sub in found]
    unique = None if None in uniques else sum(u for u in uniques if u is not None)
    return sum(sub.solutions for sub in found), unique


def expect(what: str, got: object, truth: object) -> None:
    if got != truth:
        problems.append(f"{what}: {got} instead of {truth}")
        print(f"  WRONG {what}: {got} instead of {truth}", flush=True)


def plain_count(n: int, queens: set[tuple[int, int]], blocked: set[tuple[int, int]]) -> int:
    """Completions by column-by-column backtracking, no solver (0-based (row, col) squares)."""
    fixed = {col: row for row, col in queens}

    def place(col: int, rows: list[int]) -> int:
        if col == n:
            return 1
        options = [fixed[col]] if col in fixed else range(n)
        return sum(
            place(col + 1, [*rows, row])
            for row in options
            if (row, col) not in blocked
            and all(r != row and abs(r - row) != col - c for c, r in enumerate(rows))
        )

    return place(0, [])


def splits(max_n: int) -> None:
    for n in range(1, max_n + 1):
        started = time.perf_counter()
        total, unique = int(COUNTS["total"][str(n)]), int(COUNTS["unique"][str(n)])
        for symmetry in (True, False):
            request = Request(COUNT, Board(n), symmetry=symmetry)
            for columns in range(1, 6):
                got, classes = added_up(cpsat.subproblems(request, None, columns=columns))
                expect(f"cp-sat N = {n} on {columns} columns, symmetry {symmetry}", got, total)
                if symmetry:
                    expect(f"cp-sat unique N = {n} on {columns} columns", classes, unique)
            for lines in range(6):
                tasks = bitboard.ENGINE.subproblems(request, None, lines=lines)
                got, classes = added_up(tasks)
                expect(f"bitboard N = {n} on {lines} lines, symmetry {symmetry}", got, total)
                if symmetry:
                    expect(f"bitboard unique N = {n} on {lines} lines", classes, unique)
        print(f"N = {n}: every split checked in {time.perf_counter() - started:.1f} s", flush=True)


def puzzles(count: int, max_n: int) -> None:
    chooser = random.Random(79)
    for number in range(count):
        n = chooser.randint(4, max_n)
        board = random_puzzle(n, chooser.randint(0, 2), seed=number)
        free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in board.queens]
        blocked = tuple(chooser.sample(free, chooser.randint(0, n)))
        board = Board(n, board.queens, blocked)
        truth = plain_count(n, set(board.queens), set(blocked))
        request = Request(COUNT, board)
        for columns in range(1, 6):
            got, _ = added_up(cpsat.subproblems(request, None, columns=columns))
            expect(f"cp-sat puzzle {number} (N = {n}) on {columns} columns", got, truth)
        for lines in range(6):
            got, _ = added_up(bitboard.ENGINE.subproblems(request, None, lines=lines))
            expect(f"bitboard puzzle {number} (N = {n}) on {lines} lines", got, truth)
        engines = ["cp", "mip"] if n <= 7 else ["cp"]
        for engine in engines:
            got = nqueens.count(n, queens=board.queens, blocked=blocked, engine=engine).solutions
            expect(f"{engine} puzzle {number} (N = {n})", got, truth)
    print(f"{count} puzzles checked on every engine and split", flush=True)


def mip_counts(max_n: int) -> None:
    """The mip engine solves once per solution: N = 9 is 352 solves, a minute on SCIP; GLPK too."""
    for n in range(1, max_n + 1):
        for mip_solver in ("scip", "glpk"):
            got = nqueens.count(n, engine="mip", mip_solver=mip_solver).solutions
            expect(f"mip ({mip_solver}) N = {n}", got, int(COUNTS["total"][str(n)]))
    print(f"mip counts checked up to N = {max_n}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--max-n", type=int, default=12)
    parser.add_argument("--puzzles", type=int, default=20)
    parser.add_argument("--puzzle-max-n", type=int, default=10)
    parser.add_argument("--mip-max-n", type=int, default=9)
    args = parser.parse_args()
    splits(args.max_n)
    puzzles(args.puzzles, args.puzzle_max_n)
    mip_counts(args.mip_max_n)
    if problems:
        raise SystemExit(f"{len(problems)} wrong counts")
    print("every count right")


if __name__ == "__main__":
    main()

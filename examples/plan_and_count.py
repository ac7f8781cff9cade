"""Ask nqueens what a count will do, say its notes, count with a progress line, and stop
cleanly on Ctrl-C: what `nqueens count N [--engine NAME] [--torus]` does, through the API.

    python examples/plan_and_count.py 16
    python examples/plan_and_count.py 12 --engine bitboard --torus
"""

from __future__ import annotations

import argparse
import sys

from nqueens import Board, SearchInterrupted, api


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("--engine", default=api.AUTO_ENGINE, choices=[*api.ENGINES, "auto"])
    parser.add_argument("--torus", action="store_true")
    arguments = parser.parse_args()
    board = Board(arguments.n, rules=["torus"] if arguments.torus else [])

    plan = api.plan("count", board, engine=arguments.engine)  # decides, searches nothing
    print(f"{board.title}: {plan.engine}, {plan.reason}")
    for note in plan.notes:
        print(f"Note: {note}")

    def progress(done: int, total: int, solutions: int) -> None:
        """Called as each piece of the count finishes (by the engines that split it)."""
        if sys.stderr.isatty():
            print(f"\r{done}/{total} pieces, {solutions:,} solutions", end="", file=sys.stderr)

    try:
        stats = api.count(board, engine=arguments.engine, on_progress=progress)
    except SearchInterrupted as stopped:  # Ctrl-C: the count so far, a lower bound
        print(f"at least {stopped.stats.solutions} (interrupted)")
        return 130
    finally:
        if sys.stderr.isatty():
            print(file=sys.stderr)
    print(stats.solutions)
    return 0


if __name__ == "__main__":
    sys.exit(main())

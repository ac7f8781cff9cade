"""Use nqueens from a script: count solutions, stream a few boards, find one on a big board.

Run it with ``python examples/count_and_first.py``.
"""

from __future__ import annotations

import nqueens


def main() -> None:
    for n in range(1, 11):
        stats = nqueens.count(n)
        figures = ", ".join(f"{name}: {value:,}" for name, value in stats.figures.items())
        found = f"{stats.solutions:,} solution{'' if stats.solutions == 1 else 's'}"
        print(f"N = {n:2}: {found} ({figures}, {stats.engine} engine)")

    with nqueens.solve(8, limit=3) as stream:
        for solution in stream:
            print("8 queens at 1-based (row, col):", solution.one_based_squares())

    result = nqueens.first(60)
    assert result.solution is not None
    print(f"One solution for N = 60 in {result.stats.wall_time:.2f} s:", result.solution.rows)


if __name__ == "__main__":
    main()

"""Generate a random N-queens completion instance, as a board file that `nqueens --board` reads.

    python examples/random_completion.py 30 --queens 3 --seed 7 > puzzle.txt
    nqueens first --board puzzle.txt

Some instances have no completion: proving that is part of the fun (the problem is NP-complete).
"""

from __future__ import annotations

import argparse

from nqueens.formats.boards import random_puzzle


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("n", type=int, help="board size")
    parser.add_argument("--queens", type=int, help="queens to pre-place (default: N / 10)")
    parser.add_argument("--seed", type=int, help="for a repeatable instance")
    args = parser.parse_args()
    queens = args.queens if args.queens is not None else max(1, args.n // 10)
    print(random_puzzle(args.n, queens, seed=args.seed))


if __name__ == "__main__":
    main()

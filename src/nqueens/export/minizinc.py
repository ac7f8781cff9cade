"""The model as MiniZinc, in the OR-Tools guide's formulation: a variable per column holding the
row of its queen, and ``all_different`` on the rows and on both diagonals. Squares are 1-based,
as people read them; MiniZinc's default output (``q = [...];``) is what ``nqueens verify`` reads
back."""

from __future__ import annotations

from nqueens.core.board import Board, knight_pairs
from nqueens.core.geometry import SUM, SUPERQUEENS, TORUS
from nqueens.export.base import Format, Target, commented, header

RUN = "minizinc --solver gecode --all-solutions {file} | nqueens verify"


def write(board: Board, target: Target) -> None:
    """Write the model of ``board`` as MiniZinc."""
    n = board.n
    lines = [
        "q[c] is the row of the queen in column c (rows and columns 1 to n, from the top left).",
        "Any MiniZinc solver of integers runs it (Gecode, Chuffed, OR-Tools); without",
        "--all-solutions it stops at the first solution.",
    ]
    head = header(board, "a MiniZinc model", target, lines, RUN)
    target.stream.write(commented("%", head))
    target.stream.write(_model(board, n).encode())


def _model(board: Board, n: int) -> str:
    parts = [
        "",
        'include "all_different.mzn";',
        "",
        f"int: n = {n};",
        "array[1..n] of var 1..n: q;",
        "",
        "% No two queens on a row (one queen per column is the model itself).",
        "constraint all_different(q);",
    ]
    if TORUS in board.rules:
        parts += [
            "% The board wraps around: no two queens on a diagonal, carried on from the",
            "% other side.",
            "constraint all_different([(q[c] + c) mod n | c in 1..n]);",
            "constraint all_different([(q[c] - c + n) mod n | c in 1..n]);",
        ]
    else:
        parts += [
            "% No two queens on a diagonal: q[c] + c is the same along one rising to the right,",
            "% q[c] - c along one falling.",
            "constraint all_different([q[c] + c | c in 1..n]);",
            "constraint all_different([q[c] - c | c in 1..n]);",
        ]
    if SUPERQUEENS in board.rules and TORUS not in board.rules:
        parts += [
            "% Superqueens: no two queens a knight's move apart, in columns side by side two",
            "% rows apart, or one column between them and a row apart.",
            "constraint forall(c in 1..n - 1)(abs(q[c] - q[c + 1]) != 2);",
            "constraint forall(c in 1..n - 2)(abs(q[c] - q[c + 2]) != 1);",
        ]
    elif SUPERQUEENS in board.rules:  # the moves wrap around too: a table of them
        rows = [f"{col + 1}, {other + 1}, {apart}" for col, other, apart in knight_pairs(board)]
        table = [f"  | {row}" for row in rows[1:]]
        parts += [
            "% Superqueens: no two queens a knight's move apart, wrapped around. Each row",
            "% (c1, c2, d) of the table says q[c1] - q[c2] != d.",
            f"array[int, 1..3] of int: knight = [|{' ' + rows[0] if rows else ''}",
            *table,
            "  |];" if rows else "|];",
            "constraint forall(k in index_set_1of2(knight))(",
            "    q[knight[k, 1]] - q[knight[k, 2]] != knight[k, 3]);",
        ]
    if board.queens:
        parts += ["", "% Given queens."]
        parts += [f"constraint q[{col + 1}] = {row + 1};" for row, col in board.queens]
    if board.blocked:
        parts += ["", "% Blocked squares: no queen there."]
        parts += [f"constraint q[{col + 1}] != {row + 1};" for row, col in board.blocked]
    for excluded in board.excluded:
        if excluded.kind == SUM:  # rows + cols, 1-based, is the 0-based sum + 2
            way, sum_or_difference = "rising", f"q[c] + c != {excluded.value + 2}"
        else:
            way, sum_or_difference = "falling", f"q[c] - c != {excluded.value}"
        row, col = excluded.topmost(n)
        parts.append(
            f"% The {way} diagonal through {row + 1},{col + 1} is excluded: no queen on it."
        )
        parts.append(f"constraint forall(c in 1..n)({sum_or_difference});")
    parts += ["", "solve satisfy;", ""]
    return "\n".join(parts)


FORMAT = Format(
    name="minizinc",
    summary="a MiniZinc model (.mzn) for Gecode, Chuffed and other solvers",
    suffixes=(".mzn",),
    size=lambda n, rules: 4 * n if {TORUS, SUPERQUEENS} <= rules else 1,
    max_size=4 * 1_000_000,  # a table of 60 MB
    why="on a torus, its table of knight's moves grows with N",
    write=write,
)

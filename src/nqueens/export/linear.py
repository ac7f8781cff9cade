"""The 0-1 integer program of the mip engine, as LP and MPS files, written by OR-Tools' own model
exporter from the program's ``MPModelProto`` (the form OR-Tools' linear solvers read).

The program: N² binary variables, one a square, numbered row by row from 0 (the exporter names
variable k ``V{k}``: the square on row k // N + 1, column k % N + 1); every row and column holds
exactly one queen, every diagonal at most one; the objective, the number of queens, is
maximized. Each constraint is named for what it covers (``row_3``, ``falling_1_2``).
"""

from __future__ import annotations

from nqueens.core.board import Board
from nqueens.engines.mip import constraints
from nqueens.export.base import Format, Target, commented, header, squares_named, written_apart

RUNS = {
    "lp": "glpsol --lp {file} -o solution.txt  (or highs, cbc, scip, cplex, gurobi)",
    "mps": "glpsol --freemps {file} -o solution.txt  (or highs, cbc, scip, cplex, gurobi)",
}


def write_lp(board: Board, target: Target) -> None:
    """Write the program of ``board`` as an LP file."""
    _write(board, target, "lp")


def write_mps(board: Board, target: Target) -> None:
    """Write the program of ``board`` as a free-format MPS file."""
    _write(board, target, "mps")


def _write(board: Board, target: Target, form: str) -> None:
    from ortools.linear_solver import pywraplp

    n = board.n
    objective = (
        "The number of queens is maximized"
        if form == "lp"
        else "Minus the number of queens is minimized (MPS has no portable way to maximize)"
    )
    lines = [
        "Variable V<k> (k from 0, padded with zeros) is a queen on the square of row",
        f"k // {n} + 1, column k % {n} + 1 (1-based): the squares row by row.",
        f"{objective}:",
        f"every solution holds {n} queens, and a program with no solution has no optimum.",
    ]
    what = "a 0-1 integer program in " + ("LP format" if form == "lp" else "free MPS")
    head = header(board, what, target, lines, RUNS[form])
    target.stream.write(commented("\\" if form == "lp" else "*", head))

    def program_written() -> None:
        program = _program(board, maximize=form == "lp")
        options = pywraplp.ModelExportOptions()
        if form == "lp":
            text = pywraplp.ExportModelAsLpFormat(program, options)
        else:
            text = pywraplp.ExportModelAsMpsFormat(program, options)
        target.stream.write(text.encode())

    # OR-Tools' exporter holds Python's lock for seconds: apart, a stop need not wait for it
    written_apart(target.stream, program_written)


def _program(board: Board, *, maximize: bool) -> object:
    """The program as an ``MPModelProto``: the number of queens maximized, or minus it
    minimized."""
    from ortools.linear_solver import linear_solver_pb2

    n = board.n
    program = linear_solver_pb2.MPModelProto(name=f"queens_{n}", maximize=maximize)
    # A million variables alike are a million copies of one, which a proto reads as a list.
    square = linear_solver_pb2.MPModelProto()
    coefficient = 1 if maximize else -1
    square.variable.add(
        lower_bound=0, upper_bound=1, is_integer=True, objective_coefficient=coefficient
    )
    program.MergeFromString(square.SerializeToString() * (n * n))
    for name, cells, low, high in constraints(board):
        row = program.constraint.add(name=name, lower_bound=low, upper_bound=high)
        if low == 0 and high > 0:
            row.lower_bound = -float("inf")  # a sum of binaries is never below 0: one bound
        row.var_index.extend(cells)
        row.coefficient.extend([1.0] * len(cells))
    return program


FORMATS = (
    Format(
        name="lp",
        summary="the 0-1 integer program in LP format (.lp), for MIP solvers",
        suffixes=(".lp",),
        size=lambda n, rules: squares_named(n * n, rules),
        max_size=4 * 1_500**2,  # OR-Tools holds the program and its text: 1.3 GB at 1,500
        why="the program grows with N², and OR-Tools holds it whole: 0.6 GB at N = 1,000",
        write=write_lp,
    ),
    Format(
        name="mps",
        summary="the same program in free MPS (.mps)",
        suffixes=(".mps",),
        size=lambda n, rules: squares_named(n * n, rules),
        max_size=4 * 1_500**2,  # 2.3 GB at 1,500
        why="the program grows with N², and OR-Tools holds it whole: 1 GB at N = 1,000",
        write=write_mps,
    ),
)

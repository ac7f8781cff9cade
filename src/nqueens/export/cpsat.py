"""CP-SAT's own model, the one ``solve --engine cp-sat`` runs, as a ``CpModelProto``: text, which
people read and any protobuf library parses, or binary, which CP-SAT's command-line solver and
its ``model.Proto().ParseFromString`` read fastest."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from nqueens.core.board import Board
from nqueens.export.base import Format, Target, commented, header, squares_named

RUN = """in Python, with OR-Tools:
from ortools.sat.python import cp_model
model = cp_model.CpModel()
model.proto.parse_text_format(open("{file}").read())
solver = cp_model.CpSolver()
status = solver.solve(model)
if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
    rows = [solver.value(model.get_int_var_from_proto_index(c)) for c in range({n})]
    print(solver.status_name(status), rows)
else:  # INFEASIBLE: no board completes these squares
    print(solver.status_name(status))"""


def write(board: Board, target: Target) -> None:
    """Write the CP-SAT model of ``board``: as text, or binary where the target asks."""
    from nqueens.engines.cpsat.model import build_model

    model = build_model(board).model
    if target.binary:  # no room for a comment in a binary proto
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "model.pb"
            if not model.export_to_file(str(path)):
                raise OSError(f"OR-Tools could not write the model of {board.title}")
            with path.open("rb") as written:
                shutil.copyfileobj(written, target.stream)
        return
    lines = [
        "Variable c (queen_col_c, from 0) is the row of the queen in column c, both 0-based;",
        "AllDifferent on the rows and on both diagonals (rows[c] + c, rows[c] - c), given",
        "squares as equalities and inequalities, and the OR-Tools guide's search strategy.",
    ]
    run = RUN.replace("{n}", str(board.n))
    head = header(board, "a CP-SAT model (CpModelProto, text format)", target, lines, run)
    target.stream.write(commented("#", head))
    text = str(model.proto)
    target.stream.write((text if text.endswith("\n") else text + "\n").encode())


FORMAT = Format(
    name="cp-sat",
    summary="CP-SAT's model (CpModelProto), as text, or binary in a .pb file",
    suffixes=(".pbtxt", ".txtpb", ".pb"),
    size=squares_named,  # a variable a column, each on a row and two diagonals
    max_size=4 * 100_000,
    why="it holds a variable and three terms a column, about 30 MB of text at N = 100,000",
    write=write,
)

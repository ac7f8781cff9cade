"""Exported models run by the solvers they are written for: MiniZinc with Gecode, SAT solvers
(picosat, minisat), GLPK's glpsol and CP-SAT. Every solution another tool finds is checked by the
tests' own checker, and their number compared with the tests' own counter and with nqueens'.

Each tool is Debian's (``.ci/run`` installs them); where one is missing its tests skip and say so.
"""

from __future__ import annotations

import io
import json
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from helpers import ROOT, attacks, count_completions, invoke, solutions

import nqueens
from nqueens.core.board import Board
from nqueens.export import Target, export

RULE_SETS = [(), ("torus",), ("superqueens",), ("superqueens", "torus")]


def slow_but(values: Sequence[object], kept: object) -> list[object]:
    """``values`` as parameters, all but ``kept`` run with -m slow (the README's command stays
    under its 90 s; CI runs both)."""
    return [
        value if value == kept else pytest.param(value, marks=pytest.mark.slow) for value in values
    ]


def needs(tools: str, packages: str) -> pytest.MarkDecorator:
    missing = [tool for tool in tools.split() if shutil.which(tool) is None]
    return pytest.mark.skipif(
        bool(missing), reason=f"{' and '.join(missing)} not installed (Debian's {packages})"
    )


needs_minizinc = needs("minizinc fzn-gecode", "minizinc and flatzinc")
needs_picosat = needs("picosat", "picosat")
needs_minisat = needs("minisat", "minisat")
needs_glpsol = needs("glpsol", "glpk-utils")


def written(board: Board, form: str, folder: Path, suffix: str) -> Path:
    path = folder / f"model{suffix}"
    with path.open("wb") as stream:
        export(board, form, Target(stream, path.name))
    return path


def assert_solutions(found: list[tuple[int, ...]], n: int, rules: tuple[str, ...]) -> None:
    """Every board found is a solution by the tests' own checker, none twice."""
    assert len(set(found)) == len(found)
    for rows in found:
        assert sorted(rows) == list(range(n)), rows
        squares = [(row, col) for col, row in enumerate(rows)]
        assert not any(
            attacks(a, b, n, rules) for i, a in enumerate(squares) for b in squares[i + 1 :]
        ), rows


def random_puzzle(n: int, seed: int) -> Board:
    """A queen, a blocked square and sometimes an excluded diagonal, at random, kept only if
    they make a puzzle (the queen on no excluded diagonal)."""
    chooser = random.Random(seed)
    while True:
        queen = (chooser.randrange(n), chooser.randrange(n))
        blocked = (chooser.randrange(n), chooser.randrange(n))
        excluded = [("sum", chooser.randrange(2 * n - 1))] if seed % 2 else []
        try:
            return Board(n, [queen], [blocked] if blocked != queen else [], excluded)
        except nqueens.BoardError:
            continue


def puzzle_count(board: Board) -> int:
    sums = frozenset(d.value for d in board.excluded if d.kind == "sum")
    differences = frozenset(d.value for d in board.excluded if d.kind == "difference")
    return count_completions(board.n, set(board.queens), set(board.blocked), sums, differences)


# MiniZinc


def minizinc_boards(path: Path) -> list[tuple[int, ...]]:
    shown = subprocess.run(
        ["minizinc", "--solver", "gecode", "--all-solutions", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    rows = re.findall(r"q = \[([0-9, ]*)\];", shown)
    assert shown.rstrip().endswith(("==========", "=====UNSATISFIABLE=====")), shown[-200:]
    return [tuple(int(row) - 1 for row in line.split(", ")) for line in rows if line]


@needs_minizinc
@pytest.mark.parametrize("rules", slow_but(RULE_SETS, ("superqueens", "torus")))
def test_minizinc_finds_every_solution_and_no_other(rules: tuple[str, ...], tmp_path: Path) -> None:
    n = 7
    found = minizinc_boards(written(Board(n, rules=rules), "minizinc", tmp_path, ".mzn"))
    assert_solutions(found, n, rules)
    assert set(found) == solutions(n, rules)
    assert len(found) == nqueens.count(Board(n, rules=rules)).solutions


@pytest.mark.slow
@needs_minizinc
@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("n", range(1, 11))
def test_minizinc_counts_every_board(n: int, rules: tuple[str, ...], tmp_path: Path) -> None:
    found = minizinc_boards(written(Board(n, rules=rules), "minizinc", tmp_path, ".mzn"))
    assert_solutions(found, n, rules)
    assert len(found) == nqueens.count(Board(n, rules=rules)).solutions == len(solutions(n, rules))


@needs_minizinc
@pytest.mark.parametrize("seed", [pytest.param(seed, marks=pytest.mark.slow) for seed in range(12)])
def test_minizinc_counts_random_puzzles(seed: int, tmp_path: Path) -> None:
    board = random_puzzle(8, seed)
    found = minizinc_boards(written(board, "minizinc", tmp_path, ".mzn"))
    assert_solutions(found, board.n, ())
    assert all(board.allows(rows) for rows in found)
    assert len(found) == puzzle_count(board) == nqueens.count(board).solutions


# SAT


def all_models(cnf: Path, n: int) -> list[tuple[int, ...]]:
    """Every model, by picosat's enumeration with blocking clauses, as boards."""
    shown = subprocess.run(
        ["picosat", "--all", str(cnf)], capture_output=True, text=True, timeout=120
    ).stdout
    boards = []
    for model in shown.split("s SATISFIABLE")[1:]:
        true = {int(v) for v in re.findall(r"-?[0-9]+", model.split("s ")[0]) if int(v) > 0}
        queens = sorted(divmod(v - 1, n) for v in true if v <= n * n)
        assert len(queens) == n, model
        boards.append(tuple(row for row, _ in sorted(queens, key=lambda square: square[1])))
    return boards


@needs_picosat
@pytest.mark.parametrize("rules", slow_but(RULE_SETS, ()))
def test_every_model_of_the_cnf_is_one_solution(rules: tuple[str, ...], tmp_path: Path) -> None:
    """One model a solution, one solution a model: the auxiliary variables are decided by the
    squares, so counting the CNF's models counts the board's solutions."""
    n = 8
    found = all_models(written(Board(n, rules=rules), "dimacs", tmp_path, ".cnf"), n)
    assert_solutions(found, n, rules)
    assert set(found) == solutions(n, rules)
    assert len(found) == nqueens.count(Board(n, rules=rules)).solutions


@pytest.mark.slow
@needs_picosat
@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("n", range(1, 11))
def test_the_cnf_counts_every_board(n: int, rules: tuple[str, ...], tmp_path: Path) -> None:
    found = all_models(written(Board(n, rules=rules), "dimacs", tmp_path, ".cnf"), n)
    assert_solutions(found, n, rules)
    assert len(found) == nqueens.count(Board(n, rules=rules)).solutions == len(solutions(n, rules))


@needs_picosat
@pytest.mark.parametrize(
    "seed", [pytest.param(seed, marks=pytest.mark.slow) for seed in range(1, 12)] + [0]
)
def test_the_cnf_counts_random_puzzles(seed: int, tmp_path: Path) -> None:
    board = random_puzzle(8, seed)
    found = all_models(written(board, "dimacs", tmp_path, ".cnf"), board.n)
    assert_solutions(found, board.n, ())
    assert all(board.allows(rows) for rows in found)
    assert len(found) == puzzle_count(board) == nqueens.count(board).solutions


def minisat_answers(cnf: Path, n: int, folder: Path) -> list[str]:
    """MiniSat's result files, run after run, each run's model forbidden in the next (its
    queens as one more clause), until one says UNSAT: the enumeration the CNF's header
    describes, by hand."""
    text = cnf.read_text()
    answers = []
    for _ in range(100):
        scratch = folder / "scratch.cnf"
        scratch.write_text(text)
        result = folder / "result.txt"
        subprocess.run(["minisat", str(scratch), str(result)], capture_output=True, timeout=60)
        answers.append(result.read_text())
        if answers[-1].startswith("UNSAT"):
            return answers
        queens = [v for v in map(int, answers[-1].split("\n")[1].split()) if 0 < v <= n * n]
        text = re.sub(r"p cnf (\d+) (\d+)", lambda m: f"p cnf {m[1]} {int(m[2]) + 1}", text)
        text += " ".join(str(-v) for v in queens) + " 0\n"
    raise AssertionError("MiniSat found more models than the board has solutions")


@needs_minisat
def test_minisat_with_blocking_clauses_on_the_squares(tmp_path: Path) -> None:
    n = 6
    cnf = written(Board(n), "dimacs", tmp_path, ".cnf")
    found = []
    for answer in minisat_answers(cnf, n, tmp_path)[:-1]:
        queens = [v for v in map(int, answer.split("\n")[1].split()) if 0 < v <= n * n]
        found.append(
            tuple(row for row, _ in sorted((divmod(v - 1, n) for v in queens), key=lambda s: s[1]))
        )
    assert_solutions(found, n, ())
    assert set(found) == solutions(n, ())


# LP and MPS, by GLPK's glpsol


def glpsol(path: Path, form: str, n: int) -> tuple[int, ...] | None:
    """The board of glpsol's optimum, or None where the program has no solution of N queens."""
    answer = path.with_suffix(".sol")
    subprocess.run(
        ["glpsol", "--lp" if form == "lp" else "--freemps", str(path), "-w", str(answer)],
        capture_output=True,
        timeout=120,
        check=True,
    )
    lines = answer.read_text().splitlines()
    status = next(line.split() for line in lines if line.startswith("s mip"))
    queens = n if form == "lp" else -n  # MPS minimizes minus the number of queens
    if status[4] != "o" or round(float(status[5])) != queens:
        return None
    values = [line.split() for line in lines if line.startswith("j ")]
    placed = [divmod(int(column) - 1, n) for _, column, value in values if float(value) > 0.5]
    return tuple(row for row, _ in sorted(placed, key=lambda square: square[1]))


@needs_glpsol
@pytest.mark.parametrize("form", ["lp", "mps"])
@pytest.mark.parametrize("rules", slow_but(RULE_SETS, ("torus",)))
def test_glpsol_solves_the_program(form: str, rules: tuple[str, ...], tmp_path: Path) -> None:
    for n in (1, 4, 5, 6):
        board = Board(n, rules=rules)
        found = glpsol(written(board, form, tmp_path, f".{form}"), form, n)
        exists = nqueens.first(board).solution is not None
        assert (found is not None) == exists == bool(solutions(n, rules)), (n, rules)
        if found is not None:
            assert_solutions([found], n, rules)


@needs_glpsol
@pytest.mark.parametrize("form", ["lp", "mps"])
@pytest.mark.parametrize("seed", slow_but(list(range(6)), 1))
def test_glpsol_solves_random_puzzles(form: str, seed: int, tmp_path: Path) -> None:
    board = random_puzzle(6 + seed % 3, seed)
    found = glpsol(written(board, form, tmp_path, f".{form}"), form, board.n)
    assert (found is not None) == (puzzle_count(board) > 0)
    if found is not None:
        assert_solutions([found], board.n, ())
        assert board.allows(found)


@needs_glpsol
@pytest.mark.parametrize("form", ["lp", "mps"])
def test_verify_reads_glpsols_report_back(form: str, tmp_path: Path) -> None:
    """GLPK's report of a solution (glpsol -o) read back as the board it holds: a board, or
    no board where GLPK found none. verify said its first line was not part of a board."""
    report = tmp_path / "report.txt"
    for board, exit_code, said in [
        (Board(8, queens=((0, 0),)), 0, "1 board checked: all valid."),
        (Board(6, queens=((0, 0), (1, 2))), 2, "GLPK's status is INTEGER EMPTY"),
    ]:
        model = written(board, form, tmp_path, f".{form}")
        reading = "--lp" if form == "lp" else "--freemps"
        subprocess.run(
            ["glpsol", reading, str(model), "-o", str(report)], capture_output=True, check=True
        )
        checked = invoke("verify", str(report))
        assert checked.exit_code == exit_code, checked.stderr
        assert said in checked.stderr, checked.stderr


# CP-SAT


@pytest.mark.parametrize("rules", slow_but(RULE_SETS, ("superqueens",)))
def test_the_cp_sat_model_read_back_counts_every_solution(rules: tuple[str, ...]) -> None:
    from ortools.sat.python import cp_model

    n = 7
    stream = io.BytesIO()
    export(Board(n, rules=rules), "cp-sat", Target(stream, "model.pbtxt"))
    model = cp_model.CpModel()
    model.proto.parse_text_format(stream.getvalue().decode())
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    found: list[tuple[int, ...]] = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(tuple(self.value(model.get_int_var_from_proto_index(c)) for c in range(n)))

    solver.solve(model, Collect())
    assert_solutions(found, n, rules)
    assert set(found) == solutions(n, rules)


def test_the_binary_cp_sat_model_is_the_text_one() -> None:
    from ortools.sat import cp_model_pb2

    board = Board(9, [(0, 0)], [(4, 4)], rules=["superqueens"])
    text, binary = io.BytesIO(), io.BytesIO()
    export(board, "cp-sat", Target(text, "m.pbtxt"))
    export(board, "cp-sat", Target(binary, "m.pb", binary=True))
    body = "".join(line for line in text.getvalue().decode().splitlines(True) if line[0] != "#")
    assert str(cp_model_pb2.CpModelProto.FromString(binary.getvalue())).strip() == body.strip()


@needs_picosat
@pytest.mark.parametrize("n", [6, 8])
def test_verify_reads_every_model_picosat_lists_as_a_board(n: int, tmp_path: Path) -> None:
    """picosat --all prints one 's SATISFIABLE' and 'v' lines per model: each is a board (they
    were once merged into one board of N² queens)."""
    cnf = written(Board(n), "dimacs", tmp_path, ".cnf")
    answer = subprocess.run(
        ["picosat", "--all", str(cnf)], capture_output=True, text=True, timeout=60
    ).stdout
    result = invoke("verify", "--dimacs", str(cnf), "-", stdin=answer)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f"{len(solutions(n, ())):,} boards checked: all valid" in result.stderr
    one_wrong = answer.replace("v -1 ", "v 1 ", 1)
    result = invoke("verify", "--dimacs", str(cnf), "-", "--format", "json", stdin=one_wrong)
    assert result.exit_code == 1
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == len(solutions(n, ()))
    assert [record["board"] for record in records if not record["valid"]] == [1]


@needs_minisat
def test_verify_reads_minisat_result_files_one_after_another(tmp_path: Path) -> None:
    """Result files of several runs (the enumeration above), concatenated: each SAT and its
    line is a board, and the last run's UNSAT ends them."""
    n = 5
    cnf = written(Board(n), "dimacs", tmp_path, ".cnf")
    answers = minisat_answers(cnf, n, tmp_path)
    checked = invoke("verify", "--dimacs", str(cnf), "-", stdin="".join(answers))
    assert checked.exit_code == 0, checked.stderr
    assert f"{len(solutions(n, ())):,} boards checked: all valid" in checked.stderr


def test_the_binary_models_recipe_in_the_docs_loads_and_solves_it(tmp_path: Path) -> None:
    """The page's Python, run as shown on a file exported as the page exports it: the obvious
    ``model.proto.ParseFromString`` fails on OR-Tools 9.15."""
    page = (ROOT / "docs" / "how-to" / "export.md").read_text()
    (recipe,) = [
        block for block in re.findall(r"```python\n(.*?)```", page, re.S) if ".pb" in block
    ]
    assert invoke("export", "7", "--torus", "-o", str(tmp_path / "torus.pb")).exit_code == 0
    done = subprocess.run(
        [sys.executable, "-c", recipe], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    status, rows = done.stdout.split(" ", 1)
    assert status == "OPTIMAL"
    board = json.loads(rows)
    assert tuple(board) in solutions(7, ("torus",))

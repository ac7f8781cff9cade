"""The smallest model we found on which CP-SAT's presolve declares a solvable model infeasible.

It is what nqueens's lex-leader constraints leave of one subproblem of N = 11 (the first queens
on rows 2, 6, 3, 9; ``cols`` is the inverse permutation): with presolve CP-SAT answers INFEASIBLE
('during probing' in its log, after 'detect half reified value encoding'), without it OPTIMAL, and
the solution it then finds is checked here by hand. Dropping ``cols[0] <= 8``, or fixing ``e``
to false, makes presolve right again. Written for the upstream report (ortools 9.15.6755 shows
it; google/or-tools#5274 has the same symptom on the same version); nqueens enumerates with
presolve off (engines/cpsat.py).

    python benchmarks/cpsat_presolve.py
"""

from __future__ import annotations

from importlib.metadata import version

from ortools.sat.python import cp_model

N = 11


def solve(presolve: bool) -> tuple[str, list[int]]:
    """The status, and the rows of the solution found (empty when none)."""
    model = cp_model.CpModel()
    rows = [model.new_int_var(0, N - 1, f"rows_{c}") for c in range(N)]
    cols = [model.new_int_var(0, N - 1, f"cols_{r}") for r in range(N)]
    e = model.new_bool_var("e")
    model.add_all_different(rows[c] + c for c in range(N))
    model.add_all_different(rows[c] - c for c in range(N))
    model.add_inverse(rows, cols)
    for col, row in enumerate((2, 6, 3, 9)):
        model.add(rows[col] == row)
    model.add(cols[0] <= 8)
    model.add(cols[0] != 8).only_enforce_if(~e)
    model.add(cols[1] <= 4).only_enforce_if(e)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_presolve = presolve
    status = solver.solve(model)
    found = [solver.value(row) for row in rows] if status == cp_model.OPTIMAL else []
    return solver.status_name(status), found


def main() -> None:
    print(f"ortools {version('ortools')}")
    for presolve in (True, False):
        status, found = solve(presolve)
        print(f"presolve {'on ' if presolve else 'off'}: {status} {found or ''}")
        if found:
            cols = sorted(range(N), key=lambda col: found[col])
            assert sorted(found) == list(range(N))
            assert len({r + c for c, r in enumerate(found)}) == N
            assert len({r - c for c, r in enumerate(found)}) == N
            assert cols[0] <= 8 and cols[0] != 8, "e = false satisfies the rest"
            print("  checked: a permutation, no shared diagonal, cols[0] <= 7 (e false)")


if __name__ == "__main__":
    main()

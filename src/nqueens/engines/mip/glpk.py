"""The 0-1 program on GLPK, the 0-1 integer-programming article's solver, through ``swiglpk``.

swiglpk bundles GLPK 5.0, so no compiler and no system library are needed. GLPK holds the
interpreter lock while it solves and takes no stop request from Python: a stop signal takes
effect when the solve under way ends (a time limit is GLPK's own). It does not report its
branch-and-bound nodes outside a C callback, so ``nodes`` stays 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from nqueens.core.results import Square


class GlpkProgram:
    """The program as GLPK's problem object: binary columns, one row per constraint."""

    def __init__(self, n: int, constraints: Iterable[tuple[str, Sequence[int], int, int]]) -> None:
        """The program of ``constraints``: (name, cells, low, high), as the engine makes them."""
        import swiglpk as glpk

        self._glpk = glpk
        glpk.glp_term_out(glpk.GLP_OFF)  # GLPK writes to stdout unless told not to
        self.n = n
        self._problem = glpk.glp_create_prob()
        glpk.glp_set_obj_dir(self._problem, glpk.GLP_MAX)
        glpk.glp_add_cols(self._problem, n * n)
        for column in range(1, n * n + 1):
            glpk.glp_set_col_kind(self._problem, column, glpk.GLP_BV)
            glpk.glp_set_obj_coef(self._problem, column, 1.0)
        for _, cells, low, high in constraints:
            kind = glpk.GLP_FX if low == high else glpk.GLP_UP
            self._add_row(cells, low, high, kind)
        self.iterations = 0
        self.nodes = 0

    def _add_row(self, cells: Sequence[int], low: int, high: int, kind: int) -> None:
        glpk = self._glpk
        row = glpk.glp_add_rows(self._problem, 1)
        glpk.glp_set_row_bnds(self._problem, row, kind, float(low), float(high))
        columns = glpk.intArray(len(cells) + 1)  # GLPK's arrays count from 1
        values = glpk.doubleArray(len(cells) + 1)
        for index, cell in enumerate(cells, start=1):
            columns[index] = cell + 1
            values[index] = 1.0
        glpk.glp_set_mat_row(self._problem, row, len(cells), columns, values)

    def solve(self, seconds: float | None) -> list[Square] | bool:
        glpk = self._glpk
        parameters = glpk.glp_iocp()
        glpk.glp_init_iocp(parameters)
        parameters.presolve = glpk.GLP_ON
        parameters.msg_lev = glpk.GLP_MSG_OFF
        if seconds is not None:
            parameters.tm_lim = max(1, round(seconds * 1000))
        before = glpk.glp_get_it_cnt(self._problem)
        outcome = glpk.glp_intopt(self._problem, parameters)
        self.iterations += glpk.glp_get_it_cnt(self._problem) - before
        if outcome == glpk.GLP_ETMLIM:
            return True
        status = glpk.glp_mip_status(self._problem)
        if outcome == glpk.GLP_ENOPFS or status == glpk.GLP_NOFEAS:
            return False
        if status != glpk.GLP_OPT:
            return True
        return [
            (r, c)
            for r in range(self.n)
            for c in range(self.n)
            if glpk.glp_mip_col_val(self._problem, r * self.n + c + 1) > 0.5
        ]

    def forbid(self, queens: list[Square]) -> None:
        self._add_row([r * self.n + c for r, c in queens], 0, self.n - 1, self._glpk.GLP_UP)

    def __del__(self) -> None:
        self._glpk.glp_delete_prob(self._problem)

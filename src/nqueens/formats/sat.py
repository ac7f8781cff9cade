"""A SAT solver's answer to a CNF that ``nqueens export --to dimacs`` wrote, read back as a board.

The CNF's header names the board (``c Board: N = 8 (torus)``); variables 1 to N² are its
squares, row by row. The answer is MiniSat's result file (``SAT`` and a line of literals) or the
SAT competitions' output (``s SATISFIABLE`` and ``v`` lines), as most solvers print it, with one
model or many (``picosat --all``). Each model is a board: it is checked against every clause of
the CNF, and its queens as a board by the checker of ``nqueens.formats.verify``.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from nqueens.core.board import MAX_N
from nqueens.core.geometry import RULES
from nqueens.core.results import InputError
from nqueens.core.validation import read_whole
from nqueens.formats.verify import BoardCheck, check

_BOARD = re.compile(r"c Board: N = ([0-9]+)(?: \(([a-z, ]+)\))?[.;].*")
_PROBLEM = re.compile(r"p\s+cnf\s+([0-9]+)\s+([0-9]+)\s*")
_SATISFIABLE = ("SAT", "s SATISFIABLE")
_UNSATISFIABLE = ("UNSAT", "s UNSATISFIABLE")


@dataclass(frozen=True)
class Cnf:
    """What a CNF's header says: the board's size and rules, and the count of variables."""

    n: int
    rules: frozenset[str]
    variables: int


def read_header(lines: Iterator[str], name: str) -> Cnf:
    """The header of a CNF that nqueens wrote, read up to its ``p cnf`` line."""
    n: int | None = None
    rules: frozenset[str] = frozenset()
    for line in lines:
        text = line.strip()
        board = _BOARD.fullmatch(text)
        if board is not None:
            n = read_whole(board.group(1))
            named = frozenset((board.group(2) or "").replace(",", " ").split())
            rules = named & frozenset(RULES)
            continue
        problem = _PROBLEM.fullmatch(text)
        if problem is not None:
            if n is None or not 1 <= n <= MAX_N:
                break
            variables = read_whole(problem.group(1))
            if variables < n * n:
                raise InputError(f"{name} has {variables:,} variables, fewer than N² = {n * n:,}")
            return Cnf(n, rules, variables)
        if text and not text.startswith("c"):
            break
    raise InputError(
        f"{name} is not a CNF that nqueens export wrote: its header names no board "
        "('c Board: N = ...' before the 'p cnf' line)"
    )


def read_models(lines: Iterable[str], name: str) -> Iterator[set[int]]:
    """The variables each model of a solver's answer sets true, model by model: a model ends
    at its literal 0 or at the next SAT line (``picosat --all`` prints many, and so do
    MiniSat's result files run one after another). InputError where the answer finds the CNF
    unsatisfiable before any model, or says neither SAT nor UNSAT."""
    status: bool | None = None
    true: set[int] = set()
    open_model = False
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if text in _SATISFIABLE or text in _UNSATISFIABLE:
            if open_model:
                yield true
                true, open_model = set(), False
            if status is None or text in _SATISFIABLE:
                status = text in _SATISFIABLE
            continue
        if not text or text.startswith("c") or text.startswith("s "):
            continue
        if status is None:
            break
        values = text[2:] if text.startswith("v ") else text
        try:
            literals = [int(value) for value in values.split()]
        except ValueError:
            raise InputError(
                f"line {number} of {name}: {text[:40]!r} is not part of a SAT solver's answer"
            ) from None
        for literal in literals:
            if literal == 0:
                yield true
                true, open_model = set(), False
                continue
            open_model = True
            if literal > 0:
                true.add(literal)
    if open_model:
        yield true
    if status is None:
        raise InputError(
            f"{name} is not a SAT solver's answer: no SAT, UNSAT, 's SATISFIABLE' or "
            "'s UNSATISFIABLE' line"
        )
    if not status:
        raise InputError("the SAT solver found the CNF unsatisfiable: there is no board to check")


def read_clauses(lines: Iterable[str]) -> array[int]:
    """The literals of a CNF's clauses, each clause ended by 0 (the rest of a CNF after its
    ``p cnf`` line), kept so that every model of an answer is checked against them."""
    literals = array("i")
    for line in lines:
        text = line.strip()
        if text and not text.startswith("c"):
            literals.extend(map(int, text.split()))
    return literals


def unsatisfied(literals: Iterable[int], true: set[int]) -> int | None:
    """The number of the first clause that the model leaves false, or None."""
    clause = 0
    holds = False
    for literal in literals:
        if literal == 0:
            clause += 1
            if not holds:
                return clause
            holds = False
        elif not holds:
            holds = literal in true if literal > 0 else -literal not in true
    return None


def board_of(cnf: Cnf, true: set[int], number: int = 1) -> BoardCheck:
    """The queens of a model, checked as a board under the CNF's rules."""
    n = cnf.n
    queens = [divmod(variable - 1, n) for variable in sorted(true) if variable <= n * n]
    return check(number, n, queens, cnf.rules)

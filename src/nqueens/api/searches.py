"""The public Python API: ``solve``, ``count`` and ``first``, and ``plan``, what they will do.
The command line is built on these, and says nothing a caller cannot ask them for.

Each search checks its arguments, makes its plan (``nqueens.run.choose``: the engine from the
registry, why, the notes worth saying, the workers and bounds of a count), hands the plan to
``on_plan``, then carries it out (``nqueens.run.execute``); ``plan`` makes the plan alone.
Solvers are imported only when a search actually runs, so importing ``nqueens`` (and
``nqueens --help``) stays fast.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from nqueens.core import signals, validation
from nqueens.core.board import Board
from nqueens.core.plans import Plan
from nqueens.core.results import FirstResult, InputError, Square, Stats
from nqueens.engines import registry
from nqueens.engines.base import COUNT, FIRST, SOLVE
from nqueens.engines.streams import EngineStream
from nqueens.run import execute
from nqueens.run.choose import choose
from nqueens.run.requests import Asked, asked
from nqueens.run.requests import PlanCallback as PlanCallback

if TYPE_CHECKING:
    from nqueens.run.counting import EstimateCallback, ProgressCallback


@signals.guarded
def plan(command: str, n: int | Board, **arguments: Any) -> Plan:
    """What ``solve``, ``count`` or ``first`` (``command``) would do with these arguments, the
    same ones the function takes, without searching: the engine and why, and the notes worth
    saying first. The arguments are checked as the search would check them (InputError)."""
    searches: dict[str, Callable[..., object]] = {SOLVE: solve, COUNT: count, FIRST: first}
    if command not in searches:
        raise InputError(
            f"unknown command {validation.shown(command)}; choose from {', '.join(searches)}"
        )
    if "on_plan" in arguments:
        raise InputError("plan() returns the plan: on_plan belongs to the searches")
    call = inspect.signature(searches[command]).bind(n, **arguments)
    call.apply_defaults()
    return _planned(command, call.arguments)[0]


def _planned(command: str, given: Mapping[str, Any]) -> tuple[Plan, Asked]:
    """The plan of a search and what it asked, its arguments ``given`` by their names (the
    function's signature names them once); the plan handed to ``on_plan`` first."""
    checked = asked(command, given)
    decided = choose(checked)
    if checked.on_plan is not None:
        checked.on_plan(decided)
    return decided, checked


@signals.guarded
def solve(
    n: int | Board,
    *,
    limit: int | None = None,
    time_limit: float | None = None,
    unique: bool = False,
    engine: str = registry.AUTO_ENGINE,
    strategy: str | None = None,
    queens: Iterable[Square] = (),
    blocked: Iterable[Square] = (),
    excluded: Iterable[tuple[str, int]] = (),
    on_plan: PlanCallback | None = None,
    **engine_options: str,
) -> EngineStream:
    """Every solution for an n x n board, yielded as the engine finds them.

    ``limit`` stops after that many solutions, ``time_limit`` after that many seconds; ``unique``
    yields one solution per class under the 8 symmetries of the square (its lexicographically
    smallest). ``queens`` must be kept and ``blocked`` squares and ``excluded`` diagonals left
    empty (0-based ``(row, col)``; ``("sum", row + col)`` or ``("difference", row - col)``).
    The stream's ``stats`` tell how the search ended once it is exhausted or closed. Other
    keywords are the engine's own options, such as ``mip_solver="glpk"`` for the mip engine.

    ``engine="auto"`` runs CP-SAT, or the reduced engine for excluded diagonals and for puzzles
    on boards too large for CP-SAT; a theorem answers without a search where one does (a torus
    whose N is divisible by 2 or 3 has no solution, nor given squares that close a whole row or
    column): ``stats.engine`` is then ``"theorem"``. ``on_plan`` is called with the plan
    (see ``plan``) before the search starts.
    """
    return execute.solve(*_planned(SOLVE, locals()))


@signals.guarded
def count(
    n: int | Board,
    *,
    time_limit: float | None = None,
    workers: int | None = None,
    symmetry: bool = True,
    unique: bool = False,
    on_progress: ProgressCallback | None = None,
    on_estimate: EstimateCallback | None = None,
    engine: str = registry.AUTO_ENGINE,
    strategy: str | None = None,
    queens: Iterable[Square] = (),
    blocked: Iterable[Square] = (),
    excluded: Iterable[tuple[str, int]] = (),
    checkpoint: str | os.PathLike[str] | None = None,
    cluster: str | None = None,
    connect_timeout: float | None = 10.0,
    on_plan: PlanCallback | None = None,
    **engine_options: str,
) -> Stats:
    """Count the solutions for an n x n board exactly; ``stats.solutions`` is the count.

    ``engine="auto"`` takes the fastest exact engine that can (``stats.engine`` names it), or none
    where a theorem answers (a torus whose N is divisible by 2 or 3 has no solution, nor given
    squares that close a whole row or column; the engine is then ``"theorem"``, and the count
    needs no workers, checkpoint or cluster). Engines
    that know the board's symmetry use it (``symmetry=False`` turns that off) and report the
    number of classes in ``stats.unique``; ``unique`` asks for it and refuses engines that cannot.
    Splitting engines share the search among ``workers`` processes (default and 0: every core; 1
    searches in this process) and call ``on_progress(done, total, solutions)`` as each
    subproblem finishes. ``queens`` must be kept and ``blocked`` squares and ``excluded``
    diagonals left empty (0-based ``(row, col)``; ``("sum", row + col)`` or ``("difference",
    row - col)``); they break the board's symmetry, so the count then goes without it. Ctrl-C
    raises ``SearchInterrupted``, whose ``stats`` hold the partial count.

    ``checkpoint`` names a file that keeps every finished subproblem's count: the same count run
    again with it resumes, and a finished one answers at once; when it cannot be written (a full
    disk), the count stops with ``CheckpointUnwritable``, an OSError. ``cluster`` counts on a Dask
    cluster: a scheduler's address (``"tcp://host:8786"``), or ``"local:K"`` for K worker
    processes here; a scheduler that does not answer within ``connect_timeout`` seconds (or the
    time limit, if sooner) raises ``ClusterUnreachable``, and one that goes away in the middle
    stops the count with ``ClusterLost``. With either, counts beyond N = 18 are
    allowed without a time limit: the work can be resumed or shared.
    Such a long count first times a random sample of its subproblems for about a second, and
    passes the estimate to ``on_estimate(estimate, workers)``: ``estimate.seconds_on(workers)``
    is the time it expects. ``on_plan`` is called with the plan (see ``plan``) before the
    search starts. Other keywords are the engine's own options, such as ``mip_solver="glpk"``
    for the mip engine.
    """
    return execute.count(*_planned(COUNT, locals()))


@signals.guarded
def first(
    n: int | Board,
    *,
    time_limit: float | None = None,
    engine: str = registry.AUTO_ENGINE,
    strategy: str | None = None,
    queens: Iterable[Square] = (),
    blocked: Iterable[Square] = (),
    excluded: Iterable[tuple[str, int]] = (),
    seed: int | None = None,
    on_plan: PlanCallback | None = None,
    **engine_options: str,
) -> FirstResult:
    """Find one solution for an n x n board, or prove that none exists.

    ``queens`` must be kept and ``blocked`` squares and ``excluded`` diagonals left empty
    (0-based ``(row, col)``, ``("sum", row + col)``, ``("difference", row - col)``).
    ``seed`` starts the random choices of the searches that make them (local search, CP-SAT,
    the cp engine's auto strategy): ``engine="auto"`` then runs one of those where one can
    decide the board, and ``stats.engine`` says which search answered. CP-SAT's parallel workers
    race, so its runs may still differ.

    ``engine="auto"`` runs the engines and strategies measured fastest to a first solution
    (see ``plan``); ``stats.engine`` and ``stats.strategy`` say which one
    decided, and ``stats.wall_time`` covers every attempt. A theorem answers without a search
    where one does (``stats.engine`` is ``"theorem"``): none exists on a torus whose N is
    divisible by 2 or 3, nor where given squares close a whole row or column (on a torus, a
    wrapped diagonal too), and a line of queens solves most other tori. ``on_plan`` is called
    with the plan (see ``plan``) before the search starts; the result's ``notes`` say where a
    ``seed`` changed nothing. Other keywords are the engine's own options, such as
    ``mip_solver="glpk"`` for the mip engine.
    """
    return execute.first(*_planned(FIRST, locals()))

"""What every engine declares and does: the contract the registry, the API and the CLI rely on.

An engine is one module with one ``Engine`` subclass: its name, what it can do (commands,
unique solutions, puzzles, strategies), its size limit and the names of its two statistics, and
how it runs a request. Importing an engine module must not import its solver: the solver is
imported when a search runs, so ``nqueens --help`` stays fast. Engines that count by cutting the
board into independent subproblems also say how they cut it (``Engine.subproblems``) and how
they count one piece (``Engine.count_subproblem``); where the pieces run is an executor's
business (``nqueens.run.executors``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from nqueens.core.board import Board
from nqueens.core.results import FirstResult, Stats
from nqueens.engines.streams import EngineStream, count_all, first_of

SOLVE = "solve"
"""The command that lists every solution (``nqueens.api.solve``), as ``plan`` names it."""

COUNT = "count"
"""The command that counts the solutions (``nqueens.api.count``)."""

FIRST = "first"
"""The command that finds one solution (``nqueens.api.first``)."""
DOING = {SOLVE: "list solutions", COUNT: "count", FIRST: "find a first solution"}
"""What each command asks an engine to do, in the words a refusal uses."""

MAX_SEED = 2**31 - 1
"""The largest random seed: CP-SAT takes a 32-bit one."""


@dataclass(frozen=True)
class EngineOption:
    """A choice that one engine offers (the MIP solver behind the mip engine). The API takes it
    as a keyword argument of this name, the command line as an option (``--mip-solver``)."""

    name: str
    what: str  # how messages name it: "MIP solver"
    choices: tuple[str, ...]
    default: str
    help: str  # what it chooses, for --help


@dataclass(frozen=True)
class Request:
    """One validated request: the command, the board and how to search it."""

    command: str
    board: Board
    strategy: str | None = None  # None: the engine's choice for the command
    limit: int | None = None  # solve: stop after this many solutions
    time_limit: float | None = None
    unique: bool = False  # one solution per symmetry class (solve), or count the classes too
    symmetry: bool = True  # count: let the engine use the board's symmetry
    options: tuple[tuple[str, str], ...] = ()  # the engine's own options, as (name, value)
    seed: int | None = None  # the random seed of a randomised search (None: the engine's own)
    remote: bool = False  # counted by a cluster's workers: what this machine lacks may be theirs
    deadline: float | None = field(default=None, compare=False)
    """When the time limit ends, on the time.monotonic() scale: counted from the request's
    making unless given, so that what an engine does before its search (loading, compiling,
    building the model) counts against the limit too."""

    def __post_init__(self) -> None:
        if self.time_limit is not None and self.deadline is None:
            object.__setattr__(self, "deadline", time.monotonic() + self.time_limit)

    @property
    def n(self) -> int:
        """The board's size."""
        return self.board.n

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline


@dataclass(frozen=True)
class Subproblem:
    """One independent piece of a count, picklable so that another process can count it.

    Engines subclass it with what their search needs; ``engine`` names the engine that counts it.
    """

    engine: str
    deadline: float | None  # a time.time() value, comparable across processes


@dataclass(frozen=True)
class Subcount:
    """What one subproblem found; ``complete`` is False when a deadline or Ctrl-C cut it short.

    ``unique`` counts the symmetry classes it holds (None: not counted); ``first`` and ``second``
    are the engine's two statistics.
    """

    solutions: int
    unique: int | None
    first: int
    second: int
    complete: bool


class SubproblemInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a subproblem counted in this process; ``found`` is its partial count."""

    def __init__(self, found: Subcount) -> None:
        super().__init__()
        self.found = found


def counted_in_slices(
    deadline: float | None,
    over: Callable[[], bool],
    step: Callable[[], None],
    found: Callable[[bool], Subcount],
) -> Subcount:
    """A subproblem counted a slice at a time in C: ``step`` runs one slice (milliseconds,
    Python's lock released) until ``over()``; between two slices the ``deadline`` (a
    time.time()) is looked at, and Ctrl-C raises SubproblemInterrupted with what ``found``
    says was found so far (``found(complete)``)."""
    try:
        while not over():
            if deadline is not None and time.time() >= deadline:
                return found(False)
            step()
    except KeyboardInterrupt:
        raise SubproblemInterrupted(found(False)) from None
    return found(True)


class Engine:
    """An engine's declaration, and the default behaviour of the engines that stream solutions."""

    name: ClassVar[str]
    summary: ClassVar[str]  # what it is, for --help
    commands: ClassVar[frozenset[str]] = frozenset({SOLVE, COUNT, FIRST})
    unique: ClassVar[bool] = False  # solve --unique and count --unique
    puzzles: ClassVar[bool] = True  # given queens and blocked squares
    rules: ClassVar[frozenset[str]] = frozenset()  # the board rules it takes (core.board.RULES)
    strategies: ClassVar[tuple[str, ...]] = ()  # the --strategy values it follows
    options: ClassVar[tuple[EngineOption, ...]] = ()  # choices only this engine offers
    max_n: ClassVar[int]
    max_n_reason: ClassVar[str]  # why, in a few words: "builds N² binary variables"
    stat_names: ClassVar[tuple[str, str]]  # what Stats.conflicts and Stats.branches mean here
    splits: ClassVar[bool] = False  # counts through subproblems, on several cores
    count_rank: ClassVar[int | None] = None
    """Its place in what ``count --engine auto`` tries, fastest first (None: never tried);
    ``benchmarks/counting.py`` measures the order."""
    solutions_per_second: ClassVar[float | None] = None
    """About how many solutions of a plain board it counts or lists a second (None: not
    measured), so that the command line can note a choice of engine that would take far
    longer than ``auto``'s."""
    excluded_diagonals_rank: ClassVar[int | None] = None
    """The same for boards with excluded diagonals that an engine ``prefers``, beyond the free
    columns every engine counts without a limit."""
    resource: ClassVar[str | None] = None
    """What its pieces need of a cluster's worker, as Dask names worker resources ("GPU"):
    workers that have it take the pieces as they are, the others as ``on_cpu`` makes them."""

    def option(self, request: Request, name: str) -> str:
        """The value of the engine's option ``name`` in ``request``: as given, or its default."""
        given = dict(request.options)
        return given.get(name) or next(o.default for o in self.options if o.name == name)

    def gains(self, request: Request) -> bool:
        """Whether ``count --engine auto`` should try it for ``request`` at all (the gpu engine
        only from a size where a device pays for its start)."""
        return True

    def prefers(self, request: Request) -> bool:
        """Whether ``request`` suits this engine best: the auto listing then takes this engine,
        and the auto count the excluded-diagonals order on a large board."""
        return False

    def decides_without_limit(self, request: Request) -> bool:
        """Whether its search of ``request`` ends in minutes at most, however many columns are
        free: a count or listing without a limit is then reasonable where the board's size alone
        says it is not."""
        return False

    def counts_in_minutes(self, request: Request) -> bool:
        """Whether its own count of ``request`` ends in minutes where the board's size alone
        says hours (a GPU's): a count without a limit is then reasonable on this engine."""
        return False

    def memory_needed(self, request: Request) -> int:
        """Bytes of address space the search of ``request`` may take, loading its solver
        included (0: too little to check)."""
        return 0

    def refusal(self, request: Request) -> str | None:
        """Why this engine cannot take ``request``, in a few words (None: it can).

        The registry checks what the declaration says; engines add what it cannot say.
        """
        return None

    def backend_for(self, request: Request) -> str | None:
        """What runs the engine's search of ``request``, where that varies (the gpu engine's
        device), for statistics and JSON; None where it does not."""
        return None

    def strategy_for(self, request: Request) -> str | None:
        """The strategy the engine runs for ``request`` (None for engines without strategies)."""
        return request.strategy

    def takes_seed(self, strategy: str | None) -> bool:
        """Whether its first-solution search with ``strategy`` makes random choices that a seed
        starts, so that another seed may give another solution (``first --seed``)."""
        return False

    def solve(self, request: Request) -> EngineStream:
        """Every solution of the request, as a stream."""
        raise NotImplementedError

    def count(self, request: Request) -> Stats:
        """The number of solutions, by running the stream to its end (splitting engines differ)."""
        return count_all(self.solve(request))

    def first(self, request: Request) -> FirstResult:
        """One solution, or a proof that there is none."""
        return first_of(self.solve(request))

    def subproblems(self, request: Request, deadline: float | None) -> Sequence[Subproblem]:
        """The request cut into independent pieces whose counts add up (splitting engines)."""
        raise NotImplementedError

    def count_subproblem(self, task: Subproblem) -> Subcount:
        """Count one piece; Ctrl-C raises SubproblemInterrupted with its partial count."""
        raise NotImplementedError

    def count_in_order(self, tasks: Sequence[Subproblem]) -> Iterator[Subcount]:
        """Count pieces one after another in this process, as ``count_subproblem`` counts
        each: an engine may begin the next while it finishes one (the gpu engine's device)."""
        for task in tasks:
            yield self.count_subproblem(task)

    def finer(self, task: Subproblem) -> Sequence[Subproblem] | None:
        """One piece cut one level further, for estimates (None: it cannot be cut)."""
        return None

    def on_cpu(self, task: Subproblem) -> Subproblem:
        """``task`` as a worker without the engine's ``resource`` counts it: on its CPU."""
        return task

    def wants_workers(self, request: Request) -> bool:
        """Whether worker processes pay off for ``request`` (not for boards counted at once)."""
        return True

    def loading_runs_to_its_end(self) -> bool:
        """Whether what ``prepare`` has begun must end, even past a time limit: machine code
        being made, which cut short would be begun again by every run."""
        return False

    def prepare(self, request: Request) -> None:
        """Load what the search of ``request`` needs before worker processes are forked."""

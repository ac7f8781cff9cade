"""The gpu engine: boards counted on a CUDA device, with numba-cuda.

A plain board is counted as the C counter of plain boards counts it
(``nqueens.engines.bitboard._edges``): the four edge queens of every solution first, one
search per class of those under the square's symmetries, weighted by the number of its images,
so that ``--unique`` is exact too. Here each constellation is cut by the rows of its first three
free lines, and the device's threads take these pieces in turn and finish them
(``nqueens.engines.gpu.launch``). The rare constellations that a half turn keeps need, for
their classes, their solutions that the turn keeps too: the C module counts those on the CPU
by a search of half the lines, a few microseconds each.

A puzzle (given queens, blocked squares, excluded diagonals), or a board counted without its
symmetry, is what the reduced engine makes of it: its free columns, each with the rows it may
take. The CPU cuts that into pieces by the rows of its first free columns, and each piece goes
to the same kernel as a constellation would, as the rows its other free columns may not take.

A subproblem is one launch of the kernel, and a checkpoint records the launches counted; a
time limit and Ctrl-C are heard while a launch runs, and a launch given up on is not counted.
Through CUDA's driver, each launch of a count is begun while the one before it counts, on a
stream of its own, so that the device is not left idle between them.

What drives the device (``launch``, ``driver``, ``needs``) is imported where the engine is asked
to count or to say whether it can, not with the registry: a count on the CPU loads none of it.
"""

from __future__ import annotations

import itertools
import time
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, TypeGuard

from nqueens.core.wording import counted
from nqueens.engines import reduced
from nqueens.engines.base import (
    COUNT,
    Engine,
    Request,
    Subcount,
    Subproblem,
    SubproblemInterrupted,
)
from nqueens.engines.bitboard import _edges, edges
from nqueens.engines.gpu import target

if TYPE_CHECKING:
    from nqueens.engines.gpu import launch
from nqueens.engines.reduced import model

NAME = "gpu"
STAT_NAMES = ("pieces", "device microseconds")
"""What the engine's two counters count, as statistics and JSON name them: the pieces sent to the
device (n³ a constellation, most of which fail on their first rows), and the time the device took
for them, copies included: each launch's from its first copy, or from the end of the launch
before it if that came later, to its last."""

AUTO_FROM_N = 18
"""``count --engine auto`` takes the device from this size: smaller boards are counted on the CPU
before a kernel would have compiled."""

MINUTES_UP_TO = 22
"""The most free columns the device counts in minutes (N = 22 by the table of
docs/explanation/gpu.md): larger boards take hours, and a count of them needs a time limit, a
checkpoint or a cluster."""

LAUNCHES_AHEAD = 2
"""Launches begun, through CUDA's driver, beyond the one a count waits for: each runs on a
stream of its own, and its threads start as the launches before leave the device's
multiprocessors, so that the device is kept full through each launch's tail, and while the
host waits on one launch and builds the next (two did better than one and no worse than four:
``benchmarks/gpu.py --variants``). A count stopped by its time limit leaves them to run on
until they end (or the process does)."""

PIECES_PER_LAUNCH = 1 << 24
"""Pieces per launch, about: a launch ends with a tail in which most of the device's threads
have no piece left, so fewer, larger launches waste less (``benchmarks/gpu.py --variants``);
a launch stays short enough for a checkpoint to keep, and a time limit is heard within one."""

CPU_SLICE = 1 << 20
"""Placements per call of the C counter, for what the device leaves to the CPU."""

PIECES_PER_COUNT = 4 * PIECES_PER_LAUNCH
"""Device pieces a puzzle is cut into, about: a few launches' worth, n³ for each piece the CPU
cuts."""
PIECE_LEVELS = 8
"""Free columns the CPU places at most to cut a puzzle into its pieces."""


class SimulatorWarning(UserWarning):
    """The count runs on numba-cuda's simulator: the GPU kernel, on the CPU, slowly."""


@cache
def _say_simulated() -> None:
    """Warn once a process, however many counts it runs (``nqueens bench`` runs dozens)."""
    warnings.warn(
        "counting on numba-cuda's simulator (NUMBA_ENABLE_CUDASIM=1): the GPU kernel, run on "
        "the CPU, slowly",
        SimulatorWarning,
        stacklevel=4,
    )


class GpuFallbackWarning(UserWarning):
    """The device failed a launch; its constellations were counted on the CPU instead."""


@dataclass(frozen=True)
class GpuSubproblem(Subproblem):
    """The canonical constellations ``span[0]`` to ``span[1] - 1`` of a plain n x n board."""

    n: int = 0
    span: tuple[int, int] = (0, 0)
    on_cpu: bool = False  # for a cluster's worker without a GPU


@dataclass(frozen=True)
class GpuPieces(Subproblem):
    """Pieces of a puzzle's reduction: for each, the free rows each free column may take, its
    first ``placed`` free columns given one row each (the device searches the others)."""

    reduction: model.Reduction = model.NOTHING
    pieces: tuple[tuple[int, ...], ...] = ()
    placed: int = 0
    on_cpu: bool = False  # for a cluster's worker without a GPU


class GpuEngine(Engine):
    """Constellations of edge queens, finished by one device thread per piece."""

    name = NAME
    summary = "counts on an NVIDIA GPU (the gpu extra)"
    commands = frozenset({COUNT})
    unique = True
    max_n = 28
    solutions_per_second = 1e10
    max_n_reason = "keeps a thread's search in 24 lines of the device's memory"
    stat_names = STAT_NAMES
    splits = True
    count_rank = 0
    resource = "GPU"

    def gains(self, request: Request) -> bool:
        # Whether a cluster's workers have a GPU is not known before it is reached: there, the
        # gpu engine is asked for by name. The simulator is slower than any engine on the CPU.
        if request.remote or target.simulated():
            return False
        return request.board.free_columns >= AUTO_FROM_N

    def counts_in_minutes(self, request: Request) -> bool:
        return not target.simulated() and request.board.free_columns <= MINUTES_UP_TO

    def wants_workers(self, request: Request) -> bool:
        return False  # one process drives the device

    def refusal(self, request: Request) -> str | None:
        from nqueens.engines.gpu import needs

        plain = request.board.symmetric and request.symmetry
        if plain and request.n < edges.FROM_N:
            return f"the gpu engine counts plain boards from N = {edges.FROM_N}"
        missing = None if request.remote else needs.missing()
        if missing is not None:
            return f"the gpu engine {missing}"
        return None

    def backend_for(self, request: Request) -> str | None:
        from nqueens.engines.gpu import launch

        return "the GPUs of the cluster's workers" if request.remote else launch.device_name()

    def on_cpu(self, task: Subproblem) -> Subproblem:
        assert isinstance(task, (GpuSubproblem, GpuPieces))
        return replace(task, on_cpu=True)

    def prepare(self, request: Request) -> None:
        from nqueens.engines.gpu import launch

        if request.remote:  # the workers load the kernel
            return
        if target.simulated():
            _say_simulated()
        launch.launcher()

    def loading_runs_to_its_end(self) -> bool:
        from nqueens.engines.gpu import launch

        return launch.making.is_set()

    def subproblems(self, request: Request, deadline: float | None) -> list[Subproblem]:
        from nqueens.engines.gpu import launch

        n = request.n
        # the simulator takes milliseconds a thread: one constellation or piece a launch, so
        # that a time limit and Ctrl-C are heard there too
        size = 1 if target.simulated() else max(1, PIECES_PER_LAUNCH // launch.pieces_each(n))
        if not edges.counts(request):
            return _puzzle_launches(request, deadline, size)
        total = len(_constellations(n))
        base = GpuSubproblem(NAME, deadline, n)
        return [replace(base, span=(at, min(at + size, total))) for at in range(0, total, size)]

    def count_subproblem(self, task: Subproblem) -> Subcount:
        return self._counted(task)[0]

    def count_in_order(self, tasks: Sequence[Subproblem]) -> Iterator[Subcount]:
        """Where the device runs a launch beside the one before it (through CUDA's driver),
        the launches of the next LAUNCHES_AHEAD spans are begun before a span's is waited for:
        the host's work for them (their arrays, their copies) and the end of the launch before,
        when most of the device's threads have no piece left, are hidden behind its counting."""
        begun: dict[int, _Begun | None] = {}  # launches begun, by their span's place
        busy_until = 0.0  # when the last launch ended: the next one's device time starts then
        for at, task in enumerate(tasks):
            for ahead, following in enumerate(tasks[at : at + 1 + LAUNCHES_AHEAD], start=at):
                if ahead not in begun and _begins_ahead(following):
                    begun[ahead] = _begin(following)
            found, busy_until = self._counted(task, begun.pop(at, None), busy_until)
            yield found

    def _counted(
        self, task: Subproblem, begun: _Begun | None = None, busy_until: float = 0.0
    ) -> tuple[Subcount, float]:
        """Count ``task``, from its launch if ``begun``: its count, and when its launch ended
        (``busy_until`` where it had none)."""
        assert isinstance(task, (GpuSubproblem, GpuPieces))
        if task.deadline is not None and time.time() >= task.deadline:
            return Subcount(0, 0, 0, 0, complete=False), busy_until
        try:
            if isinstance(task, GpuPieces):
                pieces = _count_pieces_on_cpu(task) if task.on_cpu else _count_pieces(task)
                return pieces, busy_until
            if task.on_cpu:
                return _count_on_cpu(task.n, *task.span, task.deadline), busy_until
            return _count_span(task, begun, busy_until)
        except KeyboardInterrupt:
            raise SubproblemInterrupted(Subcount(0, 0, 0, 0, complete=False)) from None


@dataclass(frozen=True)
class _Begun:
    """A span's launch, begun, and each of its constellations' solutions that a half turn
    keeps."""

    finish: launch.Finish
    turns: list[int]


def _begins_ahead(task: Subproblem) -> TypeGuard[GpuSubproblem]:
    """Whether ``task`` is a span for the device whose launch may be begun before its turn."""
    from nqueens.engines.gpu import launch

    return (
        isinstance(task, GpuSubproblem)
        and not task.on_cpu
        and (task.deadline is None or time.time() < task.deadline)
        and launch.launcher().beside
    )


def _begun(task: GpuSubproblem) -> _Begun:
    """``task``'s launch, begun: its arrays built and handed to the device."""
    from nqueens.engines.gpu import launch

    blocked, gaps, lines, turns = launch.constellation_arrays(task.n, *task.span)
    return _Begun(launch.begin(task.n, blocked, gaps, lines), turns)


def _begin(task: GpuSubproblem) -> _Begun | None:
    """``task``'s launch, begun ahead of its turn; None where the device refused it (when its
    turn comes, it is begun again, and if refused again, counted on the CPU, saying so)."""
    try:
        return _begun(task)
    except Exception:  # out of memory, a launch failure: told when its turn comes
        return None


@cache
def _constellations(n: int) -> list[tuple[int, int, int, int, int]]:
    listed: list[tuple[int, int, int, int, int]] = _edges.constellations(n)
    return listed


def _count_span(
    task: GpuSubproblem, begun: _Begun | None, busy_until: float
) -> tuple[Subcount, float]:
    """Count constellations ``task.span`` on the device, from their launch if ``begun``: the
    count, its device time from its launch's first copy, or from ``busy_until`` (when the launch
    before it ended) if that was later, and when it ended."""
    n, (start, end) = task.n, task.span
    try:
        begun = begun if begun is not None else _begun(task)
        launched = begun.finish(task.deadline)
    except Exception as error:  # out of memory, a launch failure: this span goes to the CPU
        _fell_back(error, f"constellations {start} to {end - 1} are counted on the CPU")
        return _count_on_cpu(n, start, end, task.deadline), busy_until
    if launched is None:  # the time limit came while the device counted
        return Subcount(0, 0, 0, 0, complete=False), busy_until
    # weighed as the C counter weighs its own: each constellation's images and classes
    counts = tuple(launched.totals.tolist())
    solutions, classes = _edges.weighed(n, start, counts, tuple(begun.turns))
    microseconds = round((launched.ended - max(launched.began, busy_until)) * 1e6)
    found = Subcount(solutions, classes, launched.pieces, microseconds, complete=True)
    return found, launched.ended


def _fell_back(error: Exception, instead: str) -> None:
    """Warn that the device failed (``error``) and what the CPU does ``instead``."""
    from nqueens.engines.gpu import driver

    warnings.warn(
        f"the GPU failed ({driver.described(error)}); {instead}", GpuFallbackWarning, stacklevel=3
    )


def _count_on_cpu(n: int, start: int, end: int, deadline: float | None) -> Subcount:
    """Count constellations start to end - 1 with the C counter, hearing the deadline; its
    counters are the CPU's, not the engine's pieces and device time."""
    found = edges.count_span(n, (start, end), deadline, CPU_SLICE)
    return replace(found, first=0, second=0)


def _puzzle_launches(request: Request, deadline: float | None, size: int) -> list[Subproblem]:
    """A puzzle's reduction, cut on the CPU into pieces enough to fill the device, ``size``
    pieces a launch."""
    from nqueens.engines.gpu import launch

    reduction = model.reduce(request)
    wanted = 2 if target.simulated() else max(1, PIECES_PER_COUNT // launch.pieces_each(request.n))
    placed, pieces = _cut_in_order(reduction, wanted)
    base = GpuPieces(NAME, deadline, reduction, placed=placed)
    return [
        replace(base, pieces=tuple(pieces[at : at + size])) for at in range(0, len(pieces), size)
    ]


def _cut_in_order(reduction: model.Reduction, wanted: int) -> tuple[int, list[tuple[int, ...]]]:
    """The free columns placed in board order, each row a column may take in turn, the columns
    after it narrowed to the rows left, until there are ``wanted`` pieces or PIECE_LEVELS
    columns are placed (two are always left, for a thread's own rows). A piece with a column
    left empty holds nothing and is dropped. Returns the columns placed and the pieces."""
    attack = model.attacks(reduction)
    rows = range(len(reduction.rows))
    found = [reduction.allowed]
    placed = 0
    while placed < min(len(reduction.columns) - 2, PIECE_LEVELS) and len(found) < wanted:
        found = [
            narrowed
            for allowed in found
            for row in rows
            if allowed[placed] >> row & 1
            and (narrowed := model.place(attack, allowed, placed, row))
        ]
        placed += 1
    return placed, found


def _count_pieces(task: GpuPieces) -> Subcount:
    """Count pieces of a reduction on the device, each as the rows its free columns may not
    take on the full board, and the columns' distances (the diagonals' shifts)."""
    import numpy

    from nqueens.engines.gpu import launch

    reduction = task.reduction
    n, rows = reduction.n, reduction.rows
    columns = reduction.columns[task.placed :]  # the placed ones are in the others' rows
    if not columns:  # every column has its queen: nothing for a device to do
        return _count_pieces_on_cpu(task)
    # each column's free rows, bit i for rows[i], as the board's rows: every piece at once
    free = numpy.array([allowed[task.placed :] for allowed in task.pieces], dtype=numpy.uint64)
    indices = numpy.arange(len(rows), dtype=numpy.uint64)
    row_bits = numpy.array([1 << row for row in rows], dtype=numpy.uint64)
    rows_taken = ((free[:, :, None] >> indices & numpy.uint64(1)) * row_bits).sum(axis=2)
    blocked = numpy.zeros((len(task.pieces), n), dtype=numpy.uint32)
    blocked[:, : len(columns)] = numpy.uint64((1 << n) - 1) & ~rows_taken
    gaps = numpy.zeros((len(task.pieces), n), dtype=numpy.uint32)
    lines = numpy.full(len(task.pieces), len(columns), dtype=numpy.int32)
    gaps[:, : len(columns) - 1] = [b - a for a, b in itertools.pairwise(columns)]
    try:
        launched = launch.count(n, blocked, gaps, lines, task.deadline)
    except Exception as error:  # out of memory, a launch failure: these pieces go to the CPU
        _fell_back(error, f"the CPU counts its {counted(len(task.pieces), 'piece')}")
        return _count_pieces_on_cpu(task)
    if launched is None:  # the time limit came while the device counted
        return Subcount(0, None, 0, 0, complete=False)
    solutions = int(launched.totals.sum())
    microseconds = round((launched.ended - launched.began) * 1e6)
    return Subcount(solutions, None, launched.pieces, microseconds, complete=True)


def _count_pieces_on_cpu(task: GpuPieces) -> Subcount:
    """Count pieces of a reduction with the reduced engine's search, hearing the deadline."""
    solutions = 0
    for allowed in task.pieces:
        piece = replace(task.reduction, allowed=allowed)
        found = reduced.ENGINE.count_subproblem(
            reduced.ReducedSubproblem(reduced.NAME, task.deadline, piece)
        )
        solutions += found.solutions
        if not found.complete:
            return Subcount(solutions, None, 0, 0, complete=False)
    return Subcount(solutions, None, 0, 0, complete=True)


ENGINE = GpuEngine()

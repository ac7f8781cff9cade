"""``nqueens bench``: every engine and strategy measured side by side, in one run.

Two tables: the OR-Tools guide's (time to find every solution, for growing N) and time to a first
solution. Each cell runs through the public API, ``--repeat`` times, and keeps the median time and
the solver's statistics of its last run; a cell the time limit stops shows as such, not as a
number. It returns values and never prints: the cells, and the tables, records and CSV made of
them for the command to show.
"""

from __future__ import annotations

import csv
import io
import math
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from nqueens import api
from nqueens.core import signals
from nqueens.core.board import Board
from nqueens.core.known_counts import KNOWN_TOTALS
from nqueens.core.results import InputError, Stats, Status
from nqueens.engines import registry
from nqueens.engines.base import COUNT, Request
from nqueens.engines.base import FIRST as FIRST_COMMAND
from nqueens.engines.mip import NAME as MIP

GUIDE_PUBLISHED_MS: dict[int, int] = {
    1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 3, 8: 9,
    9: 35, 10: 95, 11: 378, 12: 2198, 13: 11628, 14: 62427, 15: 410701,
}  # fmt: skip
"""The OR-Tools guide's table: every solution with the original CP solver, on its machine."""

ALL = "all"
FIRST = "first"
TABLE_WORDS = {ALL: "every solution", FIRST: "a first solution"}
"""Each table as messages name it: what its cells time."""


@dataclass(frozen=True)
class Column:
    """One engine with one strategy, or for the mip engine (which has none) one MIP solver."""

    engine: str
    strategy: str | None
    mip_solver: str | None = None

    @property
    def label(self) -> str:
        """The engine and its strategy or MIP solver, on two lines."""
        detail = self.strategy or self.mip_solver
        return self.engine if detail is None else f"{self.engine}\n{detail}"

    @property
    def one_line(self) -> str:
        """The label on one line, as the progress bar and the notes under the tables show it."""
        return self.label.replace("\n", " ")

    def engine_options(self) -> dict[str, Any]:
        """The engine's own options this column runs it with."""
        return {"mip_solver": self.mip_solver} if self.mip_solver is not None else {}


FINISHED = "finished"
OVER_LIMIT = "over-limit"
REFUSED = "refused"


@dataclass(frozen=True)
class Cell:
    """One measurement: the median time over the repeats and the statistics of the last run.

    ``outcome`` is FINISHED, OVER_LIMIT (a run hit the time limit: no time is given) or REFUSED
    (the engine does not take this board, e.g. mip enumeration of a large board).
    """

    table: str  # ALL (every solution) or FIRST (a first solution)
    n: int
    column: Column
    outcome: str
    seconds: float | None = None
    stats: Stats | None = None
    refusal: InputError | None = None  # why the engine does not take the board (REFUSED)


def columns(
    engines: Iterable[str],
    strategies: Iterable[str],
    table: str,
    mip_solvers: Iterable[str] = ("scip",),
) -> list[Column]:
    """The engine x strategy combinations that make sense for a table.

    The mip engine gets one column per MIP solver, any other engine without strategies one; a
    strategy an engine cannot run for the table's command (the cp engine's auto repeats
    solutions, so it only finds first ones) none.
    """
    return [
        column for column, why in _candidates(engines, strategies, table, mip_solvers) if not why
    ]


@dataclass(frozen=True)
class PassedOver:
    """Why the tables have no column for an engine, or for an engine with a strategy."""

    reason: str
    tables: tuple[str, ...]  # ALL, FIRST or both
    strategy: str | None  # None: the engine does not run the table's command at all


def passed_over(engines: Iterable[str], strategies: Iterable[str]) -> list[PassedOver]:
    """The engines, and engine and strategy pairs, asked for that a table has no column for
    (each reason once, with the tables it applies to): an engine that does not run a table's
    command, or not with that strategy. Engines that cannot run here at all are
    ``left_out``."""
    chosen_strategies = list(strategies)
    found: dict[str, PassedOver] = {}
    for table in (ALL, FIRST):
        for column, why in _candidates(engines, chosen_strategies, table, ()):
            if why:
                tables = found[why].tables if why in found else ()
                found[why] = PassedOver(why, (*tables, table), column.strategy)
    return list(found.values())


def _candidates(
    engines: Iterable[str], strategies: Iterable[str], table: str, mip_solvers: Iterable[str]
) -> Iterator[tuple[Column, str | None]]:
    """Each column a table might have, with why it is left out (None where it is kept)."""
    command = COUNT if table == ALL else FIRST_COMMAND
    chosen_strategies = list(strategies)
    absent = left_out(engines)
    for name in engines:
        engine = registry.engine_named(name)
        if name in absent:
            continue
        if command not in engine.commands:
            yield Column(name, None), registry.refusal(engine, Request(command, Board(8)))
        elif name == MIP:
            yield from ((Column(name, None, solver), None) for solver in mip_solvers)
        elif not engine.strategies:
            yield Column(name, None), None
        else:
            for strategy in chosen_strategies:
                request = Request(command, Board(8), strategy=strategy)
                yield Column(name, strategy), registry.refusal(engine, request)


def left_out(engines: Iterable[str]) -> dict[str, str]:
    """The engines that cannot run here (the gpu engine without a device), each with the reason:
    they refuse the bare search (no symmetry) of a board that every engine takes."""
    absent: dict[str, str] = {}
    for name in engines:
        engine = registry.engine_named(name)
        reasons = [
            registry.refusal(engine, Request(command, Board(8), symmetry=False))
            for command in (COUNT, FIRST_COMMAND)
            if command in engine.commands
        ]
        if reasons and all(reasons):
            absent[name] = str(reasons[0])
    return absent


def _import_engines(engines: Iterable[str], mip_solvers: Iterable[str]) -> None:
    """Load every engine's solver first, so no cell's time includes an import or a compile.

    A small board does it: what an engine prepares for one size (the reduced engine's attack
    table) belongs to that size's cells, and the largest size may be one the engine refuses.
    """
    for name in engines:
        engine = registry.engine_named(name)
        engine.prepare(Request(COUNT, Board(8)))
        if name == MIP:
            for mip_solver in mip_solvers:
                api.first(4, engine=name, mip_solver=mip_solver)
        elif FIRST_COMMAND in engine.commands:
            api.first(4, engine=name)
        else:  # an engine that only counts (gpu)
            _measure_all(4, Column(name, None), math.inf)


def _measure_all(n: int, column: Column, time_limit: float) -> Stats:
    """Every solution, on one core and without symmetry: the engines' bare search."""
    workers = 1 if registry.engine_named(column.engine).splits else None
    return api.count(
        n,
        engine=column.engine,
        strategy=column.strategy,
        time_limit=time_limit,
        workers=workers,
        **column.engine_options(),
        symmetry=False,
    )


def _measure_first(n: int, column: Column, time_limit: float) -> Stats:
    result = api.first(
        n,
        engine=column.engine,
        strategy=column.strategy,
        time_limit=time_limit,
        **column.engine_options(),
    )
    return result.stats


def run(
    *,
    sizes: list[int],
    first_sizes: list[int],
    engines: list[str],
    strategies: list[str],
    repeat: int,
    time_limit: float,
    mip_solvers: Sequence[str] = ("scip",),
    on_cell: Callable[[Cell], None] | None = None,
) -> list[Cell]:
    """Measure every cell of both tables; ``on_cell`` is told of each one as it is done.

    A stop signal (Ctrl-C) ends the run with KeyboardInterrupt, never in the middle of a cell's
    record, so that the cells ``on_cell`` was told of can still be shown; the cell it cut short
    is not one of them.
    """
    plan = [
        (ALL, n, column, _measure_all)
        for n in sizes
        for column in columns(engines, strategies, ALL, mip_solvers)
    ] + [
        (FIRST, n, column, _measure_first)
        for n in first_sizes
        for column in columns(engines, strategies, FIRST, mip_solvers)
    ]
    cells: list[Cell] = []
    with signals.keeping():
        _import_engines(dict.fromkeys(column.engine for _, _, column, _ in plan), mip_solvers)
        for table, n, column, measure in plan:
            cell = _cell(table, n, column, measure, repeat, time_limit)
            cells.append(cell)
            if on_cell is not None:
                on_cell(cell)
    return cells


def _cell(
    table: str,
    n: int,
    column: Column,
    measure: Callable[[int, Column, float], Stats],
    repeat: int,
    time_limit: float,
) -> Cell:
    """Repeat one measurement; a run that does not finish ends the cell as over the limit."""
    times: list[float] = []
    stats: Stats | None = None
    for _ in range(repeat):
        started = time.perf_counter()
        try:
            stats = measure(n, column, time_limit)
        except InputError as error:
            return Cell(table, n, column, REFUSED, refusal=error)
        if stats.status is Status.INTERRUPTED:  # the search heard the stop: so does the run
            raise KeyboardInterrupt
        if stats.status.partial:
            return Cell(table, n, column, OVER_LIMIT, stats=stats)
        times.append(time.perf_counter() - started)
    return Cell(table, n, column, FINISHED, statistics.median(times), stats)


def _bench_cell_text(cell: Cell | None, time_limit: float) -> str:
    """A cell's time; blank for one not measured, the run having been stopped before it."""
    if cell is None:
        return ""
    if cell.outcome == FINISHED and cell.seconds is not None:
        return f"{cell.seconds:.3f}"
    if cell.outcome == OVER_LIMIT:
        return f"> {time_limit:g}"
    return "n/a"


_CELL_WIDTH = 7  # "14,200", "11.628", "> 10", "n/a"
_PADDING = 2  # rich's padding around each column, with a simple box


def tables(cells: list[Cell], *, time_limit: float, width: int | None = None) -> list[Group]:
    """The OR-Tools guide's table (time to every solution, with its published times) and time
    to a first: a row per engine and strategy, a column per board size; cut into several tables
    of fewer sizes where ``width`` (a terminal's columns) cannot take them all."""
    shown = []
    for table_name, title in (
        (ALL, "Time to find every solution (s); one core, no symmetry breaking"),
        (FIRST, "Time to a first solution (s)"),
    ):
        chosen = [cell for cell in cells if cell.table == table_name]
        if not chosen:
            continue
        by_place = {(cell.column.label, cell.n): cell for cell in chosen}
        columns = list(dict.fromkeys(cell.column.label for cell in chosen))
        heading = "guide published" if table_name == ALL else ""
        label_width = max(len(label) for label in [*columns, heading, "N"])
        sizes = list(dict.fromkeys(cell.n for cell in chosen))
        per_table = len(sizes)
        if width is not None:
            per_table = max(1, (width - label_width - _PADDING) // (_CELL_WIDTH + _PADDING))
        for start in range(0, len(sizes), per_table):
            part = sizes[start : start + per_table]
            caption = title if start == 0 else f"{title}, continued"
            table = Table(box=box.SIMPLE_HEAD)
            table.add_column("N", justify="left", no_wrap=True)
            for n in part:
                table.add_column(f"{n:,}", justify="right", no_wrap=True)
            if table_name == ALL:
                table.add_row("solutions", *(_solutions_text(chosen, n) for n in part))
            for label in columns:
                table.add_row(
                    label.replace("\n", " "),
                    *(_bench_cell_text(by_place.get((label, n)), time_limit) for n in part),
                )
            if table_name == ALL:
                table.add_row(heading, *(_published_text(n) for n in part), style="dim")
            # The title above the table, not in it: a narrow table would wrap it.
            shown.append(Group(Text(caption, style="table.title"), table))
    return shown


def _solutions_text(cells: list[Cell], n: int) -> str:
    """The count the finished cells of a size agree on (all of them, should they differ); the
    known count where none finished."""
    counts = {
        cell.stats.solutions
        for cell in cells
        if cell.n == n and cell.outcome == FINISHED and cell.stats is not None
    }
    if not counts and n in KNOWN_TOTALS:
        return f"{KNOWN_TOTALS[n]:,}"
    return ", ".join(f"{count:,}" for count in sorted(counts)) or "?"


def _published_text(n: int) -> str:
    published = GUIDE_PUBLISHED_MS.get(n)
    return "" if published is None else f"{published / 1000:.3f}"


def records(cells: list[Cell]) -> list[dict[str, object]]:
    """One flat record per cell, for JSON and CSV."""
    result = []
    for cell in cells:
        record: dict[str, object] = {
            "table": cell.table,
            "n": cell.n,
            "engine": cell.column.engine,
            "strategy": cell.column.strategy,
            "mip_solver": cell.column.mip_solver,
            "outcome": cell.outcome,
            "seconds": None if cell.seconds is None else round(cell.seconds, 6),
            "solutions": None,
            "conflicts": None,
            "branches": None,
            "guide_published_seconds": None,
            "refused": None if cell.refusal is None else str(cell.refusal),
        }
        if cell.stats is not None:
            record["solutions"] = cell.stats.solutions
            record["conflicts"] = cell.stats.conflicts
            record["branches"] = cell.stats.branches
        if cell.table == ALL and cell.n in GUIDE_PUBLISHED_MS:
            record["guide_published_seconds"] = GUIDE_PUBLISHED_MS[cell.n] / 1000
        result.append(record)
    return result


def csv_text(cells: list[Cell]) -> str:
    """The cells as CSV with a header row (conflicts mean failures for cp, iterations for mip)."""
    rows = records(cells)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else ["table"])
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()

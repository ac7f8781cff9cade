"""The JSON records nqueens writes, one a line: a solution's, and the status that ends every
search, with the engine's statistics where asked. ``verify`` reads them back
(``nqueens.formats.read_back``); the C writer of whole blocks (``nqueens.formats.blocks``)
writes solutions byte for byte as these do.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

from nqueens.core.pictures import PIECE
from nqueens.core.results import Stats, Status


def rules_field(rules: frozenset[str]) -> dict[str, object]:
    """A JSON record's ``rules``, where the board has any: plain boards' records stay as they
    were."""
    return {"rules": sorted(rules)} if rules else {}


def record_head(n: int, rules: frozenset[str]) -> str:
    """What a solution's JSON record holds before its number (its type, N and rules), as every
    writer of solution records begins it: ``{"type": "solution", "n": 8, ``."""
    return json.dumps({"type": "solution", "n": n, **rules_field(rules)})[:-1] + ", "


def solution_record_pieces(
    rows: Sequence[int], number: int | None = None, rules: frozenset[str] = frozenset()
) -> Iterator[str]:
    """One solution as a JSON line (``{"type": "solution", "n": 8, "solution": 1, "rows": [...]}``),
    in pieces, the rows a slice at a time (a board of millions is megabytes); ``number`` counts
    the solutions of a stream (1 for first's one). A board under ``rules`` names them, so that
    ``verify`` checks it under them."""
    yield record_head(len(rows), rules) + f'"solution": {number or 1}, "rows": ['
    for start in range(0, len(rows), PIECE):
        piece = ", ".join(str(row) for row in rows[start : start + PIECE])
        yield piece if start == 0 else f", {piece}"
    yield "]}"


def stats_record(stats: Stats) -> dict[str, object]:
    """The statistics as JSON-ready values, named as the engine names them; the solution rate
    only where it is a rate (``has_rate``)."""
    record: dict[str, object] = {**stats.figures, "wall_time": round(stats.wall_time, 6)}
    if has_rate(stats):
        record["solutions_per_second"] = round(stats.solutions_per_second, 1)
    return record


def has_rate(stats: Stats) -> bool:
    """Whether solutions per second means anything: not over one solution, nor over none."""
    return stats.solutions > 1 and stats.wall_time > 0


def status_record(
    stats: Stats,
    *,
    with_stats: bool,
    with_unique: bool = False,
    none_is_an_answer: bool = True,
    rules: frozenset[str] = frozenset(),
) -> str:
    """The JSON line that ends every search: how it ended, what it found, which engine, and the
    board's ``rules`` where it has any.

    ``status`` is ``complete``, ``limit``, ``time-limit`` or ``interrupted``, or ``no-solution``
    when finding none is the answer, not a count of 0 (``none_is_an_answer=False``: solve,
    first). ``with_stats`` adds the engine's statistics.
    """
    status = stats.status.value
    if stats.status is Status.COMPLETE and stats.solutions == 0 and not none_is_an_answer:
        status = "no-solution"
    record: dict[str, object] = {"type": "status", "n": stats.n, **rules_field(rules)}
    record["solutions"] = stats.solutions
    if with_unique:
        record["unique"] = stats.unique
    record["complete"] = stats.status is Status.COMPLETE  # a list cut at --limit is not whole
    record["status"] = status
    record["engine"] = stats.engine
    if stats.backend is not None:
        record["backend"] = stats.backend
    record["strategy"] = stats.strategy
    if with_stats:
        record.update(stats_record(stats))
    return json.dumps(record)

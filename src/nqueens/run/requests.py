"""A call's arguments checked: the request, the engine it names, and how a count runs.

Every argument of ``solve``, ``count`` and ``first`` is checked here, in one place, whether
the call searches or only plans (``api.plan``): a value the API does not take is an
InputError naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nqueens.core import validation
from nqueens.core.board import MAX_N, Board, excluded_diagonals
from nqueens.core.plans import Plan
from nqueens.core.results import InputError, Square
from nqueens.core.strategies import STRATEGIES
from nqueens.engines import registry
from nqueens.engines.base import COUNT, FIRST, MAX_SEED, Request
from nqueens.run.limits import MAX_WORKERS

if TYPE_CHECKING:
    from nqueens.run.cluster import Cluster
    from nqueens.run.counting import EstimateCallback, ProgressCallback

PlanCallback = Callable[[Plan], object]
"""Called with the plan of a search once it is decided, before the search starts."""

MAX_MODEL_N = 10_000
"""The largest board ``solve`` and ``count`` take: beyond it, building a model is not useful."""


def check_board_size(n: int, command: str = FIRST) -> int:
    """``n`` if ``command`` takes boards that large; InputError naming ``n`` otherwise."""
    largest = MAX_N if command == FIRST else MAX_MODEL_N
    if n > largest:
        what = "finds a solution for" if command == FIRST else "builds a model for"
        raise InputError(
            f"N = {validation.shown(n)} is larger than {largest:,}, "
            f"the largest board nqueens {what}",
            argument="n",
        )
    return n


def board_of(
    n: int | Board,
    queens: Iterable[Square],
    blocked: Iterable[Square],
    excluded: Iterable[tuple[str, int]],
) -> Board:
    """The board a call asks about: a Board as it is, or N and the squares given beside it."""
    if not isinstance(n, Board):
        return Board(n, queens, blocked, excluded)
    if any(validation.squares(given, "squares") for given in (queens, blocked)) or any(
        excluded_diagonals(excluded)
    ):
        raise InputError("give the squares in the Board, or N and the squares, not both")
    return n


def request_of(
    command: str,
    n: int | Board,
    *,
    queens: Iterable[Square],
    blocked: Iterable[Square],
    excluded: Iterable[tuple[str, int]],
    strategy: str | None,
    engine_options: dict[str, str],
    time_limit: float | None,
    limit: int | None = None,
    unique: bool = False,
    symmetry: bool = True,
    seed: int | None = None,
) -> Request:
    """The arguments every command shares, checked, as one request. Whether a search without a
    limit ends in reasonable time is its engine's to say: the caller checks it once it has one."""
    unique = validation.flag(unique, "unique")
    symmetry = validation.flag(symmetry, "symmetry")
    board = board_of(n, queens, blocked, excluded)
    check_board_size(board.n, command)
    if limit is not None:
        limit = validation.whole_number(limit, "the solution limit", minimum=1)
    time_limit = validation.seconds(time_limit)
    if seed is not None:
        seed = validation.whole_number(seed, "the seed", minimum=0, maximum=MAX_SEED)
    if strategy is not None and strategy not in STRATEGIES:
        raise InputError(
            f"unknown strategy {validation.shown(strategy)}; choose from {', '.join(STRATEGIES)}"
        )
    options = registry.checked_options(engine_options)
    if unique and not board.symmetric:
        raise InputError("unique solutions need a symmetric board: the given squares break it")
    if unique and not symmetry:
        raise InputError("unique solutions come from the board's symmetry: keep symmetry on")
    request = Request(
        command,
        board,
        strategy=strategy,
        limit=limit,
        time_limit=time_limit,
        unique=unique,
        symmetry=symmetry,
        options=options,
        seed=seed,
    )
    return request


@dataclass(frozen=True)
class Asked:
    """What a call of ``solve``, ``count`` or ``first`` asks, checked: the request, the
    engine it names (or ``auto``), and for a count the workers, checkpoint and cluster asked
    for, and the callbacks."""

    request: Request
    engine: str
    workers: int | None = None
    checkpoint: Path | None = None
    cluster: Cluster | None = None
    on_plan: PlanCallback | None = None
    on_progress: ProgressCallback | None = None
    on_estimate: EstimateCallback | None = None


def asked(command: str, given: Mapping[str, Any]) -> Asked:
    """The arguments ``given`` to the search ``command``, each by its name in the function's
    signature (its own options gathered in ``engine_options``), checked in the order they
    are documented."""
    if command != COUNT:
        request = _request(command, given)
        on_plan = validation.callback(given["on_plan"], "on_plan")
        return Asked(request, given["engine"], on_plan=on_plan)
    checkpoint = given["checkpoint"]
    saved_to = None if checkpoint is None else validation.path(checkpoint, "the checkpoint")
    where = None
    if given["cluster"] is not None:
        from nqueens.run.cluster import check_address

        where = check_address(
            validation.text(given["cluster"], "cluster"),
            validation.seconds(given["connect_timeout"], "the connect timeout"),
        )
    workers = given["workers"]
    if where is not None and workers is not None:
        raise InputError(
            "{workers} shares a count among this machine's processes; on a cluster, its own "
            "workers count (local:K starts K of them)",
            argument="workers",
            names=("workers",),
        )
    request = replace(_request(command, given), remote=where is not None)
    if workers is not None:
        workers = validation.whole_number(
            workers, "the number of workers", minimum=0, maximum=MAX_WORKERS
        )
    return Asked(
        request,
        given["engine"],
        workers=workers,
        checkpoint=saved_to,
        cluster=where,
        on_progress=validation.callback(given["on_progress"], "on_progress"),
        on_estimate=validation.callback(given["on_estimate"], "on_estimate"),
        on_plan=validation.callback(given["on_plan"], "on_plan"),
    )


def _request(command: str, given: Mapping[str, Any]) -> Request:
    """The request of a call's arguments ``given``: those each command takes, the others
    as their defaults."""
    return request_of(
        command,
        given["n"],
        queens=given["queens"],
        blocked=given["blocked"],
        excluded=given["excluded"],
        strategy=given["strategy"],
        engine_options=given["engine_options"],
        time_limit=given["time_limit"],
        limit=given.get("limit"),
        unique=given.get("unique", False),
        symmetry=given.get("symmetry", True),
        seed=given.get("seed"),
    )


def resumable(asked: Asked) -> bool:
    """Whether the count's work can be resumed or shared: a checkpoint or a cluster."""
    return asked.checkpoint is not None or asked.cluster is not None

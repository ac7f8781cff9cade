"""The Python API: exact counts, valid boards, limits and stopping."""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable
from typing import Any

import pytest
from helpers import (
    assert_valid_board,
    brute_force_solutions,
    invoke,
    known_total,
    known_unique,
)

import nqueens
from nqueens import InputError, Status
from nqueens.core.board import BoardError
from nqueens.engines import join, registry


@pytest.mark.parametrize("symmetry", [True, False])
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("n", [1, 4, 8, 11, pytest.param(14, marks=pytest.mark.slow)])
def test_count_is_the_same_in_this_process_and_in_workers(
    n: int, workers: int, symmetry: bool
) -> None:
    """The in-process matrix of every engine and split is tests/test_counting.py."""
    stats = nqueens.count(n, workers=workers, symmetry=symmetry)
    assert stats.solutions == known_total(n)
    # the join engine, auto's from N = 14, counts solutions only: --unique asks for families
    families = symmetry and n < join.FROM_N
    assert stats.unique == (known_unique(n) if families else None)
    assert stats.status is Status.COMPLETE


@pytest.mark.parametrize("n", range(1, 9))
def test_solve_yields_exactly_the_brute_force_solutions(n: int) -> None:
    with nqueens.solve(n) as stream:
        boards = [solution.rows for solution in stream]
    for rows in boards:
        assert_valid_board(rows, n)
    assert len(boards) == len(set(boards)), "a solution was yielded twice"
    assert set(boards) == brute_force_solutions(n)
    assert stream.stats.solutions == len(boards)
    assert stream.stats.status is Status.COMPLETE


def test_solve_lists_boards_in_the_guides_order() -> None:
    with nqueens.solve(8) as stream:
        boards = [solution.rows for solution in stream]
    assert boards == sorted(boards)
    assert stream.stats.strategy == "first-min"


def test_count_takes_the_fastest_engine_and_order_by_default() -> None:
    assert (nqueens.count(8).engine, nqueens.count(8).strategy) == ("bitboard", "first-min")
    assert nqueens.count(8, engine="cp-sat").strategy == "first-fail-mid"
    assert nqueens.count(8, engine="cp").strategy == "first-fail-mid"
    assert nqueens.count(8, engine="cp-sat", strategy="first-min").strategy == "first-min"
    # Only CP-SAT follows first-fail-mid among the engines that split a count.
    assert nqueens.count(8, strategy="first-fail-mid").engine == "cp-sat"


def test_checker_rejects_attacking_boards() -> None:
    with pytest.raises(AssertionError):
        assert_valid_board((0, 1, 2, 3), 4)  # all on one diagonal
    with pytest.raises(AssertionError):
        assert_valid_board((1, 3, 1, 2), 4)  # two in one row


@pytest.mark.parametrize("n", [1, 4, 5, 8, 10, 20, 31, 50])
def test_first_finds_a_valid_solution(n: int) -> None:
    result = nqueens.first(n)
    assert result.solution is not None
    assert_valid_board(result.solution.rows, n)
    assert result.stats.status is Status.COMPLETE


@pytest.mark.parametrize("n", [2, 3])
def test_first_proves_there_is_no_solution(n: int) -> None:
    result = nqueens.first(n)
    assert result.solution is None
    assert result.proven_infeasible


def test_solution_squares_are_0_based_with_a_1_based_view() -> None:
    solution = nqueens.Solution(rows=(1, 3, 0, 2))
    assert solution.one_based_squares() == [(2, 1), (4, 2), (1, 3), (3, 4)]
    assert solution.squares() == [(1, 0), (3, 1), (0, 2), (2, 3)]
    # What solve yields, queens= takes back unchanged: the same board is its only completion.
    assert nqueens.count(4, queens=solution.squares()).solutions == 1


def test_api_errors_name_squares_0_based_and_the_command_line_1_based() -> None:
    with pytest.raises(InputError) as refused:
        nqueens.first(8, queens=[(8, 0)])
    assert "square (8, 0) is off the 8 x 8 board" in str(refused.value)
    assert isinstance(refused.value, BoardError)
    assert "square 9,1 is off the 8 x 8 board" in refused.value.for_people()
    assert "square 9,1 is off the 8 x 8 board" in invoke("first", "8", "--queen", "9,1").stderr


def test_a_board_is_taken_whole_or_as_n_and_squares_never_both() -> None:
    corner = nqueens.Board(8, queens=[(0, 0)], excluded=[("sum", 3)])
    expected = sum(
        rows[0] == 0 and all(row + col != 3 for col, row in enumerate(rows))
        for rows in brute_force_solutions(8)
    )
    assert nqueens.count(corner, engine="bitboard").solutions == expected
    assert nqueens.count(8, queens=[(0, 0)], excluded=[("sum", 3)]).solutions == expected
    with pytest.raises(InputError, match="not both"):
        nqueens.count(corner, blocked=[(1, 1)])
    with pytest.raises(nqueens.BoardError, match=r"queens \(0, 0\) and \(1, 1\) share a diagonal"):
        nqueens.Board(8, queens=[(0, 0), (1, 1)])


def test_limit_stops_after_that_many_solutions() -> None:
    with nqueens.solve(8, limit=5) as stream:
        boards = [solution.rows for solution in stream]
    assert len(boards) == 5
    assert stream.stats.status is Status.LIMIT
    for rows in boards:
        assert_valid_board(rows, 8)


def test_closing_a_stream_stops_the_search_thread() -> None:
    before = threading.active_count()
    stream = nqueens.solve(12)
    first_three = [next(stream) for _ in range(3)]
    stream.close()
    assert threading.active_count() == before
    assert stream.stats.status is Status.INTERRUPTED
    assert stream.stats.solutions == 3
    for solution in first_three:
        assert_valid_board(solution.rows, 12)


def test_stats_are_unavailable_while_the_stream_runs() -> None:
    with nqueens.solve(6) as stream, pytest.raises(RuntimeError):
        _ = stream.stats


def test_solve_streams_without_holding_every_solution() -> None:
    """The solver may run only a bounded buffer ahead of a consumer that has stopped reading."""
    from nqueens.engines.cpsat.solver import _STREAM_BUFFER

    with nqueens.solve(12, engine="cp-sat") as stream:
        next(stream)
        threading.Event().wait(0.5)  # unbounded, the solver finds thousands in that time
        handed_over = stream._callback.solution_count  # type: ignore[attr-defined]
        assert handed_over <= 1 + _STREAM_BUFFER < known_total(12)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: nqueens.count(0), "at least 1"),
        (lambda: nqueens.count(-3), "at least 1"),
        (lambda: nqueens.first(nqueens.MAX_N + 1), "largest board"),
        (lambda: nqueens.count(True), "whole number"),
        (lambda: nqueens.solve(8, limit=0), "solution limit"),
        (lambda: nqueens.count(8, time_limit=0), "time limit"),
        (lambda: nqueens.count(8, workers=-1), "workers"),
        (lambda: nqueens.count(23), "24,233,937,684,440 solutions: counting them takes about"),
        (lambda: nqueens.solve(40), "nobody has counted"),
        (lambda: nqueens.count(8, checkpoint=123), "the checkpoint must be a path"),  # type: ignore[arg-type]
        (lambda: nqueens.count(8, checkpoint=b"n8.ckpt"), "checkpoint must be a path"),  # type: ignore[arg-type]
        (lambda: nqueens.count(8, checkpoint=""), "the checkpoint must name a file, not ''"),
        (lambda: nqueens.solve(6, unique="False"), "unique must be True or False, not 'False'"),  # type: ignore[arg-type]
        (lambda: nqueens.count(6, symmetry=0), "symmetry must be True or False, not 0"),  # type: ignore[arg-type]
        (lambda: nqueens.count(6, unique=1), "unique must be True or False, not 1"),  # type: ignore[arg-type]
    ],
)
def test_refused_input_says_why(call: Callable[[], object], message: str) -> None:
    with pytest.raises(InputError, match=message):
        call()


@pytest.mark.parametrize("engine", ["cp-sat", "cp"])
def test_large_boards_are_allowed_with_a_limit(engine: str) -> None:
    with nqueens.solve(50, limit=2, engine=engine, time_limit=20) as stream:
        boards = [solution.rows for solution in stream]
    assert len(boards) == 2
    for rows in boards:
        assert_valid_board(rows, 50)


hostile: Any = nqueens  # the API called as an untyped caller may call it

HOSTILE = [
    (lambda: hostile.count(8, queens=None), "queens must be (row, col) pairs, not None"),
    (lambda: hostile.count(8, queens=5), "not 5"),
    (lambda: hostile.count(8, queens=[None]), "pairs of whole numbers, not None"),
    (lambda: hostile.count(8, queens=[(0,)]), "not (0,)"),
    (lambda: hostile.count(8, queens=[(0, 0, 0)]), "not (0, 0, 0)"),
    (lambda: hostile.count(8, queens=[("a", "b")]), "not ('a', 'b')"),
    (lambda: hostile.count(8, queens=[(0.5, 1)]), "not (0.5, 1)"),
    (lambda: hostile.count(8, blocked=[(True, 0)]), "blocked squares must be"),
    (lambda: hostile.count(8, workers=2.5), "workers must be a whole number, not 2.5"),
    (lambda: hostile.count(8, workers="2"), "not '2'"),
    (lambda: hostile.count(8, time_limit="5"), "time limit must be a number of seconds"),
    (lambda: hostile.count(8, time_limit=float("nan")), "positive number of seconds, not nan"),
    (lambda: hostile.solve(8, limit="3"), "solution limit must be a whole number"),
    (lambda: hostile.solve(8, limit=2.5), "not 2.5"),
    (lambda: hostile.count(8, on_progress=5), "on_progress must be a function"),
    (lambda: hostile.count(8, on_estimate="soon"), "on_estimate must be a function"),
    (lambda: hostile.count(8, on_plan=5), "on_plan must be a function or None, not 5"),
    (lambda: hostile.solve(8, on_plan="x"), "on_plan must be a function or None, not 'x'"),
    (lambda: hostile.first(8, on_plan=5), "on_plan must be a function or None, not 5"),
    (
        lambda: hostile.first(8, engine="cp", on_plan=[]),
        "on_plan must be a function or None, not []",
    ),
    (lambda: hostile.count(10**5000), "about 5,001 digits"),
    (lambda: hostile.first(8, queens=[(10**5000, 0)]), "about 5,001 digits"),
    (lambda: hostile.count(8, engine=5), "unknown engine 5"),
    (
        lambda: hostile.first(8, engine="nope"),
        f"choose from {', '.join([*registry.ENGINES, registry.AUTO_ENGINE])}",
    ),
    (lambda: hostile.count(8, engine=["x"]), "unknown engine ['x']"),
    (lambda: hostile.first(True), "N must be a whole number, not True"),
]


@pytest.mark.parametrize(("call", "message"), HOSTILE)
def test_hostile_arguments_get_an_input_error_that_names_them(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        call()


def test_lists_are_squares_too_and_huge_time_limits_mean_none() -> None:
    assert hostile.count(8, blocked=[[0, 0]]).solutions == 92 - 4  # the corner holds 4
    for engine in ("cp", "mip", "cp-sat", "bitboard", "local", "reduced", "auto"):
        result = nqueens.first(8, engine=engine, time_limit=1e20)
        assert result.solution is not None
        assert_valid_board(result.solution.rows, 8)
    assert nqueens.count(8, time_limit=math.inf).status is Status.COMPLETE
    huge = 10**400  # a whole number past any float
    assert nqueens.count(8, time_limit=huge).solutions == 92
    assert nqueens.first(8, time_limit=huge).solution is not None
    assert len(list(nqueens.solve(8, time_limit=huge))) == 92
    with pytest.raises(InputError, match="not a number of 401 digits"):
        nqueens.count(8, time_limit=-huge)


@pytest.mark.slow
def test_api_errors_speak_the_apis_language_and_the_command_line_its_own() -> None:
    with pytest.raises(InputError) as refused:
        nqueens.count(23)
    assert "time_limit=" in str(refused.value) and "--time-limit" not in str(refused.value)
    said = invoke("count", "23")
    assert said.exit_code == 2 and "(--time-limit SECONDS)" in said.stderr, said.stderr


@pytest.mark.parametrize(
    ("engine", "names"),
    [("bitboard", ("subproblems", "nodes")), ("cp", ("failures", "branches"))],
)
def test_stats_name_their_counters_as_the_engine_does(engine: str, names: tuple[str, str]) -> None:
    stats = nqueens.count(6, engine=engine)
    assert list(stats.figures) == list(names)
    assert tuple(stats.figures.values()) == (stats.conflicts, stats.branches)
    shown = repr(stats)
    assert all(f"{name}=" in shown for name in names)
    assert "conflicts=" not in shown or "conflicts" in names


def test_the_package_shows_its_api_and_nothing_else() -> None:
    """``dir(nqueens)`` and tab completion in a notebook offer what ``__all__`` exports."""
    assert dir(nqueens) == sorted(nqueens.__all__)
    assert not {"Any", "TYPE_CHECKING", "annotations", "importlib"} & set(dir(nqueens))
    for name in nqueens.__all__:
        assert getattr(nqueens, name) is not None

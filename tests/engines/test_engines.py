"""Every engine and strategy: exact counts, valid boards, and what each refuses."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from helpers import (
    assert_valid_board,
    brute_force_solutions,
    invoke,
    json_lines,
    json_stream,
    known_total,
    parse_plain_boards,
    run_nqueens,
)

import nqueens
from nqueens import InputError, Status
from nqueens.core.board import Board

ENGINE_STRATEGIES = [
    ("cp-sat", "first-min"),
    ("cp-sat", "first-fail-mid"),
    ("cp-sat", "auto"),
    ("cp", "first-min"),
    ("cp", "first-fail-mid"),
]


@pytest.mark.parametrize(("engine", "strategy"), ENGINE_STRATEGIES)
@pytest.mark.parametrize("n", range(1, 10))
def test_every_engine_and_strategy_counts_exactly(n: int, engine: str, strategy: str) -> None:
    assert nqueens.count(n, engine=engine, strategy=strategy).solutions == known_total(n)


@pytest.mark.slow
@pytest.mark.parametrize("n", range(1, 8))
def test_mip_counts_exactly_with_no_good_cuts(n: int) -> None:
    """One MIP solve per solution: N = 8 and 9 (a minute) run in benchmarks/differential.py."""
    assert nqueens.count(n, engine="mip").solutions == known_total(n)


@pytest.mark.parametrize("mip_solver", ["cbc", "highs"])
def test_other_mip_backends_count_exactly(mip_solver: str) -> None:
    assert nqueens.count(6, engine="mip", mip_solver=mip_solver).solutions == 4


@pytest.mark.parametrize("n", range(1, 8))
def test_glpk_the_blog_posts_solver_counts_exactly(n: int) -> None:
    stats = nqueens.count(n, engine="mip", mip_solver="glpk")
    assert (stats.solutions, stats.backend, stats.status) == (
        known_total(n),
        "glpk",
        Status.COMPLETE,
    )


class _SaysInfeasible:
    """CBC as a loaded machine sees it: a solve stopped by its time limit reports the program
    infeasible (about 1 solve in 8 at 1 ms). Everything but Solve is the real solver's."""

    def __init__(self, solver: object, seconds: float) -> None:
        self._solver, self._seconds = solver, seconds

    def Solve(self) -> int:
        from ortools.linear_solver import pywraplp

        time.sleep(self._seconds)
        return int(pywraplp.Solver.INFEASIBLE)

    def __getattr__(self, name: str) -> object:
        return getattr(self._solver, name)


def test_an_infeasible_answer_at_the_time_limit_is_no_proof() -> None:
    """Else a count under a time limit could end 'complete' with too few solutions."""
    from nqueens.engines.mip import OrToolsProgram, constraints

    program = OrToolsProgram(6, "cbc", constraints(Board(6)))
    real = program._solver
    program._solver = _SaysInfeasible(real, 0.02)
    assert program.solve(0.005) is True  # stopped: nothing is proved
    program._solver = _SaysInfeasible(real, 0.0)
    assert program.solve(5.0) is False  # answered well before its limit: a proof


def test_glpk_stops_at_the_time_limit_with_a_lower_bound() -> None:
    stats = nqueens.count(10, engine="mip", mip_solver="glpk", time_limit=0.3)
    assert stats.status is Status.TIME_LIMIT and stats.solutions < known_total(10)


@pytest.mark.slow
@pytest.mark.parametrize(("engine", "strategy"), [*ENGINE_STRATEGIES, ("mip", None)])
@pytest.mark.parametrize("n", [5, 6, 7])
def test_every_engine_solves_with_valid_distinct_boards(
    n: int, engine: str, strategy: str | None
) -> None:
    with nqueens.solve(n, engine=engine, strategy=strategy) as stream:
        boards = [solution.rows for solution in stream]
    for rows in boards:
        assert_valid_board(rows, n)
    assert len(boards) == len(set(boards))
    assert set(boards) == brute_force_solutions(n)
    assert stream.stats.engine == engine


@pytest.mark.parametrize(
    ("engine", "strategy"), [*ENGINE_STRATEGIES, ("cp", "auto"), ("mip", None)]
)
@pytest.mark.parametrize("n", [1, 8, 21])  # first-min needs 24 s for N = 30 on the cp engine
def test_every_engine_finds_a_valid_first_solution(
    n: int, engine: str, strategy: str | None
) -> None:
    result = nqueens.first(n, engine=engine, strategy=strategy)
    assert result.solution is not None
    assert_valid_board(result.solution.rows, n)
    assert result.stats.engine == engine


@pytest.mark.parametrize("engine", ["cp-sat", "cp", "mip"])
def test_every_engine_proves_n3_has_no_solution(engine: str) -> None:
    assert nqueens.first(3, engine=engine).proven_infeasible


def test_auto_picks_the_original_solver_with_first_fail_mid_then_local_search() -> None:
    """First-fail, the same board every run, below N = 500; local search from there, sooner."""
    result = nqueens.first(499)
    assert (result.stats.engine, result.stats.strategy) == ("cp", "first-fail-mid")
    assert result.solution is not None
    assert_valid_board(result.solution.rows, 499)
    assert nqueens.first(499).solution == result.solution
    larger = nqueens.first(500)
    assert larger.stats.engine == "local" and larger.solution is not None
    assert_valid_board(larger.solution.rows, 500)


def test_limits_hold_on_every_engine() -> None:
    for engine in ("cp-sat", "cp", "mip"):
        with nqueens.solve(8, engine=engine, limit=3) as stream:
            assert len(list(stream)) == 3
        assert stream.stats.status is nqueens.Status.LIMIT
    stats = nqueens.count(15, engine="cp", time_limit=0.3)
    assert stats.status is nqueens.Status.TIME_LIMIT and stats.solutions < known_total(15)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: nqueens.count(8, engine="cp", strategy="auto"), "report a solution twice"),
        (lambda: nqueens.count(8, engine="mip", strategy="first-min"), "no search strategy"),
        (lambda: nqueens.first(8, engine="local", strategy="first-min"), "its own order"),
        (lambda: nqueens.count(11, engine="mip"), "2,680 solutions"),
        (lambda: nqueens.count(30, engine="mip", time_limit=1), "nobody has counted"),
        (lambda: nqueens.first(101, engine="mip"), "take minutes or more to a first solution"),
        (lambda: nqueens.solve(8, engine="cp", unique=True), "engines that can: cp-sat, bitboard"),
        (lambda: nqueens.count(65, engine="bitboard", time_limit=1), "engines that can: cp-sat"),
        (lambda: nqueens.count(8, engine="cp", workers=2), "searches in one process"),
        (lambda: nqueens.first(8, strategy="first-min"), "auto engine picks both"),
        (lambda: nqueens.count(8, engine="glpk"), "unknown engine"),
        (lambda: nqueens.first(8, engine="gpu"), "the gpu engine does not find a first solution"),
        (lambda: nqueens.solve(8, engine="gpu"), "the gpu engine does not list solutions;"),
        (lambda: nqueens.first(8, engine="mip", mip_solver="gurobi"), "unknown MIP solver"),
        (lambda: nqueens.first(8, engine="mip", mip_solvr="glpk"), "unknown option 'mip_solvr'"),
        (
            lambda: nqueens.first(8, engine="cp", mip_solver="glpk"),
            "the cp engine has no MIP solver to choose: mip_solver= is the mip engine's",
        ),
    ],
)
def test_engine_refusals_say_why(call: Callable[[], object], message: str) -> None:
    with pytest.raises(InputError, match=message):
        call()


@pytest.mark.parametrize("command", ["solve", "count", "first"])
def test_an_engine_option_for_another_engine_is_refused_not_dropped(command: str) -> None:
    """--mip-solver belongs to the mip engine: given to another, it was silently ignored."""
    result = invoke(command, "6", "--engine", "cp", "--mip-solver", "glpk")
    assert result.exit_code == 2
    assert "--mip-solver NAME is the mip engine's; engines that can: mip" in result.stderr


@pytest.mark.parametrize(("command", "output"), [("count", '"solutions": 4'), ("first", "glpk")])
def test_an_engine_option_without_an_engine_picks_its_engine(command: str, output: str) -> None:
    """With auto, --mip-solver said 'the cp-sat engine has no MIP solver to choose', of an
    engine the user had not named: the option names the engine it belongs to."""
    result = invoke(command, "6", "--mip-solver", "glpk", "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert '"engine": "mip"' in result.stdout and output in result.stdout


@pytest.mark.parametrize("engine", ["cp-sat", "cp", "mip"])
def test_first_8_on_every_engine_from_the_command_line(engine: str) -> None:
    result = invoke("first", "8", "--engine", engine)
    assert result.exit_code == 0
    (board,) = parse_plain_boards(result.stdout)
    assert_valid_board(board, 8)


def test_first_json_says_what_auto_picked() -> None:
    result = invoke("first", "20", "--format", "json")
    (record,), status = json_stream(result.stdout)
    assert_valid_board(record["rows"], 20)
    assert (status["engine"], status["strategy"]) == ("cp", "first-fail-mid")


def test_cp_stats_are_failures_and_branches() -> None:
    result = invoke("count", "8", "--engine", "cp", "--format", "json", "--stats")
    (record,) = json_lines(result.stdout)
    assert record["solutions"] == 92 and "failures" in record and "branches" in record


def test_counting_options_of_splitting_engines_are_refused_elsewhere() -> None:
    result = invoke("count", "8", "--engine", "cp", "--workers", "2")
    assert result.exit_code == 2
    assert "workers apply to cp-sat, bitboard" in result.stderr
    result = invoke("count", "8", "--engine", "mip", "--unique")
    assert result.exit_code == 2
    assert "engines that can: cp-sat, bitboard" in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("mip_solver", ["scip", "cbc", "highs", "glpk"])
def test_no_mip_solver_writes_into_the_data(mip_solver: str) -> None:
    command = ["first", "6", "--engine", "mip", "--mip-solver", mip_solver]
    done = run_nqueens(*command)
    assert done.returncode == 0
    (board,) = parse_plain_boards(done.stdout)
    assert_valid_board(board, 6)
    assert len(done.stdout.splitlines()) == 6
    assert done.stderr.startswith("Found in")


def test_a_stream_stopped_before_cp_sat_ran_still_reports_its_statistics() -> None:
    """A stop signal can land after the search thread started but before it called solve();
    the solver's statistics cannot be read then, and the stream reports zeros, not a crash."""
    from nqueens.core.results import Status
    from nqueens.engines.cpsat import CpSatSolutionStream

    stream = CpSatSolutionStream(Board(8))
    stream._started = True  # as after search.start(), with the thread not yet in solve()
    stream._end(Status.INTERRUPTED)
    assert stream.stats.status is Status.INTERRUPTED
    assert (stream.stats.solutions, stream.stats.conflicts) == (0, 0)

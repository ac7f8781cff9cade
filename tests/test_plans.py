"""What the API decides before a search, asked through it: the engine and why, the notes, the
engines that can and cannot take a request, and the facts help shows."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from helpers import bound, known_total, run_nqueens

from nqueens import Board, InputError, api
from nqueens.engines import registry


@pytest.mark.parametrize(
    ("command", "arguments"),
    [
        ("count", {"n": 10}),
        ("count", {"n": 11, "engine": "cp-sat"}),
        ("count", {"n": 9, "queens": [(0, 1)]}),
        ("count", {"n": 13, "torus": True}),
        ("count", {"n": 12, "torus": True}),
        ("solve", {"n": 8}),
        ("solve", {"n": 70, "queens": [(0, 0)], "limit": 1}),
        ("first", {"n": 8}),
        ("first", {"n": 600}),
        ("first", {"n": 8, "engine": "mip"}),
    ],
)
def test_the_plan_is_the_search_that_runs(command: str, arguments: dict[str, object]) -> None:
    """The plan handed to ``on_plan`` names the engine that then answers, and ``plan()`` gives
    the same plan without searching."""
    n = arguments.pop("n")
    assert isinstance(n, int)
    board: int | Board = Board(n, rules=["torus"]) if arguments.pop("torus", False) else n
    planned: list[api.Plan] = []
    search = {"count": api.count, "solve": api.solve, "first": api.first}[command]
    answer = search(board, on_plan=planned.append, **arguments)  # type: ignore[operator]
    if isinstance(answer, api.EngineStream):
        with answer:
            list(answer)
        stats = answer.stats
    else:
        stats = answer if isinstance(answer, api.Stats) else answer.stats
    assert len(planned) == 1
    assert planned[0].engine == stats.engine
    assert planned[0] == api.plan(command, board, **arguments)


def test_a_plan_says_why_and_knows_the_published_count() -> None:
    plan = api.plan("count", 12)
    assert plan.engine == api.ENGINES[plan.engine].name and plan.reason
    assert plan.known_total == known_total(12)
    assert plan.notes == ()
    assert api.plan("count", 12, queens=[(0, 0)]).known_total is None


def test_a_plan_lists_the_engines_that_can_take_it_and_why_the_others_cannot() -> None:
    plan = api.plan("solve", 12)
    assert "mip" in plan.refusals and "14,200 solutions" in plan.refusals["mip"]
    assert plan.engine in plan.able and "mip" not in plan.able
    assert set(plan.able) | set(plan.refusals) == {
        name for name, engine in api.ENGINES.items() if "solve" in engine.commands
    }


def test_a_theorem_answers_a_plan_and_says_what_it_left_unused(tmp_path: Path) -> None:
    checkpoint = tmp_path / "count.ckpt"
    plan = api.plan("count", Board(12, rules=["torus"]), checkpoint=checkpoint, workers=2)
    assert plan.engine == api.THEOREM and "divisible by 2" in plan.reason
    (note,) = plan.notes
    assert str(note).endswith("nothing was written or started for checkpoint= and workers=.")
    assert note.worded(lambda name: f"--{name}").endswith("for --checkpoint and --workers.")
    assert not checkpoint.exists()


def test_notes_say_a_theorem_set_aside_and_an_engine_far_slower() -> None:
    (aside,) = api.plan("count", Board(12, rules=["torus"]), engine="bitboard").notes
    assert "no solution exists for N = 12 (torus)" in str(aside)
    assert "without engine=, strategy= or an engine's option" in str(aside)
    (slow,) = api.plan("solve", 14, engine="cp", time_limit=60).notes
    assert str(slow).startswith("the cp engine takes about")
    assert "(engine= bitboard, or no engine=)" in str(slow)
    assert "(--engine bitboard, or no --engine)" in slow.worded(lambda name: f"--{name}")


def test_a_seed_that_chose_nothing_is_a_note_of_the_result() -> None:
    (unused,) = api.first(8, seed=3, engine="bitboard").notes
    assert "makes no random choices, so seed= changes nothing here" in str(unused)
    assert api.first(8, seed=3).notes == ()
    assert api.first(8, engine="bitboard").notes == ()


def test_first_plans_its_attempts_in_turn() -> None:
    attempts = api.plan("first", 20, queens=[(0, 0)]).attempts
    assert len(attempts) > 1 and attempts[0].seconds is not None and attempts[-1].seconds is None
    assert api.plan("first", 20, queens=[(0, 0)]).engine == attempts[0].engine


def test_a_plan_is_checked_as_the_search_would_be_and_searches_nothing() -> None:
    with pytest.raises(InputError, match="time limit"):
        api.plan("count", 30)
    with pytest.raises(InputError, match="unknown command 'list'"):
        api.plan("list", 8)
    with pytest.raises(InputError, match="on_plan belongs to the searches"):
        api.plan("count", 8, on_plan=print)
    started = time.monotonic()
    plan = api.plan("count", 18)  # counted, minutes on two cores
    assert time.monotonic() - started < bound(0.5)
    assert plan.known_total == known_total(18)


@pytest.mark.parametrize(
    ("command", "n", "arguments"),
    [
        ("count", 10, {}),
        ("count", 18, {}),
        ("count", 14, {"engine": "cp-sat", "time_limit": 5}),
        ("count", Board(20, rules=["superqueens"]), {}),
        ("count", Board(12, rules=["torus"]), {"workers": 2}),
        ("solve", 8, {}),
        ("solve", 9, {"queens": [(0, 0)], "engine": "cp"}),
        ("first", 8, {}),
        ("first", 600, {}),
        ("first", 20, {"queens": [(0, 0)], "time_limit": 9}),
        ("first", 8, {"engine": "mip"}),
        ("first", Board(13, rules=["torus"]), {}),
    ],
)
def test_a_plan_is_made_without_starting_any_search(
    command: str, n: int | Board, arguments: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Planning calls no engine's search, nor anything an engine loads before one: a plan is
    made before the search, not found by starting one and stopping it."""

    def started(*_: object, **__: object) -> None:
        raise AssertionError("a search started while only a plan was asked for")

    for engine in registry.ENGINES.values():
        for name in ("solve", "count", "first", "prepare", "subproblems", "count_subproblem"):
            monkeypatch.setattr(engine, name, started)
    plan = api.plan(command, n, **arguments)
    assert plan.command == command and plan.engine


def test_a_plan_says_the_time_limit_the_workers_and_how_long_a_count_may_run() -> None:
    from nqueens.run.executors import default_workers

    cores = default_workers()
    assert api.plan("count", 18).workers == cores  # a long count takes every core
    assert api.plan("count", 10, engine="bitboard").workers == 1  # at once: no workers
    assert api.plan("count", 18, workers=1).workers == 1
    assert api.plan("count", 18, workers=0).workers == cores
    assert api.plan("count", 18, workers=cores + 7).workers == cores
    assert api.plan("count", 18, cluster="local:1").workers == 1
    one_piece = api.plan("count", 10, engine="mip", time_limit=5)
    assert one_piece.workers is None and one_piece.time_limit == 5
    assert api.plan("solve", 8).workers is None and api.plan("solve", 8).time_limit is None
    # Only a timed sample tells how long this count takes: it refuses itself past an hour.
    assert api.plan("count", Board(20, rules=["superqueens"])).longest == 3600
    assert api.plan("count", Board(20, rules=["superqueens"]), time_limit=9).longest is None
    assert api.plan("count", 18).longest is None  # bounded by the published count


def test_a_theorems_answer_is_found_once_and_kept_in_the_plan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`first` on a torus of a million columns looked for its line of queens twice, once to
    plan and once to answer: the plan keeps the line it found, and the answer is that line."""
    from nqueens.core import theorems

    looked: list[Board] = []
    line_of_queens = theorems.line_of_queens

    def counted(board: Board) -> tuple[int, ...] | None:
        looked.append(board)
        return line_of_queens(board)

    monkeypatch.setattr(theorems, "line_of_queens", counted)
    board = Board(13, rules=["torus"])
    planned: list[api.Plan] = []
    found = api.first(board, on_plan=planned.append)
    assert len(looked) == 1 and planned[0].engine == api.THEOREM
    assert found.solution is not None and (found.solution.rows,) == tuple(
        solution.rows for solution in planned[0].answer
    )
    assert api.plan("count", Board(12, rules=["torus"])).answer == ()


def test_a_refused_plan_keeps_the_notes_it_had() -> None:
    """The engine named being far slower is said beside the refusal of a search too long to
    run without a limit, first, as the command line shows."""
    with pytest.raises(InputError, match="too many to go through without a limit") as refused:
        api.plan("count", 20, engine="cp")
    (slow,) = refused.value.notes
    assert str(slow).startswith("the cp engine takes about")
    said = run_nqueens("count", "20", "--engine", "cp")
    assert said.returncode == 2 and said.stdout == ""
    assert said.stderr.startswith("Note: the cp engine takes about")
    assert said.stderr.index("Note:") < said.stderr.index("Error: N = 20 has")
    assert InputError("any").notes == ()


def test_the_facts_help_shows_come_from_the_api() -> None:
    assert api.MAX_WORKERS >= 2 and api.MAX_SEED > 0 and api.CONNECT_SECONDS > 0
    assert api.MIP_SOLVERS[0] == api.ENGINE_OPTIONS["mip_solver"][0].default
    assert api.ENGINE_OPTIONS["mip_solver"][1] == api.MIP_ENGINE
    splitting = [name for name, engine in api.ENGINES.items() if engine.splits]
    assert api.engines_that("splits") == ", ".join(splitting)
    assert api.SOLVE_DEFAULT in api.ENGINES and api.AUTO_ENGINE not in api.ENGINES


@pytest.mark.parametrize(
    "board",
    [
        Board(49, rules=frozenset({"superqueens"})),  # cp for a second, then CP-SAT
        Board(600, queens=((0, 0),)),  # local search for three seconds, then the others
    ],
    ids=["superqueens", "a puzzle past 500"],
)
@pytest.mark.parametrize("time_limit", [None, 20.0])
def test_every_attempt_of_first_keeps_its_share_of_the_time(
    board: Board, time_limit: float | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each attempt is given its own share, with or without a time limit (under one, the first
    attempt was given the whole limit, and `first 49 --superqueens -t 20` found nothing)."""
    from nqueens.core.results import FirstResult, Stats, Status
    from nqueens.engines import registry

    attempts = api.plan("first", board, time_limit=time_limit).attempts
    given: list[tuple[str, float | None]] = []

    def record(engine: str) -> object:
        def first(request: object) -> FirstResult:
            deadline = request.deadline  # type: ignore[attr-defined]
            given.append((engine, None if deadline is None else deadline - time.monotonic()))
            stats = Stats(
                n=board.n,
                solutions=0,
                conflicts=0,
                branches=0,
                wall_time=0.0,
                status=Status.TIME_LIMIT,
                engine=engine,
                counter_names=("", ""),
            )
            return FirstResult(None, stats)

        return first

    for attempt in attempts:
        engine = registry.engine_named(attempt.engine)
        monkeypatch.setattr(engine, "prepare", lambda request: None)
        monkeypatch.setattr(engine, "first", record(attempt.engine))
    api.first(board, time_limit=time_limit)
    assert [engine for engine, _ in given] == [attempt.engine for attempt in attempts]
    for attempt, (_, seconds) in zip(attempts, given, strict=True):
        if attempt.seconds is not None:
            assert seconds is not None and seconds <= attempt.seconds
        elif time_limit is None:
            assert seconds is None
        else:
            assert seconds is not None and seconds <= time_limit

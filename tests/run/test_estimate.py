"""Estimates before a long count: pieces cut finer add up to the piece, the estimate is near the
time the count takes, the time left counts down from it, and batches stay short."""

from __future__ import annotations

import re
import signal
import time
from collections.abc import Sequence

import pytest
from helpers import TERMINAL_ENV, invoke, known_total, run_nqueens, start_nqueens, strip_ansi
from rich.progress import Progress

import nqueens
from nqueens.cli.columns import TimeLeftColumn
from nqueens.cli.render import estimate_line
from nqueens.core.board import Board
from nqueens.core.geometry import DIFFERENCE, SUM, Diagonal
from nqueens.engines import registry
from nqueens.engines.base import Engine, Request, Subcount, Subproblem
from nqueens.engines.bitboard import ENGINE as BITBOARD
from nqueens.engines.reduced import ENGINE as REDUCED
from nqueens.run import counting, executors, notes
from nqueens.run.estimate import Estimate, estimate

EXCLUDED_SUMS = frozenset({3, 11})
EXCLUDED_DIFFERENCES = frozenset({-2, 5})


def _requests() -> list[Request]:
    """Every kind of bitboard piece: symmetric starts (corner and inside), plain, a puzzle."""
    board = Board(11, queens=((2, 0),), blocked=((5, 5), (0, 7)))
    return [
        Request("count", Board(11)),
        Request("count", Board(12)),
        Request("count", Board(10), symmetry=False),
        Request("count", board),
    ]


@pytest.mark.parametrize(
    "request_", _requests(), ids=lambda r: f"{r.n}-{r.symmetry}-{r.board.constrained}"
)
def test_bitboard_pieces_cut_finer_add_up_to_the_piece(request_: Request) -> None:
    for piece in BITBOARD.subproblems(request_, None, lines=1):
        whole = BITBOARD.count_subproblem(piece)
        finer = BITBOARD.finer(piece)
        assert finer is not None
        parts = [BITBOARD.count_subproblem(part) for part in finer]
        assert sum(part.solutions for part in parts) == whole.solutions
        assert sum(part.unique or 0 for part in parts) == (whole.unique or 0)


def test_reduced_pieces_cut_finer_add_up_to_the_piece() -> None:
    n = 16
    queens, blocked = {(0, 4), (9, 1)}, {(4, 5), (7, 3)}
    excluded = tuple(Diagonal(SUM, value) for value in EXCLUDED_SUMS) + tuple(
        Diagonal(DIFFERENCE, value) for value in EXCLUDED_DIFFERENCES
    )
    board = Board(n, tuple(sorted(queens)), tuple(sorted(blocked)), excluded)
    pieces = REDUCED.subproblems(Request("count", board), None)
    assert len(pieces) > 1
    for piece in pieces[:: max(1, len(pieces) // 6)]:
        parts = REDUCED.finer(piece)
        assert sum(REDUCED.count_subproblem(part).solutions for part in parts) == (
            REDUCED.count_subproblem(piece).solutions
        )
    total = sum(REDUCED.count_subproblem(piece).solutions for piece in pieces)
    on_bitboard = nqueens.count(
        n, engine="bitboard", queens=queens, blocked=blocked, excluded=excluded, workers=1
    )
    assert total == on_bitboard.solutions == 747  # as tests/helpers.py's counter finds


def test_an_estimate_is_near_the_time_the_count_takes() -> None:
    request = Request("count", Board(14))
    BITBOARD.prepare(request)
    pieces = BITBOARD.subproblems(request, None)
    guess = estimate(BITBOARD, pieces, budget=0.3)
    started = time.perf_counter()
    found = [BITBOARD.count_subproblem(piece) for piece in pieces]
    took = time.perf_counter() - started
    assert sum(sub.solutions for sub in found) == known_total(14)
    assert guess is not None and guess.probes >= 10
    assert took / 3 < guess.cpu_seconds < took * 3, (guess, took)
    assert guess.seconds_on(2) == pytest.approx(guess.cpu_seconds / 2)


class _Uncuttable(Engine):
    """Pieces that never finish within a probe, and cannot be cut."""

    name = "uncuttable"

    def count_subproblem(self, task: Subproblem) -> Subcount:
        return Subcount(0, None, 0, 0, complete=False)

    def finer(self, task: Subproblem) -> Sequence[Subproblem] | None:
        return None


def test_no_estimate_from_pieces_that_cannot_be_timed() -> None:
    pieces = [Subproblem("uncuttable", None)] * 3
    assert estimate(_Uncuttable(), pieces, budget=0.1) is None
    assert estimate(_Uncuttable(), [], budget=0.1) is None


def test_batches_of_long_pieces_are_short() -> None:
    tasks = [(place, Subproblem("bitboard", None)) for place in range(10_000)]
    untimed = executors.batches_of(tasks, workers=2)
    assert len(untimed) == 2 * 64 + 1 and len(untimed[0]) == 78
    timed = executors.batches_of(tasks, workers=2, seconds_each=0.3)
    assert {len(batch) for batch in timed} == {3, 1}  # a second of work, at most
    assert [task for batch in timed for task in batch] == tasks


def test_the_time_left_follows_the_estimate_then_this_runs_pace() -> None:
    clock = [0.0]
    progress = Progress(get_time=lambda: clock[0])
    # 60 of 100 done when the count resumed; 10 more in 40 s: 30 left take 120 s.
    resumed = progress.add_task("count", total=100, resumed_from=60)
    progress.update(resumed, completed=60)
    clock[0] = 40.0
    progress.update(resumed, completed=70)
    assert str(TimeLeftColumn().render(progress.tasks[resumed])) == "~2:00 left"
    # An estimate of an hour and a half: followed until the count outlasts it.
    expected = progress.add_task("count", total=100, expected=5400.0)
    progress.update(expected, completed=1)
    clock[0] = 45.0  # 5 s after it started
    assert str(TimeLeftColumn().render(progress.tasks[expected])) == "~1:29:55 left"
    clock[0] = 6000.0  # 1 of 100 in 5960 s: 99 more take 6.8 days
    assert str(TimeLeftColumn().render(progress.tasks[expected])) == "~6.8 days left"


def test_the_estimate_line_says_how_long_on_how_many_workers() -> None:
    line = estimate_line(Estimate(7200.0, 360.0, 400), 4, cluster=False)
    assert line == (
        "Estimate: about 30 min on 4 workers (± 5%, from 400 timed samples; 2.0 h on one core)."
    )
    on_cluster = estimate_line(Estimate(86400.0 * 30, 0.0, 1), 1, cluster=True)
    assert "1 worker of the cluster, if its cores are as fast as this machine's" in on_cluster
    assert "30 days" in on_cluster


def test_a_long_count_says_its_estimate_on_a_terminal_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(counting, "MAX_UNBOUNDED_ENUMERATION_N", 13)  # N = 14 counts as long
    monkeypatch.setattr(counting, "ESTIMATE_SECONDS", 0.2)
    shown = invoke("count", "14", env=TERMINAL_ENV)
    assert shown.exit_code == 0, shown.stderr
    assert "Estimate: about" in strip_ansi(shown.stderr)
    assert strip_ansi(shown.stdout).strip() == f"N = 14: {known_total(14):,} solutions"
    for quiet in (invoke("count", "14"), invoke("count", "14", "--quiet", env=TERMINAL_ENV)):
        assert quiet.exit_code == 0 and "Estimate" not in quiet.stderr
    limited = invoke("count", "14", "--time-limit", "60", env=TERMINAL_ENV)
    assert "Estimate" not in limited.stderr  # a bounded count says nothing in advance


def test_the_api_hands_a_long_count_its_estimate_with_the_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(counting, "MAX_UNBOUNDED_ENUMERATION_N", 13)
    monkeypatch.setattr(counting, "ESTIMATE_SECONDS", 0.2)
    heard: list[tuple[Estimate, int]] = []
    stats = nqueens.count(14, workers=2, on_estimate=lambda *said: heard.append(said))
    assert stats.solutions == known_total(14)
    ((guess, workers),) = heard
    assert workers == 2 and guess.cpu_seconds > 0 and guess.probes >= 1
    limited = nqueens.count(
        14, workers=2, time_limit=60, on_estimate=lambda *said: heard.append(said)
    )
    assert limited.solutions == known_total(14)
    assert len(heard) == 1  # a count with a time limit is not estimated


@pytest.mark.parametrize(
    ("command", "n", "engine", "faster"),
    [
        ("count", 10, "mip", "bitboard"),
        ("count", 14, "cp-sat", "join"),
        ("solve", 8, "mip", "bitboard"),
    ],
)
def test_an_engine_far_slower_than_autos_choice_is_noted(
    command: str, n: int, engine: str, faster: str
) -> None:
    """By the rates the engines declare; the search still runs as asked."""
    slow = notes.slow_choice(Request(command, Board(n)), registry.ENGINES[engine])
    assert slow is not None and slow.faster == faster
    assert slow.seconds >= 10 * slow.faster_seconds and slow.seconds >= notes.SLOW_CHOICE_SECONDS
    process = start_nqueens(command, str(n), "--engine", engine, "--format", "json")
    try:
        assert process.stderr is not None
        note = process.stderr.readline()
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
    assert (
        note.startswith(f"Note: the {engine} engine takes about ") and f"--engine {faster}" in note
    )
    assert process.returncode == 130


@pytest.mark.parametrize(
    "arguments",
    [
        ["count", "10", "--engine", "mip", "-t", "0.1"],  # stopped long before
        ["count", "10", "--engine", "bitboard"],  # auto's own choice
        ["count", "9", "--engine", "cp"],  # at once
        ["count", "30", "--engine", "cp", "-t", "0.1"],  # no known count
    ],
)
def test_no_note_where_the_engine_named_is_not_far_slower(arguments: list[str]) -> None:
    assert "Note:" not in invoke(*arguments).stderr


@pytest.mark.slow  # a second of timed samples
def test_a_refused_count_and_a_checkpointed_one_say_the_same_estimate() -> None:
    """`count 20` refused with "about 65 min" from the engine's speed, while the same count
    with a checkpoint said "about 48 min" from a timed sample: both come from the sample now,
    and say how sure it is."""
    # hours for the edge search (the join engine counts N = 21 in under an hour: it runs)
    refused = run_nqueens("count", "21", "--workers", "2", "--engine", "bitboard")
    assert refused.returncode == 2
    sure = r"\(± [0-9]+%, from [0-9,]+ timed samples\)"
    # hours here, days on a machine as busy as CI's: the sample says what it measured
    said = re.search(rf"takes about [0-9.]+ (?:min|h|days?) on 2 cores here {sure}", refused.stderr)
    assert said is not None, refused.stderr
    line = estimate_line(Estimate(3600.0, 360.0, 412), 2, cluster=False)
    assert "(± 10%, from 412 timed samples;" in line
    assert Estimate(3600.0, 360.0, 412).sureness == "± 10%, from 412 timed samples"

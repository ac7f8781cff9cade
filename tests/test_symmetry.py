"""Symmetry breaking, unique solutions, several workers and stopping them: checked independently."""

from __future__ import annotations

import _thread
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from helpers import PLAIN_ENV, assert_valid_board, brute_force_solutions, known_total, known_unique

import nqueens
from nqueens import SearchInterrupted, Status


def square_symmetries(rows: tuple[int, ...]) -> set[tuple[int, ...]]:
    """The 8 images of a solution, computed on the squares themselves (no permutation tricks)."""
    n = len(rows)
    squares = {(row, col) for col, row in enumerate(rows)}
    transforms = [
        lambda r, c: (r, c),
        lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (n - 1 - c, r),
        lambda r, c: (r, n - 1 - c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r),
        lambda r, c: (n - 1 - c, n - 1 - r),
    ]
    result = set()
    for transform in transforms:
        moved = sorted((col, row) for row, col in (transform(r, c) for r, c in squares))
        result.add(tuple(row for _, row in moved))
    return result


@pytest.mark.parametrize("n", range(1, 10))
def test_unique_solutions_represent_every_solution_exactly_once(n: int) -> None:
    with nqueens.solve(n, unique=True) as stream:
        representatives = [solution.rows for solution in stream]
    assert len(representatives) == known_unique(n)
    covered: set[tuple[int, ...]] = set()
    for rows in representatives:
        images = square_symmetries(rows)
        for image in images:
            assert_valid_board(image, n)
        assert rows == min(images), "the representative is not the smallest of its class"
        assert not covered & images, "two representatives of one class"
        covered |= images
    assert covered == brute_force_solutions(n)


@pytest.mark.parametrize("engine", ["cp-sat", "bitboard"])
@pytest.mark.parametrize("n", [12, 13])
def test_unique_counts_beyond_the_brute_force_range(n: int, engine: str) -> None:
    stats = nqueens.count(n, engine=engine)
    assert (stats.unique, stats.solutions) == (known_unique(n), known_total(n))


@pytest.mark.parametrize(("engine", "n", "steps"), [("cp-sat", 10, 5), ("bitboard", 14, 100)])
def test_progress_is_reported_per_subproblem(engine: str, n: int, steps: int) -> None:
    calls: list[tuple[int, int, int]] = []
    stats = nqueens.count(n, workers=2, engine=engine, on_progress=lambda *a: calls.append(a))
    total = calls[0][1]
    assert total >= steps, "too few subproblems for a smooth progress bar"
    assert calls[0] == (0, total, 0)
    assert [done for done, _, _ in calls] == list(range(total + 1))
    assert calls[-1][2] == stats.solutions == known_total(n)


@pytest.mark.parametrize("engine", ["cp-sat", "bitboard"])
@pytest.mark.parametrize("workers", [1, 2])
def test_time_limit_with_workers_is_a_prompt_lower_bound(workers: int, engine: str) -> None:
    started = time.monotonic()
    stats = nqueens.count(18, time_limit=0.5, workers=workers, engine=engine)
    assert time.monotonic() - started < 5
    assert stats.status is Status.TIME_LIMIT
    assert stats.solutions < known_total(18)
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize(("engine", "n"), [("cp-sat", 15), ("bitboard", 18)])
@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_gives_a_lower_bound_and_leaves_no_child(workers: int, engine: str, n: int) -> None:
    timer = threading.Timer(1.0, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    with pytest.raises(SearchInterrupted) as interrupted:
        nqueens.count(n, workers=workers, engine=engine)
    timer.join()
    assert time.monotonic() - started < 5, "Ctrl-C was not handled promptly"
    stats = interrupted.value.stats
    assert stats.status is Status.INTERRUPTED
    assert 0 <= stats.solutions < known_total(n)
    assert multiprocessing.active_children() == []


def test_ctrl_c_on_the_command_leaves_no_orphan_process() -> None:
    env = {key: value for key, value in os.environ.items() if key not in PLAIN_ENV}
    env.update({key: value for key, value in PLAIN_ENV.items() if value is not None})
    process = subprocess.Popen(
        [sys.executable, "-m", "nqueens", "count", "18", "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its own process group, to look for leftovers afterwards
    )
    time.sleep(2.0)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C reaches the whole group
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert int(stdout) < known_total(18)
    assert "lower bound" in stderr and "Traceback" not in stderr
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):
        os.killpg(process.pid, 0)  # no process of that group is left

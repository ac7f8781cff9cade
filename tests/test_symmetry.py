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
from helpers import (
    assert_valid_board,
    brute_force_solutions,
    known_total,
    known_unique,
    process_env,
    symmetry_images,
)

import nqueens
from nqueens import SearchInterrupted, Status


@pytest.mark.parametrize("n", range(1, 10))
def test_unique_solutions_represent_every_solution_exactly_once(n: int) -> None:
    with nqueens.solve(n, unique=True) as stream:
        representatives = [solution.rows for solution in stream]
    assert len(representatives) == known_unique(n)
    covered: set[tuple[int, ...]] = set()
    for rows in representatives:
        images = symmetry_images(rows)
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
    env = process_env()
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

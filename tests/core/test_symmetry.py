"""Symmetry breaking, unique solutions, several workers and stopping them: checked independently."""

from __future__ import annotations

import _thread
import multiprocessing

import pytest
from helpers import (
    assert_valid_board,
    brute_force_solutions,
    known_total,
    known_unique,
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


@pytest.mark.parametrize(
    ("n", "engine"),
    [
        (12, "cp-sat"),
        (12, "bitboard"),
        (13, "bitboard"),
        pytest.param(13, "cp-sat", marks=pytest.mark.slow),
    ],
)
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


@pytest.mark.slow
@pytest.mark.parametrize(("workers", "engine"), [(1, "cp-sat"), (2, "bitboard")])
def test_time_limit_with_workers_is_a_prompt_lower_bound(workers: int, engine: str) -> None:
    # Without the limit, the count would run to its exact total (a minute or more).
    stats = nqueens.count(18, time_limit=0.5, workers=workers, engine=engine)
    assert stats.status is Status.TIME_LIMIT and stats.status.partial
    assert stats.solutions < known_total(18)
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize(("workers", "engine", "n"), [(1, "cp-sat", 15), (2, "bitboard", 16)])
def test_ctrl_c_gives_a_lower_bound_and_leaves_no_child(workers: int, engine: str, n: int) -> None:
    """Ctrl-C once the first piece is counted. (A timer's, on a busy machine, could land in an
    import, or in a collector's callback, where Python turns it into an ImportError or loses it:
    the command line holds it back there, and its tests stop it at any moment.)"""

    def first_piece_counted(done: int, total: int, solutions: int) -> None:
        if done == 1:
            _thread.interrupt_main()

    with pytest.raises(SearchInterrupted) as interrupted:
        nqueens.count(n, workers=workers, engine=engine, on_progress=first_piece_counted)
    stats = interrupted.value.stats
    assert stats.status is Status.INTERRUPTED
    assert 0 <= stats.solutions < known_total(n)
    assert multiprocessing.active_children() == []

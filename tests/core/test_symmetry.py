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


def test_the_compiled_searches_and_python_number_the_symmetries_alike() -> None:
    """One table of the square's symmetries in the shared header of the C searches, and the
    same in Python: the C searches compare images and weigh classes by these numbers."""
    import re
    from pathlib import Path

    from nqueens.core.symmetry import SYMMETRIES

    header = (Path(__file__).parents[2] / "src" / "nqueens" / "searches.h").read_text()
    table = re.search(r"SYMMETRIES\[8\] = \{(.*?)\n\};", header, re.DOTALL)
    assert table is not None
    rows = re.findall(r"\{(\d), (\d), (\d)\}, /\* ([a-z -]+)", table.group(1))
    in_c = [(bool(int(a)), bool(int(b)), bool(int(c)), name.strip()) for a, b, c, name in rows]
    in_python = [(s.swap, s.mirror_line, s.mirror_row, s.name) for s in SYMMETRIES]
    assert in_c == in_python


def test_the_table_of_symmetries_is_the_square_s() -> None:
    """Each is one of the eight (the tests' own images), all differ on a solution no symmetry
    keeps, and the numbering holds: 1 turns by a quarter (2 and 3 are it twice and three
    times), 4 to 7 reflect."""
    from nqueens.core.symmetry import SYMMETRIES, images

    rows = (1, 3, 5, 7, 2, 0, 6, 4)  # an N = 8 solution that no symmetry keeps
    assert set(images(rows)) == symmetry_images(rows) and len(set(images(rows))) == 8
    quarter = {image: images(image)[1] for image in symmetry_images(rows)}
    assert images(rows)[2] == quarter[quarter[rows]]
    assert images(rows)[3] == quarter[quarter[quarter[rows]]]
    assert quarter[images(rows)[3]] == rows
    for reflection in range(4, 8):
        assert images(images(rows)[reflection])[reflection] == rows
    assert [s.name for s in SYMMETRIES][:4] == [
        "identity",
        "quarter turn",
        "half turn",
        "three-quarter turn",
    ]

"""The C counter of plain boards: its constellations, its counts and its fallback.

Checked against the tests' own solutions (brute force) and the published counts, never against
the module's own bookkeeping: the constellations of every solution are read off the boards here.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest
from helpers import (
    NQUEENS,
    brute_force_solutions,
    known_total,
    known_unique,
    process_env,
    run_python,
    run_with_a_reader_gone,
    symmetry_images,
)

import nqueens
from nqueens.core.board import Board
from nqueens.engines.base import Request
from nqueens.engines.bitboard import ENGINE as BITBOARD
from nqueens.engines.bitboard import _edges, edges
from nqueens.engines.bitboard.pieces import EDGES

Edges = tuple[int, int, int, int]


def edge_queens(rows: tuple[int, ...]) -> Edges:
    """(row on the first column, row on the last, column on the first row, column on the last)."""
    n = len(rows)
    return rows[0], rows[-1], rows.index(0), rows.index(n - 1)


@pytest.mark.parametrize("n", [*range(5, 9), pytest.param(9, marks=pytest.mark.slow)])
def test_each_solution_is_counted_through_one_canonical_constellation(n: int) -> None:
    canonical = _edges.constellations(n)
    by_edges = Counter(edge_queens(rows) for rows in brute_force_solutions(n))
    searched = {(a, b, c, d) for a, b, c, d, _ in canonical}
    assert len(searched) == len(canonical)
    for rows in brute_force_solutions(n):
        # the edge queens of exactly one image of each solution are where a search looks
        assert len({edge_queens(image) for image in symmetry_images(rows)} & searched) == 1
    for a, b, c, d, keeping in canonical:
        assert _edges.count_one(n, a, b, c, d)[0] == by_edges[(a, b, c, d)]
        assert keeping in (1, 2, 4, 8)


@pytest.mark.parametrize(
    "n", [*range(5, 9), *(pytest.param(n, marks=pytest.mark.slow) for n in (9, 10))]
)
def test_the_device_is_told_each_constellations_solutions_that_turns_keep(n: int) -> None:
    """masks' third value, which the gpu engine's classes rest on: of a constellation's
    solutions, those a half turn keeps plus twice those a quarter turn keeps (Burnside)."""
    expected: Counter[Edges] = Counter()
    for rows in brute_force_solutions(n):
        half = all(rows[n - 1 - column] == n - 1 - row for column, row in enumerate(rows))
        quarter = all(rows[row] == n - 1 - column for column, row in enumerate(rows))
        expected[edge_queens(rows)] += half + 2 * quarter
    for index, (a, b, c, d, _) in enumerate(_edges.constellations(n)):
        assert _edges.masks(n, index)[2] == expected[(a, b, c, d)], (n, a, b, c, d)


@pytest.mark.parametrize("n", range(1, 16))
def test_plain_counts_are_the_published_ones(n: int) -> None:
    stats = nqueens.count(n, unique=True, engine="bitboard", workers=1)
    assert (stats.solutions, stats.unique) == (known_total(n), known_unique(n))


@pytest.mark.slow
@pytest.mark.parametrize("n", [16, 17])
def test_larger_plain_counts_are_the_published_ones(n: int) -> None:
    stats = nqueens.count(n, unique=True, engine="bitboard")
    assert (stats.solutions, stats.unique) == (known_total(n), known_unique(n))


@pytest.mark.parametrize("n", range(5, 10))
def test_counts_agree_with_the_brute_force_here(n: int) -> None:
    found = brute_force_solutions(n)
    classes = {min(symmetry_images(rows)) for rows in found}
    stats = nqueens.count(n, unique=True, engine="bitboard", workers=1)
    assert (stats.solutions, stats.unique) == (len(found), len(classes))


def test_a_constellation_cut_by_its_free_lines_adds_up() -> None:
    n = 11
    request = Request("count", Board(n), symmetry=True)
    assert edges.counts(request)
    pieces = BITBOARD.subproblems(request, None)
    assert [piece.kind for piece in pieces] == [EDGES]
    for one in (BITBOARD.finer(pieces[0]) or [])[::37]:
        whole = BITBOARD.count_subproblem(one)
        parts = BITBOARD.finer(one)
        assert parts is not None and len(parts) == n
        found = [BITBOARD.count_subproblem(part) for part in parts]
        assert sum(part.solutions for part in found) == whole.solutions
        deeper = BITBOARD.finer(parts[0])
        assert deeper is not None
        assert sum(BITBOARD.count_subproblem(p).solutions for p in deeper) == found[0].solutions


def test_the_pieces_a_device_counts_are_every_row_on_the_first_lines_and_add_up() -> None:
    """The rows the gpu engine's kernel gives each piece (``edges.piece_rows``), placed by the
    C counter before its search, cut a constellation into parts that add up to it; the first
    line's row changes fastest, as the kernel numbers pieces."""
    assert edges.piece_rows(3, 2) == [(a, b) for b in range(3) for a in range(3)]
    n = 11
    rows_of_pieces = edges.piece_rows(n, 3)
    assert len(set(rows_of_pieces)) == len(rows_of_pieces) == n**3
    counted = 0
    for index in range(0, len(_edges.constellations(n)), 17):
        whole = edges.count_span(n, (index, index + 1), None, 1 << 20)
        parts = [edges.count_span(n, (index, index + 1), None, 1 << 20, r) for r in rows_of_pieces]
        assert sum(part.solutions for part in parts) == whole.solutions
        counted += whole.solutions
    assert counted > 0


def test_a_constellation_counts_alike_in_the_image_it_is_searched_as() -> None:
    """From N = 16 a large constellation is searched as the image estimated to be quickest: its
    count is still that of its canonical image, its parts add up to it, and a fresh process (a
    worker) cuts it on the same lines."""
    n = 16
    canonical = _edges.constellations(n)
    pieces = BITBOARD.subproblems(Request("count", Board(n), symmetry=True), None)
    sample = range(0, len(canonical), 100)
    for index in sample:
        a, b, c, d, keeping = canonical[index]
        piece = pieces[index]
        assert piece.span == (index, index + 1)
        found = BITBOARD.count_subproblem(piece)
        assert found.complete
        assert found.solutions == 8 // keeping * _edges.count_one(n, a, b, c, d)[0]
        if index % 1000 == 0:
            parts = BITBOARD.finer(piece) or []
            assert sum(BITBOARD.count_subproblem(part).solutions for part in parts) == (
                found.solutions
            )
    here = [_edges.free_lines(n, index) for index in sample]
    elsewhere = subprocess.run(
        [
            sys.executable,
            "-c",
            "from nqueens.engines.bitboard import _edges as e; "
            f"print([e.free_lines({n}, i) for i in {list(sample)}])",
        ],
        capture_output=True,
        text=True,
        env=process_env(),
        timeout=60,
        check=True,
    )
    assert elsewhere.stdout.strip() == str(here)


def test_a_span_stops_at_its_deadline_with_a_lower_bound() -> None:
    request = Request("count", Board(17), symmetry=True)
    piece = BITBOARD.subproblems(request, deadline=0.0)[0]
    found = BITBOARD.count_subproblem(piece)
    assert not found.complete
    assert found.solutions <= known_total(17)


def test_boards_the_counter_does_not_take_go_to_the_numba_search() -> None:
    for request in (
        Request("count", Board(10), symmetry=False),
        Request("count", Board(10, queens=((0, 2),))),
        Request("count", Board(10, rules=frozenset({"torus"}))),
        Request("count", Board(4)),
    ):
        assert not edges.counts(request)
        assert all(piece.kind != EDGES for piece in BITBOARD.subproblems(request, None))


@pytest.mark.parametrize("module", ["bitboard._edges", "bitboard._search", "local._local"])
def test_a_missing_c_module_is_one_line_and_exit_70(module: str) -> None:
    hidden = (
        f"import sys; sys.modules['nqueens.engines.{module}'] = None; "
        "from nqueens.__main__ import main; "
        "sys.argv = ['nqueens', 'first', '500', '--engine', 'local']; main()"
        if module.startswith("local")
        else f"import sys; sys.modules['nqueens.engines.{module}'] = None; "
        "from nqueens.__main__ import main; sys.argv = ['nqueens', 'count', '12']; main()"
    )
    done = run_python(hidden, timeout=60)
    assert done.returncode == 70, done.stderr
    assert done.stdout == ""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and f"C module nqueens.engines.{module} is missing" in lines[0]
    assert "pip install --force-reinstall . in its checkout" in lines[0]


def test_a_warning_that_stderr_cannot_take_costs_no_data() -> None:
    """With stderr's reader gone, the warning's write failed as if stdout had closed: the count
    was thrown away, with exit 0."""
    done = run_with_a_reader_gone([*NQUEENS, "count", "12", "--workers", "64"], "stderr")
    assert (done.returncode, done.stdout.strip()) == (0, str(known_total(12)))


@pytest.mark.parametrize("n", [8, 9, 10, 11])
def test_the_weights_of_the_constellations_give_the_published_counts(n: int) -> None:
    """``weighed`` is the one place that turns a constellation's count into the board's
    solutions and classes (Burnside's lemma): the GPU's counts go through it too."""
    total = unique = 0
    for index, (a, b, c, d, _) in enumerate(_edges.constellations(n)):
        count = _edges.count_one(n, a, b, c, d)[0]
        turns = _edges.masks(n, index)[2]
        solutions, classes = _edges.weighed(n, index, (count,), (turns,))
        total, unique = total + solutions, unique + classes
    assert (total, unique) == (known_total(n), known_unique(n))

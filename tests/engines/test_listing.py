"""The bitboard engine's listing in blocks: the same solutions, in the same order, as a search of
one solution at a time and as CP-SAT, checked by the checker here; blocks as numpy arrays for
programs; limits, time limits, and the listing without its C module."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from helpers import assert_valid_board, bound, known_total, known_unique

import nqueens


def _smallest_of_its_images(rows: Sequence[int]) -> bool:
    """Whether no rotation or reflection of the square makes ``rows`` lexicographically
    smaller: written here, from the squares of the queens."""
    n = len(rows)
    last = n - 1
    turns: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, c: (r, last - c),
        lambda r, c: (last - r, c),
        lambda r, c: (last - r, last - c),
        lambda r, c: (c, r),
        lambda r, c: (last - c, last - r),
        lambda r, c: (last - c, r),
        lambda r, c: (c, last - r),
    ]
    for turn in turns:
        image = [0] * n
        for col, row in enumerate(rows):
            turned_row, turned_col = turn(row, col)
            image[turned_col] = turned_row
        if tuple(image) < tuple(rows):
            return False
    return True


def _rows(stream: Any) -> list[tuple[int, ...]]:
    with stream:
        return [solution.rows for solution in stream]


def _block_rows(blocks: Iterator[Any]) -> list[tuple[int, ...]]:
    return [tuple(int(row) for row in rows) for block in blocks for rows in block]


BOARDS: list[dict[str, Any]] = [
    {"n": 1},
    {"n": 3},
    {"n": 8},
    {"n": 9, "unique": True},
    {"n": 10, "unique": True},
    {"n": 11, "rules": ["torus"]},
    {"n": 10, "rules": ["superqueens"]},
    {"n": 11, "rules": ["torus", "superqueens"]},
    {"n": 9, "queens": [(0, 1)], "blocked": [(4, 4)]},
    {"n": 10, "excluded": [("sum", 9)]},
]


def _solve(engine: str, board: dict[str, Any], **more: Any) -> Any:
    arguments = dict(board)
    if rules := arguments.pop("rules", ()):
        return nqueens.solve(nqueens.Board(arguments.pop("n"), rules=rules), engine=engine, **more)
    return nqueens.solve(arguments.pop("n"), engine=engine, **arguments, **more)


@pytest.mark.parametrize("board", BOARDS, ids=str)
def test_the_listing_lists_what_cp_sat_lists_in_the_same_order(board: dict[str, Any]) -> None:
    listed = _rows(_solve("bitboard", board))
    assert listed == _rows(_solve("cp-sat", board))
    assert listed == sorted(listed)
    for rows in listed:
        assert_valid_board(rows, board["n"])  # a torus or superqueens solution is one too
        if board.get("unique"):
            assert _smallest_of_its_images(rows)


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12])
def test_plain_boards_list_every_solution_and_every_class_once(n: int) -> None:
    listed = _rows(nqueens.solve(n, engine="bitboard"))
    assert len(listed) == len(set(listed)) == known_total(n)
    for rows in listed:
        assert_valid_board(rows, n)
    with nqueens.solve(n, engine="bitboard", unique=True) as stream:
        classes = [solution.rows for solution in stream]
        assert stream.in_all == known_total(n)
    assert len(classes) == known_unique(n)
    assert classes == [rows for rows in listed if _smallest_of_its_images(rows)]


def test_blocks_are_numpy_arrays_of_rows_the_stream_ends_with() -> None:
    numpy = pytest.importorskip("numpy")
    stream = nqueens.solve(12)
    blocks = list(stream.blocks())
    assert all(isinstance(block, numpy.ndarray) and block.shape[1] == 12 for block in blocks)
    assert _block_rows(iter(blocks)) == _rows(nqueens.solve(12))
    assert stream.stats.solutions == known_total(12) and stream.stats.status.value == "complete"
    assert stream.stats.engine == "bitboard"


def test_blocks_keep_the_limit_and_stream_one_at_a_time_after_them() -> None:
    stream = nqueens.solve(14, limit=1000)
    listed = _block_rows(stream.blocks())
    assert len(listed) == 1000 and stream.stats.status.value == "limit"
    assert listed == list(itertools.islice(_rows(nqueens.solve(14, limit=1000)), 1000))


def test_blocks_of_an_engine_that_finds_one_at_a_time_are_arrays_too() -> None:
    stream = nqueens.solve(8, engine="cp-sat")
    assert _block_rows(stream.blocks()) == _rows(nqueens.solve(8, engine="bitboard"))
    assert stream.stats.solutions == 92


def test_a_time_limit_ends_a_listing_within_a_block() -> None:
    started = time.monotonic()
    with nqueens.solve(17, time_limit=0.3) as stream:
        listed = sum(len(block) for block in stream.blocks())
    assert time.monotonic() - started < bound(0.3 + 0.2)
    assert stream.stats.status.value == "time-limit" and 0 < listed < known_total(17)


STREAMING_ENGINES = ["bitboard", "cp-sat", "cp", "reduced"]


@pytest.mark.parametrize("engine", STREAMING_ENGINES)
@pytest.mark.parametrize("taken", [0, 2, 4, 5, 91])
def test_blocks_after_next_give_every_solution_not_yet_taken(engine: str, taken: int) -> None:
    """next() then blocks(): the rest of the block next() began comes first (the bitboard
    listing lost it, giving 89, 91 or 90 boards of 92)."""
    stream = nqueens.solve(8, engine=engine)
    first = [next(stream).rows for _ in range(taken)]
    rest = [tuple(int(row) for row in rows) for block in stream.blocks() for rows in block]
    every = first + rest
    assert len(every) == len(set(every)) == known_total(8)
    for rows in every:
        assert_valid_board(rows, 8)
    assert stream.stats.solutions == known_total(8)


@pytest.mark.parametrize("engine", STREAMING_ENGINES)
def test_a_stream_shared_by_threads_serves_one_and_refuses_the_others(engine: str) -> None:
    """Three threads take from one stream: a thread that asks while another is served gets
    ValueError ("generator already executing"), no board comes twice or is lost, and no
    thread is left waiting."""
    import threading

    stream = nqueens.solve(9, engine=engine)
    taken: list[tuple[int, ...]] = []
    refused: list[str] = []

    def take() -> None:
        try:
            for solution in stream:
                taken.append(solution.rows)
        except ValueError as error:
            refused.append(str(error))

    threads = [threading.Thread(target=take) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(bound(30))
    assert not any(thread.is_alive() for thread in threads), "a thread was left waiting"
    assert all("generator already executing" in words for words in refused)
    taken.extend(solution.rows for solution in stream)  # what the threads left
    assert len(taken) == len(set(taken)) == known_total(9)
    assert stream.stats.solutions == known_total(9)

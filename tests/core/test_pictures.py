"""Boards and solutions drawn for people in Python: ``str()`` as text, ``to_svg()`` and the
picture a notebook shows."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET

import pytest
from helpers import assert_valid_board, bound, parse_plain_boards

import nqueens
from nqueens.formats.boards import read_board

SVG = "{http://www.w3.org/2000/svg}"


def classes(svg: str) -> list[str]:
    return [element.get("class", "") for element in ET.fromstring(svg.split("?>", 1)[1]).iter()]


def queens_drawn(svg: str) -> list[str]:
    root = ET.fromstring(svg.split("?>", 1)[1])
    return [
        element.findtext(f"{SVG}title") or ""
        for element in root.iter(f"{SVG}text")
        if "queen" in element.get("class", "").split()
    ]


def test_a_solution_prints_as_the_board_verify_reads() -> None:
    solution = nqueens.first(12).solution
    assert solution is not None
    (rows,) = parse_plain_boards(str(solution))
    assert rows == solution.rows
    assert_valid_board(rows, 12)
    assert repr(solution) == f"Solution(rows={solution.rows!r})"


def test_a_large_solution_prints_as_a_line() -> None:
    solution = nqueens.first(150).solution
    assert solution is not None
    text = str(solution)
    assert "\n" not in text
    assert [int(row) - 1 for row in text.split()] == list(solution.rows)


def test_a_solution_draws_its_queens_and_its_puzzle() -> None:
    board = nqueens.Board(8, queens=[(0, 2)], blocked=[(3, 3)], excluded=[("sum", 7)])
    solution = nqueens.first(board).solution
    assert solution is not None and solution.board == board
    drawn = queens_drawn(solution.to_svg())
    assert len(drawn) == 8
    assert "given queen on 1,3" in drawn
    assert {"blocked", "excluded", "given"} <= set(classes(solution.to_svg()))
    assert solution._repr_svg_() == solution.to_svg()
    assert "Q" in solution.to_svg(ascii_only=True) and "♛" not in solution.to_svg(ascii_only=True)


def test_solutions_listed_on_a_board_carry_it_and_compare_by_their_rows() -> None:
    torus = nqueens.Board(5, rules=["torus"])
    listed = list(nqueens.solve(torus))
    assert all(solution.board == torus for solution in listed)
    assert "torus" in classes(listed[0].to_svg())
    plain = next(iter(nqueens.solve(5)))
    assert plain.board is None
    assert plain == nqueens.Solution(plain.rows, board=torus)


def test_a_board_prints_as_a_file_board_reads_back() -> None:
    board = nqueens.Board(6, queens=[(0, 1)], blocked=[(2, 2)], excluded=[("difference", 3)])
    read = read_board(str(board))
    assert read.queens == board.queens
    assert set(read.blocked) == set(board.closed_squares())
    assert nqueens.count(read).solutions == nqueens.count(board).solutions


def test_a_board_draws_its_puzzle() -> None:
    board = nqueens.Board(7, queens=[(6, 6)], blocked=[(0, 0)], rules=["superqueens"])
    svg = board.to_svg()
    assert queens_drawn(svg) == ["given queen on 7,7"]
    assert {"blocked", "given", "superqueens"} <= set(classes(svg))
    assert board._repr_svg_() == svg


def test_boards_too_large_for_a_picture_show_text_in_a_notebook() -> None:
    big = nqueens.Board(300, queens=[(0, 0)])
    assert big._repr_svg_() is None
    assert str(big) == "N = 300; queens at 1,1"
    solution = nqueens.first(300).solution
    assert solution is not None and solution._repr_svg_() is None
    assert len(nqueens.Board(200)._repr_svg_() or "") > 0


def test_a_picture_too_large_to_open_is_refused_at_once() -> None:
    """Board(100000).to_svg() grew to gigabytes in seconds: beyond N = 200, an InputError."""
    started = time.monotonic()
    with pytest.raises(nqueens.InputError, match="boards up to N = 200 are drawn as SVG"):
        nqueens.Board(100_000).to_svg()
    solution = nqueens.first(201).solution
    assert solution is not None
    with pytest.raises(nqueens.InputError, match="a 201 x 201 picture would be too large"):
        solution.to_svg()
    assert time.monotonic() - started < bound(1.0)
    assert "<svg" in nqueens.Board(200).to_svg()

"""Boards drawn for people: SVG pictures (a chessboard with light and dark squares, queens and
1-based labels) and plain text, for the command line and for notebooks alike.

The SVG is written with the standard library's ElementTree rather than through rich's
terminal-screenshot export: the picture is a real board (vector squares, no terminal window
around it) and the markup is small enough to test by parsing it.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Collection, Iterator, Sequence
from typing import Protocol

from nqueens.core.errors import InputError, Square
from nqueens.core.geometry import RULES, SUPERQUEENS, TORUS, Diagonal, diagonal_name, square_name
from nqueens.core.glyphs import glyphs
from nqueens.core.wording import counted

SQUARE = 40
MARGIN = 24  # room for the labels
LIGHT = "#eeeed2"
DARK = "#b58863"
CROSSED = "#b22222"
GIVEN = "#2e5e8c"  # the square under a given queen
BLOCKED = "#6b6b6b"
EXCLUDED = "#7a1f1f"  # the stroke along an excluded diagonal
RULED = "#2e5e8c"  # the marks of a board rule: the torus's edges, the superqueens' knight


MAX_SVG_N = 200
"""The largest board drawn as SVG: larger pictures are too large to be of use (see
docs/reference/limits.md)."""


PIECE = 1 << 16
"""Numbers per piece of a long line: a board of millions is written in pieces."""

DRAWN_MAX_N = 100
"""Boards up to this size are drawn square by square as text, off a terminal and by ``str()``;
larger ones are written in a line."""


class Puzzle(Protocol):
    """What a picture shows of a board beyond its queens: a ``Board`` is one."""

    @property
    def n(self) -> int: ...
    @property
    def queens(self) -> tuple[Square, ...]: ...
    @property
    def blocked(self) -> tuple[Square, ...]: ...
    @property
    def excluded(self) -> tuple[Diagonal, ...]: ...
    @property
    def rules(self) -> frozenset[str]: ...
    @property
    def title(self) -> str: ...
    def closed_squares(self) -> tuple[Square, ...]: ...


def board_svg(
    n: int,
    queens: Collection[Square],
    *,
    crossed: Collection[Square] = (),
    fresh: Collection[Square] = (),
    forced: Collection[Square] = (),
    board: Puzzle | None = None,
    caption: str | None = None,
    ascii_only: bool = False,
) -> str:
    """An SVG document of an n x n board with ``queens``; ``crossed`` squares are ruled out
    (``fresh`` ones by the step being shown, white on red), ``forced`` queens (placed by
    propagation) are outlined, a ``puzzle``'s given queens stand on blue squares, its blocked
    squares are grey and its excluded diagonals struck through, its rules marked (a torus's
    edges dashed, for they join the opposite ones; a knight in the corner for superqueens), and
    ``caption`` goes underneath, wrapped to the board's width; ``ascii_only`` marks in letters.

    Boards up to MAX_SVG_N only: a larger picture is megabytes to gigabytes that nothing opens
    (InputError)."""
    if n > MAX_SVG_N:
        raise InputError(
            f"boards up to N = {MAX_SVG_N:,} are drawn as SVG: a {n:,} x {n:,} picture would be "
            "too large to open; str() gives the rows"
        )
    marks = glyphs(ascii_only)
    size = MARGIN + n * SQUARE
    lines = _wrap(caption, size + 4) if caption else []
    height = size + (len(lines) * 17 + 14 if lines else 0)
    svg = ET.Element(
        "svg",
        attrib={
            "xmlns": "http://www.w3.org/2000/svg",
            "width": str(size + 8),
            "height": str(height + 8),
            "viewBox": f"0 0 {size + 8} {height + 8}",
            "font-family": "sans-serif",
        },
    )
    rules = sorted(board.rules) if board is not None else []
    kind = f"{' '.join(rules)} board" if rules else "board"
    ET.SubElement(svg, "title").text = f"{n} x {n} {kind} with {counted(len(queens), 'queen')}"
    for index in range(n):
        label = str(index + 1)
        middle = MARGIN + index * SQUARE + SQUARE / 2
        _text(svg, middle, MARGIN - 8, label, size=12, css="label")  # column labels
        _text(svg, MARGIN / 2, middle + 4, label, size=12, css="label")  # row labels
    for row in range(n):
        for col in range(n):
            _square(svg, (row, col), LIGHT if (row + col) % 2 == 0 else DARK, "square")
    if board is not None:
        _puzzle_marks(svg, board)
        _rule_marks(svg, board, marks.knight)
    for row, col in sorted(crossed):
        x, y = MARGIN + col * SQUARE + SQUARE / 2, MARGIN + row * SQUARE + SQUARE / 2 + 7
        strong = (row, col) in fresh
        if strong:  # white on red: 6.7:1, where red on the dark squares was 1.7:1
            ET.SubElement(
                svg,
                "rect",
                attrib={
                    "x": str(MARGIN + col * SQUARE + 4),
                    "y": str(MARGIN + row * SQUARE + 4),
                    "width": str(SQUARE - 8),
                    "height": str(SQUARE - 8),
                    "fill": CROSSED,
                    "class": "crossed-fresh-square",
                },
            )
        mark = _text(svg, x, y, marks.cross, size=22, css="crossed-fresh" if strong else "crossed")
        mark.set("fill", "#ffffff" if strong else "#222222")
    for row, col in sorted(queens):
        x, y = MARGIN + col * SQUARE + SQUARE / 2, MARGIN + row * SQUARE + SQUARE * 0.75
        given = board is not None and (row, col) in board.queens
        outlined = (row, col) in forced
        glyph = marks.forced if outlined else marks.queen
        css = "queen given" if given else "queen forced" if outlined else "queen"
        queen = _text(svg, x, y, glyph, size=30, css=css)
        queen.set("fill", "#ffffff" if given else "#111111")
        what = "given queen" if given else "queen forced by propagation" if outlined else "queen"
        ET.SubElement(queen, "title").text = f"{what} on {row + 1},{col + 1}"
    for index, line in enumerate(lines):
        _text(svg, 4, size + 22 + 17 * index, line, size=13, css="caption", anchor="start")
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode", xml_declaration=True) + "\n"


def _wrap(text: str, width: float) -> list[str]:
    """``text`` in lines that fit ``width`` pixels at 13 px (about 7 px a character)."""
    return textwrap.wrap(text, max(10, int(width / 7))) or [""]


def _square(svg: ET.Element, square: Square, colour: str, css: str) -> ET.Element:
    """One square of the board, filled with ``colour``."""
    row, col = square
    return ET.SubElement(
        svg,
        "rect",
        attrib={
            "x": str(MARGIN + col * SQUARE),
            "y": str(MARGIN + row * SQUARE),
            "width": str(SQUARE),
            "height": str(SQUARE),
            "fill": colour,
            "class": css,
        },
    )


def _puzzle_marks(svg: ET.Element, board: Puzzle) -> None:
    """Blue squares under the given queens, grey blocked squares, and a stroke along each
    excluded diagonal, from the centre of its first square to the centre of its last."""
    for css, colour, squares in (
        ("given", GIVEN, board.queens),
        ("blocked", BLOCKED, board.blocked),
    ):
        for row, col in sorted(squares):
            square = _square(svg, (row, col), colour, css)
            if css == "blocked":
                ET.SubElement(square, "title").text = f"blocked square {row + 1},{col + 1}"
    for diagonal in board.excluded:
        on_board = diagonal.squares(board.n)
        (top_row, top_col), (end_row, end_col) = on_board[0], on_board[-1]
        line = ET.SubElement(
            svg,
            "line",
            attrib={
                "x1": f"{MARGIN + top_col * SQUARE + SQUARE / 2:g}",
                "y1": f"{MARGIN + top_row * SQUARE + SQUARE / 2:g}",
                "x2": f"{MARGIN + end_col * SQUARE + SQUARE / 2:g}",
                "y2": f"{MARGIN + end_row * SQUARE + SQUARE / 2:g}",
                "stroke": EXCLUDED,
                "stroke-width": "5",
                "stroke-opacity": "0.75",
                "stroke-linecap": "round",
                "class": "excluded",
            },
        )
        ET.SubElement(line, "title").text = f"excluded diagonal {diagonal_name(diagonal, board.n)}"


def _rule_marks(svg: ET.Element, board: Puzzle, knight_mark: str) -> None:
    """A torus's edges dashed, since each goes on at the opposite one; a knight in the corner
    above the row labels for superqueens; each saying what the rule is when pointed at."""
    if TORUS in board.rules:
        edge = ET.SubElement(
            svg,
            "rect",
            attrib={
                "x": str(MARGIN - 3),
                "y": str(MARGIN - 3),
                "width": str(board.n * SQUARE + 6),
                "height": str(board.n * SQUARE + 6),
                "fill": "none",
                "stroke": RULED,
                "stroke-width": "3",
                "stroke-dasharray": "8 5",
                "class": "torus",
            },
        )
        ET.SubElement(edge, "title").text = f"torus: {RULES[TORUS]}"
    if SUPERQUEENS in board.rules:
        knight = _text(svg, MARGIN / 2, MARGIN - 4, knight_mark, size=18, css="superqueens")
        knight.set("fill", RULED)
        ET.SubElement(knight, "title").text = f"superqueens: {RULES[SUPERQUEENS]}"


def _text(
    parent: ET.Element,
    x: float,
    y: float,
    text: str,
    *,
    size: int,
    css: str,
    anchor: str = "middle",
) -> ET.Element:
    element = ET.SubElement(
        parent,
        "text",
        attrib={
            "x": f"{x:g}",
            "y": f"{y:g}",
            "font-size": str(size),
            "text-anchor": anchor,
            "class": css,
        },
    )
    element.text = text
    return element


def plain_grid(
    n: int,
    queens: Collection[Square],
    crossed: Collection[Square] = (),
    *,
    forced: Collection[Square] = (),
) -> str:
    """A board as plain text: ``Q`` a queen (``F`` one forced by propagation), ``x`` a ruled-out
    square, ``_`` a free one."""
    return "\n".join(
        " ".join(
            ("F" if (row, col) in forced else "Q")
            if (row, col) in queens
            else "x"
            if (row, col) in crossed
            else "_"
            for col in range(n)
        )
        for row in range(n)
    )


def puzzle_text(board: Puzzle) -> str:
    """The puzzle as a board drawing that --board reads: Q given, # blocked (and every square of
    an excluded diagonal), . free."""
    marks = {square: "#" for square in board.closed_squares()}
    marks |= {square: "Q" for square in board.queens}
    return "\n".join(
        " ".join(marks.get((row, col), ".") for col in range(board.n)) for row in range(board.n)
    )


def described(board: Puzzle, named: int = 20) -> str:
    """``N = 8 (torus); queens at 1,1 3,5; blocked 2,2``: the board in a line, naming the first
    ``named`` squares and diagonals of each kind."""
    parts = [board.title]
    if board.queens:
        parts.append("queens at " + " ".join(map(square_name, board.queens[:named])))
    if board.blocked:
        parts.append("blocked " + " ".join(map(square_name, board.blocked[:named])))
    if board.excluded:
        names = (diagonal_name(d, board.n) for d in board.excluded[:named])
        parts.append("excluded diagonals " + " ".join(names))
    if max(len(board.queens), len(board.blocked), len(board.excluded)) > named:
        parts.append(f"the first {named} of each named here")
    return "; ".join(parts)


def board_text(board: Puzzle) -> str:
    """``str()`` of a board: its drawing, up to DRAWN_MAX_N, else its line."""
    return puzzle_text(board) if board.n <= DRAWN_MAX_N else described(board)


def solution_text(n: int, rows: Sequence[int]) -> str:
    """``str()`` of a solution: the OR-Tools guide's drawing (``Q`` and ``_``) up to
    DRAWN_MAX_N, else its compact line, the 1-based row of each column's queen."""
    if n > DRAWN_MAX_N:
        return "".join(compact_pieces(rows))
    return plain_grid(n, {(row, col) for col, row in enumerate(rows)})


def compact_pieces(rows: Sequence[int]) -> Iterator[str]:
    """The compact line of a solution: the 1-based row of the queen in each column, left to
    right, readable at any size; in pieces, so that a board of millions is never one giant
    string."""
    for start in range(0, len(rows), PIECE):
        piece = " ".join(str(row + 1) for row in rows[start : start + PIECE])
        yield piece if start == 0 else f" {piece}"


def notebook_svg(n: int, queens: Collection[Square], board: Puzzle | None) -> str | None:
    """The picture a notebook shows, or None past MAX_SVG_N, where it shows the text instead
    (a picture of a larger board is megabytes of squares)."""
    return board_svg(n, queens, board=board) if n <= MAX_SVG_N else None

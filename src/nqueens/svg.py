"""Boards as SVG pictures: a chessboard with light and dark squares, queens and 1-based labels.

Written with the standard library's ElementTree rather than through rich's terminal-screenshot
export: the picture is a real board (vector squares, no terminal window around it) and the markup
is small enough to test by parsing it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Collection

from nqueens.glyphs import QUEEN
from nqueens.results import Square

SQUARE = 40
MARGIN = 24  # room for the labels
LIGHT = "#eeeed2"
DARK = "#b58863"
CROSSED = "#c0392b"
CROSS = "\N{MULTIPLICATION SIGN}"


MAX_SVG_N = 200
"""The largest board drawn as SVG: N = 1,000 took 84 MB and 12 s, of no use to anyone."""


def board_svg(
    n: int,
    queens: Collection[Square],
    *,
    crossed: Collection[Square] = (),
    fresh: Collection[Square] = (),
    caption: str | None = None,
) -> str:
    """An SVG document of an n x n board with ``queens``; ``crossed`` squares are ruled out
    (``fresh`` ones by the step being shown, drawn stronger), and ``caption`` goes underneath."""
    size = MARGIN + n * SQUARE
    height = size + (MARGIN + 8 if caption else 0)
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
    ET.SubElement(svg, "title").text = f"{n} x {n} board with {len(queens)} queens"
    for index in range(n):
        label = str(index + 1)
        middle = MARGIN + index * SQUARE + SQUARE / 2
        _text(svg, middle, MARGIN - 8, label, size=12, css="label")  # column labels
        _text(svg, MARGIN / 2, middle + 4, label, size=12, css="label")  # row labels
    for row in range(n):
        for col in range(n):
            ET.SubElement(
                svg,
                "rect",
                attrib={
                    "x": str(MARGIN + col * SQUARE),
                    "y": str(MARGIN + row * SQUARE),
                    "width": str(SQUARE),
                    "height": str(SQUARE),
                    "fill": LIGHT if (row + col) % 2 == 0 else DARK,
                    "class": "square",
                },
            )
    for row, col in sorted(crossed):
        x, y = MARGIN + col * SQUARE + SQUARE / 2, MARGIN + row * SQUARE + SQUARE / 2 + 6
        strong = (row, col) in fresh
        mark = _text(svg, x, y, CROSS, size=22, css="crossed-fresh" if strong else "crossed")
        mark.set("fill", CROSSED if strong else "#555555")
        mark.set("fill-opacity", "1" if strong else "0.6")
    for row, col in sorted(queens):
        x, y = MARGIN + col * SQUARE + SQUARE / 2, MARGIN + row * SQUARE + SQUARE * 0.75
        queen = _text(svg, x, y, QUEEN, size=30, css="queen")
        queen.set("fill", "#111111")
        ET.SubElement(queen, "title").text = f"queen on {row + 1},{col + 1}"
    if caption:
        _text(svg, 4, size + MARGIN, caption, size=13, css="caption", anchor="start")
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode", xml_declaration=True) + "\n"


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


def numbered_path(path: str, number: int, width: int) -> str:
    """``board.svg``, 3 -> ``board-003.svg`` (width digits): one file per solution or step."""
    stem, dot, suffix = path.rpartition(".")
    if not dot or "/" in suffix:
        stem, suffix = path, "svg"
    return f"{stem}-{number:0{width}d}.{suffix}"

"""The search tree as a picture: an SVG file, or one self-contained HTML page to explore it.

Shapes and colours are the Oz Explorer's and Gist's: a choice is a blue circle, a failure a red
square, a solution a green diamond, and a failed subtree collapsed into a red triangle that says
how many nodes it hides. Every node element carries ``data-kind``, ``data-depth``, ``data-id``
and ``data-step``, so scripts and tests can read the tree. The page inlines the SVG, a little
script and each node's board: no network, one file.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib import resources

from nqueens.core.glyphs import glyphs
from nqueens.core.wording import counted
from nqueens.explain.events import Explanation
from nqueens.explain.labels import (
    COUNT_SIZE,
    LABEL_SIZE,
    LEVEL,
    Label,
    extent,
    laid_out,
    text_width,
)
from nqueens.explain.tree import (
    CHOICE,
    COLLAPSED,
    FAILURE,
    SOLUTION,
    Placed,
    subtree_sizes,
)

TOP = 118  # room for the legend of a picture
PAGE_TOP = 30  # a page's tree, whose legend is beside it
WIDE = 2.0  # trees side by side on a page up to this ratio of width to height, above it stacked
SIDE = 24
BLUE, RED, GREEN = "#3465a4", "#cc0000", "#4e9a06"
SVG_NS = "http://www.w3.org/2000/svg"


def board_code(explanation: Explanation, node_id: int) -> str:
    """A node's board, row by row, one letter a square: Q decided queen, F forced queen,
    x ruled out, . free."""
    node = explanation.tree.nodes[node_id]
    n = explanation.n
    event = node.event
    if event is None:
        return "." * (n * n)
    queens, forced, crossed = event.queens, event.forced, event.crossed
    return "".join(
        "F" if (r, c) in forced else "Q" if (r, c) in queens else "x" if (r, c) in crossed else "."
        for r in range(n)
        for c in range(n)
    )


def statistics_line(explanation: Explanation) -> str:
    tree = explanation.tree
    scope = "every solution" if explanation.solutions > 1 else "to the first solution"
    figures = (
        counted(len(tree.nodes), "node"),
        counted(tree.failures, "failure"),
        counted(tree.solutions, "solution"),
        f"depth {tree.depth}",
    )
    return f"N = {explanation.n}, {explanation.strategy}, {scope}: {', '.join(figures)}"


def tree_svg(
    explanation: Explanation, *, element_id: str = "tree", interactive: bool = False
) -> ET.Element:
    """The tree as an ``<svg>`` element: legend, edges with their decisions, nodes, and for
    each triangle the subtree it hides, drawn apart in a hidden group of its own (the page
    shows it beside the tree on a click; ``data-width`` and ``data-height`` give its size)."""
    tree = explanation.tree
    sizes = subtree_sizes(tree)  # once, for the tree and every hidden subtree
    placed, labels = laid_out(tree, 0, collapse=True, sizes=sizes)
    top = PAGE_TOP if interactive else TOP
    width = SIDE * 2 + _reach(placed, labels)
    if not interactive:  # a picture's legend is part of it
        width = max(width, _legend_width(explanation))
    height = top + (tree.depth + 1) * LEVEL
    svg = ET.Element(
        "svg",
        attrib={
            "xmlns": SVG_NS,
            "id": element_id,
            "width": f"{width:g}",
            "height": f"{height:g}",
            "viewBox": f"0 0 {width:g} {height:g}",
            "font-family": "sans-serif",
        },
    )
    ET.SubElement(svg, "title").text = f"Search tree: {statistics_line(explanation)}"
    if not interactive:  # the page has the legend beside the trees, where zooming cannot hide it
        _legend(svg, explanation)
    drawing = ET.SubElement(svg, "g", attrib={"class": "tree"})
    _draw(drawing, placed, labels, SIDE, top)
    for triangle in (p for p in placed if p.kind == COLLAPSED):
        inner, inner_labels = laid_out(tree, triangle.node.id, collapse=False, sizes=sizes)
        levels = max(p.node.depth for p in inner) - triangle.node.depth + 1
        group = ET.SubElement(
            drawing,
            "g",
            attrib={
                "class": "subtree",
                "data-root": str(triangle.node.id),
                "data-width": f"{SIDE * 2 + _reach(inner, inner_labels):g}",
                "data-height": f"{levels * LEVEL + 16:g}",
                "display": "none",
            },
        )
        _draw(group, inner, inner_labels, SIDE, 30 - triangle.node.depth * LEVEL)
    return svg


def _reach(placed: list[Placed], labels: list[Label]) -> float:
    """How far right the nodes and labels reach, from the left edge (0)."""
    shapes = (p.x + extent(p.node, p.kind, p.hidden, False)[1] for p in placed)
    return max([*shapes, *(label.right for label in labels)])


LEGEND_KEYS = (
    (CHOICE, "choice"),
    (FAILURE, "failure"),
    (SOLUTION, "solution"),
    (COLLAPSED, "failed subtree (its node count)"),
)
EDGES_SAY = "Each edge is a decision: queen R,C places a queen, not R,C rules the square out."


def _legend_width(explanation: Explanation) -> float:
    """How wide a picture's legend is drawn: the picture is at least that wide, so nothing is
    cut."""
    keys = 20 + sum(26 + text_width(words, 12) for _, words in LEGEND_KEYS)
    title = 12 + text_width(statistics_line(explanation), 14, bold=True)
    return max(keys, 12 + text_width(EDGES_SAY, 12), title) + SIDE


def _legend(svg: ET.Element, explanation: Explanation) -> None:
    legend = ET.SubElement(svg, "g", attrib={"class": "legend"})
    _text(legend, 12, 22, statistics_line(explanation), size=14, weight="bold")
    x = 20.0
    for kind, words in LEGEND_KEYS:
        _shape(legend, kind, x, 48)
        _text(legend, x + 16, 53, words, size=12)
        x += 26 + text_width(words, 12)
    _text(legend, 12, 84, EDGES_SAY, size=12)


def _draw(
    parent: ET.Element, placed: list[Placed], labels: list[Label], x0: float, y0: float
) -> None:
    where = {p.node.id: (x0 + p.x, y0 + p.node.depth * LEVEL) for p in placed}
    edges = ET.SubElement(parent, "g", attrib={"class": "edges"})
    for p in placed:
        if p.node.parent is None or p.node.parent not in where:
            continue
        (x1, y1), (x2, y2) = where[p.node.parent], where[p.node.id]
        ET.SubElement(
            edges,
            "line",
            attrib={
                "x1": f"{x1:g}",
                "y1": f"{y1:g}",
                "x2": f"{x2:g}",
                "y2": f"{y2:g}",
                "stroke": "#777777",
                "class": "edge",
            },
        )
    for label in labels:
        x = x0 + (label.right if label.anchor == "end" else label.left)
        text = _text(edges, x, y0 + label.baseline, label.node.label, size=LABEL_SIZE)
        text.set("text-anchor", label.anchor)
        text.set("class", "decision")
    for p in placed:
        x, y = where[p.node.id]
        group = ET.SubElement(
            parent,
            "g",
            attrib={
                "class": "node",
                "data-kind": p.kind,
                "data-depth": str(p.node.depth),
                "data-id": str(p.node.id),
                "data-step": str(p.node.first_step),
                "transform": f"translate({x:g},{y:g})",
            },
        )
        _shape(group, p.kind, 0, 0)
        title = f"{p.node.label or 'root'} (step {p.node.first_step:,})"
        if p.kind == COLLAPSED:
            group.set("data-hidden", str(p.hidden))
            count = _text(group, 0, 23, f"{p.hidden:,}", size=COUNT_SIZE)  # under it, centred
            count.set("fill", RED)
            count.set("text-anchor", "middle")
            count.set("class", "count")
            title = f"{counted(p.hidden, 'node')} of a failed subtree, under node {p.node.id}"
        ET.SubElement(group, "title").text = title


def _shape(parent: ET.Element, kind: str, x: float, y: float) -> None:
    if kind == CHOICE:
        ET.SubElement(
            parent, "circle", attrib={"cx": f"{x:g}", "cy": f"{y:g}", "r": "7", "fill": BLUE}
        )
    elif kind == FAILURE:
        ET.SubElement(
            parent,
            "rect",
            attrib={
                "x": f"{x - 6:g}",
                "y": f"{y - 6:g}",
                "width": "12",
                "height": "12",
                "fill": RED,
            },
        )
    elif kind == SOLUTION:
        points = f"{x:g},{y - 8:g} {x + 8:g},{y:g} {x:g},{y + 8:g} {x - 8:g},{y:g}"
        ET.SubElement(parent, "polygon", attrib={"points": points, "fill": GREEN})
    else:
        points = f"{x:g},{y - 7:g} {x + 11:g},{y + 12:g} {x - 11:g},{y + 12:g}"
        ET.SubElement(parent, "polygon", attrib={"points": points, "fill": RED})


def _text(
    parent: ET.Element, x: float, y: float, text: str, *, size: int, weight: str = "normal"
) -> ET.Element:
    element = ET.SubElement(
        parent,
        "text",
        attrib={"x": f"{x:g}", "y": f"{y:g}", "font-size": str(size), "font-weight": weight},
    )
    element.text = text
    return element


def svg_document(explanation: Explanation) -> str:
    """The tree as a standalone SVG file."""
    svg = tree_svg(explanation)
    return ET.tostring(svg, encoding="unicode", xml_declaration=True) + "\n"


def html_document(explanations: list[Explanation], *, ascii_only: bool = False) -> str:
    """One self-contained page: each explanation's tree side by side, with its boards, whose
    queens are chess symbols, or letters (``ascii_only``) for fonts without them."""
    panels = []
    data = []
    wide = False  # some tree much wider than tall: the panels go one above the other
    for index, explanation in enumerate(explanations):
        svg = tree_svg(explanation, element_id=f"tree-{index}", interactive=True)
        wide = wide or float(svg.get("width", 0)) > WIDE * float(svg.get("height", 1))
        panels.append(
            f'<section class="panel" data-index="{index}">'
            f"<h2>{_escape(statistics_line(explanation))}</h2>"
            f'<div class="viewport">{ET.tostring(svg, encoding="unicode")}</div></section>'
        )
        data.append(
            {
                "n": explanation.n,
                "nodes": {
                    str(node.id): {
                        "step": node.first_step,
                        "kind": node.kind,
                        "depth": node.depth,
                        "parent": node.parent,
                        "label": node.label,
                        "text": node.event.text if node.event is not None else "The empty board.",
                        "board": board_code(explanation, node.id),
                    }
                    for node in explanation.tree.nodes
                },
            }
        )
    template = (
        resources.files("nqueens.explain").joinpath("treepage.html").read_text(encoding="utf-8")
    )
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    marks = glyphs(ascii_only)
    return (
        template.replace("{{title}}", _escape(statistics_line(explanations[0])))
        .replace("{{queen}}", marks.queen)  # a forced queen is the same mark, in blue
        .replace("{{cross}}", marks.cross)
        .replace("{{edges}}", EDGES_SAY)
        .replace("{{layout}}", "wide" if len(panels) > 1 and wide else "")
        .replace("{{panels}}", "\n".join(panels))
        .replace("{{data}}", payload)
    )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

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
from nqueens.explain.tree import (
    CHOICE,
    COLLAPSED,
    FAILURE,
    SOLUTION,
    Placed,
    layout,
    subtree_sizes,
)

LEAF = 34  # pixels between neighbouring leaves
LEVEL = 46  # pixels between depths
TOP = 118  # room for the legend
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
    """The tree as an ``<svg>`` element: legend, edges with their decisions, nodes, and under
    each triangle the subtree it hides, drawn but hidden (the page shows it on a click)."""
    sizes = subtree_sizes(explanation.tree)  # once, for the tree and every hidden subtree
    placed = layout(explanation.tree, sizes=sizes)
    leaves = max((p.x for p in placed), default=0) + 1
    width = max(SIDE * 2 + leaves * LEAF, 560)
    height = TOP + (explanation.tree.depth + 2) * LEVEL
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
    _legend(svg, explanation, interactive=interactive)
    drawing = ET.SubElement(svg, "g", attrib={"class": "tree"})
    _draw(drawing, explanation, placed, SIDE, TOP)
    for triangle in (p for p in placed if p.kind == COLLAPSED):
        inner = layout(explanation.tree, triangle.node.id, collapse=False, sizes=sizes)
        offset = min(p.x for p in inner)
        group = ET.SubElement(
            drawing,
            "g",
            attrib={"class": "subtree", "data-root": str(triangle.node.id), "display": "none"},
        )
        span = (max(p.x for p in inner) - offset + 1) * LEAF
        x0 = SIDE + triangle.x * LEAF - span / 2 + LEAF / 2
        y0 = TOP + triangle.node.depth * LEVEL
        levels = max(p.node.depth for p in inner) - triangle.node.depth + 1
        ET.SubElement(
            group,
            "rect",
            attrib={
                "x": f"{x0 - 8:g}",
                "y": f"{y0 - 16:g}",
                "width": f"{span + 16:g}",
                "height": f"{levels * LEVEL + 8:g}",
                "fill": "#fff7f0",
                "stroke": RED,
                "stroke-dasharray": "4 3",
                "class": "subtree-panel",
            },
        )
        _draw(group, explanation, [_shift(p, -offset) for p in inner], x0, TOP)
    return svg


def _shift(placed: Placed, by: float) -> Placed:
    return Placed(placed.node, placed.x + by, placed.kind, placed.hidden)


def _legend(svg: ET.Element, explanation: Explanation, *, interactive: bool) -> None:
    legend = ET.SubElement(svg, "g", attrib={"class": "legend"})
    if not interactive:  # the page heads each panel with it, where panning cannot hide it
        _text(legend, 12, 22, statistics_line(explanation), size=14, weight="bold")
    keys = [
        (CHOICE, "choice"),
        (FAILURE, "failure"),
        (SOLUTION, "solution"),
        (
            COLLAPSED,
            "failed subtree (its node count; click to open)"
            if interactive
            else "failed subtree (its node count)",
        ),
    ]
    x = 20.0
    for kind, words in keys:
        _shape(legend, kind, x, 48)
        _text(legend, x + 16, 53, words, size=12)
        x += 26 + 7 * len(words)
    _text(
        legend,
        12,
        84,
        "Each edge is a decision: queen R,C places a queen, not R,C rules the square out.",
        size=12,
    )


def _draw(
    parent: ET.Element, explanation: Explanation, placed: list[Placed], x0: float, y0: float
) -> None:
    where = {p.node.id: (x0 + p.x * LEAF + LEAF / 2, y0 + p.node.depth * LEVEL) for p in placed}
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
        # A decision's label left of its edge and high, its refutation's right of it and low:
        # the labels of neighbouring edges, which run close together, never share a line.
        left = p.node.label.startswith("queen")
        along = 0.3 if left else 0.62
        x, y = x1 + (x2 - x1) * along + (-4 if left else 4), y1 + (y2 - y1) * along
        label = _text(edges, x, y, p.node.label, size=8)
        label.set("text-anchor", "end" if left else "start")
        label.set("class", "decision")
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
            count = _text(group, 0, 23, f"{p.hidden:,}", size=9)  # under it, centred
            count.set("fill", RED)
            count.set("text-anchor", "middle")
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
    for index, explanation in enumerate(explanations):
        svg = tree_svg(explanation, element_id=f"tree-{index}", interactive=True)
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
        .replace("{{panels}}", "\n".join(panels))
        .replace("{{data}}", payload)
    )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

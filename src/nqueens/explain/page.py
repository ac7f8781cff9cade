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
from dataclasses import dataclass, replace
from importlib import resources

from nqueens.core.glyphs import glyphs
from nqueens.core.wording import counted
from nqueens.explain.events import Explanation
from nqueens.explain.tree import (
    CHOICE,
    COLLAPSED,
    FAILURE,
    SOLUTION,
    Node,
    Placed,
    SearchTree,
    Sizes,
    label_on_the_left,
    layout,
    subtree_sizes,
)

LEVEL = 72  # pixels between depths: a row of nodes, then lanes for the labels of its edges
TOP = 118  # room for the legend of a picture
PAGE_TOP = 30  # a page's tree, whose legend is beside it
WIDE = 2.0  # trees side by side on a page up to this ratio of width to height, above it stacked
SIDE = 24
GAP = 8  # pixels between the shapes of two neighbouring nodes
ROOM_STEP, ROOM_TRIES = 6.0, 60  # more room for a node whose label finds no place, and how often
LABEL_SIZE, COUNT_SIZE = 8, 9
LANES = (37, 48, 59)
"""The baselines, below a row of nodes, that the labels of the edges down from it may sit on:
under a triangle's count, over the next row's shapes, a label's height apart."""
LABEL_ASCENT, LABEL_DESCENT = 7.5, 2.0  # a label's box around its baseline, in pixels
LABEL_AWAY = 3  # from its edge to a label's near end
HALF_WIDTH: dict[str, float] = {CHOICE: 7, FAILURE: 6, SOLUTION: 8, COLLAPSED: 11}
BLUE, RED, GREEN = "#3465a4", "#cc0000", "#4e9a06"
SVG_NS = "http://www.w3.org/2000/svg"


_NARROW = frozenset(" ,.:;!|il'()[]")
_WIDE = frozenset("mwMW")


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """About how wide ``text`` is drawn in ``size`` pixels of sans-serif, erring wide: DejaVu
    Sans, Linux's usual sans-serif, is one of the widest, so other fonts fit in it too."""
    ems = sum(0.34 if c in _NARROW else 0.95 if c in _WIDE else 0.66 for c in text)
    return ems * size * (1.1 if bold else 1.0)


def _extent(node: Node, kind: str, hidden: int, label_left: bool) -> tuple[float, float]:
    """What a node takes of its row: its shape, and a triangle's count."""
    half = HALF_WIDTH[kind]
    if kind == COLLAPSED:
        half = max(half, text_width(f"{hidden:,}", COUNT_SIZE) / 2)
    return -half, half


@dataclass(frozen=True)
class Label:
    """Where the label of the edge into ``node`` is drawn: its baseline's ends and height."""

    node: Node
    left: float
    right: float
    baseline: float
    anchor: str  # "start" or "end", as SVG's text-anchor


Box = tuple[float, float, float, float]  # left, top, right, bottom


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(box: Box, segment: tuple[float, float, float, float]) -> bool:
    """Whether the line from (x1, y1) to (x2, y2) passes through ``box``."""
    x1, y1, x2, y2 = segment
    top, bottom = max(box[1], min(y1, y2)), min(box[3], max(y1, y2))
    if top >= bottom:
        return False
    at = [x1 + (x2 - x1) * (y - y1) / (y2 - y1) if y2 != y1 else x1 for y in (top, bottom)]
    return min(at) < box[2] and max(at) > box[0]


def _labels(tree: SearchTree, placed: list[Placed]) -> tuple[list[Label], list[int]]:
    """A place for every edge's label, beside its edge, on one of the LANES under the parent's
    row, where it overlaps no other label and crosses no other edge; and the nodes whose label
    found no such place (the tree is laid out wider around them then)."""
    where = {p.node.id: (p.x, p.node.depth * LEVEL) for p in placed}
    edges = {
        p.node.id: (*where[p.node.parent], *where[p.node.id])
        for p in placed
        if p.node.parent is not None and p.node.parent in where
    }
    taken: dict[float, list[Box]] = {}  # by the height of the parent's row
    labels: list[Label] = []
    homeless: list[int] = []
    for node_id, segment in sorted(edges.items(), key=lambda item: item[1][2]):
        node = tree.nodes[node_id]
        x1, y1, x2, y2 = segment
        width = text_width(node.label, LABEL_SIZE)
        left = label_on_the_left(tree, node)
        band = [other for key, other in edges.items() if key != node_id and other[1] == y1]
        for lane in LANES:
            top, bottom = y1 + lane - LABEL_ASCENT, y1 + lane + LABEL_DESCENT
            # beside the edge where it is farthest that way within the label's height
            at = x1 + (x2 - x1) * (bottom - y1) / (y2 - y1)
            box = (
                (at - LABEL_AWAY - width, top, at - LABEL_AWAY, bottom)
                if left
                else (
                    at + LABEL_AWAY,
                    top,
                    at + LABEL_AWAY + width,
                    bottom,
                )
            )
            if any(_overlap(box, other) for other in taken.get(y1, [])):
                continue
            if any(_crosses(box, other) for other in band):
                continue
            taken.setdefault(y1, []).append(box)
            anchor = "end" if left else "start"
            labels.append(Label(node, box[0], box[2], y1 + lane, anchor))
            break
        else:
            homeless.append(node_id)
    return labels, homeless


def _laid_out(
    tree: SearchTree, root: int, *, collapse: bool, sizes: Sizes
) -> tuple[list[Placed], list[Label]]:
    """The nodes under ``root`` laid out as narrow as leaves room for every label, and the
    labels, all shifted right so that nothing starts left of 0: a node whose label finds no
    place is given more room, a little at a time, until every label has one."""
    room: dict[int, float] = {}

    def extent(node: Node, kind: str, hidden: int, label_left: bool) -> tuple[float, float]:
        left, right = _extent(node, kind, hidden, label_left)
        more = room.get(node.id, 0.0)
        return left - more, right + more

    for _ in range(ROOM_TRIES):
        placed = layout(tree, extent, root, gap=GAP, collapse=collapse, sizes=sizes)
        labels, homeless = _labels(tree, placed)
        if not homeless:
            break
        for node_id in homeless:
            room[node_id] = room.get(node_id, 0.0) + ROOM_STEP
    else:  # never met on the boards explain takes; drawn anyway, the labels where they fit
        labels += _labels_anywhere(tree, placed, [p for p in placed if p.node.id in homeless])
    shift = -min([0.0, *(label.left for label in labels)])
    placed = [Placed(p.node, p.x + shift, p.kind, p.hidden) for p in placed]
    labels = [
        replace(label, left=label.left + shift, right=label.right + shift) for label in labels
    ]
    return placed, labels


def _labels_anywhere(tree: SearchTree, placed: list[Placed], homeless: list[Placed]) -> list[Label]:
    """The labels of ``homeless`` on the first lane, overlaps or not."""
    labels = []
    where = {p.node.id: p for p in placed}
    for p in homeless:
        if p.node.parent is None or p.node.parent not in where:
            continue
        parent = where[p.node.parent]
        width = text_width(p.node.label, LABEL_SIZE)
        y1 = parent.node.depth * LEVEL
        at = parent.x + (p.x - parent.x) * (LANES[0] + LABEL_DESCENT) / LEVEL
        left = label_on_the_left(tree, p.node)
        start = at - LABEL_AWAY - width if left else at + LABEL_AWAY
        labels.append(
            Label(p.node, start, start + width, y1 + LANES[0], "end" if left else "start")
        )
    return labels


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
    placed, labels = _laid_out(tree, 0, collapse=True, sizes=sizes)
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
        inner, inner_labels = _laid_out(tree, triangle.node.id, collapse=False, sizes=sizes)
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
    shapes = (p.x + _extent(p.node, p.kind, p.hidden, False)[1] for p in placed)
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

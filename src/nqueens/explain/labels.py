"""Where a search tree's nodes and the labels of its edges go: a tidy layout, packed as close
as its rows allow, and each label on a lane under its parent's row, beside its edge, where it
overlaps no other label, crosses no other edge and stands well clear of every other edge, so
that it is plainly its own edge's."""

from __future__ import annotations

from dataclasses import dataclass, replace

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
)

LEVEL = 72  # pixels between depths: a row of nodes, then lanes for the labels of its edges
HALF_WIDTH: dict[str, float] = {CHOICE: 7, FAILURE: 6, SOLUTION: 8, COLLAPSED: 11}
GAP = 8  # pixels between the shapes of two neighbouring nodes
ROOM_STEP, ROOM_TRIES = 6.0, 60  # more room for a node whose label finds no place, and how often
LABEL_SIZE, COUNT_SIZE = 8, 9
LANES = (37, 48, 59)
"""The baselines, below a row of nodes, that the labels of the edges down from it may sit on:
under a triangle's count, over the next row's shapes, a label's height apart."""
LABEL_ASCENT, LABEL_DESCENT = 7.5, 2.0  # a label's box around its baseline, in pixels
LABEL_AWAY = 3  # from its edge to a label's near end
LABEL_CLEAR = 4 * LABEL_AWAY  # from a label's far end to any other edge: plainly its own edge's
LABELS_APART = 8  # between two labels on one lane: read as two, never as one phrase

_NARROW = frozenset(" ,.:;!|il'()[]")
_WIDE = frozenset("mwMW")


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """About how wide ``text`` is drawn in ``size`` pixels of sans-serif, erring wide: DejaVu
    Sans, Linux's usual sans-serif, is one of the widest, so other fonts fit in it too."""
    ems = sum(0.34 if c in _NARROW else 0.95 if c in _WIDE else 0.66 for c in text)
    return ems * size * (1.1 if bold else 1.0)


def extent(node: Node, kind: str, hidden: int, label_left: bool) -> tuple[float, float]:
    """What a node takes of its row, left and right of its centre: its shape, and a
    triangle's count."""
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


Segment = tuple[float, float, float, float]  # x1, y1, x2, y2: an edge, parent first


def _crosses(box: Box, segment: Segment) -> bool:
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
    bands: dict[float, list[tuple[int, Segment]]] = {}  # the edges down from each row
    for node_id, segment in edges.items():
        bands.setdefault(segment[1], []).append((node_id, segment))
    taken: dict[float, list[Box]] = {}  # by the height of the parent's row
    labels: list[Label] = []
    homeless: list[int] = []
    for node_id, segment in sorted(edges.items(), key=lambda item: item[1][2]):
        node = tree.nodes[node_id]
        x1, y1, x2, y2 = segment
        width = text_width(node.label, LABEL_SIZE)
        left = label_on_the_left(tree, node)
        band = [other for key, other in bands[y1] if key != node_id]
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
            apart = (box[0] - LABELS_APART, box[1], box[2] + LABELS_APART, box[3])
            if any(_overlap(apart, other) for other in taken.get(y1, [])):
                continue
            # no other edge near its far end, where the label would sit between two edges
            clear = (box[0] - LABEL_CLEAR, box[1], box[2], box[3])
            if not left:
                clear = (box[0], box[1], box[2] + LABEL_CLEAR, box[3])
            if any(_crosses(clear, other) for other in band):
                continue
            taken.setdefault(y1, []).append(box)
            anchor = "end" if left else "start"
            labels.append(Label(node, box[0], box[2], y1 + lane, anchor))
            break
        else:
            homeless.append(node_id)
    return labels, homeless


def laid_out(
    tree: SearchTree, root: int, *, collapse: bool, sizes: Sizes
) -> tuple[list[Placed], list[Label]]:
    """The nodes under ``root`` laid out as narrow as leaves room for every label, and the
    labels, all shifted right so that nothing starts left of 0: a node whose label finds no
    place is given more room, a little at a time, until every label has one."""
    room: dict[int, float] = {}

    def within(node: Node, kind: str, hidden: int, label_left: bool) -> tuple[float, float]:
        left, right = extent(node, kind, hidden, label_left)
        more = room.get(node.id, 0.0)
        return left - more, right + more

    for _ in range(ROOM_TRIES):
        placed = layout(tree, within, root, gap=GAP, collapse=collapse, sizes=sizes)
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

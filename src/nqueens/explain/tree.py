"""The search tree of ``nqueens explain``, as the Oz Explorer and Gecode's Gist draw it.

Built from the same search monitor events as the narration: a decision opens a left branch
(``queen 3,2``), its refutation a right branch (``not 3,2``) of the same node; a dead end makes the
node a failure, an accepted solution a solution. Failed subtrees of some size are collapsed into
one triangle that remembers how many nodes it hides. The layout is a tidy one: children in the
order the search met them, each parent centred over its children, subtrees packed as close as
what their rows hold allows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from nqueens.explain.steps import DEAD_END, Event
from nqueens.explain.steps import SOLUTION as SOLUTION_EVENT

CHOICE = "choice"
FAILURE = "failure"
SOLUTION = "solution"
COLLAPSED = "collapsed"

COLLAPSE_FROM = 4
"""A failed subtree of at least this many nodes is drawn as one triangle."""


@dataclass
class Node:
    """One node of the search tree; ``board`` is its state as the narration drew it last."""

    id: int
    parent: int | None
    depth: int
    label: str  # the decision on the edge from the parent ("" at the root)
    kind: str = CHOICE
    children: list[int] = field(default_factory=list)
    event: Event | None = None  # the last step of the narration at this node
    first_step: int = 0  # the step at which the search entered it


@dataclass
class SearchTree:
    """The tree as the search grows it: ``nodes[0]`` is the root."""

    nodes: list[Node] = field(default_factory=lambda: [Node(0, None, 0, "")])
    _open: list[int] = field(default_factory=list)  # the node of each open decision, by depth
    _current: int = 0

    def branch(self, label: str, depth: int) -> None:
        """A decision (``depth`` open decisions before it) or its refutation: a new child of the
        node the decision was made at."""
        if depth < len(self._open):
            parent = self._open[depth]
            del self._open[depth:]
        else:
            parent = self._current
        if label.startswith("queen"):
            self._open.append(parent)
        node = Node(len(self.nodes), parent, self.nodes[parent].depth + 1, label)
        self.nodes.append(node)
        self.nodes[parent].children.append(node.id)
        self._current = node.id

    def record(self, event: Event) -> None:
        """A step of the narration at the current node."""
        node = self.nodes[self._current]
        if node.event is None:
            node.first_step = event.step
        node.event = event
        if event.kind == SOLUTION_EVENT:
            node.kind = SOLUTION
        elif event.kind == DEAD_END and node.kind != SOLUTION:
            node.kind = FAILURE

    @property
    def failures(self) -> int:
        return sum(1 for node in self.nodes if node.kind == FAILURE)

    @property
    def solutions(self) -> int:
        return sum(1 for node in self.nodes if node.kind == SOLUTION)

    @property
    def depth(self) -> int:
        return max(node.depth for node in self.nodes)


@dataclass(frozen=True)
class Placed:
    """A node as drawn: where, what it shows, and what a collapsed triangle hides."""

    node: Node
    x: float  # in pixels, from the left of what was laid out
    kind: str
    hidden: int = 0  # nodes under a collapsed triangle, itself included


Extent = Callable[[Node, str, int, bool], tuple[float, float]]
"""How far a node reaches left and right of its centre, on its row, with the label of the edge
above it: given the node, its kind as drawn, the nodes it hides, and whether its label goes on
the left of it."""


def subtree_sizes(tree: SearchTree) -> tuple[list[int], list[bool]]:
    """For every node: how many nodes its subtree holds (itself included), and whether every
    leaf in it is a failure. Children come after their parent, so one pass from the end does."""
    sizes = [1] * len(tree.nodes)
    all_failed = [False] * len(tree.nodes)
    for node in reversed(tree.nodes):
        sizes[node.id] += sum(sizes[child] for child in node.children)
        if node.children:
            all_failed[node.id] = node.kind != SOLUTION and all(
                all_failed[child] for child in node.children
            )
        else:
            all_failed[node.id] = node.kind == FAILURE
    return sizes, all_failed


Sizes = tuple[list[int], list[bool]]  # what subtree_sizes returns


def label_on_the_left(tree: SearchTree, node: Node) -> bool:
    """Where the label of the edge into ``node`` goes: on the left for the first of two
    children and for a lone decision, on the right for the last and a lone refutation, so that
    it never crosses its own edge."""
    if node.parent is None:
        return False
    siblings = tree.nodes[node.parent].children
    if len(siblings) > 1:
        return node.id == siblings[0]
    return node.label.startswith("queen")


def layout(
    tree: SearchTree,
    extent: Extent,
    root: int = 0,
    *,
    gap: float,
    collapse: bool = True,
    sizes: Sizes | None = None,
) -> list[Placed]:
    """Every node drawn under ``root``, each parent centred over its children, and each subtree
    as close to its left neighbour as their contours allow, row by row, with ``gap`` pixels
    between what two nodes take of a row (their ``extent``: shape, count and label): a tidy tree
    whose labels never overlap, as narrow as that allows. Failed subtrees of COLLAPSE_FROM nodes
    or more become one triangle (``collapse``). ``sizes``, from ``subtree_sizes``, saves
    counting the tree again for each subtree."""
    subtree, all_failed = sizes or subtree_sizes(tree)

    def place(node_id: int) -> tuple[list[tuple[Node, float, str, int]], list[list[float]]]:
        node = tree.nodes[node_id]
        hidden = subtree[node_id]
        collapsed = collapse and node_id != root and all_failed[node_id]
        kind, hidden = (
            (COLLAPSED, hidden)
            if collapsed and hidden >= COLLAPSE_FROM
            else (
                node.kind,
                0,
            )
        )
        left, right = extent(node, kind, hidden, label_on_the_left(tree, node))
        if kind == COLLAPSED or not node.children:
            return [(node, 0.0, kind, hidden)], [[left, right]]
        items: list[tuple[Node, float, str, int]] = []
        contour: list[list[float]] = []
        offsets = []
        for child in node.children:
            inner, outline = place(child)
            shift = max(
                (
                    contour[d][1] - outline[d][0] + gap
                    for d in range(min(len(contour), len(outline)))
                ),
                default=0.0,
            )
            offsets.append(shift)
            items += [(n, x + shift, k, h) for n, x, k, h in inner]
            for d, (low, high) in enumerate(outline):
                if d < len(contour):
                    contour[d] = [min(contour[d][0], low + shift), max(contour[d][1], high + shift)]
                else:
                    contour.append([low + shift, high + shift])
        middle = (offsets[0] + offsets[-1]) / 2
        items = [(node, 0.0, kind, 0)] + [(n, x - middle, k, h) for n, x, k, h in items]
        rows = [[left, right]] + [[low - middle, high - middle] for low, high in contour]
        return items, rows

    items, rows = place(root)
    leftmost = min(low for low, _ in rows)
    placed = [Placed(node, x - leftmost, kind, hidden) for node, x, kind, hidden in items]
    return sorted(placed, key=lambda p: p.node.id)

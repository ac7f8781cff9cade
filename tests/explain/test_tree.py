"""`nqueens explain --tree`: the search tree as SVG and as a page, and an explain that never traps
its user (keys, forced queens, captions, contrast, puzzles)."""

from __future__ import annotations

import itertools
import json
import os
import pty
import re
import select
import signal
import subprocess
import termios
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import NQUEENS, TERMINAL_ENV, invoke, process_env, strip_ansi

import nqueens
from nqueens.core.board import Board
from nqueens.explain.events import explain
from nqueens.explain.page import statistics_line

SVG = "{http://www.w3.org/2000/svg}"
KINDS = {"choice", "failure", "solution", "collapsed"}


def _nodes(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == "node"]


def _tree_svg(tmp_path: Path, *arguments: str) -> ET.Element:
    path = tmp_path / "tree.svg"
    result = invoke("explain", *arguments, "--tree", str(path))
    assert result.exit_code in (0, 1), result.stderr
    return ET.parse(path).getroot()


@pytest.mark.parametrize("strategy", ["first-min", "first-fail-mid"])
@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_the_tree_is_the_solvers_own_search(n: int, strategy: str) -> None:
    story = explain(Board(n), strategy=strategy, all_solutions=True)
    tree = story.tree
    stats = nqueens.count(n, engine="cp", strategy=strategy)
    # Every branch the solver counts is an edge; every failure it counts is a red square.
    assert len(tree.nodes) - 1 == story.branches == stats.branches
    assert tree.failures == story.failures == stats.conflicts
    assert tree.solutions == story.solutions == stats.solutions
    for node in tree.nodes[1:]:
        assert re.fullmatch(r"(queen|not) [0-9]+,[0-9]+", node.label)
        assert node.depth == tree.nodes[node.parent].depth + 1  # type: ignore[index]


@pytest.mark.slow
def test_the_svg_marks_every_node_with_its_kind_and_depth(tmp_path: Path) -> None:
    root = _tree_svg(tmp_path, "8", "--all")
    story = explain(Board(8), all_solutions=True)
    drawn = [g for g in _nodes(root) if not _inside_subtree(root, g)]
    assert {g.get("data-kind") for g in drawn} <= KINDS
    assert all(g.get("data-depth", "").isdigit() for g in drawn)
    shown = sum(1 for g in drawn if g.get("data-kind") != "collapsed")
    hidden = sum(int(g.get("data-hidden", "0")) for g in drawn)
    assert shown + hidden == len(story.tree.nodes)  # every node drawn or counted in a triangle
    assert sum(g.get("data-kind") == "solution" for g in drawn) == 92
    assert any(g.get("data-kind") == "collapsed" for g in drawn)
    shapes = {g.get("data-kind"): g[0].tag.removeprefix(SVG) for g in drawn}
    assert shapes == {
        "choice": "circle",
        "failure": "rect",
        "solution": "polygon",
        "collapsed": "polygon",
    }
    labels = [t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == "decision"]
    assert "queen 1,1" in labels and "not 1,1" in labels
    legend = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "791 nodes, 304 failures, 92 solutions, depth 17" in legend


def _inside_subtree(root: ET.Element, node: ET.Element) -> bool:
    for group in root.iter(f"{SVG}g"):
        if group.get("class") == "subtree" and node in list(group.iter(f"{SVG}g")):
            return True
    return False


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["first-min", "first-fail-mid"])
def test_the_tree_of_8_stays_small(tmp_path: Path, strategy: str) -> None:
    path = tmp_path / "tree.svg"
    assert (
        invoke("explain", "8", "--all", "--strategy", strategy, "--tree", str(path)).exit_code == 0
    )
    assert path.stat().st_size < 400_000


def test_the_page_is_one_file_with_no_network(tmp_path: Path) -> None:
    path = tmp_path / "tree.html"
    result = invoke("explain", "6", "--all", "--compare", "--tree", str(path))
    assert result.exit_code == 0, result.stderr
    page = path.read_text()
    assert page.count("<svg") == 2  # first-min and first-fail-mid, side by side
    assert "first-min" in page and "first-fail-mid" in page
    addresses = set(re.findall(r"https?://[^\s\"'<>)]+", page))
    assert addresses == {"http://www.w3.org/2000/svg"}  # the SVG namespace, never fetched
    assert "<link" not in page and "src=" not in page
    embedded = re.search(r'id="tree-data" type="application/json">(.*?)</script>', page, re.S)
    assert embedded is not None
    data = json.loads(embedded[1])
    assert [len(tree["nodes"]) for tree in data] == [
        len(explain(Board(6), strategy=s, all_solutions=True).tree.nodes)
        for s in ("first-min", "first-fail-mid")
    ]
    assert all(len(node["board"]) == 36 for node in data[0]["nodes"].values())


def test_the_page_shows_each_tree_s_title_once(tmp_path: Path) -> None:
    """The panel's heading names the search; the picture under it no longer says it again."""
    path = tmp_path / "tree.html"
    assert invoke("explain", "5", "--tree", str(path)).exit_code == 0
    body = path.read_text().split("<body>", 1)[1]
    shown = re.sub(r"<title>.*?</title>", "", body)  # tooltips, not on the page
    line = statistics_line(explain(Board(5)))
    assert shown.count(line) == 1
    picture = tmp_path / "tree.svg"
    assert invoke("explain", "5", "--tree", str(picture)).exit_code == 0
    assert line in re.sub(r"<title>.*?</title>", "", picture.read_text())  # a picture alone: once


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--tree", "tree.png"], "should end in .svg"),
        (["--compare"], "--compare draws two trees on one page"),
        (["--compare", "--tree", "tree.svg"], "--compare draws two trees on one page"),
        # each was silently ignored: the tree is saved instead of the steps drawn
        (["--tree", "tree.svg", "--svg", "step.svg"], "instead of drawing each step, as --svg"),
        (["--tree", "tree.html", "--step"], "as --step would: give one or the other"),
    ],
)
def test_bad_tree_options_exit_2(arguments: list[str], message: str) -> None:
    result = invoke("explain", "5", *arguments)
    assert result.exit_code == 2
    assert message in result.stderr


def test_a_backtrack_that_forces_a_queen_says_so() -> None:
    story = explain(Board(4))
    assert "a queen is forced on 4,2" in story.events[4].text
    assert story.events[4].forced == {(3, 1)}
    assert story.events[0].forced == frozenset()


@pytest.mark.slow
def test_the_summary_has_thousands_separators(tmp_path: Path) -> None:
    result = invoke("explain", "8", "--all", "--tree", str(tmp_path / "tree.svg"))
    assert "1,525 steps: 304 failures, 790 branches" in result.stderr


def test_forced_queens_are_drawn_apart_from_decided_ones(tmp_path: Path) -> None:
    terminal = invoke("explain", "4", env=TERMINAL_ENV)
    screen = strip_ansi(terminal.stdout)
    step_5 = screen.split("Step 5:")[1].split("Step 6:")[0]
    assert "♕" in step_5 and step_5.count("♛") == 1  # 4,2 forced; 1,1 decided
    assert "♕ queen forced by propagation" in screen
    invoke("explain", "4", "--svg", str(tmp_path / "step.svg"))
    root = ET.parse(tmp_path / "step-05.svg").getroot()
    classes = sorted(
        t.get("class", "") for t in root.iter(f"{SVG}text") if "queen" in t.get("class", "")
    )
    assert classes == ["queen", "queen forced"]


def test_svg_captions_wrap_inside_the_picture(tmp_path: Path) -> None:
    invoke("explain", "4", "--svg", str(tmp_path / "step.svg"))
    root = ET.parse(tmp_path / "step-05.svg").getroot()
    lines = [t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == "caption"]
    width = float(root.get("width", "0"))
    assert len(lines) > 1
    assert " ".join(lines).startswith("Step 5: Backtrack to decision 2")
    assert all(len(line) * 7 <= width for line in lines)
    assert float(root.get("height", "0")) > width  # room made under the board


def test_fresh_crosses_are_white_on_red(tmp_path: Path) -> None:
    invoke("explain", "4", "--svg", str(tmp_path / "step.svg"))
    root = ET.parse(tmp_path / "step-02.svg").getroot()
    fresh = [t for t in root.iter(f"{SVG}text") if t.get("class") == "crossed-fresh"]
    backs = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "crossed-fresh-square"]
    assert fresh and len(fresh) == len(backs)
    assert {t.get("fill") for t in fresh} == {"#ffffff"}
    assert _contrast("#ffffff", backs[0].get("fill", "")) >= 4.5
    old = [t for t in root.iter(f"{SVG}text") if t.get("class") == "crossed"]
    assert all(_contrast(t.get("fill", ""), "#b58863") >= 4.5 for t in old)


def _contrast(a: str, b: str) -> float:
    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_explain_takes_a_puzzle() -> None:
    result = invoke("explain", "6", "--queen", "1,2", "--all")
    assert result.exit_code == 0, result.stderr
    story = explain(Board(6, ((0, 1),)), all_solutions=True)
    assert story.solutions == 1  # of the 4 solutions for N = 6, one has a queen on 1,2
    assert "1 solution in" in result.stderr
    refused = invoke("explain", "6", "--queen", "1,1", "--queen", "2,2")
    assert refused.exit_code == 2 and "share a diagonal" in refused.stderr


def _explain_on_a_terminal(
    *arguments: str, blocking: bool = True
) -> tuple[int, subprocess.Popen[bytes]]:
    """``nqueens explain`` with a pseudo-terminal for stdin, stdout and stderr; not
    ``blocking``: the terminal as another program can leave it, non-blocking."""
    controller, terminal = pty.openpty()
    os.set_blocking(terminal, blocking)
    process = subprocess.Popen(
        [*NQUEENS, "explain", *arguments],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env=process_env(),
        start_new_session=True,
    )
    os.close(terminal)
    return controller, process


def _press(controller: int, key: bytes) -> None:
    """Type ``key`` once the program waits for one: its terminal in raw mode (typing ahead is
    discarded when it switches)."""
    deadline = time.monotonic() + 20
    while termios.tcgetattr(controller)[3] & termios.ICANON and time.monotonic() < deadline:
        time.sleep(0.01)
    os.write(controller, key)


def _read_until(controller: int, marker: bytes | None, timeout: float = 20) -> bytes:
    """What the program writes until ``marker`` (None: until it ends)."""
    seen = b""
    deadline = time.monotonic() + timeout
    while (marker is None or marker not in seen) and time.monotonic() < deadline:
        ready, _, _ = select.select([controller], [], [], 0.1)
        if ready:
            try:
                seen += os.read(controller, 65536)
            except OSError:
                break
    return seen


@pytest.mark.slow
@pytest.mark.parametrize(
    ("key", "code"),
    [  # q in the quick tests; Ctrl-D and Ctrl-C too with -m slow (a terminal each)
        (b"q", 0),
        pytest.param(b"\x04", 0, marks=pytest.mark.slow),
        pytest.param(b"\x03", 130, marks=pytest.mark.slow),
    ],
)
@pytest.mark.parametrize("blocking", [True, False], ids=["blocking", "left-non-blocking"])
def test_step_lets_its_user_out(key: bytes, code: int, blocking: bool) -> None:
    """A key steps on, and q, Ctrl-D and Ctrl-C end; also on a terminal that another program
    left non-blocking, where a key read at once found none (an error, exit 74)."""
    controller, process = _explain_on_a_terminal("8", "--step", "--all", blocking=blocking)
    try:
        assert b"q: quit" in _read_until(controller, b"q: quit")
        _press(controller, b" ")  # one step on
        shown = _read_until(controller, b"Step 2:")
        assert b"\r\x1b[2K" in shown  # the prompt was erased
        if b"q: quit" not in shown.split(b"Step 2:")[1]:
            _read_until(controller, b"q: quit")
        _press(controller, key)
        rest = _read_until(controller, None)
        assert process.wait(timeout=20) == code
        assert b"Step 3:" not in rest
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        os.close(controller)


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["first-min", "first-fail-mid"])
def test_two_labels_on_one_lane_stand_apart(strategy: str, tmp_path: Path) -> None:
    """The tree of N = 8 set "not 6,4" against "queen 7,3", two labels of two edges that read
    as one phrase: labels side by side on one lane stand at least a character's width apart
    (the widths as drawn are estimated here as the layout does, erring wide)."""
    from nqueens.explain.labels import LABEL_SIZE, text_width

    root = _tree_svg(tmp_path, "8", "--all", "--strategy", strategy)
    tree = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "tree")
    edges = next(g for g in tree if g.get("class") == "edges")  # the tree's own, not a subtree's
    lanes: dict[str, list[tuple[float, float]]] = {}
    for text in edges.iter(f"{SVG}text"):
        if text.get("class") != "decision":
            continue
        x, width = float(text.get("x", 0)), text_width(text.text or "", LABEL_SIZE)
        start = x - width if text.get("text-anchor") == "end" else x
        lanes.setdefault(text.get("y", ""), []).append((start, start + width))
    assert lanes
    for spans in lanes.values():
        spans.sort()
        for (_, end), (start, _) in itertools.pairwise(spans):
            assert start - end >= 0.6 * LABEL_SIZE, spans


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["first-min", "first-fail-mid"])
@pytest.mark.parametrize("n", [6, 8])
def test_every_label_is_plainly_its_own_edge_s(n: int, strategy: str) -> None:
    """A label such as "queen 4,3" sat between two edges: at its height, any other edge of its
    row stands at least twice as far from it as its own edge does."""
    from nqueens.explain.labels import LABEL_ASCENT, LABEL_AWAY, LEVEL, laid_out
    from nqueens.explain.tree import subtree_sizes

    tree = explain(Board(n), strategy=strategy, all_solutions=True).tree
    placed, labels = laid_out(tree, 0, collapse=True, sizes=subtree_sizes(tree))
    where = {p.node.id: p.x for p in placed}
    for label in labels:
        parent = label.node.parent
        assert parent is not None
        depth = tree.nodes[parent].depth
        edges = [  # every edge down from the parent's row, whoever's child
            p
            for p in placed
            if p.node.parent is not None
            and p.node.parent in where
            and tree.nodes[p.node.parent].depth == depth
        ]
        y = label.baseline - LABEL_ASCENT / 2  # the middle of the label's height
        top = depth * LEVEL

        def at(child: int, top: float = top, y: float = y) -> float:
            x_parent = where[tree.nodes[child].parent]  # type: ignore[index]
            return x_parent + (where[child] - x_parent) * (y - top) / LEVEL

        own = at(label.node.id)
        near = min(abs(own - label.left), abs(own - label.right))
        for other in edges:
            if other.node.id == label.node.id:
                continue
            x = at(other.node.id)
            away = label.left - x if x < label.left else x - label.right
            assert away > 0, (label.node.label, "crossed by another edge")
            assert away >= 2 * max(near, LABEL_AWAY), (label.node.label, away, near)

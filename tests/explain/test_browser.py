"""The page of ``explain --tree FILE.html`` in a real browser: Debian's chromium, headless, driven
through its DevTools protocol. A screenshot shows the tree drawn; real mouse and key events open
a node's board, expand a collapsed subtree and step through the search.

Where no chromium can be found the tests skip and say so (``.ci/run`` installs it).
"""

from __future__ import annotations

import base64
import struct
import time
import zlib
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from browser import Browser, needs_chromium, open_page, start_chromium
from helpers import invoke

# A browser is seconds of start-up for each worker that runs one of these: they run with
# -m slow, which CI runs too, to keep the README's test command under its 90 s.
pytestmark = [needs_chromium, pytest.mark.slow]


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Browser, Path]]:
    """One headless chromium for the module, and a folder for its pages and screenshots."""
    folder = tmp_path_factory.mktemp("browser")
    for browser in start_chromium(folder):
        yield browser, folder


@pytest.fixture(scope="module")
def six(chromium: tuple[Browser, Path]) -> Path:
    """The page of N = 6, every solution, both strategies."""
    path = chromium[1] / "tree.html"
    result = invoke("explain", "6", "--all", "--compare", "--tree", str(path))
    assert result.exit_code == 0, result.stderr
    return path


@pytest.fixture
def page(chromium: tuple[Browser, Path], six: Path) -> tuple[Browser, Path]:
    """The page of N = 6, every solution, both strategies, freshly open in chromium (other tests
    open other pages in it)."""
    browser, folder = chromium
    open_page(browser, six)
    return browser, folder


def _pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the RGB(A) rows of a PNG as chromium writes them (8 bits, no
    interlace): enough to look at colours without an imaging library."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    position, data = 8, b""
    width = height = channels = 0
    while position < len(png):
        (length,) = struct.unpack(">I", png[position : position + 4])
        chunk = png[position + 4 : position + 8]
        body = png[position + 8 : position + 8 + length]
        if chunk == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8
            channels = {2: 3, 6: 4}[colour]
        elif chunk == b"IDAT":
            data += body
        position += 12 + length
    raw = zlib.decompress(data)
    stride = width * channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        line_filter = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if line_filter == 1:
                line[i] = (line[i] + left) & 255
            elif line_filter == 2:
                line[i] = (line[i] + up) & 255
            elif line_filter == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif line_filter == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (
                    line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)
                ) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, rows


def _count_colours(png: bytes, colours: Sequence[tuple[int, int, int]]) -> list[int]:
    """How many pixels of the PNG are near each colour: the PNG decoded once, and each colour
    it holds compared once."""
    width, _, rows = _pixels(png)
    channels = len(rows[0]) // width
    held: Counter[tuple[int, int, int]] = Counter()
    for row in rows:
        held.update(zip(row[0::channels], row[1::channels], row[2::channels], strict=True))
    return [
        sum(
            pixels
            for (red, green, blue), pixels in held.items()
            if abs(red - r) + abs(green - g) + abs(blue - b) < 30
        )
        for r, g, b in colours
    ]


def test_the_tree_renders(page: tuple[Browser, Path]) -> None:
    browser, folder = page
    drawn = browser.evaluate(
        "[...document.querySelectorAll('#tree-0 .tree > .node')]"
        ".filter(e => e.getBoundingClientRect().width > 0).length"
    )
    assert drawn > 10
    shot = base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"])
    (folder / "tree.png").write_bytes(shot)  # kept with the test's files, to look at
    blue, green, red = _count_colours(shot, [(0x34, 0x65, 0xA4), (0x4E, 0x9A, 0x06), (0xCC, 0, 0)])
    assert blue > 200  # choice circles
    assert green > 50  # solution diamonds
    assert red > 50  # failures


def test_a_click_on_a_node_shows_its_board(page: tuple[Browser, Path]) -> None:
    browser, _ = page
    browser.click("#tree-0 .tree > .node[data-kind='solution']")
    node = browser.evaluate("document.getElementById('board-grid').dataset.node")
    queens = browser.evaluate(
        "[...document.querySelectorAll('#board-grid td')].filter(td => td.textContent === '♛')"
        ".length"
    )
    title = browser.evaluate("document.getElementById('board-title').textContent")
    assert node is not None and f"Node {node} (solution" in title
    assert queens == 6  # a solution: one queen per column


def test_a_click_on_a_triangle_opens_its_subtree_beside_the_tree(
    page: tuple[Browser, Path],
) -> None:
    """The subtree a triangle hides is drawn beside the tree, never over it; a second click
    closes it."""
    browser, _ = page
    triangle = browser.evaluate(
        "(document.querySelector('#tree-0 .tree > .node[data-kind=\"collapsed\"]') || {})"
        ".dataset?.id"
    )
    assert triangle is not None
    hidden = int(
        browser.evaluate(
            f"document.querySelector('#tree-0 .tree > .node[data-id=\"{triangle}\"]')"
            ".dataset.hidden"
        )
    )
    browser.click(f"#tree-0 .tree > .node[data-id='{triangle}']")
    drawn = browser.evaluate("document.querySelectorAll('#subtree svg .node').length")
    assert drawn == hidden
    assert browser.evaluate(
        "[...document.querySelectorAll('#tree-0 .subtree')].every(g => g.getAttribute('display')"
        " === 'none')"
    )
    browser.click(f"#tree-0 .tree > .node[data-id='{triangle}']")
    assert browser.evaluate("document.querySelectorAll('#subtree svg').length") == 0


def test_the_keyboard_steps_through_the_search(page: tuple[Browser, Path]) -> None:
    browser, _ = page
    browser.click("#tree-0 .tree > .node[data-id='0']")
    steps = []
    for _ in range(3):
        browser.key("ArrowRight", 39)
        text = browser.evaluate("document.getElementById('board-text').textContent")
        steps.append(int(text.split("Step ")[1].split(":")[0]))
    assert steps == sorted(steps) and len(set(steps)) == 3


def test_the_first_view_shows_each_whole_tree_and_no_label_too_small_to_read(
    page: tuple[Browser, Path],
) -> None:
    """Two trees, in a window as low as a laptop's: each whole in its panel where its labels
    can be read so, else at a size they can be read at, on its root; a label too small to
    read (6-pixel labels once) is never shown."""
    browser, _ = page
    low = {"width": 1200, "height": 420, "deviceScaleFactor": 1, "mobile": False}
    browser.call("Emulation.setDeviceMetricsOverride", **low)
    try:
        _reload(browser)
        views = [_view(browser, panel) for panel in (0, 1)]
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride")
        _reload(browser)
    for index, view in enumerate(views):
        whole = all(_inside(node, view["panel"]) for node in view["nodes"])
        seen = [label for label in view["labels"] if _overlap(label, view["panel"])]
        assert view["nodes"] and (whole or seen), "neither the whole tree nor a label"
        assert all(label[3] >= 6 for label in seen)
        _assert_readable(view, f"panel {index}, opening")


def _reload(browser: Browser) -> None:
    browser.evaluate("window.beforeReload = true")  # gone once the new page is there
    browser.call("Page.reload")
    deadline = time.monotonic() + 30
    while browser.evaluate("window.beforeReload || document.readyState !== 'complete'"):
        assert time.monotonic() < deadline, "the page did not load again"
        time.sleep(0.05)


_VIEW = """
((index) => {
  const shown = e => {
    const r = e.getBoundingClientRect();
    return getComputedStyle(e).display !== "none" && r.width > 0 ? [r.x, r.y, r.width, r.height]
      : null;
  };
  const all = (root, selector) => root ? [...root.querySelectorAll(selector)].map(shown)
    .filter(Boolean) : [];
  const tree = document.querySelector(`#tree-${index}`);
  const beside = document.querySelector(`#subtree[data-index="${index}"]`);
  return {
    panel: shown(tree.closest(".viewport")),
    labels: all(tree, ".tree > .edges > .decision, .tree > .node > text"),
    nodes: all(tree, ".tree > .node > :first-child"),
    aside: beside ? shown(beside) : null,
    aside_labels: all(beside, ".decision, .node > text"),
    aside_nodes: all(beside, ".node > :first-child"),
  };
})
"""

Rect = list[float]  # x, y, width, height, as getBoundingClientRect gives them


def _view(browser: Browser, panel: int) -> dict[str, Any]:
    """The boxes a person sees of one panel's tree, and of the subtree opened beside it."""
    view: dict[str, Any] = browser.evaluate(f"{_VIEW}({panel})")
    return view


def _overlap(a: Rect, b: Rect) -> bool:
    """Whether two boxes share more than a sliver (half a pixel, for rounding)."""
    return (
        min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]) > 0.5
        and min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) > 0.5
    )


def _inside(box: Rect, outer: Rect) -> bool:
    return (
        box[0] >= outer[0] - 0.5
        and box[1] >= outer[1] - 0.5
        and box[0] + box[2] <= outer[0] + outer[2] + 0.5
        and box[1] + box[3] <= outer[1] + outer[3] + 0.5
    )


def _clashes(labels: list[Rect], nodes: list[Rect]) -> list[tuple[Rect, Rect]]:
    """Labels over labels, and labels over node shapes."""
    pairs = [(a, b) for i, a in enumerate(labels) for b in labels[i + 1 :] if _overlap(a, b)]
    return pairs + [(a, b) for a in labels for b in nodes if _overlap(a, b)]


def _assert_readable(view: dict[str, Any], where: str) -> None:
    """No label over another or over a node; each whole inside what shows it where the whole
    tree shows (a view zoomed in on part of it cuts what lies across its edge)."""
    seen = [label for label in view["labels"] if _overlap(label, view["panel"])]
    assert _clashes(seen, view["nodes"]) == [], where
    if all(_inside(node, view["panel"]) for node in view["nodes"]):
        assert all(_inside(label, view["panel"]) for label in view["labels"]), where
    if view["aside"] is not None:
        assert _clashes(view["aside_labels"], view["aside_nodes"]) == [], where
        assert all(_inside(label, view["aside"]) for label in view["aside_labels"]), where


PAGES = [
    *([str(n), "--all"] for n in range(4, 9)),
    ["5"],
    ["6", "--all", "--compare"],
    ["8", "--all", "--compare"],
]
"""Every board overlapping labels were once seen on."""


@pytest.mark.parametrize("arguments", PAGES)
def test_every_label_is_readable_on_opening_after_a_click_and_after_a_fit(
    chromium: tuple[Browser, Path], arguments: list[str]
) -> None:
    """Read as a person sees the page: every label's box, on the opening view, with a
    triangle's subtree opened beside the tree, and after 0 fits the tree; screenshots of each
    view are kept beside the page."""
    browser, folder = chromium
    name = "tree-" + "-".join(a.strip("-") for a in arguments)
    path = folder / f"{name}.html"
    assert invoke("explain", *arguments, "--tree", str(path)).exit_code == 0
    open_page(browser, path)
    panels = browser.evaluate("document.querySelectorAll('.panel').length")
    for panel in range(panels):
        opening = _view(browser, panel)
        # labels to read from the first view (N = 8's trees opened as dots until zoomed)
        assert any(_overlap(label, opening["panel"]) for label in opening["labels"]), name
        _assert_readable(opening, f"{name}, panel {panel}, opening")
        _screenshot(browser, folder / f"{name}-{panel}-opening.png")
        browser.click(f"#tree-{panel} .tree > .node[data-id='0']")  # the root: in view
        browser.key("0", 48)  # the whole tree, every triangle in reach
        triangle = browser.evaluate(
            f"(document.querySelector('#tree-{panel} .tree > .node[data-kind=\"collapsed\"]')"
            " || {}).dataset?.id"
        )
        if triangle is not None:
            browser.click(f"#tree-{panel} .tree > .node[data-id='{triangle}']")
            opened = _view(browser, panel)
            assert opened["aside_nodes"], "the subtree was not drawn"
            _assert_readable(opened, f"{name}, panel {panel}, subtree {triangle}")
            _screenshot(browser, folder / f"{name}-{panel}-subtree.png")
        browser.click(f"#tree-{panel} .tree > .node[data-id='0']")
        browser.key("0", 48)
        _assert_readable(_view(browser, panel), f"{name}, panel {panel}, fitted")
        _screenshot(browser, folder / f"{name}-{panel}-fitted.png")


def test_a_zoom_shows_the_labels_and_none_overlaps(page: tuple[Browser, Path]) -> None:
    """Zoomed in on the root, the labels show, readable and apart."""
    browser, _ = page
    _reload(browser)
    x, y = browser.evaluate(
        "(() => { const r = document.querySelector('#tree-0 .tree > .node[data-id=\"0\"]')"
        ".getBoundingClientRect(); return [r.x, r.y]; })()"
    )
    for _ in range(12):  # a wheel step at a time, until the labels show
        browser.call("Input.dispatchMouseEvent", type="mouseWheel", x=x, y=y, deltaX=0, deltaY=-100)
        view = _view(browser, 0)
        if view["labels"]:
            break
    seen = [label for label in view["labels"] if _overlap(label, view["panel"])]
    assert len(seen) > 5 and all(label[3] >= 6 for label in seen)
    assert _clashes(seen, view["nodes"]) == []
    _reload(browser)


@pytest.mark.parametrize(
    "arguments",
    [
        ["6"],
        ["4"],
        ["8"],
        ["8", "--all"],
        ["5", "--torus"],
    ],
)
def test_a_picture_of_the_tree_holds_its_title_and_labels_whole(
    chromium: tuple[Browser, Path], arguments: list[str]
) -> None:
    """explain --tree FILE.svg, as chromium draws it: no text past the picture's edge (the
    title was cut at 560 pixels), no label over another or over a node."""
    browser, folder = chromium
    path = folder / f"tree-{'-'.join(a.strip('-') for a in arguments)}.svg"
    assert invoke("explain", *arguments, "--tree", str(path)).exit_code == 0
    open_page(browser, path)
    drawn = browser.evaluate(
        """(() => {
      const box = e => {
        const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height];
      };
      const svg = document.querySelector("svg");
      return {
        picture: box(svg),
        texts: [...svg.querySelectorAll("text")].filter(t => t.closest("[display=none]") === null)
          .map(box),
        labels: [...svg.querySelectorAll(".tree > .edges > .decision, .tree > .node > text")]
          .map(box),
        nodes: [...svg.querySelectorAll(".tree > .node > :first-child")].map(box),
      };
    })()"""
    )
    assert all(_inside(text, drawn["picture"]) for text in drawn["texts"])
    assert _clashes(drawn["labels"], drawn["nodes"]) == []


def _screenshot(browser: Browser, path: Path) -> None:
    path.write_bytes(base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"]))


def test_stepping_into_a_subtree_shows_it_beside_the_tree_and_0_fits_the_tree(
    page: tuple[Browser, Path],
) -> None:
    browser, _ = page
    _reload(browser)
    browser.click("#tree-0 .tree > .node[data-id='0']")
    inside = "document.querySelector('#subtree .node.current') != null"
    for _ in range(400):
        browser.key("ArrowRight", 39)
        if browser.evaluate(inside):
            break
    else:
        pytest.skip("no step of this tree leads into a collapsed subtree")
    current = browser.evaluate(
        "(() => { const r = document.querySelector('#subtree .node.current')"
        ".getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()"
    )
    aside = browser.evaluate(
        "(() => { const r = document.querySelector('aside').getBoundingClientRect();"
        " return [r.x, r.y, r.width, r.height]; })()"
    )
    assert _inside(current, aside)
    browser.key("0", 48)
    view = _view(browser, 0)
    assert all(_inside(node, view["panel"]) for node in view["nodes"]), "0 left the tree out"

"""The page of ``explain --tree FILE.html`` in a real browser: Debian's chromium, headless, driven
through its DevTools protocol. A screenshot shows the tree drawn; real mouse and key events open
a node's board, expand a collapsed subtree and step through the search.

Where no chromium can be found the tests skip and say so (``.ci/run`` installs it).
"""

from __future__ import annotations

import base64
import json
import shutil
import struct
import subprocess
import time
import urllib.request
import zlib
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from helpers import invoke

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on this machine (apt-get install chromium)"
)


class Browser:
    """One headless chromium and a DevTools connection to its page."""

    def __init__(self, socket: Any) -> None:
        self._socket = socket
        self._next = 0

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self._next += 1
        self._socket.send(json.dumps({"id": self._next, "method": method, "params": params}))
        while True:
            message = json.loads(self._socket.recv())
            if message.get("id") == self._next:
                if "error" in message:
                    raise AssertionError(f"{method}: {message['error']}")
                return dict(message.get("result", {}))

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    def click(self, selector: str) -> None:
        """A real mouse click in the middle of the element ``selector`` finds."""
        box = self.evaluate(
            f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
            ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        x, y = box
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def key(self, name: str, code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            self.call(
                "Input.dispatchKeyEvent", type=kind, key=name, code=name, windowsVirtualKeyCode=code
            )


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Browser, Path]]:
    """The page of N = 6, every solution, both strategies, open in chromium."""
    import websocket  # the test extra's websocket-client

    folder = tmp_path_factory.mktemp("browser")
    path = folder / "tree.html"
    result = invoke("explain", "6", "--all", "--compare", "--tree", str(path))
    assert result.exit_code == 0, result.stderr
    assert CHROMIUM is not None
    log = (folder / "chromium.log").open("w")
    process = subprocess.Popen(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0",
            f"--user-data-dir={folder / 'profile'}",
            "--window-size=1400,900",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    try:
        port = _devtools_port(process, folder / "profile", folder / "chromium.log")
        targets = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json").read())
        address = next(t for t in targets if t["type"] == "page")["webSocketDebuggerUrl"]
        socket = websocket.create_connection(address, timeout=30)
        browser = Browser(socket)
        browser.call("Page.enable")
        browser.call("Page.navigate", url=path.as_uri())
        deadline = time.monotonic() + 30
        while browser.evaluate("document.readyState") != "complete":
            assert time.monotonic() < deadline, "the page did not load"
            time.sleep(0.05)
        yield browser, folder
        socket.close()
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def _devtools_port(process: subprocess.Popen[bytes], profile: Path, log: Path) -> int:
    """The port chromium chose, from the file it writes into its profile."""
    deadline = time.monotonic() + 30
    marker = profile / "DevToolsActivePort"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"chromium ended: {log.read_text()[-2000:]}")
        if marker.exists() and marker.read_text().strip():
            return int(marker.read_text().split()[0])
        time.sleep(0.05)
    raise AssertionError("chromium did not open its DevTools port")


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


def test_a_click_on_a_triangle_opens_its_subtree(page: tuple[Browser, Path]) -> None:
    browser, _ = page
    triangle = browser.evaluate(
        "(document.querySelector('#tree-0 .tree > .node[data-kind=\"collapsed\"]') || {})"
        ".dataset?.id"
    )
    if triangle is None:
        pytest.skip("no collapsed subtree in this tree")
    hidden = f"#tree-0 .subtree[data-root='{triangle}']"
    assert (
        browser.evaluate(f"document.querySelector(\"{hidden}\").getAttribute('display')") == "none"
    )
    browser.click(f"#tree-0 .tree > .node[data-id='{triangle}']")
    assert browser.evaluate(f"document.querySelector(\"{hidden}\").getAttribute('display')") is None


def test_the_keyboard_steps_through_the_search(page: tuple[Browser, Path]) -> None:
    browser, _ = page
    browser.click("#tree-0 .tree > .node[data-id='0']")
    steps = []
    for _ in range(3):
        browser.key("ArrowRight", 39)
        text = browser.evaluate("document.getElementById('board-text').textContent")
        steps.append(int(text.split("Step ")[1].split(":")[0]))
    assert steps == sorted(steps) and len(set(steps)) == 3


def test_the_first_view_keeps_labels_readable(page: tuple[Browser, Path]) -> None:
    """Two trees side by side, in a window as low as a laptop's, once opened zoomed out to
    their full height: 6-pixel labels."""
    browser, _ = page
    low = {"width": 1200, "height": 420, "deviceScaleFactor": 1, "mobile": False}
    browser.call("Emulation.setDeviceMetricsOverride", **low)
    try:
        _reload(browser)
        heights = browser.evaluate(
            "[0, 1].map(i => document.querySelector(`#tree-${i} .decision`)"
            ".getBoundingClientRect().height)"
        )
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride")
        _reload(browser)
    assert min(heights) >= 8, heights


def _reload(browser: Browser) -> None:
    browser.evaluate("window.beforeReload = true")  # gone once the new page is there
    browser.call("Page.reload")
    deadline = time.monotonic() + 30
    while browser.evaluate("window.beforeReload || document.readyState !== 'complete'"):
        assert time.monotonic() < deadline, "the page did not load again"
        time.sleep(0.05)


_OVERLAPS = """
(() => {
  const boxes = [...document.querySelectorAll(
    '#tree-0 > .tree > .edges > .decision, #tree-0 > .tree > .node > text')]
    .map(e => e.getBoundingClientRect());
  const pairs = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach(b => {
    if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height
        && b.y < a.y + a.height) pairs.push([a.x, a.y, b.x, b.y]);
  }));
  return [boxes.length, pairs];
})()
"""


def test_no_two_labels_of_the_tree_overlap(page: tuple[Browser, Path]) -> None:
    """Edge labels ("not 4,3queen 5,2" ran together) and the triangles' counts."""
    browser, _ = page
    labels, overlapping = browser.evaluate(_OVERLAPS)
    assert labels > 20
    assert overlapping == []


def test_stepping_into_a_subtree_keeps_it_in_view_and_0_fits_it(
    page: tuple[Browser, Path],
) -> None:
    browser, _ = page
    browser.click("#tree-0 .tree > .node[data-id='0']")
    inside = "document.querySelector('#tree-0 .node.current')?.closest('.subtree') != null"
    for _ in range(400):
        browser.key("ArrowRight", 39)
        if browser.evaluate(inside):
            break
    else:
        pytest.skip("no step of this tree leads into a collapsed subtree")
    within = """((selector) => {
      const outer = document.querySelector('#tree-0').getBoundingClientRect();
      const r = document.querySelector(selector).getBoundingClientRect();
      return r.left >= outer.left - 1 && r.right <= outer.right + 1
        && r.top >= outer.top - 1 && r.bottom <= outer.bottom + 1;
    })"""
    assert browser.evaluate(f"{within}('#tree-0 .node.current')")
    browser.key("0", 48)
    assert browser.evaluate(f"{within}('#tree-0 .subtree:not([display])')"), (
        "0 left the opened subtree out of view"
    )

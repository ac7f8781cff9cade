"""A real browser for the tests of pages: Debian's chromium, headless, driven through its
DevTools protocol. Where no chromium can be found the tests that use it skip and say so
(``.ci/run`` installs it)."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
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


def start_chromium(folder: Path) -> Iterator[Browser]:
    """One headless chromium, its profile and log in ``folder``, stopped when the generator is
    closed: the body of a fixture."""
    import websocket  # the test extra's websocket-client

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
        yield browser
        socket.close()
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def open_page(browser: Browser, path: Path | str) -> None:
    """Open ``path`` (a file, or an address), afresh even where it is the page open now."""
    browser.evaluate("window.beforeOpen = true")  # gone once the new page is there
    browser.call("Page.navigate", url=path if isinstance(path, str) else path.as_uri())
    deadline = time.monotonic() + 30
    while browser.evaluate("window.beforeOpen || document.readyState !== 'complete'"):
        assert time.monotonic() < deadline, "the page did not load"
        time.sleep(0.05)


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

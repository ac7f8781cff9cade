"""The documentation site: built by MkDocs with ``--strict`` (a broken link or reference fails
it), served on loopback and opened in Debian's chromium, where its pages render with every asset
they ask for.

Needs the ``docs`` dependency group (``pip install --group docs``), which ``.ci/run`` installs;
without it the tests skip and say so.
"""

from __future__ import annotations

import functools
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from browser import Browser, needs_chromium, open_page, start_chromium
from helpers import ROOT

from nqueens.cli import COMMANDS

pytest.importorskip("mkdocs", reason="the docs dependency group is not installed")
pytest.importorskip("material", reason="the docs dependency group is not installed")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    return folder


class _Server:
    """The built site on an HTTP server on loopback, and every request it answered."""

    def __init__(self, folder: Path) -> None:
        self.requests: list[tuple[str, int]] = []
        server = self

        class Handler(SimpleHTTPRequestHandler):
            def log_request(self, code: Any = "-", size: Any = "-") -> None:
                server.requests.append((self.path, int(code)))

        handler = functools.partial(Handler, directory=str(folder))
        self.http = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.address = f"http://127.0.0.1:{self.http.server_address[1]}"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)

    def __enter__(self) -> _Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.shutdown()
        self.http.server_close()
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def served(
    site: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Browser, _Server]]:
    with _Server(site) as server:
        for browser in start_chromium(tmp_path_factory.mktemp("chromium")):
            yield browser, server


def _visit(browser: Browser, server: _Server, page: str) -> dict[str, Any]:
    """Open ``page`` and wait until its stylesheets and scripts are in; what it shows."""
    server.requests.clear()
    open_page(browser, server.address + page)
    deadline = time.monotonic() + 30
    while not browser.evaluate("document.fonts.status === 'loaded'"):
        assert time.monotonic() < deadline, "the page did not finish loading"
        time.sleep(0.05)
    shown = browser.evaluate(
        """(() => ({
            title: document.querySelector('h1') && document.querySelector('h1').textContent,
            text: document.querySelector('article').innerText,
            header: getComputedStyle(document.querySelector('.md-header')).position,
            tables: document.querySelectorAll('article table').length,
            code: document.querySelectorAll('article pre').length,
            elsewhere: performance.getEntriesByType('resource')
                .map(entry => entry.name).filter(name => !name.startsWith(location.origin)),
            broken: [...document.images].filter(image => !image.naturalWidth).map(i => i.src),
        }))()"""
    )
    assert isinstance(shown, dict)
    return shown


@needs_chromium
def test_the_home_page_renders_with_every_asset(served: tuple[Browser, _Server]) -> None:
    browser, server = served
    shown = _visit(browser, server, "/")
    assert shown["title"].startswith("nqueens")
    assert "Where to go from here" in shown["text"]
    assert shown["header"] == "sticky", "the theme's stylesheet did not apply"
    assert shown["elsewhere"] == [] and shown["broken"] == []
    failed = [(path, code) for path, code in server.requests if code >= 400]
    assert not failed and any(path.endswith(".css") for path, _ in server.requests)


@needs_chromium
def test_the_cli_reference_renders_every_command(served: tuple[Browser, _Server]) -> None:
    browser, server = served
    shown = _visit(browser, server, "/reference/cli/")
    for command in COMMANDS:
        assert f"nqueens {command}" in shown["text"], command
    assert "--time-limit" in shown["text"] and shown["code"] == len(COMMANDS) + 1
    assert shown["elsewhere"] == []
    assert not [(path, code) for path, code in server.requests if code >= 400]


@needs_chromium
def test_the_api_reference_renders_from_the_docstrings(served: tuple[Browser, _Server]) -> None:
    browser, server = served
    shown = _visit(browser, server, "/reference/api/")
    assert "count" in shown["text"] and "InputError" in shown["text"]
    assert browser.evaluate("!!document.getElementById('nqueens.api.count')")


@needs_chromium
def test_the_api_reference_shows_no_markup_of_another_tool(served: tuple[Browser, _Server]) -> None:
    """Sphinx's roles (``:class:`Diagonal```) showed as they were written; long signatures
    ran off the side, on one line."""
    browser, server = served
    shown = _visit(browser, server, "/reference/api/")
    assert not re.search(r":(class|data|meth|func|mod|attr|exc):`", shown["text"])
    widest = browser.evaluate(
        "Math.max(...[...document.querySelectorAll('article .doc-signature')]"
        ".map(code => code.scrollWidth - code.clientWidth))"
    )
    assert widest <= 1, "a signature is wider than the page"


@needs_chromium
def test_every_table_fits_a_1280_pixel_window(served: tuple[Browser, _Server]) -> None:
    browser, server = served
    browser.call(
        "Emulation.setDeviceMetricsOverride",
        width=1280,
        height=900,
        deviceScaleFactor=1,
        mobile=False,
    )
    try:
        for page in ("/explanation/performance/", "/reference/limits/"):
            _visit(browser, server, page)
            cut = browser.evaluate(
                "[...document.querySelectorAll('article table')].filter(table => "
                "table.getBoundingClientRect().right > "
                "table.closest('.md-typeset__scrollwrap').getBoundingClientRect().right + 1)"
                ".length"
            )
            assert cut == 0, f"{cut} tables of {page} are cut off at 1280 pixels"
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride")


@needs_chromium
def test_every_page_names_the_version_it_documents(served: tuple[Browser, _Server]) -> None:
    from importlib.metadata import version

    from nqueens import DISTRIBUTION

    browser, server = served
    _visit(browser, server, "/")
    footer = browser.evaluate("document.querySelector('.md-copyright').innerText")
    assert f"nqueens {version(DISTRIBUTION)}" in footer


@contextmanager
def _window(browser: Browser, width: int) -> Iterator[None]:
    """The pages laid out in a window ``width`` pixels wide (390: a phone's)."""
    browser.call(
        "Emulation.setDeviceMetricsOverride",
        width=width,
        height=844,
        deviceScaleFactor=1,
        mobile=width < 600,
    )
    try:
        yield
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride")


_BROKEN_CODE = (
    "[...document.querySelectorAll('article :not(pre) > code')].filter(code => "
    "[...code.querySelectorAll('.whole')].some(word => word.getClientRects().length > 1) || "
    "(!code.querySelector('.whole') && code.getClientRects().length > 1))"
    ".map(code => code.textContent)"
)
"""The code in the text that a line end cuts inside a word (``--style com``/``pact``)."""


@needs_chromium
@pytest.mark.parametrize("width", [390, 1280])
def test_the_cli_reference_reads_on_a_phone_and_a_desktop(
    served: tuple[Browser, _Server], width: int
) -> None:
    """Every command's help wraps inside the page (it was a 687-pixel block to scroll sideways)
    and keeps clear of the copy button (which covered "[ARGS]...")."""
    browser, server = served
    with _window(browser, width):
        _visit(browser, server, "/reference/cli/")
        wide = browser.evaluate(
            "[...document.querySelectorAll('article pre > code')]"
            ".filter(code => code.scrollWidth > code.clientWidth + 1).length"
        )
        assert wide == 0, f"{wide} blocks of help run past a {width}-pixel window"
        covered = browser.evaluate(
            """[...document.querySelectorAll('article pre')].filter(pre => {
                const button = pre.querySelector('.md-clipboard');
                const code = pre.querySelector('code');
                if (!button || !code) return false;
                const range = document.createRange();
                range.selectNodeContents(code);
                const b = button.getBoundingClientRect();
                return [...range.getClientRects()].some(r =>
                    r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom);
            }).length"""
        )
        assert covered == 0, f"the copy button covers the help of {covered} commands"


@needs_chromium
@pytest.mark.parametrize("page", ["/", "/tutorial/", "/how-to/scripting/", "/reference/json/"])
def test_code_in_the_text_is_never_cut_on_a_phone(
    served: tuple[Browser, _Server], page: str
) -> None:
    """An option (``--style compact``) or an extra (``.[cluster]``) moves to the next line whole:
    they broke at their hyphen, or in a table's cell in the middle of a word ("clust/er")."""
    browser, server = served
    with _window(browser, 390):
        _visit(browser, server, page)
        assert browser.evaluate(_BROKEN_CODE) == []
        article_width = browser.evaluate("document.querySelector('article').clientWidth")
        past = browser.evaluate(
            "[...document.querySelectorAll('article :not(pre) > code .whole')]"
            ".filter(word => word.getBoundingClientRect().width > "
            f"{article_width} && !word.closest('table')).map(word => word.textContent)"
        )
        assert past == [], "a word of code wider than the page"


@needs_chromium
def test_no_table_shows_the_escape_of_a_bar(served: tuple[Browser, _Server]) -> None:
    """A bar escaped inside a table's code showed as a literal backslash and bar."""
    browser, server = served
    for page in ("/explanation/performance/", "/reference/limits/", "/how-to/export/"):
        assert "\\|" not in _visit(browser, server, page)["text"], page


@needs_chromium
def test_the_api_reference_shows_values_not_the_code_that_makes_them(
    served: tuple[Browser, _Server],
) -> None:
    """``AUTO_ENGINE = registry.AUTO_ENGINE`` and ``engine: str = registry.AUTO_ENGINE`` said
    nothing; a docstring sent the reader to a module the page does not show."""
    browser, server = served
    text = _visit(browser, server, "/reference/api/")["text"]
    assert "AUTO_ENGINE = 'auto'" in text and "engine: str = 'auto'" in text
    assert "MIP_SOLVERS = ('" in text
    assert "registry." not in text and "mip.BACKENDS" not in text
    assert "nqueens.run" not in text and "nqueens.engines" not in text

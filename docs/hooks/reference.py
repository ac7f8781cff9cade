"""MkDocs hook: the reference of every command, written at build time from the click group
itself, as ``nqueens COMMAND --help`` prints it, so the page cannot drift from the program."""

from __future__ import annotations

import html
import importlib
import inspect
import re
from typing import Any

import click

from nqueens.cli import COMMANDS, cli

MARKER = "<!-- the help of every command -->"
"""Where a page wants the reference."""

WIDTH = 80
"""The columns the help is laid out in: a common terminal's, and what a page's code shows."""


def on_config(config: Any, **_: Any) -> Any:
    """Every page's footer names the version of nqueens it documents."""
    from importlib.metadata import PackageNotFoundError, version

    from nqueens import DISTRIBUTION

    try:
        documented = version(DISTRIBUTION)
    except PackageNotFoundError:  # a source tree that was never installed
        documented = "from source"
    config["copyright"] = f"nqueens {documented}, MIT licence"
    return config


def on_page_markdown(markdown: str, **_: Any) -> str:
    """The page with its marker replaced by the help of the group and of every command."""
    return markdown.replace(MARKER, reference()) if MARKER in markdown else markdown


def reference() -> str:
    """A section per command, in the order the group lists them, each its ``--help``."""
    root = _context(cli, "nqueens", None)
    sections = [_section("nqueens", cli.get_help(root))]
    for name in COMMANDS:
        command = cli.get_command(root, name)
        assert command is not None, name
        context = _context(command, name, root)
        sections.append(_section(f"nqueens {name}", command.get_help(context)))
    return "\n\n".join(sections)


def _context(command: click.Command, name: str, parent: click.Context | None) -> click.Context:
    settings = {**command.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    return command.context_class(command, info_name=name, parent=parent, **settings)


def _section(title: str, text: str) -> str:
    """A command's help as a block that wraps its lines on a narrow screen (``cli-help``)."""
    return f"## {title}\n\n``` {{.text .cli-help}}\n{text}\n```"


_PRE = re.compile(r"(<pre\b.*?</pre>)", re.DOTALL)
_INLINE_CODE = re.compile(r"<code>(.*?)</code>", re.DOTALL)


def on_page_content(content: str, **_: Any) -> str:
    """Code in the text keeps each word whole (``--style``, ``.[cluster]``), so a narrow screen
    breaks it only between words: each word is a span that does not wrap (extra.css). Code
    blocks are left as they are. The API's signatures show values, not the code that makes
    them (``AUTO_ENGINE = 'auto'``, not ``= registry.AUTO_ENGINE``)."""
    content = _SIGNATURE.sub(_with_values, content)
    return "".join(
        part if part.startswith("<pre") else _INLINE_CODE.sub(_words_whole, part)
        for part in _PRE.split(content)
    )


_SIGNATURE = re.compile(
    r'(<h\d id="(?P<path>nqueens[\w.]*)"(?:(?!<h\d).)*?'
    r'<div class="doc-signature highlight"><pre><span></span><code>)(?P<code>.*?)(</code>)',
    re.DOTALL,
)


def _with_values(signature: re.Match[str]) -> str:
    """A signature of the API with each value its code computes written as the value: an
    attribute's, and each default of a function's parameters."""
    text = html.unescape(re.sub(r"<[^>]+>", "", signature["code"]))
    module, _, name = signature["path"].rpartition(".")
    try:
        value = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return signature[0]
    if hasattr(value, "__origin__"):  # a type alias (``Callable[[Plan], object]``): as written
        return signature[0]
    if callable(value) and not isinstance(value, type):
        shown = text
        for parameter in inspect.signature(value).parameters.values():
            if parameter.default is not inspect.Parameter.empty:
                pattern = rf"(\b{parameter.name}\b[^=\n]*= )([^,\n]+)"
                default = repr(parameter.default).replace("\\", "\\\\")
                shown = re.sub(pattern, rf"\g<1>{default}", shown, count=1)
    elif (declared := re.match(rf"{name}(: [^=]+)? = ", text)) and not isinstance(value, type):
        written = repr(value)
        # a value too long to read in a signature (a table of every engine) shows its type alone
        shown = declared[0][:-3] if len(written) > 100 else f"{declared[0]}{written}"
        shown += "\n"
    else:
        return signature[0]
    if shown == text:
        return signature[0]
    return signature[1] + html.escape(shown, quote=False) + signature[4]


def _words_whole(code: re.Match[str]) -> str:
    words = code.group(1).split(" ")
    spans = " ".join(f'<span class="whole">{word}</span>' if word else word for word in words)
    return f"<code>{spans}</code>"

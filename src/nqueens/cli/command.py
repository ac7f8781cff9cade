"""The command every nqueens command is: its help, which breaks lines between words only, the
--color option after the command's name, and an unknown option answered with the ones it may
have meant."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from nqueens.cli.options import color_option

_HYPHEN_STAND_IN = "\N{NON-BREAKING HYPHEN}"


@contextmanager
def _whole_words() -> Iterator[None]:
    """While help is written, click's wrapping breaks lines between words only, never at a
    word's hyphen ("cp-" / "sat"): hyphens stand in as non-breaking ones while it wraps."""
    from click import formatting

    wrap_text = formatting.wrap_text

    def wrap_whole_words(text: str, *args: Any, **kwargs: Any) -> str:
        return wrap_text(text.replace("-", _HYPHEN_STAND_IN), *args, **kwargs).replace(
            _HYPHEN_STAND_IN, "-"
        )

    formatting.wrap_text = wrap_whole_words
    try:
        yield
    finally:
        formatting.wrap_text = wrap_text


class HelpFormatter(click.HelpFormatter):
    """Help whose lines break between words only."""

    def write_text(self, text: str) -> None:
        with _whole_words():
            super().write_text(text)

    def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        with _whole_words():
            super().write_dl(rows, col_max, col_spacing)


class QueensContext(click.Context):
    """The context of every nqueens command: help that breaks lines between words."""

    formatter_class = HelpFormatter


class QueensCommand(click.Command):
    """A command that takes --color/--no-color after its name too, and reports a negative N
    (``-3``) as a bad N rather than an unknown option."""

    context_class = QueensContext

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.append(color_option())

    def get_short_help_str(self, limit: int = 45) -> str:
        """The command's summary whole, wrapped by the list it is in, never cut with '...'."""
        return self.short_help or (self.help or "").split("\n\n")[0].strip()

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        typed = list(args)  # click's parser consumes the list it is given
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as error:
            if re.fullmatch(r"-[0-9]+(\.[0-9]*)?", error.option_name):
                # click names only the part it took for an option ("-5" of "-5.5"): quote the
                # whole argument the user typed.
                whole = next((arg for arg in typed if arg.startswith(error.option_name)), "")
                raise click.BadParameter(
                    f"N must be a positive whole number, not {whole or error.option_name}",
                    ctx=ctx,
                    param_hint="'N'",
                ) from None
            raise _NoSuchOption(error, _options_like(error.option_name, self.params)) from None


class _NoSuchOption(click.UsageError):
    """An option the command does not take, with the options it may have meant."""

    def __init__(self, error: click.NoSuchOption, near: list[str]) -> None:
        super().__init__(error.message, error.ctx)
        self.near = near

    def format_message(self) -> str:
        if not self.near:
            return self.message
        if len(self.near) == 1:
            return f"{self.message} Did you mean {self.near[0]!r}?"
        return f"{self.message} (Did you mean one of: {', '.join(map(repr, self.near))}?)"


def _options_like(typed: str, params: list[click.Parameter]) -> list[str]:
    """The options a mistyped ``typed`` may have meant: one a letter or two away from it
    (``--limt``: ``--limit``), or with a word that is (``--time-limit``). difflib's choice
    offered ``--quiet`` for ``--limt``."""
    word = typed.lstrip("-")
    if not word:
        return []
    near: list[tuple[int, str]] = []
    for option in (opt for param in params for opt in param.opts if opt.startswith("--")):
        name = option[2:]
        whole = _typing_distance(word, name)
        parts = min(_typing_distance(word, part) for part in name.split("-"))
        allowed = 1 if len(word) <= 4 else 2
        if whole <= allowed or parts <= 1:
            near.append((min(whole, parts), option))
    return [option for _, option in sorted(near)]


def _typing_distance(first: str, second: str) -> int:
    """Letters added, dropped, changed or swapped to turn ``first`` into ``second``."""
    previous2: list[int] = []
    previous = list(range(len(second) + 1))
    for i, letter in enumerate(first, start=1):
        current = [i]
        for j, other in enumerate(second, start=1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (letter != other))
            if i > 1 and j > 1 and letter == second[j - 2] and first[i - 2] == other:
                cost = min(cost, previous2[j - 2] + 1)
            current.append(cost)
        previous2, previous = previous, current
    return previous[-1]

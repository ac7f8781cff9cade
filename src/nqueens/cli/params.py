"""The command line's parameter types: whole numbers, seconds, board sizes and names, each
refusing a bad value with a message that says what was wrong (exit 2); and how an API argument
is spelled as an option. Files read as parameters are ``nqueens.cli.sources``'s."""

from __future__ import annotations

import re

import click

from nqueens import api
from nqueens.api import COUNT, FIRST, InputError
from nqueens.core.validation import read_whole, shown


def option_flag(argument: str) -> str:
    """The command-line option for an API argument: ``mip_solver`` -> ``--mip-solver``."""
    return "--" + argument.replace("_", "-")


class WholeNumber(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.3 on
    """A whole number in ASCII digits, at least ``minimum``: one rule for every number typed."""

    name = "integer"

    def __init__(self, minimum: int, maximum: int | None = None, why_maximum: str = "") -> None:
        self.minimum = minimum
        self.maximum = maximum
        self.why_maximum = why_maximum

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip()
        if not re.fullmatch(r"[+-]?[0-9]+", text):
            self.fail(f"{shown(text)} is not a whole number (digits 0-9)", param, ctx)
        number = read_whole(text)
        if number < self.minimum:
            self.fail(f"{shown(number)} is less than {self.minimum}", param, ctx)
        if self.maximum is not None and number > self.maximum:
            self.fail(
                f"{shown(number)} is more than {self.maximum:,}{self.why_maximum}", param, ctx
            )
        return number


class Seconds(click.ParamType):  # type: ignore[type-arg]
    """A positive number of seconds in ASCII (``30``, ``0.5``, ``1e3``, ``inf``: no limit)."""

    name = "seconds"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        if isinstance(value, float):
            return value
        text = str(value).strip()
        number = r"([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?"
        if not re.fullmatch(rf"[+-]?({number}|inf|infinity)", text, flags=re.IGNORECASE):
            self.fail(f"{text!r} is not a number of seconds", param, ctx)
        seconds = float(text)
        if seconds <= 0:
            self.fail(f"a number of seconds must be positive, not {text}", param, ctx)
        return seconds


class BoardSizes(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.3 on
    """Board sizes such as ``4-12`` or ``50,100,200`` (or a mix), each one nqueens accepts."""

    name = "SIZES"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> list[int]:
        if isinstance(value, list):
            return value
        sizes: list[int] = []
        for part in str(value).split(","):
            match = re.fullmatch(r"\s*(\+?[0-9]+)\s*(?:-\s*(\+?[0-9]+)\s*)?", part)
            if match is None:
                self.fail(f"{part.strip()!r} is not a size or a range such as 4-12", param, ctx)
            low, high = int(match.group(1)), int(match.group(2) or match.group(1))
            if low > high:
                self.fail(f"the range {low}-{high} is empty", param, ctx)
            command = FIRST if param is not None and param.name == "first_sizes" else COUNT
            if low < 1:
                self.fail(f"a board size must be at least 1, not {low}", param, ctx)
            for n in (low, high):
                try:
                    api.check_board_size(n, command)
                except InputError as error:
                    self.fail(str(error), param, ctx)
            sizes.extend(range(low, high + 1))
        return sizes


class Names(click.ParamType):  # type: ignore[type-arg]
    """A comma-separated list of names, each one of ``allowed``."""

    name = "NAMES"

    def __init__(self, allowed: tuple[str, ...]) -> None:
        self.allowed = allowed

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> list[str]:
        if isinstance(value, list):
            return value
        names = [name.strip() for name in str(value).split(",") if name.strip()]
        unknown = [name for name in names if name not in self.allowed]
        if unknown or not names:
            self.fail(
                f"{', '.join(unknown) or 'nothing'}: choose from {', '.join(self.allowed)}",
                param,
                ctx,
            )
        return names

"""The --engine option's type: the engines a command runs, and a word for one that runs other
commands only."""

from __future__ import annotations

from typing import Any

import click

from nqueens.api import ENGINES
from nqueens.core.wording import either

_WHAT_COMMANDS_DO = {
    "solve": "lists solutions",
    "count": "counts",
    "first": "finds one solution",
}


class EngineChoice(click.Choice[str]):
    """The engines a command runs; an engine that runs other commands only is named as such,
    with what it does and which engines this command takes."""

    def __init__(self, engines: list[str], command_name: str) -> None:
        super().__init__(engines)
        self.command_name = command_name

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        engine = ENGINES.get(value) if isinstance(value, str) else None
        if engine is not None and value not in self.choices:
            commands = sorted(engine.commands)
            does = either([_WHAT_COMMANDS_DO[command] for command in commands])
            runs = ", ".join(f"nqueens {command} --engine {value}" for command in commands)
            takes = either([str(choice) for choice in self.choices])
            self.fail(
                f"the {value} engine only {does} ({runs}); {self.command_name} takes {takes}",
                param,
                ctx,
            )
        return super().convert(value, param, ctx)

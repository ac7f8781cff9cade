"""A note: something worth saying beside a search's answer, or beside a refusal, in words
that name the caller's arguments as the caller spells them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Note:
    """Something worth saying beside a search's answer, such as an engine far slower than the
    one nqueens would pick. Where it mentions an argument it writes it as ``{name}`` (each of
    ``names``): ``str()`` spells it as the API does (``engine=``), ``worded`` as a caller's
    ``spell`` does (the command line's ``--engine``)."""

    template: str
    names: tuple[str, ...] = ()

    def worded(self, spell: Callable[[str], str]) -> str:
        """The note, each argument it mentions spelled by ``spell``."""
        text = self.template
        for name in self.names:
            text = text.replace(f"{{{name}}}", spell(name))
        return text

    def __str__(self) -> str:
        return self.worded(lambda name: f"{name}=")

"""What every layer says of squares, of input it refuses and of a count that cannot go on: the
lowest module of the package, so that the board, its checks, the results and the command line
can all use it without importing what raises them."""

from __future__ import annotations

from collections.abc import Callable

from nqueens.core.notes import Note

Square = tuple[int, int]
"""A square as code sees it: 0-based ``(row, col)``. People read and type 1-based ROW,COL."""


class InputError(ValueError):
    """An argument outside what nqueens accepts; the message says why, for the user to read.

    ``argument`` names the API argument at fault, where there is one, so that a caller with other
    names for its arguments (the command line's options) can name its own. A message that
    mentions arguments writes each of ``names`` as ``{name}``: ``str()`` spells it as the API does
    (``time_limit=``), ``worded`` as the caller's ``spell`` does. ``notes`` are what the search's
    plan would have said first, where it was refused once they were known (an engine named
    far slower than the one nqueens would pick, say): a caller says them before the refusal.
    """

    notes: tuple[Note, ...] = ()

    def __init__(
        self, message: str, *, argument: str | None = None, names: tuple[str, ...] = ()
    ) -> None:
        self.template = message
        self.argument = argument
        self.names = names
        super().__init__(self.worded(lambda name: f"{name}="))

    def worded(self, spell: Callable[[str], str]) -> str:
        """The message, each argument it mentions spelled by ``spell``."""
        text = self.template
        for name in self.names:
            text = text.replace(f"{{{name}}}", spell(name))
        return text


class CheckpointUnwritable(OSError):
    """A finished subproblem could not be written to the checkpoint (a full disk, a quota);
    ``kept`` subproblems are safe in it."""

    kept = 0


class ClusterLost(RuntimeError):
    """The scheduler went away in the middle of a count."""


class ClusterUnreachable(RuntimeError):
    """No scheduler answered at the address within the connect timeout."""

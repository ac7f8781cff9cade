"""The rich consoles of the command line, loaded only where something is drawn or said: a
command whose output goes to a pipe, with nothing to say, starts without rich."""

from __future__ import annotations

import errno
import os

from rich.console import Console


class StreamConsole(Console):
    """A rich console that leaves a reader who closed the pipe to the command line.

    rich's own answer to a closed pipe is to raise SystemExit(1), after pointing stdout (whichever
    stream the console writes to) at /dev/null: ``nqueens bench | head -c 5`` ended with exit 1
    and no word. Here a closed stdout raises BrokenPipeError, which the command line answers as
    it answers every write to a closed pipe (exit 0, quietly); a closed stderr only silences
    this console, so that the data on stdout goes on.
    """

    def on_broken_pipe(self) -> None:
        self.quiet = True
        if not self.stderr:
            raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))

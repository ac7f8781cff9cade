"""When the command started: a time limit given on the command line covers the whole command,
start-up included, not only the search that follows it.

Only the standard library is imported here, so that the entry point can start the clock before
the command line, the API and the solvers load.
"""

from __future__ import annotations

import time

LEAST_SECONDS = 1e-3
"""What is left of a limit that start-up has used up: the search stops at once, with what it has."""

_started: float | None = None  # time.monotonic() when the process started; None: not a command


def start() -> None:
    """Start the command's clock now, as nqueens itself starts: what ran in the same process
    before it (a shell that waited, then ran ``exec nqueens``) is not the command's time."""
    global _started
    _started = time.monotonic()


def remaining(limit: float | None) -> float | None:
    """What is still to come of a time limit counted from the command's start (the whole
    limit where no command started the clock: the API counts from its own call)."""
    if limit is None or _started is None:
        return limit
    return max(limit - (time.monotonic() - _started), LEAST_SECONDS)


def since_start(search_seconds: float) -> float:
    """The seconds the user has waited: since the command started where one did (start-up
    included, as a stopwatch measures it), else the search's own ``search_seconds``."""
    if _started is None:
        return search_seconds
    return max(time.monotonic() - _started, search_seconds)


def seconds_until(deadline: float | None) -> float | None:
    """The seconds left until ``deadline``, a time.monotonic() (None: no deadline), for a
    solver's own limit: a little, never nothing, once it has passed, since some read 0 as none."""
    return None if deadline is None else max(deadline - time.monotonic(), LEAST_SECONDS)

"""A local cluster (``--cluster local:K``): the limits it needs met before it starts, why it did
not start in words, and its end."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from nqueens.core.results import InputError
from nqueens.core.wording import counted

FILES_FOR_LOCAL = (40, 8)
"""The files a local cluster opens: about this many, and this many more for each worker (its
sockets and pipes), measured with ulimit -n."""

THREADS_FOR_LOCAL = (40, 30)
"""The processes and threads a local cluster starts, which ulimit -u counts: about this many,
and this many more for each worker."""


def enough_for(workers: int) -> None:
    """Raise this process's limits on open files and on processes to what a local cluster of
    ``workers`` needs, where they are lower and the system lets it (up to their hard limits);
    InputError, before anything starts, where it does not: Dask otherwise retries for half a
    minute and says its workers failed to start."""
    import resource

    for limit, (base, each), what in (
        (resource.RLIMIT_NOFILE, FILES_FOR_LOCAL, "open files (ulimit -n)"),
        (resource.RLIMIT_NPROC, THREADS_FOR_LOCAL, "processes and threads (ulimit -u)"),
    ):
        needed = base + each * workers
        soft, hard = resource.getrlimit(limit)
        in_use = _running_tasks() if limit == resource.RLIMIT_NPROC else 0  # the user's, all
        if soft == resource.RLIM_INFINITY or soft - in_use >= needed:
            continue
        wanted = in_use + needed
        if hard == resource.RLIM_INFINITY or hard >= wanted:  # within reach: raised
            with suppress(OSError, ValueError):
                resource.setrlimit(limit, (wanted, hard))
                continue
        raise InputError(
            f"a local cluster of {counted(workers, 'worker process')} needs about {needed:,} "
            f"{what}, and this process may have {soft:,}: raise the limit, or give fewer workers"
        )


def _running_tasks() -> int:
    """The threads this user runs now, which ulimit -u counts along with processes (0 where
    /proc cannot say)."""
    uid = os.getuid()
    running = 0
    with suppress(OSError):
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                with suppress(OSError):
                    if entry.stat().st_uid == uid:
                        running += len(os.listdir(f"/proc/{entry.name}/task"))
    return running


def exhausted(error: BaseException) -> BaseException | None:
    """Memory or threads running out, where that is what made a local cluster fail to start
    (Dask wraps it): the error itself, for the command line to say as it says it everywhere."""
    seen = 0
    cause: BaseException | None = error
    while cause is not None and seen < 20:
        if isinstance(cause, MemoryError):
            return cause
        if isinstance(cause, RuntimeError) and str(cause) == "can't start new thread":
            return cause
        seen += 1
        cause = cause.__cause__ or cause.__context__
    return None


def not_started(error: Exception) -> str:
    """Why a local cluster did not start, with the usual cause where Dask's words hide it."""
    said = f"the cluster did not start: {error}"
    if "Nanny failed to start" not in str(error):
        return said
    try:
        multiprocessing.get_context("spawn").Lock()
    except OSError as refused:  # no /dev/shm for the locks the workers' start needs
        return f"{said} (the system makes no locks between processes here: {refused})"
    return (
        f"{said} (its workers are started as Python's multiprocessing does, which runs the "
        "main script again in each: a script that counts on a local cluster must do so under "
        "if __name__ == '__main__':)"
    )


def not_awaited(kind: type[BaseException] | None, deadline: float | None) -> bool:
    """Whether a cluster or its client ends without waiting on it: after a stop signal
    (``kind``, what ended the block), or past the count's ``deadline`` (a time.time()), as the
    command ends and nothing the cluster holds is wanted."""
    stopped = kind is not None and issubclass(kind, KeyboardInterrupt)
    return stopped or (deadline is not None and time.time() >= deadline)


def closing(local: Any, deadline: float | None = None) -> Callable[..., bool]:
    """How a local cluster ends: closed, its workers told to finish, after a count; after a stop
    signal or past the count's ``deadline`` (a time.time()), its worker processes killed at once
    (a close takes half a second more), as the command ends and nothing they hold is wanted.
    From now on a worker that ends is not started again: the others count what it held, and a
    start under way as the command ends would leave its half-started process saying so on
    stderr (a stop sent to the group can end a worker before the count does)."""
    for nanny in list(getattr(local, "workers", {}).values()):
        nanny.auto_restart = False

    def close(kind: type[BaseException] | None, *_: object) -> bool:
        if not_awaited(kind, deadline):
            killed = []
            for nanny in list(getattr(local, "workers", {}).values()):
                pid = getattr(
                    getattr(getattr(nanny, "process", None), "process", None), "pid", None
                )
                if isinstance(pid, int):
                    with suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
            for child in multiprocessing.active_children():  # reaped: none left a zombie
                if child.pid in killed:
                    child.join(_KILLED_SECONDS)
            # Dask closes every cluster still open as the interpreter exits, waiting up to ten
            # seconds on the scheduler: this one is closing already.
            instances = getattr(type(local), "_instances", None)
            if instances is not None:
                instances.discard(local)
            in_background(local.close)
            return False
        local.close()
        return False

    return close


@contextmanager
def tracker_quiet() -> Iterator[None]:
    """Start Python's resource tracker, in this block, with its warnings off: after a stop
    signal the local workers are killed, and the semaphores they held are freed by the tracker,
    which then warns of each ("leaked semaphore objects") on the terminal."""
    quiet = "ignore::UserWarning:multiprocessing.resource_tracker"
    sys.warnoptions.append(quiet)  # read as the tracker's interpreter is started
    try:
        yield
    finally:
        sys.warnoptions.remove(quiet)


def in_background(close: Callable[[], object]) -> None:
    """Close a Dask client or cluster after a stop signal without waiting for it: a close waits
    on the scheduler, up to a second under load (and a client's up to its ten-second timeout),
    while the command ends at once and a program that goes on sees it finish."""

    def quietly() -> None:
        with suppress(Exception):
            close()

    threading.Thread(target=quietly, name="nqueens-close", daemon=True).start()


_KILLED_SECONDS = 1.0  # for a killed worker process to be reaped

"""The cluster executor: subproblems counted on a Dask distributed cluster.

``--cluster tcp://scheduler:8786`` uses a running cluster (``dask scheduler`` on one machine,
``dask worker ADDRESS`` on the others, each with the same nqueens installed); ``local:K`` starts
a ``LocalCluster`` of K worker processes on this machine, for trying it out. Subproblems travel in
batches, so that Dask's own cost per task (about a millisecond) stays a small part of the work,
and results stream back as they complete. A worker that dies has its tasks run again elsewhere by
the scheduler; a scheduler that goes away ends the count with ClusterLost.
"""

from __future__ import annotations

import logging
import math
import re
import time
from collections.abc import Generator, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from multiprocessing import resource_tracker
from typing import Any

from nqueens import signals
from nqueens.engines.executors import Counted, Numbered, batches_of, count_batch
from nqueens.results import InputError

_LOCAL = re.compile(r"local:([0-9]{1,4})")
_CONNECT_SECONDS = 5
_RECONNECT_SECONDS = 5  # how long the client may look for its lost scheduler
_POLL_SECONDS = 0.2
_AHEAD_PER_THREAD = 4
_THREADS_CHECK_SECONDS = 5.0


class ClusterLost(RuntimeError):
    """The scheduler went away in the middle of a count."""


def check_address(address: str) -> str:
    """``address`` if it names a cluster: ``local:K`` or a scheduler address."""
    local = _LOCAL.fullmatch(address)
    if local is not None:
        if int(local.group(1)) < 1:
            raise InputError("a local cluster needs at least one worker: local:1 or more")
        return address
    if not re.fullmatch(r"(tcp|tls|ws|wss|inproc)://\S+|[A-Za-z0-9.\-\[\]:]+:[0-9]+", address):
        raise InputError(
            f"{address!r} is not a cluster: give a scheduler's address (tcp://host:8786) or "
            "local:K for K worker processes here"
        )
    return address


def dask() -> Any:
    """The distributed package, or an InputError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise InputError(
            "--cluster needs Dask: pip install 'nqueens[cluster]'",
        ) from None
    return distributed


@contextmanager
def connected(address: str) -> Iterator[Any]:
    """A client of the cluster at ``address`` (``local:K``: a local cluster started for it),
    closed when the block ends."""
    distributed = dask()
    _quiet_logs()
    with ExitStack() as stack:
        with signals.held():
            if _LOCAL.fullmatch(address):
                # Started before the mask below: Python, starting it, unblocks SIGINT in the
                # thread that does, which would let a Ctrl-C reach the local cluster's workers.
                resource_tracker.ensure_running()
            with signals.blocked(signals.GROUP_SIGNALS):  # the local workers leave it to us
                client = _connect(distributed, address, stack)
        yield client


def threads(client: Any) -> int:
    """How many subproblems the cluster counts at once."""
    return max(1, int(sum(client.nthreads().values())))


def on_cluster(
    client: Any,
    tasks: Sequence[Numbered],
    workers: int,
    deadline: float | None,
    seconds_each: float | None,
) -> Generator[Counted, None, None]:
    """Count subproblems on the client's cluster, whose ``workers`` threads the batches are cut
    for; closing the iterator cancels what is left.

    Batches go to the scheduler a few per worker thread ahead of the workers, not all at once:
    the tens of thousands of a long count would weigh on the scheduler, and on its close.
    """
    distributed = dask()
    waiting = iter(batches_of(tasks, workers, seconds_each))
    pending = distributed.as_completed(loop=client.loop)
    live: set[Any] = set()  # submitted, not yet back
    ahead = _Ahead(client)

    def submit() -> None:
        while len(live) < ahead.batches() and (batch := next(waiting, None)) is not None:
            future = client.submit(count_batch, batch, pure=False)
            live.add(future)
            pending.add(future)

    try:
        submit()
        cut_off_since: float | None = None  # when the client lost its scheduler
        while not pending.is_empty():
            if deadline is not None and time.time() > deadline + 1:
                return
            if not pending.has_ready():
                if client.status == "running":
                    cut_off_since = None
                else:
                    cut_off_since = cut_off_since or time.monotonic()
                    if time.monotonic() - cut_off_since > _RECONNECT_SECONDS:
                        raise ClusterLost("no answer from the scheduler")
                time.sleep(_POLL_SECONDS)
                continue
            for future in pending.next_batch(block=False):
                live.discard(future)
                try:
                    yield from future.result()
                except (OSError, distributed.client.FutureCancelledError) as error:
                    raise ClusterLost(str(error) or type(error).__name__) from None
            submit()
    finally:
        client.cancel(list(live))


class _Ahead:
    """How many batches to keep submitted: _AHEAD_PER_THREAD per worker thread, so none waits
    for work, looked up again now and then, since workers may join or leave a running cluster."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._checked = -math.inf
        self._batches = 0

    def batches(self) -> int:
        if time.monotonic() - self._checked > _THREADS_CHECK_SECONDS:
            self._batches = _AHEAD_PER_THREAD * threads(self._client)
            self._checked = time.monotonic()
        return self._batches


def _quiet_logs() -> None:
    """Dask's loggers report a lost connection with a traceback, each at its own level;
    nqueens says it once, in words."""
    for name in list(logging.root.manager.loggerDict):
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _connect(distributed: Any, address: str, stack: ExitStack) -> Any:
    local = _LOCAL.fullmatch(address)
    try:
        if local is not None:
            cluster = distributed.LocalCluster(
                n_workers=int(local.group(1)),
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",  # this machine only
                dashboard_address=":0",  # any free port: never in the way of another cluster
                silence_logs=logging.CRITICAL,
            )
            stack.callback(cluster.close)
            address = cluster.scheduler_address
        client = distributed.Client(address, timeout=_CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise InputError(f"cannot reach the cluster at {address}: {error}") from None
    stack.callback(client.close)
    return client

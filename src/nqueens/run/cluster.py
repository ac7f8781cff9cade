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
import os
import re
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, replace
from multiprocessing import resource_tracker
from typing import Any

from nqueens.core import signals
from nqueens.core.errors import ClusterLost as ClusterLost
from nqueens.core.errors import ClusterUnreachable as ClusterUnreachable
from nqueens.core.results import InputError
from nqueens.core.validation import read_whole, shown
from nqueens.engines.base import Engine
from nqueens.run import local_cluster
from nqueens.run.executors import Counted, Numbered
from nqueens.run.feeders import Batches, Shares
from nqueens.run.limits import CONNECT_SECONDS as CONNECT_SECONDS
from nqueens.run.limits import MAX_WORKERS

_SCHEMES = ("tcp", "tls", "ws", "wss")
_ADDRESS = re.compile(
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*)://)?"
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_][A-Za-z0-9_.\-]*)"
    r"(?::(?P<port>[0-9]+))?(?P<rest>.*)",
    re.DOTALL,
)
_RECONNECT_SECONDS = 5  # how long the client may look for its lost scheduler
_POLL_SECONDS = 0.2


@dataclass(frozen=True)
class Cluster:
    """Where a count runs: the scheduler at ``address``, or a cluster of ``local_workers``
    processes started here; ``connect_seconds`` is how long a scheduler has to answer."""

    address: str
    local_workers: int | None = None
    connect_seconds: float | None = CONNECT_SECONDS
    time_limited: bool = False  # the count's time limit ends the wait before connect_seconds
    deadline: float | None = None  # the count's, a time.time(): past it, the end is not awaited


def check_address(address: str, connect_seconds: float | None = CONNECT_SECONDS) -> Cluster:
    """The cluster ``address`` names, ``local:K`` or ``[scheme://]host:port``, checked whole
    before anything is started or reached; a malformed one is an InputError."""
    usage = "give a scheduler's address (tcp://host:8786) or local:K for K worker processes here"
    if address.startswith("local:"):
        workers = address.removeprefix("local:")
        if not workers.isascii() or not workers.isdigit():
            raise InputError(f"{shown(address)} is not a cluster: local:K takes a number, local:2")
        local_workers = read_whole(workers)
        if not 1 <= local_workers <= MAX_WORKERS:
            raise InputError(
                f"a local cluster takes 1 to {MAX_WORKERS:,} worker processes, "
                f"not {shown(local_workers)}"
            )
        return Cluster(address, local_workers, connect_seconds)
    parts = _ADDRESS.fullmatch(address) if address.isascii() else None
    if parts is None or parts["rest"]:
        raise InputError(f"{shown(address)} is not a cluster: {usage}")
    scheme, port = parts["scheme"], parts["port"]
    if scheme is not None and scheme.lower() not in _SCHEMES:
        raise InputError(
            f"{shown(address)}: a cluster is reached over {', '.join(_SCHEMES)}, not {scheme}"
        )
    if port is None:
        raise InputError(f"{shown(address)} has no port: {usage}")
    if not 1 <= read_whole(port) <= 65535:
        raise InputError(f"{shown(address)}: a port is a number from 1 to 65535")
    return Cluster(address, None, connect_seconds)


def dask() -> Any:
    """The distributed package, or an InputError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise InputError(
            "counting on a cluster needs Dask: the cluster extra, pip install '.[cluster]' in "
            "nqueens's checkout"
        ) from None
    return distributed


@contextmanager
def connected(cluster: Cluster, deadline: float | None) -> Iterator[Any]:
    """A client of ``cluster`` (a local one is started for it), closed when the block ends;
    ClusterUnreachable if its scheduler does not answer in time (by the ``deadline`` at the
    latest, a time.time())."""
    distributed = dask()
    _quiet_logs()
    cluster = replace(cluster, deadline=deadline)
    if deadline is not None and cluster.local_workers is None:  # a local one is there once up
        left = max(0.001, deadline - time.time())
        seconds = cluster.connect_seconds
        if seconds is None or left < seconds:
            cluster = replace(cluster, connect_seconds=left, time_limited=True)
    if cluster.local_workers is None:
        _knock(cluster)
        _reach(distributed, cluster)
    else:
        _current_folder_checked()
        local_cluster.enough_for(cluster.local_workers)
    with ExitStack() as stack:
        client = None
        with signals.held() as arrived:
            if cluster.local_workers is not None:
                # Started before the mask below: Python, starting it, unblocks SIGINT in the
                # thread that does, which would let a Ctrl-C reach the local cluster's workers.
                # It ignores SIGINT and SIGTERM, not SIGHUP: started with SIGHUP blocked, it
                # outlives a hang-up sent to the group, and so knows what the workers unregister.
                with signals.blocked(signals.HANG_UP), local_cluster.tracker_quiet():
                    resource_tracker.ensure_running()
            with signals.blocked(signals.GROUP_SIGNALS):  # the local workers leave it to us
                try:
                    client = _connect(distributed, cluster, stack)
                except ClusterUnreachable:
                    raise
                except Exception as error:
                    # A stop signal sent to the group while the local cluster starts kills its
                    # nannies ("Nanny failed to start"): the stop is what happened, and the
                    # held signal ends the block with it. Memory or threads running out is said
                    # as everywhere else (exit 2), not as a cluster out of reach.
                    if not arrived:
                        exhausted = local_cluster.exhausted(error)
                        if exhausted is not None:
                            raise exhausted from None
                        raise ClusterUnreachable(local_cluster.not_started(error)) from None
        assert client is not None  # held() raised KeyboardInterrupt otherwise
        yield client


def on_cluster(
    client: Any,
    tasks: Sequence[Numbered],
    workers: int,
    deadline: float | None,
    seconds_each: float | None,
    engine: Engine | None = None,
) -> Generator[Counted, None, None]:
    """Count subproblems on the client's cluster, whose ``workers`` threads the batches are cut
    for; closing the iterator cancels what is left.

    Batches go to the scheduler a few per worker thread ahead of the workers, not all at once:
    the tens of thousands of a long count would weigh on the scheduler, and on its close. An
    ``engine`` whose pieces need a worker resource (a GPU) shares them as Shares says.
    """
    distributed = dask()
    feeder: Batches | Shares
    with lost_if_cut_off():
        if engine is not None and engine.resource is not None:
            feeder = Shares(client, tasks, engine)
        else:
            feeder = Batches(client, tasks, workers, seconds_each)
    # Its results are fetched as they complete, by Dask: a result lost with its worker is
    # waited for until the piece is counted again, and one given back comes as cancelled.
    pending = distributed.as_completed(loop=client.loop, with_results=True)
    if deadline is not None and time.time() >= deadline:  # spent reaching or starting it
        return

    def submit() -> None:
        """More to the scheduler, but none once the deadline has passed: a piece sent then
        would only come back with nothing, and the count would wait for it."""
        if deadline is None or time.time() < deadline:
            feeder.submit(pending)

    try:
        with lost_if_cut_off():
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
                    submit()  # workers may have joined, or left what they held
                    continue
                for future, counted in pending.next_batch(block=False):
                    if feeder.given_back(future):
                        continue
                    if isinstance(counted, BaseException):  # cancelled: the scheduler went away
                        raise ClusterLost(str(counted) or type(counted).__name__) from None
                    feeder.finished(future)
                    yield from counted
                submit()
    finally:
        with suppress(OSError):  # a client cut off from its scheduler has nothing out there
            client.cancel(feeder.live())


@contextmanager
def lost_if_cut_off() -> Iterator[None]:
    """A call to the scheduler that finds the client cut off from it (Dask's CommClosedError,
    an OSError) as ClusterLost: the count cannot go on, and nothing failed to be written."""
    try:
        yield
    except OSError as error:
        raise ClusterLost(str(error) or type(error).__name__) from None


def _current_folder_checked() -> None:
    """Python starts a local cluster's workers and its resource tracker in the current folder:
    where that no longer exists, each fails (Dask says "Nanny failed to start", and Python
    3.13's tracker prints a traceback), so nothing is started and the count says why."""
    try:
        os.getcwd()
    except OSError:
        raise ClusterUnreachable(
            "the current folder no longer exists: change to one that does"
        ) from None


def _quiet_logs() -> None:
    """Dask's loggers report a lost connection with a traceback, each at its own level, and so
    does tornado's, which runs Dask's client (as_completed's fetch of a result cut off with
    the scheduler); nqueens says it once, in words."""
    names = [*logging.root.manager.loggerDict, "tornado.application"]
    for name in names:
        if name == "distributed" or name.startswith("distributed.") or name.startswith("tornado."):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _waited(cluster: Cluster) -> str:
    """How long the scheduler was waited for, in the user's words: until the time limit they
    gave, where it ended the wait, else the seconds to connect."""
    if cluster.time_limited:
        return "before the count's time limit ran out"
    return f"within {cluster.connect_seconds:.3g} s"


def _knock(cluster: Cluster) -> None:
    """Open and close a plain connection to the scheduler's host and port: a refusal is an
    answer, said at once (Dask would retry it until its timeout), and so is a host that does
    not resolve. Where the knock itself times out, Dask's greeting says so."""
    import socket

    parts = _ADDRESS.fullmatch(cluster.address)
    assert parts is not None and parts["port"] is not None  # check_address made sure
    host = parts["host"].strip("[]")
    seconds = cluster.connect_seconds
    try:
        with socket.create_connection((host, int(parts["port"])), timeout=seconds):
            pass
    except ConnectionRefusedError:
        raise ClusterUnreachable(
            f"nothing listens at {host} port {parts['port']} (the connection was refused)"
        ) from None
    except socket.gaierror as error:
        raise ClusterUnreachable(f"the host {host} is unknown ({error.strerror})") from None
    except OSError:  # a timeout, a network out of reach: Dask's own wait says it
        return


def _reach(distributed: Any, cluster: Cluster) -> None:
    """Greet the scheduler, or raise ClusterUnreachable: Dask's own timeout covers reaching the
    port but not the greeting, which a server that is not Dask's never answers."""

    import asyncio

    async def greet() -> None:
        security = distributed.Security()  # TLS settings from Dask's configuration, as Client's
        comm = await distributed.comm.connect(
            cluster.address,
            timeout=cluster.connect_seconds,
            **security.get_connection_args("client"),
        )
        await comm.close()

    started = time.monotonic()
    try:
        asyncio.run(asyncio.wait_for(greet(), cluster.connect_seconds))
    except (OSError, asyncio.TimeoutError) as error:
        seconds = cluster.connect_seconds
        if seconds is not None and time.monotonic() - started >= seconds:  # Dask retried till then
            raise ClusterUnreachable(f"no Dask scheduler answered {_waited(cluster)}") from None
        raise ClusterUnreachable(str(error) or type(error).__name__) from None
    except MemoryError:  # a length read from a stream that is not Dask's
        raise ClusterUnreachable("what answered there is not a Dask scheduler") from None
    except Exception as error:  # whatever the reason, the count cannot go on there
        raise ClusterUnreachable(str(error) or type(error).__name__) from None


def _connect(distributed: Any, cluster: Cluster, stack: ExitStack) -> Any:
    address = cluster.address
    try:
        if cluster.local_workers is not None:
            local = distributed.LocalCluster(
                n_workers=cluster.local_workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",  # this machine only
                dashboard_address=":0",  # any free port: never in the way of another cluster
                silence_logs=logging.CRITICAL,
            )
            stack.push(local_cluster.closing(local, cluster.deadline))
            address = local.scheduler_address
        client = distributed.Client(address, timeout=cluster.connect_seconds, set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise ClusterUnreachable(str(error) or type(error).__name__) from None
    stack.push(_closing(client, cluster.deadline))
    return client


def _closing(client: Any, deadline: float | None) -> Callable[..., bool]:
    """How a client ends: closed, or after a stop signal or past the count's ``deadline``
    closed without waiting for it."""

    def close(kind: type[BaseException] | None, *_: object) -> bool:
        if local_cluster.not_awaited(kind, deadline):
            local_cluster.in_background(client.close)
        else:
            client.close()
        return False

    return close

"""The cluster executor: subproblems counted on a Dask distributed cluster.

``--cluster tcp://scheduler:8786`` uses a running cluster (``dask scheduler`` on one machine,
``dask worker ADDRESS`` on the others, each with the same nqueens installed); ``local:K`` starts
a ``LocalCluster`` of K worker processes on this machine, for trying it out. Subproblems travel in
batches, so that Dask's own cost per task (about a millisecond) stays a small part of the work,
and results stream back as they complete. A worker that dies has its tasks run again elsewhere by
the scheduler; a scheduler that goes away ends the count with ClusterLost.
"""

from __future__ import annotations

import collections
import logging
import math
import re
import time
from collections.abc import Generator, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from multiprocessing import resource_tracker
from typing import Any

from nqueens.core import signals
from nqueens.core.results import InputError
from nqueens.core.validation import read_whole, shown
from nqueens.engines.base import Engine
from nqueens.run.executors import Counted, Numbered, batches_of, count_batch

MAX_LOCAL_WORKERS = 1024
CONNECT_SECONDS = 10.0
"""How long a count waits for a scheduler to answer, unless told otherwise."""

_SCHEMES = ("tcp", "tls", "ws", "wss")
_ADDRESS = re.compile(
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*)://)?"
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_][A-Za-z0-9_.\-]*)"
    r"(?::(?P<port>[0-9]+))?(?P<rest>.*)",
    re.DOTALL,
)
_RECONNECT_SECONDS = 5  # how long the client may look for its lost scheduler
_POLL_SECONDS = 0.2
_AHEAD_PER_THREAD = 4
_THREADS_CHECK_SECONDS = 5.0
FIRST_CPU_SECONDS = 30.0
"""What the devices must have left before a CPU takes a piece whose time is not known yet."""


class ClusterLost(RuntimeError):
    """The scheduler went away in the middle of a count."""


class ClusterUnreachable(RuntimeError):
    """No scheduler answered at the address within the connect timeout."""


@dataclass(frozen=True)
class Cluster:
    """Where a count runs: the scheduler at ``address``, or a cluster of ``local_workers``
    processes started here; ``connect_seconds`` is how long a scheduler has to answer."""

    address: str
    local_workers: int | None = None
    connect_seconds: float | None = CONNECT_SECONDS


def check_address(address: str, connect_seconds: float | None = CONNECT_SECONDS) -> Cluster:
    """The cluster ``address`` names, ``local:K`` or ``[scheme://]host:port``, checked whole
    before anything is started or reached; a malformed one is an InputError."""
    usage = "give a scheduler's address (tcp://host:8786) or local:K for K worker processes here"
    if address.startswith("local:"):
        workers = address.removeprefix("local:")
        if not workers.isascii() or not workers.isdigit():
            raise InputError(f"{shown(address)} is not a cluster: local:K takes a number, local:2")
        local_workers = read_whole(workers)
        if not 1 <= local_workers <= MAX_LOCAL_WORKERS:
            raise InputError(
                f"a local cluster takes 1 to {MAX_LOCAL_WORKERS:,} worker processes, "
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
            "counting on a cluster needs Dask: pip install 'nqueens[cluster]'"
        ) from None
    return distributed


@contextmanager
def connected(cluster: Cluster, deadline: float | None) -> Iterator[Any]:
    """A client of ``cluster`` (a local one is started for it), closed when the block ends;
    ClusterUnreachable if its scheduler does not answer in time (by the ``deadline`` at the
    latest, a time.time())."""
    distributed = dask()
    _quiet_logs()
    if deadline is not None and cluster.local_workers is None:  # a local one is there once up
        left = max(0.001, deadline - time.time())
        seconds = cluster.connect_seconds
        cluster = replace(cluster, connect_seconds=left if seconds is None else min(seconds, left))
    if cluster.local_workers is None:
        _reach(distributed, cluster)
    with ExitStack() as stack:
        client = None
        with signals.held() as arrived:
            if cluster.local_workers is not None:
                # Started before the mask below: Python, starting it, unblocks SIGINT in the
                # thread that does, which would let a Ctrl-C reach the local cluster's workers.
                # It ignores SIGINT and SIGTERM, not SIGHUP: started with SIGHUP blocked, it
                # outlives a hang-up sent to the group, and so knows what the workers unregister.
                with signals.blocked(signals.HANG_UP):
                    resource_tracker.ensure_running()
            with signals.blocked(signals.GROUP_SIGNALS):  # the local workers leave it to us
                try:
                    client = _connect(distributed, cluster, stack)
                except ClusterUnreachable:
                    raise
                except Exception as error:
                    # A stop signal sent to the group while the local cluster starts kills its
                    # nannies ("Nanny failed to start"): the stop is what happened, and the
                    # held signal ends the block with it.
                    if not arrived:
                        raise ClusterUnreachable(f"the cluster did not start: {error}") from None
        assert client is not None  # held() raised KeyboardInterrupt otherwise
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
    engine: Engine | None = None,
) -> Generator[Counted, None, None]:
    """Count subproblems on the client's cluster, whose ``workers`` threads the batches are cut
    for; closing the iterator cancels what is left.

    Batches go to the scheduler a few per worker thread ahead of the workers, not all at once:
    the tens of thousands of a long count would weigh on the scheduler, and on its close. An
    ``engine`` whose pieces need a worker resource (a GPU) shares them as _Shares says.
    """
    distributed = dask()
    feeder: _Batches | _Shares
    if engine is not None and engine.resource is not None:
        feeder = _Shares(client, tasks, engine)
    else:
        feeder = _Batches(client, tasks, workers, seconds_each)
    pending = distributed.as_completed(loop=client.loop)
    if deadline is not None and time.time() >= deadline:  # spent reaching or starting it
        return
    try:
        feeder.submit(pending)
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
                feeder.finished(future)
                try:
                    yield from future.result()
                except (OSError, distributed.client.FutureCancelledError) as error:
                    raise ClusterLost(str(error) or type(error).__name__) from None
            feeder.submit(pending)
    finally:
        client.cancel(feeder.live())


class _Batches:
    """Subproblems in batches, _AHEAD_PER_THREAD per worker thread submitted ahead, looked up
    again now and then, since workers may join or leave a running cluster."""

    def __init__(
        self, client: Any, tasks: Sequence[Numbered], workers: int, seconds_each: float | None
    ) -> None:
        self._client = client
        self._waiting = iter(batches_of(tasks, workers, seconds_each))
        self._live: set[Any] = set()  # submitted, not yet back
        self._checked = -math.inf
        self._ahead = 0

    def submit(self, pending: Any) -> None:
        if time.monotonic() - self._checked > _THREADS_CHECK_SECONDS:
            self._ahead = _AHEAD_PER_THREAD * threads(self._client)
            self._checked = time.monotonic()
        while len(self._live) < self._ahead and (batch := next(self._waiting, None)) is not None:
            future = self._client.submit(count_batch, batch, pure=False)
            self._live.add(future)
            pending.add(future)

    def finished(self, future: Any) -> None:
        self._live.discard(future)

    def live(self) -> list[Any]:
        return list(self._live)


class _Shares:
    """Pieces of an engine that needs a worker resource (the gpu engine's, a GPU), shared by
    the workers that have it and those that do not.

    Workers with it take pieces from the front, one each, _AHEAD_PER_THREAD per unit of the
    resource ahead (Dask's worker resources: ``dask worker ADDRESS --resources GPU=1``). The
    others take pieces from the back, counted on their CPUs, one per thread, only while the
    devices' share of what is left would take longer than a piece on a CPU: pieces on a CPU
    are slower, and one started near the end would keep the count waiting. Until a CPU piece
    has been timed, that takes what is left to need FIRST_CPU_SECONDS of the devices.
    """

    def __init__(self, client: Any, tasks: Sequence[Numbered], engine: Engine) -> None:
        assert engine.resource is not None
        self._client = client
        self._engine = engine
        self._resource = engine.resource
        self._waiting = collections.deque(tasks)
        self._on_device: dict[Any, float] = {}  # submitted, not yet back: when
        self._on_cpu: dict[Any, float] = {}
        self._devices_started: float | None = None
        self._devices_done = 0
        self._cpu_seconds: float | None = None  # the longest a CPU piece took
        self._checked = -math.inf
        self._units = 0
        self._cpu_workers: list[str] = []
        self._look()
        if not self._units:
            raise InputError(
                f"no worker of the cluster has a {self._resource} for the {engine.name} engine: "
                f"start those that do with dask worker ADDRESS --resources {self._resource}=1"
            )

    def _look(self) -> None:
        """How many units of the resource the cluster has, and the workers without any."""
        if time.monotonic() - self._checked < _THREADS_CHECK_SECONDS:
            return
        workers = self._client.scheduler_info()["workers"]
        self._units = 0
        self._cpu_workers = []
        for address, worker in workers.items():
            units = int(worker.get("resources", {}).get(self._resource, 0))
            self._units += units
            if not units:
                self._cpu_workers += [address] * int(worker.get("nthreads", 1))
        self._checked = time.monotonic()

    def submit(self, pending: Any) -> None:
        self._look()
        now = time.monotonic()
        while len(self._on_device) < _AHEAD_PER_THREAD * self._units and self._waiting:
            future = self._client.submit(
                count_batch, [self._waiting.popleft()], resources={self._resource: 1}, pure=False
            )
            self._on_device[future] = now
            self._devices_started = self._devices_started or now
            pending.add(future)
        while len(self._on_cpu) < len(self._cpu_workers) and self._waiting and self._cpu_pays():
            place, task = self._waiting.pop()
            future = self._client.submit(
                count_batch,
                [(place, self._engine.on_cpu(task))],
                workers=sorted(set(self._cpu_workers)),
                allow_other_workers=True,  # should they all leave, any worker counts it
                pure=False,
            )
            self._on_cpu[future] = now
            pending.add(future)

    def _cpu_pays(self) -> bool:
        """Whether the devices' share of what is left takes longer than a piece on a CPU."""
        if not self._devices_done or self._devices_started is None:
            return False  # the devices' pace is not known yet
        pace = self._devices_done / max(time.monotonic() - self._devices_started, 1e-6)
        left_on_devices = len(self._waiting) / pace
        return left_on_devices > (self._cpu_seconds or FIRST_CPU_SECONDS)

    def finished(self, future: Any) -> None:
        if future in self._on_device:
            del self._on_device[future]
            self._devices_done += 1
        elif future in self._on_cpu:
            took = time.monotonic() - self._on_cpu.pop(future)
            self._cpu_seconds = max(self._cpu_seconds or 0.0, took)

    def live(self) -> list[Any]:
        return [*self._on_device, *self._on_cpu]


def _quiet_logs() -> None:
    """Dask's loggers report a lost connection with a traceback, each at its own level;
    nqueens says it once, in words."""
    for name in list(logging.root.manager.loggerDict):
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)


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
            raise ClusterUnreachable(f"no Dask scheduler answered within {seconds:.3g} s") from None
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
            stack.callback(local.close)
            address = local.scheduler_address
        client = distributed.Client(address, timeout=cluster.connect_seconds, set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise ClusterUnreachable(str(error) or type(error).__name__) from None
    stack.callback(client.close)
    return client

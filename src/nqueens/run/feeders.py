"""What a Dask cluster is given to count, and when: the pieces of a count, submitted a few
ahead of the workers as they finish, rather than all at once (the tens of thousands of a long
count would weigh on the scheduler, and on its close).
"""

from __future__ import annotations

import collections
import math
import time
from collections.abc import Sequence
from typing import Any

from nqueens.core.results import InputError
from nqueens.engines.base import Engine
from nqueens.run.executors import Numbered, batches_of, count_batch

AHEAD_PER_THREAD = 4
LOOK_SECONDS = 5.0
"""How often the cluster's workers are looked up again: they may join or leave a count."""
FIRST_CPU_SECONDS = 30.0
"""What the devices must have left before a CPU takes a piece whose time is not known yet."""


def threads(client: Any) -> int:
    """How many subproblems the cluster counts at once."""
    return max(1, int(sum(client.nthreads().values())))


class Batches:
    """Subproblems in batches, AHEAD_PER_THREAD per worker thread submitted ahead, looked up
    again now and then, since workers may join or leave a running cluster; ``workers`` is
    what the count has just looked up."""

    def __init__(
        self, client: Any, tasks: Sequence[Numbered], workers: int, seconds_each: float | None
    ) -> None:
        self._client = client
        self._waiting = iter(batches_of(tasks, workers, seconds_each))
        self._live: set[Any] = set()  # submitted, not yet back
        self._checked = time.monotonic()
        self._ahead = AHEAD_PER_THREAD * workers

    def submit(self, pending: Any) -> None:
        if time.monotonic() - self._checked > LOOK_SECONDS:
            self._ahead = AHEAD_PER_THREAD * threads(self._client)
            self._checked = time.monotonic()
        while len(self._live) < self._ahead and (batch := next(self._waiting, None)) is not None:
            future = self._client.submit(count_batch, batch, pure=False)
            self._live.add(future)
            pending.add(future)

    def given_back(self, future: Any) -> bool:
        return False

    def finished(self, future: Any) -> None:
        self._live.discard(future)

    def live(self) -> list[Any]:
        return list(self._live)


class Shares:
    """Pieces of an engine that needs a worker resource (the gpu engine's, a GPU), shared by
    the workers that have it and those that do not.

    Workers with it take pieces from the front, one each, AHEAD_PER_THREAD per unit of the
    resource ahead (Dask's worker resources: ``dask worker ADDRESS --resources GPU=1``). The
    others take pieces from the back, counted on their CPUs, one per thread, only while the
    devices' share of what is left would take longer than a piece on a CPU: pieces on a CPU
    are slower, and one started near the end would keep the count waiting. Until a CPU piece
    has been timed, that takes what is left to need FIRST_CPU_SECONDS of the devices. Should
    every worker with the resource leave, the pieces they held go back, and the CPUs take all.
    """

    def __init__(self, client: Any, tasks: Sequence[Numbered], engine: Engine) -> None:
        assert engine.resource is not None
        self._client = client
        self._engine = engine
        self._resource = engine.resource
        self._waiting = collections.deque(tasks)
        self._on_device: dict[Any, Numbered] = {}  # submitted, not yet back
        self._on_cpu: dict[Any, float] = {}  # submitted, not yet back: when
        self._given_back: set[Any] = set()  # cancelled here: their pieces are waiting again
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
        if time.monotonic() - self._checked < LOOK_SECONDS:
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
        if not self._units and self._on_device:  # no device left to count them
            self._given_back.update(self._on_device)
            self._client.cancel(list(self._on_device))
            self._waiting.extendleft(reversed(self._on_device.values()))
            self._on_device.clear()
        now = time.monotonic()
        while len(self._on_device) < AHEAD_PER_THREAD * self._units and self._waiting:
            numbered = self._waiting.popleft()
            future = self._client.submit(
                count_batch, [numbered], resources={self._resource: 1}, pure=False
            )
            self._on_device[future] = numbered
            self._devices_started = self._devices_started or now
            pending.add(future)
        # one piece a CPU thread beside devices, a few once there are none
        threads = (
            len(self._cpu_workers)
            if self._units
            else AHEAD_PER_THREAD * (len(self._cpu_workers) or 1)
        )
        while len(self._on_cpu) < threads and self._waiting and self._cpu_pays():
            place, task = self._waiting.pop()
            future = self._client.submit(
                count_batch,
                [(place, self._engine.on_cpu(task))],
                workers=sorted(set(self._cpu_workers)) or None,
                allow_other_workers=True,  # should they all leave, any worker counts it
                pure=False,
            )
            self._on_cpu[future] = now
            pending.add(future)

    def _cpu_pays(self) -> bool:
        """Whether the devices' share of what is left takes longer than a piece on a CPU."""
        if not self._units:
            return True  # there is no device left
        if not self._devices_done or self._devices_started is None:
            return False  # the devices' pace is not known yet
        pace = self._devices_done / max(time.monotonic() - self._devices_started, 1e-6)
        left_on_devices = len(self._waiting) / pace
        return left_on_devices > (self._cpu_seconds or FIRST_CPU_SECONDS)

    def given_back(self, future: Any) -> bool:
        """Whether ``future`` was cancelled here, its piece waiting again: not a result."""
        if future in self._given_back:
            self._given_back.discard(future)
            return True
        return False

    def finished(self, future: Any) -> None:
        """Note a future whose result came back."""
        if future in self._on_device:
            del self._on_device[future]
            self._devices_done += 1
        elif future in self._on_cpu:
            took = time.monotonic() - self._on_cpu.pop(future)
            self._cpu_seconds = max(self._cpu_seconds or 0.0, took)

    def live(self) -> list[Any]:
        return [*self._on_device, *self._on_cpu]

"""What a cluster is given to count, and when: the sharing of a gpu count between workers
with a GPU and without, driven by hand through a stand-in for Dask's client."""

from __future__ import annotations

import collections
from types import SimpleNamespace
from typing import Any

import pytest

from nqueens.engines import gpu
from nqueens.engines.base import Subcount
from nqueens.run import cluster, feeders
from nqueens.run.executors import Numbered


def _on_cpu_futures(scheduler: _Scheduler) -> list[tuple[Any, Any, dict[str, Any]]]:
    return [submitted for submitted in scheduler.submitted if "workers" in submitted[2]]


class _Scheduler:
    """Enough of a Dask client for the sharing of a gpu count: its workers, and what was
    submitted to them."""

    def __init__(self, workers: dict[str, dict[str, Any]]) -> None:
        self.workers = workers
        self.submitted: list[tuple[Any, list[tuple[int, Any]], dict[str, Any]]] = []
        self.cancelled: list[object] = []

    def scheduler_info(self) -> dict[str, Any]:
        return {"workers": self.workers}

    def submit(self, function: object, batch: list[tuple[int, Any]], **options: Any) -> object:
        future = object()
        self.submitted.append((future, batch, options))
        return future

    def cancel(self, futures: list[object]) -> None:
        self.cancelled.extend(futures)


def test_workers_without_a_gpu_take_pieces_from_the_back_only_while_the_gpus_have_long_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [100.0]
    monkeypatch.setattr(feeders, "time", SimpleNamespace(monotonic=lambda: now[0]))
    scheduler = _Scheduler(
        {
            "tcp://gpu:1": {"nthreads": 1, "resources": {"GPU": 1}},
            "tcp://cpu:1": {"nthreads": 2, "resources": {}},
        }
    )
    tasks = [(at, gpu.GpuSubproblem(gpu.NAME, None, 20, (at, at + 1))) for at in range(100)]
    shares = feeders.Shares(scheduler, tasks, gpu.ENGINE)
    pending = SimpleNamespace(add=lambda future: None)

    shares.submit(pending)  # the GPU's pace is not known yet: nothing for the CPUs
    assert [batch[0][0] for _, batch, _ in scheduler.submitted] == [0, 1, 2, 3]
    assert all(options["resources"] == {"GPU": 1} for _, _, options in scheduler.submitted)

    now[0] += 10.0  # a piece every 10 s: 95 left take the GPU 950 s
    shares.finished(scheduler.submitted[0][0])
    shares.submit(pending)
    _, *later = scheduler.submitted
    on_cpu = [(batch, options) for _, batch, options in later if "workers" in options]
    assert [batch[0][0] for batch, _ in on_cpu] == [99, 98]  # from the back, one per thread
    for batch, options in on_cpu:
        assert batch[0][1].on_cpu and options["workers"] == ["tcp://cpu:1"]
        assert options["allow_other_workers"] is True  # a piece lost with its worker reruns

    now[0] += 100.0  # the CPU pieces took 100 s each, the GPU did 3 more (4 in 110 s)
    for future, _, _ in scheduler.submitted[1:4] + _on_cpu_futures(scheduler):
        shares.finished(future)
    scheduler.submitted.clear()
    shares._waiting = collections.deque(list(shares._waiting)[:3])  # 3 left: 83 s on the GPU
    shares.submit(pending)
    assert scheduler.submitted and all(
        "resources" in options for _, _, options in scheduler.submitted
    )


def test_when_every_gpu_worker_leaves_its_pieces_go_back_to_the_cpus(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pieces waiting for a GPU that no worker has any more would keep the count waiting for
    ever: they are cancelled, counted on the CPUs, and their cancelled futures are not results."""
    now = [100.0]
    monkeypatch.setattr(feeders, "time", SimpleNamespace(monotonic=lambda: now[0]))
    gpu_worker = {"nthreads": 1, "resources": {"GPU": 1}}
    scheduler = _Scheduler({"tcp://gpu:1": gpu_worker, "tcp://cpu:1": {"nthreads": 2}})
    tasks = [(at, gpu.GpuSubproblem(gpu.NAME, None, 20, (at, at + 1))) for at in range(10)]
    shares = feeders.Shares(scheduler, tasks, gpu.ENGINE)
    pending = SimpleNamespace(add=lambda future: None)
    shares.submit(pending)
    on_device = [future for future, _, _ in scheduler.submitted]
    assert len(on_device) == 4 and not _on_cpu_futures(scheduler)

    del scheduler.workers["tcp://gpu:1"]  # killed
    now[0] += feeders.LOOK_SECONDS
    scheduler.submitted.clear()
    shares.submit(pending)
    assert scheduler.cancelled == on_device
    # the CPUs' 2 threads, a few pieces ahead each as there is no GPU to wait for
    assert [batch[0][0] for _, batch, _ in scheduler.submitted] == [9, 8, 7, 6, 5, 4, 3, 2]
    assert all(batch[0][1].on_cpu for _, batch, _ in scheduler.submitted)
    assert all(shares.given_back(future) for future in on_device)  # not results
    for future, _, _ in list(scheduler.submitted):
        assert not shares.given_back(future)
        shares.finished(future)
    scheduler.submitted.clear()
    shares.submit(pending)
    assert [batch[0][0] for _, batch, _ in scheduler.submitted] == [1, 0]  # given back
    assert not shares._waiting


class _Clock:
    """Time that passes only when the code under test sleeps, or when a batch is counted."""

    def __init__(self) -> None:
        self.now = 0.0

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class _Future:
    def __init__(self, counted: list[tuple[int, Subcount]]) -> None:
        self.counted = counted


class _Client:
    """Enough of a Dask client for on_cluster: a cluster of two threads that counts each batch
    as nothing, on a clock of its own."""

    loop = None
    status = "running"

    def __init__(self, clock: _Clock) -> None:
        self.clock = clock
        self.sent_at: list[float] = []

    def nthreads(self) -> dict[str, int]:
        return {"tcp://cpu:1": 2}

    def submit(self, function: object, batch: list[Numbered], **options: Any) -> Any:
        self.sent_at.append(self.clock.now)
        nothing = Subcount(0, 0, 0, 0, complete=False)
        return _Future([(place, nothing) for place, _ in batch])

    def cancel(self, futures: list[object]) -> None:
        pass


def _completed(clock: _Clock) -> type:
    """Dask's as_completed, where each batch is back at once, a second later."""

    class Completed:
        def __init__(self, **options: object) -> None:
            self.back: list[Any] = []

        def add(self, future: Any) -> None:
            self.back.append(future)

        def is_empty(self) -> bool:
            return not self.back

        def has_ready(self) -> bool:
            return bool(self.back)

        def next_batch(self, block: bool) -> list[tuple[Any, Any]]:
            clock.now += 1.0
            ready, self.back = self.back, []
            return [(future, future.counted) for future in ready]

    return Completed


def _on_stand_ins(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    clock = _Clock()
    monkeypatch.setattr(cluster, "time", clock)
    monkeypatch.setattr(feeders, "time", clock)
    monkeypatch.setattr(cluster, "dask", lambda: SimpleNamespace(as_completed=_completed(clock)))
    return clock


def test_nothing_is_sent_once_the_deadline_has_passed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch sent after the deadline only came back with nothing, and the count kept
    sending them until its second of grace for late results was over. Now what is in flight
    comes back and the count ends."""
    clock = _on_stand_ins(monkeypatch)
    client = _Client(clock)
    tasks = [(at, object()) for at in range(10_000)]
    deadline = 3.5
    counted = list(cluster.on_cluster(client, tasks, 2, deadline, 0.001))  # type: ignore[arg-type]
    assert counted and len(counted) < len(tasks)  # what was sent came back, and no more
    assert client.sent_at and max(client.sent_at) < deadline
    assert clock.now < deadline + 1  # not the second of grace: nothing was left out there


@pytest.mark.parametrize("call", ["nthreads", "submit"])
def test_a_client_cut_off_from_its_scheduler_ends_the_count_as_a_lost_cluster(
    monkeypatch: pytest.MonkeyPatch, call: str
) -> None:
    """Dask says a client closed after losing its scheduler with CommClosedError, an OSError,
    from the next call that needs the scheduler. It escaped the count as itself, and the
    command line took it for output that could not be written (exit 74, not 1)."""
    from distributed.comm.core import CommClosedError

    clock = _on_stand_ins(monkeypatch)
    client = _Client(clock)
    answered = getattr(client, call)

    def cut_off(*arguments: Any, **options: Any) -> Any:
        if clock.now > feeders.LOOK_SECONDS:  # once the workers are looked up again
            raise CommClosedError("ConnectionPool closing.")
        return answered(*arguments, **options)

    monkeypatch.setattr(client, call, cut_off)
    monkeypatch.setattr(client, "cancel", cut_off)  # and so does cancelling what is out there
    tasks = [(at, object()) for at in range(10_000)]
    with pytest.raises(cluster.ClusterLost, match="ConnectionPool closing"):
        for _ in cluster.on_cluster(client, tasks, 2, None, 0.001):  # type: ignore[arg-type]
            pass


def test_a_count_asks_for_the_workers_again_only_when_they_are_due(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The count has just looked the workers up when it starts sending batches; asking again
    at once cost a round trip to the scheduler."""
    clock = _on_stand_ins(monkeypatch)
    client = _Client(clock)
    asked_at: list[float] = []
    answer = client.nthreads

    def nthreads() -> dict[str, int]:
        asked_at.append(clock.now)
        return answer()

    monkeypatch.setattr(client, "nthreads", nthreads)
    tasks = [(at, object()) for at in range(10_000)]
    list(cluster.on_cluster(client, tasks, 2, 2 * feeders.LOOK_SECONDS, 0.001))  # type: ignore[arg-type]
    assert asked_at and min(asked_at) > feeders.LOOK_SECONDS

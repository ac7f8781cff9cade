"""The gpu engine's launches through CUDA's driver, without a device: a stand-in for the driver
API whose "kernel" reads its parameters as numba lays them out and counts on the CPU, with a
search written here; machine code kept, checked and refused; time limits and failures.

Only a device runs the real driver (benchmarks/gpu_device.sh); the parameters' count is checked
against the PTX where CUDA's compilers are installed.
"""

from __future__ import annotations

import ctypes
import enum
import functools
import importlib.util
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import numpy
import pytest
from helpers import bound, every_command, known_total, known_unique, searched

import nqueens
from nqueens.engines import gpu
from nqueens.engines.bitboard import _edges, edges
from nqueens.engines.gpu import caching, driver, early, launch, needs, target

COMMANDS_BY_NAME = every_command()
"""Every command of the command line, by name."""

Result = enum.Enum(
    "Result",
    [
        "CUDA_SUCCESS",
        "CUDA_ERROR_NOT_READY",
        "CUDA_ERROR_LAUNCH_FAILED",
        "CUDA_ERROR_INVALID_CONTEXT",
        "CUDA_ERROR_INVALID_IMAGE",
        "CUDA_ERROR_NO_DEVICE",
        "CUDA_ERROR_OUT_OF_MEMORY",
    ],
)
Attribute = enum.Enum(
    "Attribute",
    [
        "CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT",
        "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR",
        "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR",
    ],
)
ARRAYS = (
    ("piece_rows", 2),
    ("blocked", 2),
    ("gaps", 2),
    ("lines", 1),
    ("totals", 1),
    ("counters", 1),
)
"""The kernel's array parameters after its int, with their dimensions."""
PARAMETERS = 1 + sum(5 + 2 * dimensions for _, dimensions in ARRAYS)
"""The 64-bit words numba makes of them: 49, as the PTX of the kernel says."""
KINDS = {
    "piece_rows": numpy.uint8,
    "blocked": numpy.uint32,
    "gaps": numpy.uint32,
    "lines": numpy.int32,
}
"""The arrays' numpy types, where not 64-bit counters."""
MACHINE = driver.Machine(b"machine code", "count_pieces", PARAMETERS, 32, 24)


class FakeDriver:
    """CUDA's driver API as the engine calls it, on host memory; its kernel reads the 64-bit
    words of its parameters as numba passes arrays (meminfo, parent, items, item size, data,
    shape, strides) and counts each constellation with the tests' own search, its placements
    too, as ``kernel.count_placements`` does. As the driver, it holds a current context for
    each thread: a call that needs one fails in a thread without."""

    CUresult = Result
    CUdevice_attribute = Attribute

    def __init__(self, *, ready_after: float = 0.0, fails: bool = False) -> None:
        self.ready_after = ready_after
        self.fails = fails  # each launch fails, and leaves the context refusing every call
        self.memory_limit: int | None = None  # the allocations the device holds at most
        self.off_by = 0  # added to every total: a kernel whose machine code counts wrong
        self.memory: dict[int, Any] = {}
        self.launches: list[tuple[int, int]] = []
        self.piece_rows: list[list[tuple[int, ...]]] = []  # each launch's, as its kernel read them
        self.streams = self.made = 0  # streams and events made
        self.queued: dict[str, Queued] = {}  # each stream's launch, until an event follows it
        self.events: dict[str, Queued] = {}  # the launch each event ends
        self.most_at_once = 0  # launches begun and not yet waited for
        self.current = threading.local()

    def __getattribute__(self, name: str) -> Any:
        needs_context = name.startswith(("cuModule", "cuMem", "cuLaunch", "cuEvent"))
        if needs_context and getattr(self.current, "context", None) is None:
            return lambda *arguments: (Result.CUDA_ERROR_INVALID_CONTEXT,)
        return super().__getattribute__(name)

    def cuInit(self, flags: int) -> tuple[Result]:
        return (Result.CUDA_SUCCESS,)

    def cuDeviceGetCount(self) -> tuple[Result, int]:
        return Result.CUDA_SUCCESS, 1

    def cuDeviceGet(self, ordinal: int) -> tuple[Result, int]:
        return Result.CUDA_SUCCESS, ordinal

    def cuDevicePrimaryCtxRetain(self, device: int) -> tuple[Result, str]:
        return Result.CUDA_SUCCESS, "context"

    def cuCtxSetCurrent(self, context: str) -> tuple[Result]:
        self.current.context = context
        return (Result.CUDA_SUCCESS,)

    def cuDeviceGetAttribute(self, which: Attribute, device: int) -> tuple[Result, int]:
        values = {"MULTIPROCESSOR_COUNT": 4, "MAJOR": 9, "MINOR": 0}
        return Result.CUDA_SUCCESS, next(v for k, v in values.items() if which.name.endswith(k))

    def cuDeviceGetName(self, length: int, device: int) -> tuple[Result, bytes]:
        return Result.CUDA_SUCCESS, b"A stand-in device\0\0\0"

    def cuModuleLoadData(self, image: bytes) -> tuple[Result, str | None]:
        if image != MACHINE.cubin:
            return Result.CUDA_ERROR_INVALID_IMAGE, None
        return Result.CUDA_SUCCESS, "module"

    def cuModuleGetFunction(self, module: str, name: bytes) -> tuple[Result, str]:
        return Result.CUDA_SUCCESS, name.decode()

    def cuStreamCreate(self, flags: int) -> tuple[Result, str]:
        assert flags == driver.NON_BLOCKING  # or the null stream's copies would wait for it
        self.streams += 1
        return Result.CUDA_SUCCESS, f"stream {self.streams}"

    def cuMemAllocAsync(self, size: int, stream: str) -> tuple[Result, int]:
        if self.memory_limit is not None and len(self.memory) >= self.memory_limit:
            return Result.CUDA_ERROR_OUT_OF_MEMORY, 0
        buffer = ctypes.create_string_buffer(size)
        self.memory[ctypes.addressof(buffer)] = buffer
        return Result.CUDA_SUCCESS, ctypes.addressof(buffer)

    def cuMemcpyHtoDAsync(self, to: int, source: int, size: int, stream: str) -> tuple[Result]:
        assert to in self.memory
        ctypes.memmove(to, source, size)
        return (Result.CUDA_SUCCESS,)

    def cuMemcpyDtoHAsync(self, to: int, source: int, size: int, stream: str) -> tuple[Result]:
        assert source in self.memory and stream not in self.queued  # after its launch ran
        ctypes.memmove(to, source, size)
        return (Result.CUDA_SUCCESS,)

    def cuMemFreeAsync(self, pointer: int, stream: str) -> tuple[Result]:
        if self.fails:
            return (Result.CUDA_ERROR_LAUNCH_FAILED,)
        del self.memory[pointer]
        return (Result.CUDA_SUCCESS,)

    def cuLaunchKernel(self, function: str, *grid_and_more: Any) -> tuple[Result]:
        blocks, _, _, threads, _, _, _shared, stream, parameters, _extra = grid_and_more
        self.launches.append((blocks, threads))
        addresses = (ctypes.c_uint64 * PARAMETERS).from_address(parameters)
        words = iter(ctypes.c_uint64.from_address(address).value for address in addresses)
        n = next(words)
        arrays = {}
        for name, dimensions in ARRAYS:
            _meminfo, _parent, items, item_size, data = (next(words) for _ in range(5))
            shape = tuple(next(words) for _ in range(dimensions))
            strides = tuple(next(words) for _ in range(dimensions))
            assert data in self.memory and items == numpy.prod(shape)
            buffer = memoryview((ctypes.c_char * (items * item_size)).from_address(data))
            arrays[name] = numpy.ndarray(
                shape, dtype=KINDS.get(name, numpy.uint64), buffer=buffer, strides=strides
            )
        self.piece_rows.append([tuple(rows) for rows in arrays["piece_rows"].tolist()])
        self.queued[stream] = Queued(
            functools.partial(self.run, int(n), arrays), time.monotonic() + self.ready_after
        )
        self.most_at_once = max(self.most_at_once, len(self.queued) + len(self.events))
        return (Result.CUDA_SUCCESS,)

    def run(self, n: int, arrays: dict[str, Any]) -> None:
        """What the kernel does, once its launch ends."""
        for at, lines in enumerate(arrays["lines"]):
            found, placed = searched(arrays["blocked"][at], arrays["gaps"][at], int(lines), n)
            arrays["totals"][at] = found + self.off_by
            arrays["counters"][1] += placed

    def cuEventCreate(self, flags: int) -> tuple[Result, str]:
        self.made += 1
        return Result.CUDA_SUCCESS, f"event {self.made}"

    def cuEventRecord(self, event: str, stream: str) -> tuple[Result]:
        self.events[event] = self.queued.pop(stream)
        return (Result.CUDA_SUCCESS,)

    def cuEventQuery(self, event: str) -> tuple[Result]:
        if time.monotonic() < self.events[event].ends:
            return (Result.CUDA_ERROR_NOT_READY,)
        return (Result.CUDA_ERROR_LAUNCH_FAILED if self.fails else Result.CUDA_SUCCESS,)

    def cuEventSynchronize(self, event: str) -> tuple[Result]:
        if self.fails:
            return (Result.CUDA_ERROR_LAUNCH_FAILED,)
        self.events[event].run()
        return (Result.CUDA_SUCCESS,)

    def cuEventDestroy(self, event: str) -> tuple[Result]:
        del self.events[event]
        return (Result.CUDA_SUCCESS,)


class Queued(NamedTuple):
    """A launch of the stand-in's kernel: what it does, and when it may have ended."""

    run: Callable[[], None]
    ends: float


@pytest.fixture
def fake_device(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeDriver]:
    """A device through the stand-in driver, its machine code kept in ``tmp_path``; numba's
    launch, which a count through the driver never needs, fails."""
    api = FakeDriver()
    monkeypatch.setattr(target, "simulated", lambda: False)
    monkeypatch.setattr(needs, "driver_loaded", lambda: True)
    found = driver.Device(api)
    monkeypatch.setattr(launch, "current_device", lambda: found)
    monkeypatch.setattr(caching, "cache_folder", lambda source: tmp_path)
    monkeypatch.setattr(launch, "by_numba", numba_not_needed)
    launch.launcher.cache_clear()
    launch.kept_path.cache_clear()
    yield api
    launch.launcher.cache_clear()
    launch.kept_path.cache_clear()


def numba_not_needed(*arguments: object) -> None:
    raise AssertionError("numba's launch, which a count through the driver never needs")


def counting_ones(*arguments: object) -> launch.Finish:
    """A launch, begun, that counts one solution in each of three constellations."""
    return lambda deadline: launch.Launch(numpy.ones(3), 1)


def numba_stand_in(launched: list[int]) -> Callable[..., launch.Finish]:
    """numba's launch, counted with the tests' own search: each launch's N goes to
    ``launched``."""

    def begin(n: int, blocked: Any, gaps: Any, lines: Any) -> launch.Finish:
        launched.append(n)
        each = zip(blocked, gaps, lines.tolist(), strict=True)
        totals = numpy.array([searched(*arrays, n)[0] for arrays in each], dtype=numpy.uint64)
        return lambda deadline: launch.Launch(totals, 0)

    return begin


def keep_machine_code(folder: Path, machine: driver.Machine = MACHINE) -> Path:
    path = caching.kept_path(folder, (9, 0))
    caching.keep(path, machine)
    return path


def test_a_count_through_the_driver_passes_the_arrays_as_numba_does(
    fake_device: FakeDriver, tmp_path: Path
) -> None:
    """Kept machine code is loaded and launched through the driver: every constellation's
    count, read by a kernel that takes its arrays as numba lays them out, is exact, and every
    copy on the device is given back."""
    keep_machine_code(tmp_path)
    assert needs.missing() is None
    stats = nqueens.count(10, engine="gpu", unique=True)
    assert (stats.solutions, stats.unique) == (known_total(10), known_unique(10))
    assert stats.backend == "A stand-in device" and stats.conflicts > 0
    assert launch.launcher().how == "CUDA's driver, machine code kept"
    assert fake_device.launches and fake_device.memory == {}
    assert all(threads == MACHINE.threads for _, threads in fake_device.launches)
    # each piece's rows as the CPU's count cuts a constellation, in the order pieces are numbered
    assert fake_device.piece_rows[0] == edges.piece_rows(10, launch.PRESET)
    assert len(fake_device.piece_rows[0]) == launch.pieces_each(10) == 10**3
    puzzle = nqueens.count(9, engine="gpu", queens=[(1, 0)], blocked=[(4, 4)], symmetry=False)
    assert (
        puzzle.solutions
        == nqueens.count(
            9, engine="bitboard", queens=[(1, 0)], blocked=[(4, 4)], symmetry=False
        ).solutions
    )


def test_a_launch_through_the_driver_reads_back_the_placements_its_kernel_counted(
    fake_device: FakeDriver, tmp_path: Path
) -> None:
    """A kernel that counts its placements (kernel.count_placements, as the stand-in's does)
    leaves them in its second counter, which the launch reads back with the totals."""
    keep_machine_code(tmp_path)
    blocked, gaps, lines, _ = launch.constellation_arrays(10, 0, len(_edges.constellations(10)))
    launched = launch.count(10, blocked, gaps, lines)
    assert launched is not None
    searches = [searched(*arrays, 10) for arrays in zip(blocked, gaps, lines.tolist(), strict=True)]
    assert launched.totals.tolist() == [found for found, _ in searches]
    assert launched.placements == sum(placed for _, placed in searches) > 0


def test_a_time_limit_is_kept_while_a_driver_launch_runs(
    fake_device: FakeDriver, tmp_path: Path
) -> None:
    keep_machine_code(tmp_path)
    found = nqueens.count(10, engine="gpu", unique=True, time_limit=60)  # loaded in a thread
    assert (found.solutions, found.unique) == (known_total(10), known_unique(10))
    fake_device.ready_after = 30
    started = time.monotonic()
    stats = nqueens.count(18, engine="gpu", unique=True, time_limit=0.5)
    assert time.monotonic() - started < bound(0.5 + 0.5)
    assert stats.status is nqueens.Status.TIME_LIMIT and stats.conflicts == 0


def test_a_failed_driver_launch_is_counted_on_the_cpu(
    fake_device: FakeDriver, tmp_path: Path
) -> None:
    keep_machine_code(tmp_path)
    fake_device.fails = True
    with pytest.warns(gpu.GpuFallbackWarning, match="CUDA_ERROR_LAUNCH_FAILED"):
        stats = nqueens.count(10, engine="gpu", unique=True)
    assert (stats.solutions, stats.unique) == (known_total(10), known_unique(10))


def test_a_device_out_of_memory_gives_back_what_it_took_and_the_cpu_counts(
    fake_device: FakeDriver, tmp_path: Path
) -> None:
    """An allocation refused halfway through a launch's arrays: those copied are given back,
    and the launch's constellations are counted on the CPU, exactly."""
    keep_machine_code(tmp_path)
    fake_device.memory_limit = 2
    with pytest.warns(gpu.GpuFallbackWarning, match="CUDA_ERROR_OUT_OF_MEMORY"):
        stats = nqueens.count(10, engine="gpu", unique=True)
    assert (stats.solutions, stats.unique) == (known_total(10), known_unique(10))
    assert fake_device.memory == {} and not fake_device.launches


def test_machine_code_is_kept_only_once_it_counts_as_numbas_launch(
    monkeypatch: pytest.MonkeyPatch, fake_device: FakeDriver, tmp_path: Path
) -> None:
    """Made where none is kept, and kept where a count through it agrees with numba's launch;
    where it does not, or cannot be made, counts go through numba's launch, exactly, and
    nothing is kept."""
    monkeypatch.setattr(needs, "load_compiler", lambda: None)  # as the gpu extra brings them
    monkeypatch.setattr(driver, "ptx", lambda *arguments: "the PTX")  # no compiler here
    monkeypatch.setattr(driver, "machine", lambda *arguments: MACHINE)
    monkeypatch.setattr(launch, "CHECK_N", 8)  # the tests' search in Python: a small check
    by_numba: list[int] = []
    monkeypatch.setattr(launch, "by_numba", numba_stand_in(by_numba))
    path = caching.kept_path(tmp_path, (9, 0))

    fake_device.off_by = 1  # the machine code made counts wrong: numba's launch counts
    assert nqueens.count(9, engine="gpu").solutions == known_total(9)
    assert caching.kept(path) is None
    assert len(fake_device.launches) == 1 and by_numba[0] == 8  # the check
    assert by_numba[1:] and set(by_numba[1:]) == {9}  # the count itself

    launch.launcher.cache_clear()
    fake_device.off_by, fake_device.launches[:], by_numba[:] = 0, [], []
    assert nqueens.count(9, engine="gpu").solutions == known_total(9)
    assert caching.kept(path) == MACHINE
    assert by_numba == [8]  # the check alone: the count went through the driver
    assert len(fake_device.launches) > 1

    launch.launcher.cache_clear()
    fake_device.launches[:], by_numba[:] = [], []
    path.with_suffix(".json").unlink()

    def no_compiler(*arguments: object) -> None:
        raise RuntimeError("libNVVM cannot be found")

    monkeypatch.setattr(driver, "ptx", no_compiler)
    assert nqueens.count(9, engine="gpu").solutions == known_total(9)
    assert fake_device.launches == [] and by_numba and caching.kept(path) is None
    assert "libNVVM cannot be found" in launch.launcher().how  # said with the device's name


@pytest.mark.slow
def test_a_count_under_a_time_limit_waits_for_the_machine_code_it_makes(
    monkeypatch: pytest.MonkeyPatch, fake_device: FakeDriver, tmp_path: Path
) -> None:
    """The first count after an install makes the machine code: under a time limit shorter
    than that takes, the count waits for it all the same (and stops at its limit), so that it
    is kept, rather than made again, cut short, by every such run."""

    def slow_compiler(*arguments: object) -> str:
        time.sleep(1)
        return "the PTX"

    monkeypatch.setattr(needs, "load_compiler", lambda: None)  # as the gpu extra brings them
    monkeypatch.setattr(driver, "ptx", slow_compiler)
    monkeypatch.setattr(driver, "machine", lambda *arguments: MACHINE)
    monkeypatch.setattr(launch, "by_numba", numba_stand_in([]))
    stats = nqueens.count(14, engine="gpu", time_limit=0.2)
    assert stats.status is nqueens.Status.TIME_LIMIT
    assert caching.kept(caching.kept_path(tmp_path, (9, 0))) == MACHINE


def test_machine_code_the_driver_cannot_load_is_made_again(
    monkeypatch: pytest.MonkeyPatch, fake_device: FakeDriver, tmp_path: Path
) -> None:
    """A kept file damaged in a way its size does not show: the driver refuses it, and the
    count makes and keeps machine code again, and counts through it, rather than fail."""
    path = keep_machine_code(tmp_path, MACHINE._replace(cubin=b"damaged code"))
    monkeypatch.setattr(driver, "ptx", lambda *arguments: "the PTX")  # no compiler here
    monkeypatch.setattr(driver, "machine", lambda *arguments: MACHINE)
    monkeypatch.setattr(launch, "CHECK_N", 8)  # the tests' search in Python: a small check
    by_numba: list[int] = []
    monkeypatch.setattr(launch, "by_numba", numba_stand_in(by_numba))
    assert nqueens.count(9, engine="gpu").solutions == known_total(9)
    assert caching.kept(path) == MACHINE
    assert by_numba == [8] and len(fake_device.launches) > 1


def test_kept_machine_code_is_read_only_whole_and_for_its_own_kernel(tmp_path: Path) -> None:
    path = keep_machine_code(tmp_path)
    assert caching.kept(path) == MACHINE
    assert caching.kept_path(tmp_path, (9, 0)) == path
    assert caching.kept_path(tmp_path, (10, 0)) != path  # another device's
    path.with_suffix(".cubin").write_bytes(b"machine")  # cut short
    assert caching.kept(path) is None
    path.with_suffix(".json").write_text("{")
    assert caching.kept(path) is None


def test_a_piece_deeper_than_the_kernels_stack_is_never_launched(
    fake_device: FakeDriver, tmp_path: Path
) -> None:
    """A thread's stack holds 24 lines: a launch whose pieces would go deeper would write past
    it, so it is refused, and the engine counts those pieces on the CPU (boards up to N = 28,
    which the engine takes, never go so deep)."""
    keep_machine_code(tmp_path)
    blocked = numpy.zeros((1, 30), dtype=numpy.uint32)
    lines = numpy.array([29], dtype=numpy.int32)
    with pytest.raises(ValueError, match="needs a stack of 25 lines"):
        launch.count(30, blocked, blocked, lines)
    assert fake_device.launches == []
    assert MACHINE.stack_lines >= 28 - launch.PRESET - 1


def test_without_a_device_the_driver_says_so() -> None:
    class NoDevice(FakeDriver):
        def cuDeviceGetCount(self) -> tuple[Result, int]:
            return Result.CUDA_SUCCESS, 0

    class NoDeviceAtAll(FakeDriver):
        def cuInit(self, flags: int) -> tuple[Result]:
            return (Result.CUDA_ERROR_NO_DEVICE,)

    with pytest.raises(driver.NoDevice, match="no CUDA device"):
        driver.Device(NoDevice())
    with pytest.raises(driver.NoDevice, match="cuInit failed: CUDA_ERROR_NO_DEVICE"):
        driver.Device(NoDeviceAtAll())


class SlowToStart(FakeDriver):
    """A driver whose start lasts until the thread that asked for the device has done its own
    work (at most 10 s): that work must run while the driver starts."""

    def __init__(self) -> None:
        super().__init__()
        self.worked = threading.Event()
        self.beside: bool | None = None  # whether the work was done while cuInit ran
        self.started_in = 0  # the thread that started the driver

    def cuInit(self, flags: int) -> tuple[Result]:
        self.started_in = threading.get_ident()
        self.beside = self.worked.wait(10)
        return (Result.CUDA_SUCCESS,)


def test_the_driver_starts_while_the_count_imports_what_it_needs() -> None:
    api = SlowToStart()
    device = driver.started_beside(api.worked.set, api)
    assert api.beside and api.started_in != threading.get_ident()
    assert device.name == "A stand-in device" and device.capability == (9, 0)


def test_a_driver_that_fails_to_start_fails_the_thread_that_asked() -> None:
    class NoDeviceAtAll(SlowToStart):
        def cuDeviceGetCount(self) -> tuple[Result, int]:
            return Result.CUDA_SUCCESS, 0

    api = NoDeviceAtAll()
    with pytest.raises(driver.NoDevice, match="no CUDA device"):
        driver.started_beside(api.worked.set, api)


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ("count 20 --engine gpu", True),
        ("--no-color count --engine=gpu --stats 20", True),
        ("count 20 --engine gpu --cluster local:2", False),  # the workers' GPUs count
        ("count 20 --engine gpu --cluster=tcp://host:8786", False),
        ("count 20", False),  # auto decides once the board is read
        ("count 20 --engine bitboard", False),
        ("solve 8 --engine gpu", False),
        ("count --board gpu 20", False),
        ("", False),
    ],
)
def test_only_a_count_that_names_the_gpu_starts_its_driver_early(
    monkeypatch: pytest.MonkeyPatch, arguments: str, expected: bool
) -> None:
    monkeypatch.setattr(target, "simulated", lambda: False)
    monkeypatch.setattr(needs, "driver_loaded", lambda: True)
    assert early.wanted(arguments.split()) is expected


def test_the_early_start_reads_the_command_line_as_the_command_line_is() -> None:
    """What it looks for before the command line is imported is what the command line takes:
    the command, its engine option (with the gpu engine among its choices), the cluster's."""

    command = COMMANDS_BY_NAME[early.COMMAND]
    options = {option: parameter for parameter in command.params for option in parameter.opts}
    assert early.REMOTE_OPTION in options
    engine_option = options[early.ENGINE_OPTION]
    assert engine_option.type.convert(gpu.NAME, engine_option, None) == gpu.NAME


def test_without_a_driver_or_on_the_simulator_nothing_starts_early(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    arguments = ["count", "20", "--engine", "gpu"]
    monkeypatch.setattr(target, "simulated", lambda: False)
    monkeypatch.setattr(needs, "driver_loaded", lambda: False)
    assert not early.wanted(arguments)
    monkeypatch.setattr(target, "simulated", lambda: True)
    monkeypatch.setattr(needs, "driver_loaded", lambda: True)
    assert not early.wanted(arguments)


class SlowLibrary:
    """CUDA's driver library as ctypes calls it (statuses as ints, what it finds through
    pointers), whose start lasts until the thread that started the process has gone on (at
    most 10 s)."""

    def __init__(self, status: int = 0) -> None:
        self.status = status  # cuInit's
        self.went_on = threading.Event()
        self.beside: bool | None = None  # whether the process went on while cuInit ran
        self.started_in = 0  # the thread that started the driver
        self.context_retained = threading.Event()

    def cuInit(self, flags: int) -> int:
        self.started_in = threading.get_ident()
        self.beside = self.went_on.wait(10)
        return self.status

    def cuDeviceGet(self, device: object, ordinal: int) -> int:
        return 0

    def cuDevicePrimaryCtxRetain(self, context: object, device: object) -> int:
        self.context_retained.set()
        return 0


def started_early(monkeypatch: pytest.MonkeyPatch, loaded: Callable[[str], object]) -> None:
    """Start a count on the GPU's driver early, its library as ``loaded`` loads it, and wait
    for the thread that starts it to end."""
    monkeypatch.setattr(target, "simulated", lambda: False)
    monkeypatch.setattr(needs, "driver_loaded", lambda: True)
    monkeypatch.setattr(ctypes, "CDLL", loaded)
    early.start(["count", "20", "--engine", "gpu"])
    for thread in threading.enumerate():
        if thread.name == "CUDA's driver":
            thread.join(10)


def test_a_count_on_the_gpu_starts_the_driver_on_a_thread_and_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    library = SlowLibrary()

    def loaded(name: str) -> SlowLibrary:
        assert name == "libcuda.so.1"
        library.went_on.set()  # this thread goes on while the library loads and starts
        return library

    started_early(monkeypatch, loaded)
    assert library.beside and library.started_in != threading.get_ident()
    assert library.context_retained.is_set()


def test_a_driver_that_fails_to_start_early_is_left_to_the_count(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """No context without a started driver, and nothing said: the count meets the failure
    itself, and says it as it always has."""
    library = SlowLibrary(status=100)  # CUDA_ERROR_NO_DEVICE
    library.went_on.set()
    started_early(monkeypatch, lambda name: library)
    assert library.beside and not library.context_retained.is_set()

    def not_there(name: str) -> None:
        raise OSError(f"{name}: cannot open shared object file")

    started_early(monkeypatch, not_there)
    assert capfd.readouterr() == ("", "")


def test_without_a_device_the_engine_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver's "no device" is the refusal's "finds no CUDA device"; another failure of
    the driver is named as the driver names it."""

    def failing(error: Exception) -> Callable[[], driver.Device]:
        def device() -> driver.Device:
            raise error

        return device

    monkeypatch.setattr(target, "simulated", lambda: False)
    monkeypatch.setattr(needs, "driver_loaded", lambda: True)
    monkeypatch.setattr(launch, "current_device", failing(driver.NoDevice("cuInit failed")))
    assert needs.missing() == "finds no CUDA device on this machine"
    broken = driver.DriverError("cuInit failed: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH")
    monkeypatch.setattr(launch, "current_device", failing(broken))
    assert needs.missing() == (
        "finds no usable CUDA device (DriverError: cuInit failed: "
        "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)"
    )


@pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None, reason="needs numba-cuda")
def test_the_kernel_takes_the_parameters_the_driver_passes() -> None:
    """The PTX numba makes of the kernel takes as many 64-bit words as a launch through the
    driver passes; needs CUDA's compilers (the gpu extra), which CI has not."""
    try:
        needs.load_compiler()
    except Exception as error:
        pytest.skip(f"CUDA's compilers are not installed ({error})")
    from nqueens.engines.gpu import kernel

    text = driver.ptx(kernel.count_pieces, launch.launch_types(), (9, 0))
    machine = driver.machine(text, (9, 0), kernel.THREADS_PER_BLOCK, kernel.STACK_LINES)
    assert machine.parameters == PARAMETERS and machine.cubin


@pytest.mark.parametrize("ahead", [gpu.LAUNCHES_AHEAD, 3])
def test_the_next_launches_run_beside_this_one_and_their_time_is_not_counted_twice(
    monkeypatch: pytest.MonkeyPatch, fake_device: FakeDriver, tmp_path: Path, ahead: int
) -> None:
    """Through the driver the next ``ahead`` spans' launches are begun, each on a stream of its
    own, before a span's launch is waited for: the counts stay exact, every copy is given back,
    a stream for each launch in flight serves them all, and a launch's device time starts when
    the one before it ended."""
    keep_machine_code(tmp_path)
    monkeypatch.setattr(gpu, "PIECES_PER_LAUNCH", 1 << 16)  # many launches of N = 10
    monkeypatch.setattr(gpu, "LAUNCHES_AHEAD", ahead)
    fake_device.ready_after = 0.05
    started = time.perf_counter()
    stats = nqueens.count(10, engine="gpu", unique=True)
    seconds = time.perf_counter() - started
    assert (stats.solutions, stats.unique) == (known_total(10), known_unique(10))
    assert len(fake_device.launches) > ahead + 1 and fake_device.most_at_once == ahead + 1
    assert fake_device.streams == ahead + 1 and fake_device.memory == {}
    assert not fake_device.events
    assert 0.05 * len(fake_device.launches) / (ahead + 1) < stats.branches / 1e6 < seconds

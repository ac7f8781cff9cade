"""The gpu engine's device through CUDA's driver API (cuda-bindings, which numba-cuda depends
on), and its kernel as machine code (kept on disk by ``nqueens.engines.gpu.caching``).

Importing numba's CUDA target takes most of a second, and loading a kernel from its cache
more: longer than a device takes to count N = 18. So the kernel is compiled by numba once, to
PTX, and linked by nvJitLink (a wheel of the ``gpu`` extras) into the device's machine code (a
cubin), which is kept beside numba's cache under a name that changes with the kernel's source,
its sizes, the versions of numba and numba-cuda and the device's compute capability; a count
then loads it and launches it through the driver alone. The kernel's arguments are passed as
numba passes them: each array as the fields of its struct (meminfo, parent, items, item size,
data, shape, strides), each a 64-bit word; a cubin is kept only once a count through it agreed
with numba's own launch (``nqueens.engines.gpu.launch.launcher``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Generic, NamedTuple, TypeVar, cast

NAME_LENGTH = 256
"""The bytes a device's name is read into."""
NON_BLOCKING = 1
"""CU_STREAM_NON_BLOCKING: a stream that the null stream's copies do not wait for, nor it for
them."""
NO_TIMING = 2
"""CU_EVENT_DISABLE_TIMING: an event that only says when a launch ends, the cheapest to ask."""


T = TypeVar("T")


class DriverError(RuntimeError):
    """A call of CUDA's driver API failed; the message names the call and its status."""


class NoDevice(DriverError):
    """The driver finds no CUDA device."""


def described(error: BaseException) -> str:
    """An error's kind and message in one line, as a message or warning shows it: numba's and
    the driver's messages span several."""
    return " ".join(f"{type(error).__name__}: {error}".split())


class Launched(NamedTuple):
    """A launch begun: its stream, the event that ends it, and its copies on the device."""

    stream: Any
    event: Any
    pointers: list[int]


class Machine(NamedTuple):
    """A kernel as the device runs it: its cubin, its entry's name and 64-bit parameters, and
    the sizes it was compiled with (the threads of a block, the lines of a thread's stack)."""

    cubin: bytes
    entry: str
    parameters: int
    threads: int
    stack_lines: int


class Device:
    """The machine's first CUDA device, its primary context made current in each thread that
    uses it."""

    def __init__(self, api: Any = None) -> None:
        if api is None:
            from cuda.bindings import driver

            api = driver
        self.api = api
        self.call("cuInit", 0)
        if self.call("cuDeviceGetCount") < 1:
            raise NoDevice("no CUDA device")
        self.device = self.call("cuDeviceGet", 0)
        self.context = self.call("cuDevicePrimaryCtxRetain", self.device)
        self.made_current()
        attributes = api.CUdevice_attribute
        self.processors: int = self.attribute(attributes.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
        self.capability = (
            self.attribute(attributes.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
            self.attribute(attributes.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
        )
        named = self.call("cuDeviceGetName", NAME_LENGTH, self.device)
        self.name = bytes(named).split(b"\0")[0].decode(errors="replace")
        self.function: Any = None
        self.parameters = 0
        self._cubin = b""
        self._streams: list[Any] = []  # those whose last launch ended and was released

    def call(self, function: str, *arguments: Any) -> Any:
        """What the driver's ``function`` returned after its status, which must be success."""
        returned = getattr(self.api, function)(*arguments)
        status, *values = returned if isinstance(returned, tuple) else (returned,)
        if status != self.api.CUresult.CUDA_SUCCESS:
            name = getattr(status, "name", status)
            failed = NoDevice if name == "CUDA_ERROR_NO_DEVICE" else DriverError
            raise failed(f"{function} failed: {name}")
        return values[0] if len(values) == 1 else values

    def made_current(self) -> None:
        """Make the device's context the calling thread's: a count may load its kernel in one
        thread (under a time limit) and launch it in another."""
        self.call("cuCtxSetCurrent", self.context)

    def attribute(self, which: Any) -> int:
        """One of the device's attributes."""
        return int(self.call("cuDeviceGetAttribute", which, self.device))

    def load(self, machine: Machine) -> None:
        """Load a kernel's machine code; launches run it from now on."""
        self.made_current()
        self._cubin = machine.cubin  # kept alive while the driver may read it
        module = self.call("cuModuleLoadData", self._cubin)
        self.function = self.call("cuModuleGetFunction", module, machine.entry.encode())
        self.parameters = machine.parameters

    def begin(
        self, blocks: int, threads: int, numbers: tuple[int, ...], arrays: tuple[Any, ...]
    ) -> Launched:
        """Launch the loaded kernel on ``numbers`` (Python ints) and copies of ``arrays`` (numpy
        arrays) on the device, on a stream of its own, and return at once: its copies are
        allocated, filled and later given back in the stream's order, so that nothing waits for
        a launch on another stream (as cuMemFree would wait for the whole device)."""
        self.made_current()
        stream = self._streams.pop() if self._streams else self.call("cuStreamCreate", NON_BLOCKING)
        pointers: list[int] = []
        try:
            for array in arrays:
                pointers.append(self.copied_in(array, stream))
            values = arguments(numbers, arrays, pointers)
            if len(values) != self.parameters:
                raise DriverError(
                    f"the kernel takes {self.parameters} parameters, not {len(values)}"
                )
            import numpy

            words = numpy.array(values, dtype=numpy.uint64)
            addresses = numpy.arange(len(values), dtype=numpy.uint64) * 8 + words.ctypes.data
            self.call(
                "cuLaunchKernel", self.function, blocks, 1, 1, threads, 1, 1, 0, stream,
                addresses.ctypes.data, 0,
            )  # fmt: skip
            ended = self.call("cuEventCreate", NO_TIMING)
            self.call("cuEventRecord", ended, stream)
        except DriverError:  # out of memory, say: what was copied is given back
            self.release(Launched(stream, None, pointers), after_error=True)
            raise
        return Launched(stream, ended, pointers)

    def finished(self, launched: Launched, deadline: float | None, poll_seconds: float) -> bool:
        """Wait for a launch: True once it ends, False if ``deadline`` (a time.time()) passes
        first (the launch runs on, and keeps its stream and its copies)."""
        self.made_current()
        not_ready = self.api.CUresult.CUDA_ERROR_NOT_READY
        if not waited(
            polled(lambda: self.api.cuEventQuery(launched.event)[0] != not_ready),
            deadline,
            poll_seconds,
        ):
            return False
        try:
            self.call("cuEventSynchronize", launched.event)  # raises the launch's error, if any
        finally:
            self.api.cuEventDestroy(launched.event)
        return True

    def copied_in(self, array: Any, stream: Any) -> int:
        """A copy of a numpy array on the device, made in ``stream``'s order: its address."""
        pointer = self.call("cuMemAllocAsync", max(1, array.nbytes), stream)
        if array.nbytes:  # from pageable memory: staged before the call returns
            self.call("cuMemcpyHtoDAsync", pointer, array.ctypes.data, array.nbytes, stream)
        return int(pointer)

    def copied_out(self, launched: Launched, pointer: int, array: Any) -> None:
        """Copy the device's words at ``pointer``, of a launch ``finished``, into a numpy
        array, in its stream's order (to pageable memory: done when the call returns)."""
        self.made_current()
        if array.nbytes:
            self.call(
                "cuMemcpyDtoHAsync", array.ctypes.data, pointer, array.nbytes, launched.stream
            )

    def release(self, launched: Launched, after_error: bool = False) -> None:
        """Give back a launch's copies on the device, in its stream's order, and the stream for
        the next launch; ``after_error``, as well as the driver lets: after a failed launch it
        refuses every call, and the memory goes with the context when the process ends, while
        the launch's own error is the one to tell."""
        if after_error:
            for pointer in launched.pointers:
                self.api.cuMemFreeAsync(pointer, launched.stream)
            return
        self.made_current()
        for pointer in launched.pointers:
            self.call("cuMemFreeAsync", pointer, launched.stream)
        self._streams.append(launched.stream)


def started_beside(work: Callable[[], object], api: Any = None) -> Device:
    """The machine's first CUDA device, started on a thread of its own while ``work`` runs on
    this one: the driver's calls let go of Python's lock (cuda-bindings 12.9.1 and newer), so
    that its start and ``work`` (an import, say, which holds the lock) overlap. The driver's
    errors are raised here, once ``work`` is done."""
    if api is None:
        from cuda.bindings import driver  # an import holds Python's lock: not on the thread

        api = driver
    starting = Beside(lambda: Device(api), "CUDA's driver")
    work()
    return starting.value()


class Beside(Generic[T]):
    """A call run on a daemon thread of its own, beside the thread that made it; its value, or
    its error, goes to the thread that asks. A daemon, as a launch given up on runs on until
    the process ends."""

    def __init__(self, call: Callable[[], T], name: str) -> None:
        self._done = threading.Event()
        self._value: T | None = None
        self._error: BaseException | None = None

        def run() -> None:
            try:
                self._value = call()
            except BaseException as error:  # handed to the thread that asks
                self._error = error
            finally:
                self._done.set()

        threading.Thread(target=run, name=name, daemon=True).start()

    def ended(self, wait_seconds: float = 0.0) -> bool:
        """Whether the call has returned, waiting up to ``wait_seconds`` for it (woken as it
        returns); its error is raised once it has."""
        if not self._done.wait(wait_seconds):
            return False
        if self._error is not None:
            raise self._error
        return True

    def value(self) -> T:
        """The call's value, once it has returned; its error is raised."""
        self._done.wait()
        self.ended()
        return cast("T", self._value)


def waited(ready: Callable[[float], bool], deadline: float | None, poll_seconds: float) -> bool:
    """Ask ``ready(poll_seconds)``, whether a launch has ended, waiting up to that long, until
    it says True (then True), or until ``deadline`` (a time.time()) passes (then False): a time
    limit or Ctrl-C is heard within ``poll_seconds`` while the launch runs."""
    while not ready(poll_seconds):
        if deadline is not None and time.time() >= deadline:
            return False
    return True


def polled(query: Callable[[], bool]) -> Callable[[float], bool]:
    """``query()``, whether a launch has ended, as ``waited`` asks it: where it has not, a
    sleep of the seconds asked (the device says nothing as a launch ends)."""

    def ready(wait_seconds: float) -> bool:
        if query():
            return True
        time.sleep(wait_seconds)
        return False

    return ready


def arguments(numbers: tuple[int, ...], arrays: tuple[Any, ...], pointers: list[int]) -> list[int]:
    """The kernel's parameters, as numba passes them: the ints, then each array as the fields
    of its struct (meminfo, parent, items, item size, data, shape, strides), each a 64-bit
    word; ``pointers`` are the arrays' copies on the device."""
    values = list(numbers)
    for array, pointer in zip(arrays, pointers, strict=True):
        values += [0, 0, array.size, array.itemsize, pointer, *array.shape, *array.strides]
    return values


def ptx(kernel: Any, signature: tuple[Any, ...], capability: tuple[int, int]) -> str:
    """A numba kernel's PTX for ``capability``, as numba's CUDA target compiles it."""
    from numba import cuda as target

    numba_cuda: Any = target  # numba-cuda's types say little
    text, _ = numba_cuda.compile_ptx(kernel.py_func, signature, cc=capability)
    return str(text)


def linked(text: str, capability: tuple[int, int], *options: str) -> tuple[bytes, str]:
    """PTX linked by nvJitLink into machine code for ``capability``, and nvJitLink's log
    (``-verbose`` among ``options``: the registers, stack and spills of each kernel)."""
    from cuda.bindings import nvjitlink

    arch = f"-arch=sm_{capability[0]}{capability[1]}"
    linker = nvjitlink.create(1 + len(options), [arch, *options])
    try:
        source = text.encode()
        nvjitlink.add_data(linker, nvjitlink.InputType.PTX, source, len(source), "kernel")
        nvjitlink.complete(linker)
        cubin = bytearray(nvjitlink.get_linked_cubin_size(linker))
        nvjitlink.get_linked_cubin(linker, cubin)
        log = bytearray(nvjitlink.get_info_log_size(linker))
        nvjitlink.get_info_log(linker, log)
    finally:
        nvjitlink.destroy(linker)
    return bytes(cubin), log.decode(errors="replace").rstrip("\0")


def machine(text: str, capability: tuple[int, int], threads: int, stack_lines: int) -> Machine:
    """A kernel's PTX as the device runs it, with what a launch needs to know of it."""
    header = text.split(".entry ", 1)[1]  # the kernel's name, then its parameters
    entry = header.split("(", 1)[0].strip()
    parameters = header.split(")", 1)[0].count(".param .u64")
    cubin, _ = linked(text, capability)
    return Machine(cubin, entry, parameters, threads, stack_lines)

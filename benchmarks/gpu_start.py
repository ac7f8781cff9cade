"""How fast `nqueens count N --engine gpu` could start without numba's CUDA target: a prototype.

A gpu count spends most of its first second or two starting: importing numba's CUDA target and
loading the kernel from numba's cache (a profile of N = 19 on an H200: 1.1 s and 0.7 s), which
issue 28's "N = 18 in 1 s, start-up included" cannot afford. Here the engine's kernel is
compiled once, by numba, to a cubin for the device (--prepare DIR), and a count then launches
that cubin through CUDA's driver API (cuda-bindings, which numba-cuda depends on), the
engine's host code unchanged: the C module's constellations, the launches, the totals, Burnside.
Only the engine's kernel module is stood in for, so whether the kernel's arguments are passed as
numba passes them (each array as its struct of pointers, sizes, shape and strides, flattened)
shows in every count, checked against the published ones.

    python benchmarks/gpu_start.py --prepare DIR              # once: DIR/count_pieces.cubin
    python benchmarks/gpu_start.py --count 18 DIR             # one count, the driver alone
    python benchmarks/gpu_start.py --sizes 16-19 --repeat 3   # both ways, whole processes

--prepare needs CUDA's compilers (the gpu extra) and the device's compute capability (read from
the device, or --capability 9.0 without one); the rest needs a device.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from compare_seed import parse_sizes
from gpu import COUNTS, linked

CUBIN = "count_pieces.cubin"
FACTS = "count_pieces.json"


def prepare(folder: Path, capability: tuple[int, int]) -> None:
    """Compile the engine's kernel for ``capability`` and write its cubin, with what a launch
    needs to know of it (its entry's name and parameters, its block), to ``folder``; stop if
    its entry does not take the parameters :func:`arguments` passes."""
    import numpy

    from nqueens.engines.gpu import device

    ptx, cubin, _ = linked(device.count_pieces.py_func, capability)
    header = ptx.split(".entry ", 1)[1]  # the kernel's name, then its parameters
    entry = header.split("(", 1)[0].strip()
    parameters = header.split(")", 1)[0].count(".param .u64")
    words, totals = numpy.zeros((1, 1), dtype=numpy.uint32), numpy.zeros(1, dtype=numpy.uint64)
    arrays = (words, words, numpy.zeros(1, dtype=numpy.int32), totals, totals)
    passed = len(arguments(1, 1, arrays, [0] * len(arrays)))
    if passed != parameters or f".param .u64 {entry}_param_{parameters}" in ptx:
        raise SystemExit(f"the kernel takes {parameters} 64-bit parameters, not {passed}")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / CUBIN).write_bytes(cubin)
    facts = {"entry": entry, "parameters": parameters, "threads": device.THREADS_PER_BLOCK}
    (folder / FACTS).write_text(json.dumps(facts))


def arguments(n: int, preset: int, arrays: Any, pointers: list[int]) -> list[int]:
    """The kernel's parameters, as numba passes them: the two ints, then each array as the
    fields of its struct (meminfo, parent, items, item size, data, shape, strides), each a
    64-bit word; ``pointers`` are the arrays' copies on the device."""
    values = [n, preset]
    for array, pointer in zip(arrays, pointers, strict=True):
        values += [0, 0, array.size, array.itemsize, pointer, *array.shape, *array.strides]
    return values


class Driver:
    """The device through CUDA's driver API: the primary context, the cubin's kernel."""

    def __init__(self, folder: Path) -> None:
        from cuda.bindings import driver

        self.api = driver
        facts = json.loads((folder / FACTS).read_text())
        self.parameters: int = facts["parameters"]
        self.threads: int = facts["threads"]
        self.call(driver.cuInit(0))
        self.device = self.call(driver.cuDeviceGet(0))
        context = self.call(driver.cuDevicePrimaryCtxRetain(self.device))
        self.call(driver.cuCtxSetCurrent(context))
        self.cubin = (folder / CUBIN).read_bytes()  # kept: the driver reads it from here
        module = self.call(driver.cuModuleLoadData(self.cubin))
        self.function = self.call(driver.cuModuleGetFunction(module, facts["entry"].encode()))
        attribute = driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
        self.processors = self.call(driver.cuDeviceGetAttribute(attribute, self.device))

    def call(self, returned: Any) -> Any:
        """What a driver call returned after its status, which must be success."""
        status, *values = returned if isinstance(returned, tuple) else (returned,)
        if status != self.api.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"the CUDA driver said {status!r}")
        return values[0] if len(values) == 1 else values

    def name(self) -> str:
        """The device, as its driver names it."""
        return str(self.call(self.api.cuDeviceGetName(100, self.device)).split(b"\0")[0].decode())

    def count(
        self, n: int, blocked: Any, gaps: Any, lines: Any, deadline: float | None = None
    ) -> Any:
        """kernel.count's work, launched through the driver: the same pieces, block and grid."""
        import numpy

        from nqueens.engines.gpu import kernel

        started = time.perf_counter()
        pieces = len(lines) * kernel.pieces_each(n)
        blocks = kernel.blocks_for(pieces, self.threads, self.processors)
        totals = numpy.zeros(len(lines), dtype=numpy.uint64)
        counter = numpy.zeros(1, dtype=numpy.uint64)
        arrays = (blocked, gaps, lines, totals, counter)
        on_device = [self.copied_in(array) for array in arrays]
        values = arguments(n, kernel.preset(), arrays, [int(pointer) for pointer in on_device])
        assert len(values) == self.parameters, (len(values), self.parameters)
        words = numpy.array(values, dtype=numpy.uint64)
        addresses = numpy.array(
            [words.ctypes.data + 8 * at for at in range(len(values))], dtype=numpy.uint64
        )
        self.call(
            self.api.cuLaunchKernel(
                self.function, blocks, 1, 1, self.threads, 1, 1, 0, 0, addresses.ctypes.data, 0
            )
        )
        ended = self.call(self.api.cuEventCreate(0))
        self.call(self.api.cuEventRecord(ended, 0))
        while (status := self.api.cuEventQuery(ended)[0]) == self.api.CUresult.CUDA_ERROR_NOT_READY:
            if deadline is not None and time.time() >= deadline:
                return None
            time.sleep(kernel.POLL_SECONDS)
        self.call((status,))
        self.call(self.api.cuEventDestroy(ended))
        self.call(self.api.cuMemcpyDtoH(totals.ctypes.data, on_device[3], totals.nbytes))
        for pointer in on_device:
            self.call(self.api.cuMemFree(pointer))
        return kernel.Launch(totals, time.perf_counter() - started, pieces)

    def copied_in(self, array: Any) -> Any:
        """A copy of ``array`` on the device."""
        pointer = self.call(self.api.cuMemAlloc(max(1, array.nbytes)))
        if array.nbytes:
            self.call(self.api.cuMemcpyHtoD(pointer, array.ctypes.data, array.nbytes))
        return pointer


def count(n: int, folder: Path) -> None:
    """Count N with the engine's host code and the driver's launches, and print the count, its
    class count and the seconds the steps of starting took, as JSON."""
    started = time.perf_counter()
    import nqueens
    from nqueens.engines.gpu import kernel

    imported = time.perf_counter()
    driver = Driver(folder)
    loaded = time.perf_counter()
    kernel.missing = lambda: None
    kernel.compiled = lambda: None
    kernel.device_name = driver.name
    kernel.count = driver.count
    stats = nqueens.count(n, engine="gpu", unique=True)
    record = {"solutions": stats.solutions, "unique": stats.unique, "backend": stats.backend}
    record["import seconds"] = imported - started
    record["device seconds"] = loaded - imported
    record["count seconds"] = time.perf_counter() - loaded
    print(json.dumps(record))


def table(sizes: list[int], repeat: int, folder: Path) -> None:
    """Whole processes, both ways, medians of ``repeat``, each count checked."""
    engine = [sys.executable, "-m", "nqueens", "count", "--engine", "gpu", "--unique"]
    engine += ["--format", "json"]
    mine = [sys.executable, __file__, "--count"]
    columns = ["N", "`nqueens count N --engine gpu` (s)", "the driver alone (s)"]
    columns += ["of which starting (s)", "and counting (s)"]
    print("| " + " | ".join(columns) + " |\n" + "|---" * len(columns) + "|")
    for n in sizes:
        truth = (int(COUNTS["total"][str(n)]), int(COUNTS["unique"][str(n)]))
        timings: dict[str, list[float]] = {way: [] for way in ("engine", "driver")}
        timings |= {"starting": [], "counting": []}
        for _ in range(repeat):
            for way, command in (("engine", [*engine, str(n)]), ("driver", [*mine, str(n)])):
                if way == "driver":
                    command.append(str(folder))
                began = time.perf_counter()
                done = subprocess.run(command, capture_output=True, text=True, check=True)
                timings[way].append(time.perf_counter() - began)
                record = json.loads(done.stdout)
                found = (int(record["solutions"]), int(record["unique"]))
                if found != truth:
                    raise SystemExit(f"N = {n}, {way}: counted {found}, published {truth}")
                if way == "driver":
                    timings["starting"].append(record["import seconds"] + record["device seconds"])
                    timings["counting"].append(record["count seconds"])
        medians = [statistics.median(timings[way]) for way in timings]
        print(f"| {n} | " + " | ".join(f"{seconds:.2f}" for seconds in medians) + " |")
    print("\nEvery count and class count checked against the published ones.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prepare", type=Path, metavar="DIR", help="compile the kernel to DIR")
    parser.add_argument("--capability", help="for --prepare without a device, e.g. 9.0")
    parser.add_argument("--count", nargs=2, metavar=("N", "DIR"), help="one count, the driver")
    parser.add_argument("--sizes", type=parse_sizes, default=parse_sizes("16-19"))
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    if options.count is not None:
        count(int(options.count[0]), Path(options.count[1]))
        return
    if options.prepare is not None:
        prepare(options.prepare, _capability(options.capability))
        return
    with tempfile.TemporaryDirectory() as folder:
        prepare(Path(folder), _capability(options.capability))
        table(options.sizes, max(1, options.repeat), Path(folder))


def _capability(given: str | None) -> tuple[int, int]:
    """The compute capability asked for, or the device's."""
    if given is not None:
        major, minor = (int(part) for part in given.split("."))
        return major, minor
    from numba import cuda

    found: tuple[int, int] = cuda.get_current_device().compute_capability
    return found


if __name__ == "__main__":
    main()

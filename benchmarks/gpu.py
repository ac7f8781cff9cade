"""Time `nqueens count N --engine gpu` and check every count: the table of docs/explanation/gpu.md.

Whole processes (start-up and the copies included; the kernel is compiled to machine code and
kept by a first count of the smallest size, not timed), medians over up to --repeat runs (a size
whose first run takes over --enough seconds is run once); each count and class count is checked
against the published ones (tests/data/counts.json), and a wrong one stops the run. A count that
reaches --time-limit is shown as a lower bound, and the larger sizes are left out. For each N:
the time, the part of it spent counting (the count's own wall time: the rest is the process's
start, its imports, finding the device, and its end), the pieces, the time the device took, the
placements and placements a second on the device. With --peer COMMAND, another GPU counter is
timed beside it, whole processes too, each of its runs after one of the engine's: ``{n}`` in
COMMAND becomes N, and its output must hold N's published count; a peer that fails is left out
of the rest of the table, which says why. The engine's kernel counts no placements (a counter
costs it instructions): they are counted once more, untimed, in this process, by the same kernel
with a counter (``kernel.count_placements``), that count checked too; a placement is a queen a
thread places on a free line before the last, whose rows are counted by their bits, so that the
figure is the search's, however a board is cut into pieces. The device is named above the table,
with the date.

--variants N times, in one process, the engine's settings against others (the rows a piece
presets, the pieces a launch, a cap on a thread's registers, the kernel that counts its
placements), each count checked, so that a device's few minutes say which to ship. These go
through numba's launch, which takes any kernel; where machine code is kept, the engine's own
launches through CUDA's driver come first: as shipped, one at a time, with one and with four
launches begun ahead of the one waited for, and with 2^26 pieces a launch.

--compiler-report needs no device, only CUDA's compilers (the gpu extra): the registers, stack
and spills of the kernel (and of each --kernel) as compiled for a compute capability (9.0:
Hopper), and the loops of its machine code. The largest loop is the one its threads run until
no piece is left; a loop inside it other than a piece's preset rows is one that a thread leaves
to wait, idle, for the other threads of its warp (a kernel whose one loop has several ways back
to its top can be compiled so: the engine's has one).

    python benchmarks/gpu.py                                   # N = 16..22 on the GPU
    python benchmarks/gpu.py --sizes 18-20 --repeat 3 --time-limit 60
    python benchmarks/gpu.py --sizes 18-21 --repeat 3 --peer './n_queens {n} 5'  # a peer beside
    python benchmarks/gpu.py --variants 19 --repeat 3          # which settings are fastest
    python benchmarks/gpu.py --variants 19 --kernel mine.py    # and a kernel of one's own
    python benchmarks/gpu.py --variants 20 --kernels-only --kernel mine.py
    python benchmarks/gpu.py --compiler-report                 # no device needed
    python benchmarks/gpu.py --compiler-report --kernel mine.py
    NUMBA_ENABLE_CUDASIM=1 python benchmarks/gpu.py --sizes 6-7  # the script itself, no GPU
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ortools_program import ROOT, parse_sizes

COUNTS = json.loads((ROOT / "tests" / "data" / "counts.json").read_text())
TIME_LIMITED = 3  # nqueens's exit status for a count its time limit stopped
WARM_UP_N = 16  # the largest first count, untimed: a second at most on a device

VARIANTS: dict[str, dict[str, int]] = {
    "as shipped": {},
    "2 preset rows": {"preset": 2},
    "4 preset rows": {"preset": 4},
    "2^22 pieces a launch": {"pieces": 1 << 22},
    "2^26 pieces a launch": {"pieces": 1 << 26},
    "at most 32 registers": {"registers": 32},
    "at most 40 registers": {"registers": 40},
    "placements counted": {"placements": 1},
}
"""Settings to weigh against the shipped ones: each changes one."""

DRIVER: dict[str, dict[str, int]] = {
    "through CUDA's driver": {},
    "through CUDA's driver, one launch at a time": {"ahead": 0},
    "through CUDA's driver, one launch begun ahead": {"ahead": 1},
    "through CUDA's driver, four launches begun ahead": {"ahead": 4},
    "through CUDA's driver, 2^26 pieces a launch": {"pieces": 1 << 26},
}
"""How the engine's own launches go, where its machine code is kept, weighed likewise."""


def counted(n: int, time_limit: float | None) -> tuple[float, dict[str, object]]:
    """One whole-process count on the gpu engine: its seconds and its JSON record, checked
    against the published counts where it finished."""
    command = [sys.executable, "-m", "nqueens", "count", str(n), "--engine", "gpu"]
    command += ["--unique", "--stats", "--format", "json"]
    if time_limit is not None:
        command += ["--time-limit", str(time_limit)]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, TIME_LIMITED):
        raise SystemExit(f"N = {n}: nqueens exited {done.returncode}: {done.stderr.strip()}")
    record: dict[str, object] = json.loads(done.stdout)
    truth = (int(COUNTS["total"][str(n)]), int(COUNTS["unique"][str(n)]))
    found = (int(str(record["solutions"])), int(str(record["unique"])))
    wrong = found != truth if record["complete"] else found[0] > truth[0]
    if wrong:
        raise SystemExit(
            f"N = {n}: the gpu engine counted {found[0]} ({found[1]} classes), the published "
            f"counts are {truth[0]} ({truth[1]})"
        )
    return seconds, record


class PeerFailed(Exception):
    """The peer did not run, or did not print N's published count."""


def peer_counted(command: str, n: int, time_limit: float | None) -> float:
    """One whole-process run of a peer's ``command`` on N (``{n}`` in it), stopped after
    ``time_limit`` seconds: its seconds, its output checked to hold N's published count."""
    published = str(COUNTS["total"][str(n)])
    started = time.perf_counter()
    arguments = shlex.split(command.replace("{n}", str(n)))
    try:
        done = subprocess.run(arguments, capture_output=True, text=True, timeout=time_limit)
    except subprocess.TimeoutExpired:
        raise PeerFailed(f"N = {n}: the peer took over {time_limit} s") from None
    except OSError as error:
        raise PeerFailed(f"N = {n}: the peer did not start ({error})") from None
    seconds = time.perf_counter() - started
    if done.returncode != 0 or not re.search(rf"(?<!\d)(?<!\d,){published}(?!\d|,\d)", done.stdout):
        said = (done.stdout + done.stderr).strip()[-300:]
        status = done.returncode
        raise PeerFailed(f"N = {n}: the peer printed no {published} (exit {status}): {said}")
    return seconds


def timed_table(
    sizes: list[int], repeat: int, enough: float, time_limit: float | None, peer: str | None
) -> None:
    """Print the table of times, after a first count (N = 16 at most) that compiles the kernel
    or loads it from numba's cache; with a ``peer`` command, its times beside them, until it
    fails (the table goes on without it, saying why)."""
    counted(min(*sizes, WARM_UP_N), time_limit)
    rows = []
    device = ""
    beside_from, dropped = peer, ""
    for n in sizes:
        runs: list[tuple[float, dict[str, object]]] = []
        peers: list[float] = []
        while not runs or (len(runs) < repeat and runs[0][0] <= enough and runs[-1][1]["complete"]):
            runs.append(counted(n, time_limit))
            if beside_from is not None and runs[-1][1]["complete"]:
                try:
                    peers.append(peer_counted(beside_from, n, time_limit))
                except PeerFailed as failed:
                    beside_from, dropped, peers = None, str(failed), []
        seconds = statistics.median(run[0] for run in runs)
        beside = ""
        if peers:
            peer_seconds = statistics.median(peers)
            beside = f" {peer_seconds:.2f} | {seconds / peer_seconds:.2f} |"
        record = runs[-1][1]
        device = str(record["backend"])
        device_seconds = (
            statistics.median(int(str(run[1]["device microseconds"])) for run in runs) / 1e6
        )
        counting = statistics.median(float(str(run[1]["wall_time"])) for run in runs)
        solutions = int(str(record["solutions"]))
        if not record["complete"]:
            rows.append(
                f"| {n} | at least {solutions:,} | over {seconds:.0f} (stopped) | "
                f"{counting:.2f} | {record['pieces']:,} | {device_seconds:.2f} | | |"
            )
            break
        placed = placements(n, time_limit)
        rate = "" if placed is None or not device_seconds else spoken(placed / device_seconds)
        rows.append(
            f"| {n} | {solutions:,} | {seconds:.2f} | {counting:.2f} | {record['pieces']:,} | "
            f"{device_seconds:.2f} | {'stopped' if placed is None else f'{placed:,}'} | {rate} |"
            + beside
        )
    print(f"Device: {device}; {datetime.date.today()}; medians of up to {repeat} runs.\n")
    if peer is not None:
        print(f"Peer: {peer}\n")
    columns = ["N", "solutions", "seconds", "counting (s)", "pieces", "on the device (s)"]
    columns += ["placements", "placements per second"]
    columns += [] if peer is None else ["peer (s)", "nqueens / peer"]
    print("| " + " | ".join(columns) + " |")
    print("|---" * len(columns) + "|")
    print("\n".join(rows))
    checked = ", ".join(row.split(" | ")[0].strip("| ") for row in rows if "stopped" not in row)
    if checked:
        print(f"\nEvery count and class count checked against the published ones: N = {checked}.")
    if dropped:
        print(f"\nThe peer was left out from there on: {dropped}")


def placements(n: int, time_limit: float | None) -> int | None:
    """The placements of a count of N, by the engine's kernel with a counter
    (``kernel.count_placements``, numba's launch) in this process, its count checked against
    the published one; None if the time limit stopped it."""
    import nqueens
    from nqueens.engines.gpu import kernel, launch

    shipped = (launch.launcher, launch.compiled, launch.begin)
    placed = 0

    def counting(*arguments: Any) -> launch.Finish:
        finish = shipped[2](*arguments)

        def finished(deadline: float | None) -> launch.Launch | None:
            nonlocal placed
            launched = finish(deadline)
            placed += 0 if launched is None else launched.placements
            return launched

        return finished

    launch.launcher = lambda: launch.Launcher(launch.by_numba, "numba's launch")
    launch.compiled = lambda: kernel.count_placements
    launch.begin = counting
    try:
        stats = nqueens.count(n, engine="gpu", time_limit=time_limit)
    finally:
        launch.launcher, launch.compiled, launch.begin = shipped
    if stats.status.partial:
        return None
    if stats.solutions != int(COUNTS["total"][str(n)]):
        raise SystemExit(f"N = {n}: the kernel counting placements counted {stats.solutions}")
    return placed


def spoken(rate: float) -> str:
    """A rate as a reader says it: 170 billion, 21.3 million, 950."""
    for size, word in ((1e12, "trillion"), (1e9, "billion"), (1e6, "million")):
        if rate >= size:
            return f"{rate / size:.3g} {word}"
    return f"{rate:,.0f}"


def compare_variants(
    n: int,
    repeat: int,
    time_limit: float | None,
    candidates: Sequence[Path] = (),
    settings: bool = True,
) -> None:
    """Print, for each of VARIANTS (only the first, as shipped, without ``settings``) and each
    candidate kernel (a file defining ``count_pieces`` as the engine's kernel does, and its
    ``THREADS_PER_BLOCK``), the median seconds of ``repeat`` counts of N in this process (each
    kernel loaded first by a count of N = 16 at most, untimed), each count checked against the
    published one; then the fastest kernel, as shipped or a file's."""
    import nqueens
    from nqueens.engines import gpu
    from nqueens.engines.gpu import kernel, launch, target

    truth = int(COUNTS["total"][str(n)])
    warm_up = min(n, WARM_UP_N)
    shipped = (
        launch.PRESET,
        gpu.PIECES_PER_LAUNCH,
        launch.compiled,
        kernel.THREADS_PER_BLOCK,
        gpu.LAUNCHES_AHEAD,
    )
    own = launch.launcher()  # through CUDA's driver where machine code is kept
    # numba's launch, which takes another kernel as readily as the engine's (one launch at a
    # time: its copies wait for the launch before)
    numba_launch = launch.Launcher(launch.by_numba, "numba's launch")
    launch.launcher = lambda: numba_launch
    nqueens.count(warm_up, engine="gpu", time_limit=time_limit)  # the kernel loaded, untimed
    each = f"medians of {repeat} counts" if repeat > 1 else "one count each"
    print(f"N = {n}, {launch.device_name()}, {each} in one process:\n")
    print("| settings | seconds | on the device (s) | pieces |")
    print("|---|---|---|---|")
    tried: list[tuple[str, dict[str, int], Path | None]] = []
    if own.beside:  # the engine's own launches: the next begun while one counts
        tried += [(name, {"driver": 1, **setting}, None) for name, setting in DRIVER.items()]
    tried += [
        (name, setting, None) for name, setting in VARIANTS.items() if settings or not setting
    ]
    tried += [(f"kernel of {path}", {}, path) for path in candidates]
    kernels: dict[str, float] = {}  # each kernel's seconds, as shipped or from a file
    for name, setting, path in tried:
        if "registers" in setting and target.simulated():
            continue  # the simulator compiles nothing
        launcher = own if "driver" in setting else numba_launch
        launch.launcher = lambda chosen=launcher: chosen
        launch.PRESET = setting.get("preset", shipped[0])
        gpu.PIECES_PER_LAUNCH = setting.get("pieces", shipped[1])
        gpu.LAUNCHES_AHEAD = setting.get("ahead", shipped[4])
        other_kernel = None
        if "registers" in setting:
            capping = launch.cuda().jit(max_registers=setting["registers"])
            other_kernel = capping(kernel.count_pieces.py_func)
        if "placements" in setting:
            other_kernel = kernel.count_placements
        if path is not None:
            candidate = _loaded(path)
            other_kernel = candidate.count_pieces
            kernel.THREADS_PER_BLOCK = candidate.THREADS_PER_BLOCK
        if other_kernel is not None:
            launch.compiled = lambda chosen=other_kernel: chosen
            nqueens.count(warm_up, engine="gpu", time_limit=time_limit)  # its compile, untimed
        runs = []
        for _ in range(repeat):
            started = time.perf_counter()
            stats = nqueens.count(n, engine="gpu", time_limit=time_limit)
            runs.append((time.perf_counter() - started, stats))
            if stats.status.partial:
                break
        (
            launch.PRESET,
            gpu.PIECES_PER_LAUNCH,
            launch.compiled,
            kernel.THREADS_PER_BLOCK,
            gpu.LAUNCHES_AHEAD,
        ) = shipped
        stats = runs[-1][1]
        complete = not stats.status.partial
        if complete and stats.solutions != truth:
            raise SystemExit(f"{name}: counted {stats.solutions}, the published count is {truth}")
        seconds = statistics.median(run[0] for run in runs)
        on_device = statistics.median(run[1].branches for run in runs) / 1e6
        shown = f"{seconds:.3f}" if complete else f"over {seconds:.0f} (stopped)"
        print(f"| {name} | {shown} | {on_device:.3f} | {stats.conflicts:,} |")
        if (path is not None or not setting) and complete:
            kernels[str(path or "as shipped")] = seconds
    if kernels:
        print(f"\nThe fastest kernel: {min(kernels, key=kernels.__getitem__)}")
    else:
        print("\nNo kernel finished its count within the time limit.")


def _loaded(path: Path) -> Any:
    """The module of a candidate kernel's file."""
    spec = importlib.util.spec_from_file_location(f"candidate_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def linked(kernel: Any, capability: tuple[int, int]) -> tuple[bytes, str]:
    """A numba kernel's machine code and ptxas's report on it, compiled for ``capability`` as
    the engine compiles its own (nqueens.engines.gpu.driver): no device needed."""
    from nqueens.engines.gpu import driver
    from nqueens.engines.gpu import launch as host

    text = driver.ptx(kernel, host.launch_types(), capability)
    return driver.linked(text, capability, "-verbose")


def loops(cubin: bytes) -> list[int] | None:
    """The instructions of each loop of the machine code (a branch back), in the order their
    ends come, as nvdisasm (a wheel of the gpu extra) reads the cubin; None without it."""
    from cuda import pathfinder

    nvdisasm = pathfinder.find_nvidia_binary_utility("nvdisasm")
    if nvdisasm is None:
        return None
    with tempfile.NamedTemporaryFile(suffix=".cubin") as file:
        file.write(cubin)
        file.flush()
        text = subprocess.run([nvdisasm, "-c", file.name], capture_output=True, text=True).stdout
    labels = {
        name: int(address, 16)
        for name, address in re.findall(r"^(\.L_x_\d+):\s*\n\s*/\*([0-9a-f]+)\*/", text, re.M)
    }
    found = []
    branch = r"/\*([0-9a-f]+)\*/\s+(?:@!?U?P\w+ )?BRA `\((\.L_x_\d+)\)"
    for address, target in re.findall(branch, text):
        start, end = labels.get(target), int(address, 16)
        if start is not None and start < end:  # a branch to itself is the trap at the end
            found.append((end - start) // 16 + 1)
    return found


def compiler_report(capability: tuple[int, int], candidates: Sequence[Path] = ()) -> str:
    """For the engine's kernel and each candidate: its registers, stack and spills a thread,
    as ptxas reports them for ``capability``, and its loops, the largest being the one the
    threads run until no piece is left: one inside it that is not a piece's preset rows is
    one that a lane leaves to wait for its warp."""
    from nqueens.engines.gpu import kernel

    kernels = [("the engine's kernel", kernel)]
    kernels += [(f"kernel of {path}", _loaded(path)) for path in candidates]
    lines = [f"For sm_{capability[0]}{capability[1]}:"]
    for name, module in kernels:
        cubin, log = linked(module.count_pieces, capability)
        text = log.partition("Compiling entry function")[2]
        frame = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+)", text)
        registers = re.search(r"Used (\d+) registers", text)
        if frame is None or registers is None:
            raise SystemExit(f"ptxas said nothing of {name}'s resources:\n{text}")
        stack, stores, loads = frame.groups()
        sizes = loops(cubin)
        shown = (
            "no nvdisasm to read its loops"
            if sizes is None
            else "loops of " + ", ".join(str(size) for size in sizes) + " instructions"
        )
        lines.append(
            f"{name}: {registers.group(1)} registers a thread, a {stack}-byte stack, {stores} "
            f"bytes of spill stores and {loads} of spill loads; {shown}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=parse_sizes, default=parse_sizes("16-22"))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--enough", type=float, default=10.0, help="run a size once if it took over this (s)"
    )
    parser.add_argument("--time-limit", type=float, help="stop a count after this (s)")
    parser.add_argument(
        "--compiler-report",
        nargs="?",
        const="9.0",
        metavar="CAPABILITY",
        help="the kernel's registers and stack for a compute capability (default 9.0), no device",
    )
    parser.add_argument("--variants", type=int, metavar="N", help="weigh settings at this size")
    parser.add_argument(
        "--kernels-only",
        action="store_true",
        help="with --variants: the shipped kernel and the --kernel files, no other settings",
    )
    parser.add_argument(
        "--kernel",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="with --variants or --compiler-report: this kernel too (a file like kernel.py)",
    )
    parser.add_argument(
        "--peer",
        metavar="COMMAND",
        help="time this GPU counter beside the engine, {n} in it the board's size",
    )
    options = parser.parse_args()
    if options.compiler_report is not None:
        if os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0"):
            raise SystemExit("--compiler-report needs numba's CUDA target, not its simulator")
        major, minor = (int(part) for part in options.compiler_report.split("."))
        print(compiler_report((major, minor), options.kernel))
        return
    if options.variants is not None:
        compare_variants(
            options.variants,
            max(1, options.repeat),
            options.time_limit,
            options.kernel,
            settings=not options.kernels_only,
        )
        return
    timed_table(options.sizes, options.repeat, options.enough, options.time_limit, options.peer)


if __name__ == "__main__":
    main()

"""The gpu engine without a GPU: its kernel on numba's CUDA simulator, its refusals, and auto.

CI has no device. numba's simulator (NUMBA_ENABLE_CUDASIM=1, read when numba's CUDA target is
first imported) runs the same kernel on the CPU, so the simulated counts run in a process of
their own; they are checked against the published counts and the tests' own brute force.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy
import pytest
from helpers import (
    START_UP,
    bound,
    brute_force_solutions,
    count_completions,
    every_constellation_searched,
    invoke,
    known_total,
    known_unique,
    process_env,
    run_nqueens,
    run_python,
    start_nqueens,
    symmetry_images,
)

import nqueens
from nqueens.core.board import Board
from nqueens.core.geometry import Diagonal
from nqueens.engines import gpu
from nqueens.engines.base import Request
from nqueens.engines.gpu import caching, launch, needs, target
from nqueens.run import auto

SIMULATOR = process_env(NUMBA_ENABLE_CUDASIM="1")


def simulated(code: str, presets: tuple[int, ...] = (launch.SIMULATED_PRESET,)) -> list[Any]:
    """What ``code`` leaves in ``found`` (as JSON) with the kernel on the simulator, for each
    of ``presets``: the free lines its pieces give a row each (a device's own is tested so too),
    all in one process, which imports the simulator once."""
    program = (
        "import json, warnings, nqueens\n"
        "from nqueens.core.board import Diagonal\n"
        "from nqueens.engines import gpu\n"
        "from nqueens.engines.gpu import SimulatorWarning, launch\n"
        "warnings.simplefilter('error')\n"
        "warnings.simplefilter('ignore', SimulatorWarning)\n"
        "every = []\n"
        f"for launch.SIMULATED_PRESET in {list(presets)}:\n"
        + textwrap.indent(code, "    ")
        + "    every.append(found)\n"
        "print(json.dumps(every))\n"
    )
    done = run_python(program, env=SIMULATOR)
    assert done.returncode == 0, done.stderr
    found: list[Any] = json.loads(done.stdout)
    return found


PRESETS = tuple(sorted({launch.SIMULATED_PRESET, launch.PRESET}))


@pytest.mark.parametrize(
    ("sizes", "presets"),
    [
        # A device's pieces and the simulator's own, with -m slow: seconds on the simulator.
        pytest.param(range(5, 8), (launch.PRESET,), marks=pytest.mark.slow),
        pytest.param(range(5, 8), (launch.SIMULATED_PRESET,), marks=pytest.mark.slow),
        pytest.param(range(8, 11), (launch.SIMULATED_PRESET,), marks=pytest.mark.slow),
    ],
    ids=str,
)
def test_the_simulated_kernel_counts_every_board_exactly(
    sizes: range, presets: tuple[int, ...]
) -> None:
    """Every count and every class count, against the published ones and the brute force here
    (which takes the classes from the solutions' own images); each on the device, not on the
    CPU that a failed launch falls back to."""
    every = simulated(
        f"found = {{n: nqueens.count(n, engine='gpu', unique=True) for n in {list(sizes)}}}\n"
        "found = {n: [s.solutions, s.unique, s.conflicts, s.backend] for n, s in found.items()}\n",
        presets,
    )
    truth = {}
    for n in sizes:
        everything = brute_force_solutions(n)
        classes = {min(symmetry_images(rows)) for rows in everything}
        assert (len(everything), len(classes)) == (known_total(n), known_unique(n))
        truth[n] = (len(everything), len(classes))
    for preset, counted in zip(presets, every, strict=True):
        found = {int(n): figures for n, figures in counted.items()}
        assert sorted(found) == list(sizes)
        for n, (solutions, unique, pieces, device) in found.items():
            assert (solutions, unique) == truth[n], (n, preset)
            assert pieces >= 1 and "simulator" in device


@pytest.mark.slow  # the benchmarks' twin of the kernel: the engine's own counts are above
def test_the_kernel_counting_placements_counts_each_queen_of_the_search_once() -> None:
    """kernel.count_placements counts each queen placed on a free line before the last once,
    whatever the rows a piece presets (so that placements a second do not change with how a
    board is cut), as the tests' own search does; its counts stay exact; the engine's kernel
    counts none. (gpu_work's test checks the same rule on N = 10 to 12.)"""
    sizes = list(range(5, 8))
    every = simulated(  # a launch a constellation, as the engine launches on the simulator
        "from nqueens.engines.gpu import kernel\n"
        "found = {}\n"
        f"for n in {sizes}:\n"
        "    found[n] = [0, [], 0]\n"
        "    for at in range(len(gpu._constellations(n))):\n"
        "        arrays = launch.constellation_arrays(n, at, at + 1)[:3]\n"
        "        launch.compiled = lambda: kernel.count_placements\n"
        "        counting = launch.count(n, *arrays)\n"
        "        found[n][0] += counting.placements\n"
        "        found[n][1] += counting.totals.tolist()\n"
        "        if n == 5:\n"
        "            launch.compiled = lambda: kernel.count_pieces\n"
        "            found[n][2] += launch.count(n, *arrays).placements\n",
        PRESETS,
    )
    for counted in every:
        for n in sizes:
            placements, totals, none = counted[str(n)]
            searches = every_constellation_searched(n)
            assert placements == sum(placed for _, placed in searches) > 0
            assert totals == [found for found, _ in searches] and none == 0


PUZZLES = [
    # (n, given queens, blocked squares, excluded diagonals as (kind, value))
    (6, [], [], []),
    (7, [], [], []),
    (8, [(0, 1)], [], []),
    (8, [(1, 0)], [(4, 4), (2, 6)], []),
    (8, [], [(2, 3), (0, 0), (7, 7)], [("sum", 7)]),
    (7, [], [], [("difference", 0), ("sum", 3)]),
    (6, [(1, 0), (3, 1), (5, 2), (0, 3), (2, 4), (4, 5)], [], []),
    (4, [(0, 0)], [], []),
]


@pytest.mark.parametrize(
    "presets",
    # -m slow: the simulator takes seconds a board; a device's pieces of three rows too
    [pytest.param((3,), marks=pytest.mark.slow), pytest.param((1, 2), marks=pytest.mark.slow)],
    ids=str,
)
def test_the_simulated_kernel_counts_puzzles_and_boards_without_symmetry(
    presets: tuple[int, ...],
) -> None:
    """Puzzles, and plain boards counted without their symmetry, as the reduced engine cuts
    them and the kernel finishes them: against the tests' own counter and the bitboard engine,
    each on the device; with pieces of one, two and three rows, some more than a puzzle has
    free lines left."""
    every = simulated(
        f"found = []\n"
        f"for n, queens, blocked, excluded in {PUZZLES!r}:\n"
        "    stats = nqueens.count(n, queens=queens, blocked=blocked, symmetry=False,\n"
        "        excluded=[Diagonal(*d) for d in excluded], engine='gpu')\n"
        "    found.append([stats.solutions, stats.conflicts, stats.backend])\n",
        presets,
    )
    for (n, queens, blocked, excluded), *counted in zip(PUZZLES, *every, strict=True):
        sums = frozenset(value for kind, value in excluded if kind == "sum")
        differences = frozenset(value for kind, value in excluded if kind == "difference")
        expected = count_completions(n, set(queens), set(blocked), sums, differences)
        board = nqueens.Board(
            n, queens=queens, blocked=blocked, excluded=[Diagonal(*d) for d in excluded]
        )
        assert nqueens.count(board, engine="bitboard", symmetry=False).solutions == expected
        nothing_to_launch = expected == 0 or len(queens) == n  # no piece, or no free column
        for preset, (solutions, pieces, device) in zip(presets, counted, strict=True):
            assert solutions == expected, (n, queens, blocked, excluded, preset)
            assert "simulator" in device and (pieces >= 1 or nothing_to_launch)


@pytest.mark.slow  # the documentation's example runs it by default, without the JSON
def test_the_command_line_runs_on_the_simulator_and_says_so() -> None:
    arguments = ["count", "6", "--engine", "gpu", "--format", "json"]
    done = run_nqueens(*arguments, env=SIMULATOR, timeout=120)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["solutions"] == known_total(6)
    assert record["engine"] == "gpu" and "simulator" in record["backend"]
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "simulator" in lines[0]


def test_without_a_device_the_engine_refuses_and_names_the_engines_that_can() -> None:
    if needs.missing() is None:
        pytest.skip("this machine has a CUDA device")
    result = invoke("count", "10", "--engine", "gpu")
    assert result.exit_code == 2
    said = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(said) == 1, result.stderr
    assert "the gpu engine " in said[0] and "engines that can: " in said[0]
    assert "bitboard" in said[0]
    assert "Traceback" not in result.stderr and not result.stdout


def test_a_machine_without_a_driver_is_told_so_without_importing_numba() -> None:
    if needs.missing() is None:
        pytest.skip("this machine has a CUDA device")
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\n"
            "from nqueens.engines.gpu import needs\n"
            "print(needs.missing(), 'numba' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        env=process_env(),
        timeout=60,
    )
    if "driver" in done.stdout:
        assert done.stdout.strip().endswith("False"), done.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's driver files")
def test_a_driver_is_found_by_its_device_where_proc_does_not_show_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A sandbox (gVisor) passes /dev/nvidiactl on without the module's /proc entry."""
    module, device = tmp_path / "proc-version", tmp_path / "nvidiactl"
    monkeypatch.setattr(needs, "DRIVER_SIGNS", (str(module), str(device)))
    assert not needs.driver_loaded()
    device.touch()
    assert needs.driver_loaded()


def test_a_device_without_cudas_compiler_is_told_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A driver and a device, but neither the extra's NVVM wheels nor a CUDA toolkit: exit 2,
    naming both extras, rather than a failed compile at every launch. A kernel compiled before
    loads from numba's cache, with no compiler."""

    def no_compiler() -> None:
        raise RuntimeError("libNVVM cannot be found.\nInstall the CUDA toolkit")

    monkeypatch.setattr(target, "simulated", lambda: False)
    monkeypatch.setattr(needs, "driver_loaded", lambda: True)
    monkeypatch.setattr(launch, "current_device", lambda: SimpleNamespace(capability=(9, 0)))
    monkeypatch.setattr(needs, "load_compiler", no_compiler)
    monkeypatch.setattr(launch, "kept_path", lambda: None)  # no machine code kept
    monkeypatch.setattr(caching, "cache_written", lambda source: False)
    result = invoke("count", "18", "--engine", "gpu")
    assert result.exit_code == 2 and not result.stdout
    said = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(said) == 1 and said[0].startswith("Error: the gpu engine needs CUDA's compilers")
    assert "'.[gpu]'" in said[0] and "'.[gpu-cu12]'" in said[0]
    assert "libNVVM cannot be found" in said[0] and "Traceback" not in result.stderr
    monkeypatch.setattr(caching, "cache_written", lambda source: True)
    assert needs.missing() is None


def test_auto_counts_on_the_cpu_without_a_device(monkeypatch: pytest.MonkeyPatch) -> None:
    large = Request("count", Board(18))
    monkeypatch.setattr(needs, "missing", lambda: "finds no CUDA device on this machine")
    assert auto.for_count(large).name == "join"
    monkeypatch.setattr(needs, "missing", lambda: None)
    assert auto.for_count(large).name == gpu.NAME
    assert auto.for_count(Request("count", Board(18), symmetry=False)).name == gpu.NAME
    assert auto.for_count(Request("count", Board(18), remote=True)).name == "join"
    # below the size where a device pays for itself, and for what the engine cannot count
    assert auto.for_count(Request("count", Board(12))).name == "bitboard"
    few_free = Board(20, queens=((0, 0), (2, 1), (4, 2)))
    assert auto.for_count(Request("count", few_free)).name != gpu.NAME
    assert auto.for_count(Request("count", Board(18, rules={"torus"}))).name != gpu.NAME


def test_auto_never_counts_on_the_simulator(monkeypatch: pytest.MonkeyPatch) -> None:
    """With NUMBA_ENABLE_CUDASIM=1, auto took the simulator from N = 18: 'count 18 -t 2' ran
    for minutes (one simulated piece of N = 18 takes seconds), where the CPU counts it in 2 s."""
    monkeypatch.setenv("NUMBA_ENABLE_CUDASIM", "1")
    assert auto.for_count(Request("count", Board(18))).name == "join"
    assert auto.for_count(Request("count", Board(20), symmetry=False)).name != gpu.NAME


@pytest.mark.parametrize(
    ("value", "simulated"),
    [
        ("1", True),
        ("2", True),
        (" 1 ", True),
        ("0", False),
        ("00", False),
        ("", False),
        ("yes", False),
        ("true", False),
    ],
)
def test_the_simulator_is_asked_for_as_numba_reads_it(
    monkeypatch: pytest.MonkeyPatch, value: str, simulated: bool
) -> None:
    """NUMBA_ENABLE_CUDASIM=yes is 0 to numba, which then looks for a device: the engine took it
    for the simulator, said so, and then failed every launch on a machine without a GPU."""
    monkeypatch.setenv("NUMBA_ENABLE_CUDASIM", value)
    assert target.simulated() is simulated


@pytest.mark.slow
def test_a_time_limit_is_kept_on_the_simulator_while_a_launch_runs() -> None:
    """A simulated launch of N = 18 takes minutes: a limit of 0.5 s ended the count then."""
    started = time.monotonic()
    arguments = ["count", "18", "--engine", "gpu", "--time-limit", "0.5", "--format", "json"]
    done = run_nqueens(*arguments, env=SIMULATOR)
    assert done.returncode == 3, done.stderr
    assert time.monotonic() - started < bound(START_UP + 0.5 + 4)  # the simulator loads
    record = json.loads(done.stdout)
    assert record["status"] == "time-limit" and record["solutions"] < known_total(18)


def _launches_recorded(path: Path) -> list[str]:
    """The launches a checkpoint holds, once at least one is written whole."""
    text = path.read_text() if path.exists() else ""
    return text.splitlines()[1:] if text.endswith("\n") else text.splitlines()[1:-1]


@pytest.mark.slow  # the simulator counts N = 12 in 3 s, 8 s or more on a busy machine
def test_a_checkpoint_keeps_the_launches_counted_and_resumes_exactly(tmp_path: Path) -> None:
    """Stopped (SIGTERM) once a launch is recorded: a time limit of 2 s had, on a busy machine,
    ended the count while the simulator still loaded, before any launch."""
    path = tmp_path / "gpu.ckpt"
    command = ["count", "12", "--engine", "gpu", "--unique"]
    counting = start_nqueens(*command, "--checkpoint", str(path), env=SIMULATOR)
    try:
        deadline = time.monotonic() + 120
        while not _launches_recorded(path) and counting.poll() is None:
            assert time.monotonic() < deadline, "no launch recorded within 120 s"
            time.sleep(0.02)
        counting.send_signal(signal.SIGTERM)
        _, stderr = counting.communicate(timeout=60)
    finally:
        counting.kill()
        counting.wait()
    assert counting.returncode == 143, stderr  # stopped by the signal, before the end
    kept = _launches_recorded(path)
    assert kept  # launches finished before the stop are recorded
    resumed = run_nqueens(*command, "--checkpoint", str(path), env=SIMULATOR, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.split() == [str(known_total(12)), str(known_unique(12))]
    places = [int(line.split()[0]) for line in path.read_text().splitlines()[1:]]
    assert sorted(places) == list(range(len(places)))  # each launch counted once
    assert path.read_text().splitlines()[1 : 1 + len(kept)] == kept


def stand_in_device(monkeypatch: pytest.MonkeyPatch, launcher: launch.Launcher, name: str) -> None:
    """A device that is there, named ``name``, its kernel launched by ``launcher``."""
    monkeypatch.setattr(needs, "missing", lambda: None)
    monkeypatch.setattr(target, "simulated", lambda: False)
    monkeypatch.setattr(launch, "launcher", lambda: launcher)
    monkeypatch.setattr(launch, "device_name", lambda: name)


@pytest.fixture
def failing_device(monkeypatch: pytest.MonkeyPatch) -> None:
    """A device that is there but fails every launch, as one out of memory would."""

    def fail(*arguments: object) -> launch.Finish:
        raise RuntimeError("Error at launch:\n\nCUDA_ERROR_OUT_OF_MEMORY (a stand-in)\n:")

    stand_in_device(monkeypatch, launch.Launcher(fail, "a stand-in"), "a failing device")


@pytest.mark.parametrize(("beside", "ahead"), [(False, 1), (True, 0), (True, 1), (True, 2)])
def test_launches_are_begun_before_their_turn_only_where_they_run_beside_the_one_before(
    monkeypatch: pytest.MonkeyPatch, beside: bool, ahead: int
) -> None:
    """Where launches run beside each other (through CUDA's driver), the next ``ahead`` spans'
    launches are begun, in order, before a span's is waited for; where a launch's copies would
    wait for the launch before (numba's launch), each only at its turn."""
    order: list[str] = []

    def begin(n: int, blocked: Any, gaps: Any, lines: Any) -> launch.Finish:
        at = sum(step.startswith("begin") for step in order)
        order.append(f"begin {at}")

        def finish(deadline: float | None) -> launch.Launch:
            order.append(f"finish {at}")
            return launch.Launch(numpy.zeros(len(lines), dtype=numpy.uint64), 1)

        return finish

    launcher = launch.Launcher(begin, "a stand-in", beside)
    stand_in_device(monkeypatch, launcher, "a stand-in device")
    monkeypatch.setattr(gpu, "PIECES_PER_LAUNCH", 1 << 16)  # many launches of N = 12
    monkeypatch.setattr(gpu, "LAUNCHES_AHEAD", ahead)
    nqueens.count(12, engine="gpu")
    launches = len(gpu.ENGINE.subproblems(Request("count", Board(12)), None))
    if beside:  # each launch begun once the one `ahead` before it is about to be waited for
        expected = [f"begin {at}" for at in range(ahead)]
        for at in range(launches):
            expected += [f"begin {at + ahead}"] * (at + ahead < launches) + [f"finish {at}"]
    else:
        expected = [f"{step} {at}" for at in range(launches) for step in ("begin", "finish")]
    assert launches > 3 and order == expected


class SlowDevice:
    """A device each of whose launches takes ``seconds``: its copy back waits for the launch,
    as a real one does, and its events say when the launch has ended."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.ends = 0.0
        self.launches = 0
        self.kernel = self

    def __getitem__(self, grid: object) -> Callable[..., None]:
        def launch(*arguments: object) -> None:
            self.ends = time.monotonic() + self.seconds
            self.launches += 1

        return launch

    def to_device(self, array: Any) -> Any:
        device = self

        class Copy:
            def copy_to_host(self) -> Any:
                time.sleep(max(0.0, device.ends - time.monotonic()))
                return array

        return Copy()

    def get_current_device(self) -> Any:
        return SimpleNamespace(MULTIPROCESSOR_COUNT=132)

    def event(self, timing: bool) -> Any:
        return SimpleNamespace(record=lambda: None, query=lambda: time.monotonic() >= self.ends)


def numba_launches(monkeypatch: pytest.MonkeyPatch, device: SlowDevice, name: str) -> None:
    """Launches by numba's launch, on ``device``, named ``name``."""
    monkeypatch.setattr(launch, "cuda", lambda: device)
    monkeypatch.setattr(launch, "compiled", lambda: device.kernel)
    stand_in_device(monkeypatch, launch.Launcher(launch.by_numba, "numba"), name)


def test_bench_times_the_engine_where_a_device_is_there(monkeypatch: pytest.MonkeyPatch) -> None:
    """bench warmed every engine up with a first solution, which this engine does not find: it
    crashed on its own defaults wherever a device was there."""
    numba_launches(monkeypatch, SlowDevice(seconds=0), "a device")
    result = invoke("bench", "--sizes", "4", "--first-sizes", "8", "--engines", "gpu,cp", "-q")
    assert result.exit_code == 0, result.stderr
    rows = {words[0]: words[1:] for words in map(str.split, result.stdout.splitlines()) if words}
    assert float(rows["gpu"][0]) >= 0 and "Left out" not in result.stderr


def test_a_time_limit_is_kept_while_a_long_launch_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A launch on a large board takes seconds: the count stops at its limit all the same,
    with what it has (nothing from the launch given up on), not when the launch ends."""
    device = SlowDevice(seconds=30)
    numba_launches(monkeypatch, device, "a slow device")
    started = time.monotonic()
    stats = nqueens.count(18, engine="gpu", unique=True, time_limit=0.5)
    assert time.monotonic() - started < bound(0.5 + 0.5)
    assert stats.status is nqueens.Status.TIME_LIMIT and stats.engine == gpu.NAME
    assert stats.solutions < known_total(18) and stats.conflicts == 0  # no launch counted


@pytest.mark.slow
def test_a_board_the_device_counts_in_minutes_needs_no_time_limit_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """N = 20 to 22 take hours on CPUs, so a count of them needs a limit there (or a checkpoint
    or a cluster); on a GPU they take minutes, and need none. N = 23 takes hours on a GPU too."""
    with pytest.raises(nqueens.InputError, match="counting them takes about"):
        nqueens.count(23, engine="bitboard")
    monkeypatch.setattr(needs, "missing", lambda: None)
    monkeypatch.setattr(target, "simulated", lambda: True)
    with pytest.raises(nqueens.InputError, match="too many to go through without a limit"):
        nqueens.count(20, engine="gpu")  # on the simulator, a count of N = 20 takes days
    device = SlowDevice(seconds=0)  # whose launches count nothing
    numba_launches(monkeypatch, device, "a device")
    estimates: list[object] = []
    stats = nqueens.count(20, engine="gpu", on_estimate=lambda *guess: estimates.append(guess))
    assert stats.status is nqueens.Status.COMPLETE
    # no estimate first: its probes, cut short, would leave launches running on the device
    launches = len(gpu.ENGINE.subproblems(Request("count", Board(20)), None))
    assert estimates == [] and device.launches == launches
    assert nqueens.count(20).engine == gpu.NAME  # auto takes the device, and needs no limit
    assert gpu.ENGINE.counts_in_minutes(Request("count", Board(22)))
    with pytest.raises(nqueens.InputError, match="too many to go through without a limit"):
        nqueens.count(23, engine="gpu")


@pytest.mark.usefixtures("failing_device")
def test_a_failed_launch_is_counted_on_the_cpu_exactly_and_said_once_per_launch() -> None:
    with pytest.warns(gpu.GpuFallbackWarning, match="OUT_OF_MEMORY") as warned:
        stats = nqueens.count(12, engine="gpu", unique=True)
    assert (stats.solutions, stats.unique) == (known_total(12), known_unique(12))
    assert len(warned) == len(gpu.ENGINE.subproblems(Request("count", Board(12)), None))
    queens, blocked = {(1, 0)}, {(4, 4), (2, 6)}
    with pytest.warns(gpu.GpuFallbackWarning) as warned_too:
        puzzle = nqueens.count(9, engine="gpu", queens=sorted(queens), blocked=sorted(blocked))
    assert puzzle.solutions == count_completions(9, queens, blocked)
    # one line each, as the command line shows a warning, though numba's errors span several
    said = [str(warning.message) for warning in [*warned, *warned_too]]
    assert all("\n" not in text and "Error at launch: CUDA_ERROR" in text for text in said)


def test_a_worker_without_a_gpu_counts_every_piece_exactly_on_its_cpu() -> None:
    """What a cluster's workers without a GPU count: every piece, as ``on_cpu`` makes it."""
    engine = gpu.ENGINE

    def on_cpus(request: Request) -> tuple[int, int]:
        found = [
            engine.count_subproblem(engine.on_cpu(task))
            for task in engine.subproblems(replace(request, remote=True), None)
        ]
        assert all(sub.complete and sub.first == 0 for sub in found)  # no piece on a device
        return sum(sub.solutions for sub in found), sum(sub.unique or 0 for sub in found)

    assert on_cpus(Request("count", Board(11))) == (known_total(11), known_unique(11))
    queens, blocked = {(1, 0), (5, 3)}, {(4, 4), (2, 6)}
    puzzle = Board(10, queens=tuple(sorted(queens)), blocked=tuple(sorted(blocked)))
    assert on_cpus(Request("count", puzzle))[0] == count_completions(10, queens, blocked)

"""The gpu engine without a GPU: its kernel on numba's CUDA simulator, its refusals, and auto.

CI has no device. numba's simulator (NUMBA_ENABLE_CUDASIM=1, read when numba's CUDA target is
first imported) runs the same kernel on the CPU, so the simulated counts run in a process of
their own; they are checked against the published counts and the tests' own brute force.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import (
    brute_force_solutions,
    invoke,
    known_total,
    known_unique,
    process_env,
    symmetry_images,
)

from nqueens.core.board import Board
from nqueens.engines import gpu, registry
from nqueens.engines.base import Request
from nqueens.engines.bitboard import edges
from nqueens.engines.gpu import kernel

SIMULATOR = process_env(NUMBA_ENABLE_CUDASIM="1")

pytestmark = pytest.mark.skipif(
    edges.c_module() is None, reason="the package was built without its C module"
)


def simulated(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=SIMULATOR,
        timeout=120,
    )


@pytest.mark.parametrize(
    "sizes", [range(5, 8), pytest.param(range(8, 11), marks=pytest.mark.slow)], ids=str
)
def test_the_simulated_kernel_counts_every_board_exactly(sizes: range) -> None:
    """Every count and every class count, against the published ones and the brute force here
    (which takes the classes from the solutions' own images); each on the device, not on the
    CPU that a failed launch falls back to."""
    done = simulated(
        "import json, warnings, nqueens\n"
        "from nqueens.engines.gpu import SimulatorWarning\n"
        "warnings.simplefilter('error')\n"
        "warnings.simplefilter('ignore', SimulatorWarning)\n"
        f"found = {{n: nqueens.count(n, engine='gpu', unique=True) for n in {list(sizes)}}}\n"
        "print(json.dumps({n: [s.solutions, s.unique, s.conflicts, s.backend]"
        " for n, s in found.items()}))\n"
    )
    assert done.returncode == 0, done.stderr
    found = {int(n): figures for n, figures in json.loads(done.stdout).items()}
    assert sorted(found) == list(sizes)
    for n, (solutions, unique, launches, device) in found.items():
        everything = brute_force_solutions(n)
        classes = {min(symmetry_images(rows)) for rows in everything}
        assert (solutions, unique) == (known_total(n), known_unique(n))
        assert (solutions, unique) == (len(everything), len(classes))
        assert launches >= 1 and "simulator" in device


@pytest.mark.slow  # the README's example runs it by default, without the JSON
def test_the_command_line_runs_on_the_simulator_and_says_so() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nqueens", "count", "6", "--engine", "gpu", "--format", "json"],
        capture_output=True,
        text=True,
        env=SIMULATOR,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["solutions"] == known_total(6)
    assert record["engine"] == "gpu" and "simulator" in record["backend"]
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "simulator" in lines[0]


def test_without_a_device_the_engine_refuses_and_names_the_engines_that_can() -> None:
    if kernel.missing() is None:
        pytest.skip("this machine has a CUDA device")
    result = invoke("count", "10", "--engine", "gpu")
    assert result.exit_code == 2
    said = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(said) == 1, result.stderr
    assert "the gpu engine " in said[0] and "engines that can: " in said[0]
    assert "bitboard" in said[0]
    assert "Traceback" not in result.stderr and not result.stdout


def test_a_machine_without_a_driver_is_told_so_without_importing_numba() -> None:
    if kernel.missing() is None:
        pytest.skip("this machine has a CUDA device")
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\n"
            "from nqueens.engines.gpu import kernel\n"
            "print(kernel.missing(), 'numba' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        env=process_env(),
        timeout=60,
    )
    if "driver" in done.stdout:
        assert done.stdout.strip().endswith("False"), done.stdout


def test_auto_counts_on_the_cpu_without_a_device(monkeypatch: pytest.MonkeyPatch) -> None:
    large = Request("count", Board(18))
    monkeypatch.setattr(kernel, "missing", lambda: "finds no CUDA device on this machine")
    assert registry.for_count(large).name == "bitboard"
    monkeypatch.setattr(kernel, "missing", lambda: None)
    assert registry.for_count(large).name == gpu.NAME
    # below the size where a device pays for itself, and for what the engine cannot count
    assert registry.for_count(Request("count", Board(12))).name == "bitboard"
    assert registry.for_count(Request("count", Board(18), symmetry=False)).name == "bitboard"


@pytest.mark.slow  # the simulator counts N = 9 in seconds
def test_a_checkpoint_keeps_the_launches_counted_and_resumes_exactly(tmp_path: Path) -> None:
    path = tmp_path / "gpu.ckpt"
    command = [sys.executable, "-m", "nqueens", "count", "9", "--engine", "gpu", "--unique"]
    stopped = subprocess.run(
        [*command, "--checkpoint", str(path), "--time-limit", "1.5"],
        capture_output=True,
        text=True,
        env=SIMULATOR,
        timeout=120,
    )
    assert stopped.returncode == 3, stopped.stderr  # stopped by its time limit
    kept = path.read_text().splitlines()[1:]
    assert kept  # launches finished before the limit are recorded
    resumed = subprocess.run(
        [*command, "--checkpoint", str(path)],
        capture_output=True,
        text=True,
        env=SIMULATOR,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.split() == [str(known_total(9)), str(known_unique(9))]
    places = [int(line.split()[0]) for line in path.read_text().splitlines()[1:]]
    assert sorted(places) == list(range(len(places)))  # each launch counted once
    assert path.read_text().splitlines()[1 : 1 + len(kept)] == kept

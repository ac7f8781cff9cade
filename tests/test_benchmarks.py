"""The benchmark scripts that need nothing beyond this repository run and check their counts."""

from __future__ import annotations

import itertools
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import DATA, ROOT, every_constellation_searched, known_total, process_env

BENCHMARKS = ROOT / "benchmarks"
ENGINE_KERNEL = ROOT / "src" / "nqueens" / "engines" / "gpu" / "kernel.py"


def _tables(text: str) -> list[list[list[str]]]:
    """The markdown tables of a report, each a list of rows of cells (heading and rule left out)."""
    tables: list[list[list[str]]] = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if line.startswith("|")]
        rows = [line.strip("| ").split(" | ") for line in lines]
        if rows:
            tables.append(rows[2:])
    return tables


def _benchmark(
    script: str, *arguments: str, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """benchmarks/SCRIPT run to its end with the plain settings, which must succeed (unless
    ``check`` is False)."""
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *arguments],
        capture_output=True,
        text=True,
        check=check,
        env=process_env(),
    )


@pytest.mark.slow  # whole benchmark runs, seconds each: -m slow, as CI runs
def test_enumeration_benchmark_counts_every_board_it_times() -> None:
    arguments = ["--sizes", "6-7", "--split-sizes", "8", "--columns", "1-2"]
    arguments += ["--presolve-cases", "8:1"]
    done = _benchmark("enumeration.py", *arguments)
    inprocessing, split, presolve = _tables(done.stdout)
    assert {row[0]: row[1] for row in inprocessing} == {"6": "4", "7": "40"}
    ((n, count, one_column, two_columns),) = split
    assert (n, count) == ("8", f"{known_total(8)}")
    # With symmetry breaking the first queen stays in the upper half: rows 0..3 of 8.
    pairs = [
        (first, second)
        for first, second in itertools.product(range(4), range(8))
        if abs(first - second) > 1
    ]
    assert one_column.endswith("* (4)"), "nqueens fixes one column for N = 8"
    assert two_columns.endswith(f" ({len(pairs)})")
    assert presolve[0][2].endswith(": 92") and presolve[0][3].endswith(": 92")
    assert "WRONG" not in done.stdout


@pytest.mark.slow  # seconds of counting: -m slow, as CI runs
def test_threads_benchmark_counts_each_board_three_ways_and_checks_them() -> None:
    done = _benchmark("threads.py", "--repeat", "1")
    ((table),) = _tables(done.stdout)
    assert [row[0] for row in table] == [
        "`count 17 --torus`",
        "`count 16 --superqueens`",
        "`count 16 --no-symmetry`",
    ]
    assert all(float(cell) > 0 for row in table for cell in row[1:])


@pytest.mark.slow  # whole processes, a minute: -m slow, as CI runs
def test_compiled_benchmark_checks_every_count_beside_another_installation() -> None:
    """Run against this installation itself as the other one: both columns, every row, the
    counts checked and agreeing (the script stops otherwise)."""
    done = _benchmark("compiled.py", "--against", sys.executable, "--repeat", "1")
    ((table),) = _tables(done.stdout)
    assert table[0][0] == "the installation, du -sm" and table[0][1] == table[0][2]
    works = [row[0] for row in table]
    assert "`count 17 --torus`" in works and "`count` n = 20, d = 20" in works
    assert all(float(cell) > 0 for row in table[1:] for cell in row[1:])


@pytest.mark.slow  # whole benchmark runs, seconds each: -m slow, as CI runs
def test_variants_benchmark_times_each_rule_beside_a_plain_count_of_another_size() -> None:
    """The script stops on a count other than OEIS's, so its table is of checked counts."""
    arguments = ["--torus", "7", "--superqueens", "10", "--plain", "8", "--repeat", "1"]
    done = _benchmark("variants.py", *arguments)
    ((table),) = _tables(done.stdout)
    assert [row[:4] for row in table] == [
        ["7", "torus", "28", "8"],
        ["10", "superqueens", "4", "8"],
    ]
    assert all(float(cell) > 0 for row in table for cell in row[4:])


def test_benchmarks_that_need_the_peers_say_so_when_they_are_missing(tmp_path: Path) -> None:
    done = _benchmark("counting.py", "--peers", str(tmp_path), check=False)
    assert done.returncode == 1, done.stderr
    assert "is missing: " in done.stderr and "--peers" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("script", "arguments", "where"),
    [
        ("ortools_program.py", ["--program", "nowhere.py"], "google/or-tools (commit "),
        ("diagonals.py", ["--sizes", "16"], "csplib/csplib (commit "),
        ("counting.py", ["--join-counter", "nowhere"], "N-Queens-Count-Sol on GitHub (commit "),
    ],
)
def test_a_peer_of_another_project_is_asked_for_with_where_to_get_it(
    script: str, arguments: list[str], where: str
) -> None:
    """Other projects' programs are not kept here: the benchmark asks for the path of one and
    says which repository and commit it comes from."""
    done = _benchmark(script, *arguments, check=False)
    assert done.returncode == 1, done.stderr
    assert where in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow  # whole benchmark runs, seconds each: -m slow, as CI runs
def test_diagonals_benchmark_times_both_counting_engines_and_names_autos_choice() -> None:
    arguments = ["--count-engines", "3", "--sizes", "10", "--seeds", "1", "--time-limit", "60"]
    done = _benchmark("diagonals.py", *arguments)
    ((row,),) = _tables(done.stdout)
    n, seed, d, share, solutions, *seconds, auto = row
    assert (n, seed, d, auto) == ("10", "1", "3", "bitboard")
    assert share.endswith("%") and int(solutions) > 0
    assert all(float(cell) > 0 for cell in seconds)


@pytest.mark.slow  # whole benchmark runs, seconds each: -m slow, as CI runs
def test_size_estimate_benchmark_sets_each_estimate_beside_a_checked_count(tmp_path: Path) -> None:
    (tmp_path / "diag-12-4-5.param").write_text((DATA / "diag-12-4-5.param").read_text())
    arguments = ["--sizes", "8", "--instances", str(tmp_path)]
    done = _benchmark("size_estimate.py", *arguments)
    ((table),) = _tables(done.stdout)
    assert [row[:2] for row in table] == [
        ["diag-12-4-5.param (N = 12, its first 12 diagonals)", "0"],
        ["empty N = 8", "92"],
    ]
    assert all(0.5 < float(row[4]) < 2 for row in table)


@pytest.mark.slow
def test_large_board_benchmark_checks_every_board_it_times() -> None:
    arguments = ["--sizes", "100", "--large", "3000", "--repeat", "1"]
    done = _benchmark("large.py", *arguments)
    firsts, large = _tables(done.stdout)
    assert [row[0] for row in firsts] == ["100"] and [row[0] for row in large] == ["3,000"]
    assert all(cell.endswith(" MB") for row in firsts + large for cell in row[1:])


@pytest.mark.slow
def test_cluster_benchmark_counts_exactly_through_a_kill_and_two_stops() -> None:
    pytest.importorskip("distributed", reason="the cluster extra is not installed")
    arguments = ["--fault", "16", "--throughput", "13", "--repeat", "1", "--resume", "17"]
    done = _benchmark("cluster.py", *arguments, "--project", "15", "--quick")
    killed, throughput, resumed, projected = _tables(done.stdout)
    assert killed[0][2] == killed[0][3] == f"{known_total(16):,}"
    assert [len(row) for row in throughput] == [4, 4, 4] and "pool" in throughput[0][0]
    assert [row[2] for row in resumed] == ["130", "143", "0"]
    assert resumed[-1][1] == f"the end: {known_total(17):,}"
    assert projected[0][:2] == ["15", "1,155"]


def placements_searched(n: int) -> int:
    """The placements of the gpu kernel's searches of every constellation of N, by the tests'
    own search."""
    return sum(placed for _, placed in every_constellation_searched(n))


def on_the_simulator(*arguments: str | Path) -> subprocess.CompletedProcess[str]:
    """benchmarks/gpu.py run on numba-cuda's simulator, which must succeed: its output."""
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / "gpu.py"), *arguments],
        capture_output=True,
        text=True,
        env=process_env(NUMBA_ENABLE_CUDASIM="1"),
        check=True,
    )


def peer_saying(count: int) -> str:
    """A stand-in for a GPU peer's command: it says it counted ``count`` for N, as
    ygch/n_queens does, the count followed by a comma (which once failed the check)."""
    return f"{sys.executable} -c \"print('cuda {{n}} queens result {count}, calc time: [1ms]')\""


@pytest.mark.slow  # a second of numba-cuda's simulator
def test_gpu_benchmark_checks_every_count_it_times() -> None:
    """A peer is timed beside the engine, and its count is checked too."""
    beside = ["--peer", peer_saying(known_total(6))]
    done = on_the_simulator("--sizes", "6", *beside)
    ((n, solutions, seconds, counting, pieces, on_device, placements, rate, peer, ratio),) = (
        _tables(done.stdout)[0]
    )
    assert float(peer) > 0 and float(ratio) > 1  # the simulator, against a line printed
    assert 0 < float(counting) < float(seconds)
    assert (n, solutions) == ("6", f"{known_total(6)}") and int(pieces.replace(",", "")) >= 1
    assert int(placements) == placements_searched(6)
    assert float(rate.replace(",", "")) == pytest.approx(int(placements) / float(on_device), 0.1)
    assert "simulator" in done.stdout.splitlines()[0]


@pytest.mark.slow  # two seconds of numba-cuda's simulator
def test_gpu_benchmark_leaves_out_a_peer_that_counts_wrong_and_goes_on() -> None:
    """A peer that fails (here, a count one too many at N = 6) is left out from there on, and
    the table of the engine's own counts is still made: a device's minutes are not lost."""
    wrong = f'{sys.executable} -c "import sys; print({known_total(6) + 1} if {{n}} == 6 else 1)"'
    done = on_the_simulator("--sizes", "6-7", "--peer", wrong)
    rows = _tables(done.stdout)[0]
    assert [row[:2] for row in rows] == [["6", f"{known_total(6)}"], ["7", f"{known_total(7)}"]]
    assert all(len(row) == 8 for row in rows)  # no peer's cells
    assert f"left out from there on: N = 6: the peer printed no {known_total(6)}" in done.stdout


@pytest.mark.slow  # two seconds of numba-cuda's simulator
def test_gpu_benchmark_shows_a_count_its_time_limit_stopped_and_goes_no_further() -> None:
    done = on_the_simulator("--sizes", "12-13", "--time-limit", "1")
    ((n, solutions, seconds, *_),) = _tables(done.stdout)[0]
    assert n == "12" and solutions.startswith("at least ") and "stopped" in seconds
    assert int(solutions.removeprefix("at least ").replace(",", "")) <= known_total(12)
    assert "checked against the published ones" not in done.stdout


@pytest.mark.slow  # a few seconds of numba-cuda's simulator
def test_gpu_benchmark_weighs_settings_and_a_kernel_of_ones_own() -> None:
    """--variants counts with each setting, and with kernels from files (here the engine's
    own, as a file of one's own), each count checked against the published one, and names the
    fastest kernel."""
    done = on_the_simulator("--variants", "7", "--kernel", ENGINE_KERNEL)
    rows = _tables(done.stdout)[0]
    names = [row[0] for row in rows]
    assert names[0] == "as shipped" and names[-1] == f"kernel of {ENGINE_KERNEL}"
    assert all(float(row[1]) > 0 for row in rows)  # every count finished, and was checked
    kernels = {"as shipped": float(rows[0][1]), str(ENGINE_KERNEL): float(rows[-1][1])}
    named = done.stdout.rstrip().rpartition("\nThe fastest kernel: ")[2]
    # the table rounds to milliseconds: two kernels that tie there may be named either way
    assert named in kernels and kernels[named] == min(kernels.values()), done.stdout


@pytest.mark.slow  # numba-cuda's simulator
def test_gpu_benchmark_names_no_kernel_when_none_finished() -> None:
    """A time limit that stops every count leaves no fastest kernel to name (it once raised)."""
    command = [sys.executable, str(BENCHMARKS / "gpu.py"), "--variants", "9", "--kernels-only"]
    done = subprocess.run(
        [
            *command,
            "--time-limit",
            "0.01",
            "--kernel",
            str(ENGINE_KERNEL),
        ],
        capture_output=True,
        text=True,
        env=process_env(NUMBA_ENABLE_CUDASIM="1"),
        check=True,
    )
    rows = _tables(done.stdout)[0]
    assert len(rows) == 2 and all("(stopped)" in row[1] for row in rows)
    assert done.stdout.rstrip().endswith("No kernel finished its count within the time limit.")


@pytest.mark.slow  # a numba compile
def test_gpu_work_counts_the_pieces_and_placements_and_checks_the_solutions() -> None:
    """benchmarks/gpu_work.py: the device's work for each N, counted on the CPU piece by piece:
    its placements as the tests' own search of each constellation counts them, its solutions
    weighted as the engine weighs them and checked against the published counts."""
    done = _benchmark("gpu_work.py", "--sizes", "10-12")
    rows = _tables(done.stdout)[0]
    assert [row[0] for row in rows] == ["10", "11", "12"]
    pieces = [int(row[1].replace(",", "")) for row in rows]
    assert pieces[0] == 272_000  # N = 10: 272 constellations, 10³ pieces each
    placements = [int(row[3].replace(",", "")) for row in rows]
    assert placements == [placements_searched(n) for n in range(10, 13)]
    assert done.stdout.rstrip().endswith("checked against the published ones.")


@pytest.mark.slow  # a numba compile
def test_gpu_work_models_the_launches_tails() -> None:
    """--tails: for each launch size, as many launches as the engine makes, and a schedule no
    shorter than the turns spread evenly, nor shorter with launches one after another than as
    the engine begins them; a single launch's the same either way, and more launches one after
    another take longer."""
    done = _benchmark("gpu_work.py", "--sizes", "14", "--tails")
    rows = _tables(done.stdout)[1]
    assert [row[1:3] for row in rows] == [["2^22", "2"], ["2^24", "1"], ["2^26", "1"]]
    alone, beside = ([float(row[column]) for row in rows] for column in (4, 5))
    assert all(1 <= ahead <= each for ahead, each in zip(beside, alone, strict=True))
    assert alone[0] > beside[0] and alone[0] > alone[1] == beside[1] == alone[2] == beside[2]


def _compilers_or_skip() -> None:
    """Skip a test where CUDA's compilers (NVVM, NVRTC: the gpu extra) are not installed."""
    pathfinder = pytest.importorskip("cuda.pathfinder", reason="numba-cuda is not installed")
    for library in ("nvvm", "nvrtc"):  # found as numba-cuda finds them, without importing it
        try:
            pathfinder.load_nvidia_dynamic_lib(library)
        except Exception:
            pytest.skip(f"CUDA's {library.upper()} is not installed here")


def test_gpu_benchmark_reads_the_kernels_resources_from_the_compiler() -> None:
    """Without a device: only CUDA's compilers (the gpu extra, or a CUDA toolkit)."""
    _compilers_or_skip()
    candidate = ENGINE_KERNEL  # a kernel of one's own, reported beside the engine's
    done = _benchmark("gpu.py", "--compiler-report", "--kernel", str(candidate))
    report = re.fullmatch(
        r"For sm_90:\nthe engine's kernel: (\d+) registers a thread, a (\d+)-byte stack, .*\n"
        rf"kernel of {re.escape(str(candidate))}: \d+ registers a thread, .*\n",
        done.stdout,
    )
    assert report is not None, done.stdout
    registers, stack = report.groups()
    page = " ".join((ROOT / "docs" / "explanation" / "gpu.md").read_text().split())
    assert f"{registers} registers a thread" in page and f"a {stack}-byte stack" in page


PUBLISHED_COUNT = (
    "import json, sys; "
    "print(json.load(open('tests/data/counts.json'))['total'][sys.argv[1]], 'solutions')"
)
"""A stand-in for a GPU peer that counts right, from the repository's root: the published count
of the N it is given."""


@pytest.mark.slow  # a few seconds of numba-cuda's simulator
def test_the_device_script_runs_its_checks_on_the_simulator(tmp_path: Path) -> None:
    """benchmarks/gpu_device.sh, the one call a session with a GPU makes, runs through: on the
    simulator, with the C module already built."""
    done = subprocess.run(
        ["bash", str(BENCHMARKS / "gpu_device.sh")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=process_env(
            NUMBA_ENABLE_CUDASIM="1",
            SIZES="6-7",
            LARGEST="8",
            VARIANT_N="7",
            OUT=str(tmp_path),
            PYTHON=sys.executable,
            PEER=f"{sys.executable} -c {shlex.quote(PUBLISHED_COUNT)} {{n}}",
        ),
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    log = (tmp_path / "gpu-device.log").read_text()
    assert "as published" in log and "on both" in log
    assert "checked against the published ones: N = 6, 7." in log and "Traceback" not in log
    assert f"{known_total(6)} - numba-cuda's simulator" in log  # how the second count launched
    assert "| 2 preset rows | " in log  # the settings weighed
    assert "as shipped (early, and beside numpy): " in log  # the driver's start, each way
    assert "the stamped end, medians: " in log  # where a process's end goes
    assert "| nqueens / peer |" in log  # the peer, timed beside the table


@pytest.mark.slow  # every engine and command, a second or so each
def test_time_limit_benchmark_walks_every_engine_it_can_run_here() -> None:
    """It names what this machine cannot run (the gpu engine without a device) rather than
    stop there, as it once did."""
    from nqueens.engines import registry

    quick = ["--repeat", "1", "--limit", "0.3", "--delay", "0.2"]
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "time_limits.py"), *quick],
        capture_output=True,
        text=True,
        env=process_env(),
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    (rows,) = _tables(done.stdout)
    walked = {(row[1], row[0]) for row in rows}
    for name, engine in registry.ENGINES.items():
        for command in engine.commands:
            assert (name, command) in walked or f"{command} --engine {name}" in done.stdout


@pytest.mark.slow
def test_the_ortools_program_comparison_checks_every_count(tmp_path: Path) -> None:
    """A stand-in for the OR-Tools program prints a count; the run stops where it is not N's."""
    program = tmp_path / "nqueens_sat.py"
    program.write_text("import sys\nprint('solutions found:', 4 if sys.argv[1] == '6' else 41)\n")
    arguments = ["--sizes", "6", "--repeat", "1", "--program", str(program)]
    ((counted,),) = _tables(_benchmark("ortools_program.py", *arguments).stdout)
    n, count, ours, ours_on_one, program_seconds, ratio, _ = counted
    assert (n, count) == ("6", "4") and ratio.endswith("x")
    assert all(float(seconds) > 0 for seconds in (ours, ours_on_one, program_seconds))
    arguments.insert(0, "--solve")
    ((solved,),) = _tables(_benchmark("ortools_program.py", *arguments).stdout)
    n, count, ours, program_seconds, ratio = solved
    assert (n, count) == ("6", "4")
    assert float(ours) > 0 and float(program_seconds) > 0 and ratio.endswith("x")
    arguments[arguments.index("6")] = "7"
    wrong = _benchmark("ortools_program.py", *arguments, check=False)
    assert wrong.returncode == 1
    assert "N = 7: the programs counted [40, 41], not 40" in wrong.stderr


@pytest.mark.slow  # five whole processes and a C compile
@pytest.mark.skipif(shutil.which("gcc") is None, reason="no C compiler to build the printer")
def test_listing_benchmark_times_every_format_beside_the_c_printer() -> None:
    """Each row's count is checked by the script against the published counts."""
    (table,) = _tables(_benchmark("listing.py", "--sizes", "6", "--repeat", "1").stdout)
    assert [row[:3] for row in table] == [
        ["6", "printer.c", "4"],
        ["6", "solve --style compact", "4"],
        ["6", "solve --format json", "4"],
        ["6", "solve --unique --style compact", "1"],
        ["6", "solve --style compact, piped to verify", "4"],
    ]
    assert all(float(row[3]) >= 0 and float(row[4]) > 0 for row in table)


@pytest.mark.slow  # ten whole processes
def test_export_benchmark_times_every_format() -> None:
    """Each file is checked by the script: its header, and the CNF's count of clauses."""
    from nqueens.export import FORMATS

    (table,) = _tables(_benchmark("export.py", "--sizes", "20", "--repeat", "1").stdout)
    assert [row[:2] for row in table] == [["20", name] for name in FORMATS]
    assert all(float(row[2]) > 0 and float(row[4]) > 0 for row in table)
    assert [row[5] != "-" for row in table] == [name in ("lp", "mps") for name in FORMATS]


@pytest.mark.slow  # whole benchmark runs, seconds each: -m slow, as CI runs
def test_startup_benchmark_times_each_command_beside_another_installation() -> None:
    """Run against this installation itself as the other one: every command, both columns,
    each cell a best, a median wall time and a median processor time."""
    done = _benchmark("startup.py", "--against", sys.executable, "--repeat", "2")
    ((table),) = _tables(done.stdout)
    assert [row[0] for row in table] == [
        "`count 8`",
        "`count 8 --stats`",
        "`first 8 --style compact`",
        "`--help`",
    ]
    for row in table:
        for cell in row[1:]:
            best, median, processor = (float(part) for part in cell.split(" / "))
            assert 0 < best <= median and processor > 0

"""`nqueens bench`: every requested cell is there, in every format, and bad plans are refused."""

from __future__ import annotations

import csv
import io
import json
import signal
import time
from typing import Any

import pytest
from click.testing import Result
from helpers import TERMINAL_ENV, invoke, known_total, start_nqueens, strip_ansi

from nqueens.engines.gpu import needs

SMALL_PLAN = ["--sizes", "4-6", "--first-sizes", "8,20", "--time-limit", "5", "--quiet"]
SMALL_PLAN += ["--mip-solvers", "scip,glpk"]
ALL_COLUMNS = {
    ("cp-sat", "first-min"),
    ("cp-sat", "first-fail-mid"),
    ("cp-sat", "auto"),
    ("cp", "first-min"),
    ("cp", "first-fail-mid"),
    ("mip", None),
    ("bitboard", "first-min"),
    ("reduced", None),
}
FIRST_COLUMNS = ALL_COLUMNS | {("cp", "auto"), ("local", None)}


def bench(*args: str) -> Result:
    return invoke("bench", *args)


def _check_cells(records: list[dict[str, Any]]) -> None:
    known = {engine for engine, _ in FIRST_COLUMNS}  # an engine registered later adds its own
    cells = [(r["n"], r["engine"], r["strategy"], r["table"]) for r in records]
    every = {(n, engine, strategy) for n, engine, strategy, table in cells if table == "all"}
    first = {(n, engine, strategy) for n, engine, strategy, table in cells if table == "first"}
    every, first = ({cell for cell in table if cell[1] in known} for table in (every, first))
    assert every == {(n, *column) for n in (4, 5, 6) for column in ALL_COLUMNS}
    assert first == {(n, *column) for n in (8, 20) for column in FIRST_COLUMNS}
    for record in records:
        if record["table"] == "all" and record["outcome"] == "finished":
            assert record["solutions"] == known_total(int(record["n"]))


@pytest.mark.slow  # seconds of processes: with -m slow, the README's command stays under 90 s
def test_bench_json_has_every_cell_with_its_statistics() -> None:
    result = bench(*SMALL_PLAN, "--format", "json")
    assert result.exit_code == 0
    records = json.loads(result.stdout)
    _check_cells(records)
    finished = [record for record in records if record["outcome"] == "finished"]
    assert finished and all(isinstance(record["seconds"], float) for record in finished)
    assert all("branches" in record for record in records)
    published = {r["n"]: r["guide_published_seconds"] for r in records if r["table"] == "all"}
    assert published == {4: 0.0, 5: 0.0, 6: 0.0}


@pytest.mark.slow  # its JSON twin runs by default; the CSV writer is the same walk
def test_bench_csv_parses_with_every_cell() -> None:
    result = bench(*SMALL_PLAN, "--format", "csv")
    assert result.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    records = [
        {
            **row,
            "n": int(row["n"]),
            "strategy": row["strategy"] or None,
            "solutions": (int(row["solutions"]) if row["solutions"] else None),
        }
        for row in rows
    ]
    _check_cells(records)


def test_bench_text_tables_show_the_seed_and_cells_over_the_limit() -> None:
    result = bench(
        "--sizes", "11", "--first-sizes", "8", "--engines", "cp-sat,mip",
        "--strategies", "first-min", "--time-limit", "0.2", "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0
    text = result.stdout
    assert "Time to find every solution" in text and "Time to a first solution" in text
    assert "> 0.2" in text  # cp-sat needs longer than 0.2 s for every solution of N = 11
    assert "n/a" in text  # the mip engine does not enumerate N = 11
    assert "0.378" in text  # the guide's published time for N = 11
    # ... and says so, once for the engine's column, rather than leaving n/a unexplained
    why = "n/a, mip scip, mip cbc, mip highs, mip glpk, every solution of N = 11: the mip engine"
    assert why in result.stderr
    assert result.stderr.count("n/a, ") == 1


def test_bench_json_gives_the_reason_a_cell_was_refused() -> None:
    result = bench("--sizes", "11", "--first-sizes", "8", "--engines", "mip", "--format", "json")
    assert result.exit_code == 0
    records = json.loads(result.stdout)
    reasons = {record["table"]: record["refused"] for record in records}
    assert reasons["first"] is None
    assert "N = 11 has 2,680 solutions" in reasons["all"]


@pytest.mark.parametrize("limit", ["inf", "1e308", "1e12"])
def test_bench_without_a_time_limit_to_speak_of_says_so(limit: str) -> None:
    result = bench("--sizes", "4", "--first-sizes", "4", "--engines", "bitboard", "-t", limit)
    assert result.exit_code == 0
    assert "each run as long as it takes, with no time limit to speak of" in result.stderr
    assert "inf" not in result.stderr and "years" not in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sizes", "4-x"], "'4-x' is not a size"),
        (["--sizes", "9-4"], "empty"),
        (["--sizes", "0"], "at least 1"),
        (["--engines", "cp,glpk"], "glpk"),
        (["--strategies", "random"], "random"),
        (["--repeat", "0"], "--repeat"),
        (["--repeat", "99999999999999999999"], "more than 1,000"),
        (["--format", "xml"], "--format"),
        # measured nothing, silently
        (["--engines", "cp", "--mip-solvers", "glpk"], "add mip to --engines"),
        (["--engines", "mip,local", "--strategies", "first-min"], "none of them is in --engines"),
        (
            ["--engines", "bitboard", "--strategies", "auto"],
            "nothing to measure: the bitboard engine does not follow the auto strategy",
        ),
    ],
)
def test_bad_bench_plans_are_usage_errors(args: list[str], message: str) -> None:
    result = bench(*args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_an_engine_that_cannot_run_here_is_left_out_aloud() -> None:
    """Asked for the gpu engine without a device, bench printed nothing and exited 0."""
    if needs.missing() is None:
        pytest.skip("this machine has a CUDA device")
    alone = bench("--sizes", "4", "--first-sizes", "8", "--engines", "gpu")
    assert alone.exit_code == 2 and alone.stdout == ""
    assert "'--engines': nothing to measure: the gpu engine finds no" in alone.stderr
    shared = bench("--sizes", "4", "--first-sizes", "8", "--engines", "gpu,cp", "--quiet")
    assert shared.exit_code == 0 and "cp first-min" in shared.stdout
    assert shared.stderr.startswith("Left out gpu: the gpu engine finds no"), shared.stderr


def test_columns_left_out_of_a_table_asked_for_are_named() -> None:
    """`--engines cp --strategies auto --sizes 4` printed no table of every solution, and did
    not say why; `--engines bitboard --strategies auto` said "none can run here: "."""
    plan = ["--sizes", "4", "--first-sizes", "8", "--quiet"]
    result = bench(*plan, "--engines", "bitboard,cp,local", "--strategies", "first-min,auto")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [
        "Not timed: the bitboard engine does not follow the auto strategy (it follows first-min).",
        "Not timed to every solution: the cp engine's auto strategy (impact-based search with "
        "restarts) can report a solution twice, so it only finds first solutions.",
        "Not timed to every solution: the local engine does not count.",
    ]
    assert "cp auto" in strip_ansi(result.stdout).replace("\n", " ")
    quiet = bench(*plan, "--engines", "bitboard")  # nothing asked for is left out
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_bench_prepares_each_engine_whatever_the_largest_size() -> None:
    """The reduced engine once built its attack table for the largest first size: 931 GiB at
    N = 5,000, an OverflowError at 65. Sizes it refuses show as n/a."""
    result = bench("--sizes", "4", "--first-sizes", "65,5000", "--engines", "reduced", "--quiet")
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr
    rows = [line.split() for line in result.stdout.splitlines()]
    assert ["reduced", "n/a", "n/a"] in rows


@pytest.mark.parametrize("columns", [80, pytest.param(100, marks=pytest.mark.slow)])
def test_bench_tables_fit_the_terminal(columns: int) -> None:
    env = {**TERMINAL_ENV, "COLUMNS": str(columns)}
    result = invoke(
        "bench", "--sizes", "4-12", "--first-sizes", "8,50,100,200,500,1000",
        "--engines", "bitboard,cp,reduced", "--strategies", "first-min,first-fail-mid",
        "--time-limit", "0.1", "--quiet", env=env,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    lines = strip_ansi(result.stdout).splitlines()
    assert max(len(line) for line in lines) <= columns
    sizes = [word for line in lines if line.strip().startswith("N ") for word in line.split()[1:]]
    assert sizes == [str(n) for n in range(4, 13)] + ["8", "50", "100", "200", "500", "1,000"]


def test_the_solutions_row_gives_the_known_count_where_no_engine_finished() -> None:
    result = bench("--sizes", "9", "--first-sizes", "8", "--engines", "mip", "-t", "0.01", "-q")
    assert result.exit_code == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines()]
    assert ["solutions", f"{known_total(9)}"] in rows


@pytest.mark.slow  # a real process stopped in the middle of its measurements
def test_a_stopped_bench_keeps_the_cells_it_measured_and_the_signals_exit_code() -> None:
    """Ctrl-C threw every measured cell away (bench said 'Interrupted.' alone), and a stop
    after the first table ended in a traceback: the second table lacked a cell."""
    arguments = ["bench", "--sizes", "4-6", "--first-sizes", "8,1000", "--engines", "bitboard,cp"]
    arguments += ["--strategies", "first-min", "-t", "60", "--format", "json"]
    process = start_nqueens(*arguments)
    assert process.stderr is not None
    assert process.stderr.readline().startswith("Measuring 10 cells")
    # The nine small cells take under 0.5 s once measuring starts; cp's first solution of
    # N = 1,000 a minute, so the stop comes in the second table's last cell.
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    records = json.loads(stdout)
    plan = [("all", n, engine) for n in (4, 5, 6) for engine in ("bitboard", "cp")]
    plan += [("first", n, engine) for n in (8, 1000) for engine in ("bitboard", "cp")]
    measured = [(record["table"], record["n"], record["engine"]) for record in records]
    assert 0 < len(measured) < len(plan) and measured == plan[: len(measured)], measured
    assert f"Interrupted: {len(measured)} of 10 cells measured" in stderr, stderr
    for record in records:
        if record["table"] == "all":
            assert record["solutions"] == known_total(record["n"])
    assert "Traceback" not in stderr

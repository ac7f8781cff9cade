"""The example notebook, executed with a real Jupyter kernel: every cell runs, and what it shows
is checked against the tests' own counts and checker."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from helpers import ROOT, assert_valid_board, count_completions, known_total, parse_plain_boards

nbformat = pytest.importorskip("nbformat", reason="the test extra is not installed")
nbclient = pytest.importorskip("nbclient", reason="the test extra is not installed")

TORUS_COUNTS = [1, 0, 0, 0, 10, 0, 28, 0, 0, 0, 88, 0, 4524]
"""Solutions on an n x n torus, n = 1 to 13 (OEIS A007705)."""


@pytest.mark.slow
def test_the_notebook_runs_and_shows_what_it_says() -> None:
    """One kernel for every check: the suite's workers would each start one for a fixture."""
    shown = executed()
    check_counts(shown)
    check_a_solution(shown)
    check_the_puzzle(shown)
    check_the_torus(shown)


def executed() -> list[dict[str, Any]]:
    """What each code cell shows: its text, and its picture if it has one."""
    notebook = nbformat.read(ROOT / "examples" / "notebook.ipynb", as_version=4)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    shown = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        assert not [output for output in cell.outputs if output.output_type == "error"]
        data: dict[str, Any] = {}
        for output in cell.outputs:
            data.update(output.get("data", {}))
            if output.output_type == "stream":
                data["stream"] = data.get("stream", "") + output.text
        shown.append(data)
    return shown


def queens(svg: str) -> list[tuple[int, int]]:
    """The squares of the queens a picture draws, from their titles (``queen on 3,4``)."""
    root = ET.fromstring(svg.split("?>", 1)[1])
    titles = [
        element.findtext("{http://www.w3.org/2000/svg}title") or ""
        for element in root.iter("{http://www.w3.org/2000/svg}text")
        if "queen" in element.get("class", "").split()
    ]
    squares = [title.rsplit(" ", 1)[1].split(",") for title in titles]
    return [(int(row) - 1, int(col) - 1) for row, col in squares]


def rows_of(squares: list[tuple[int, int]]) -> list[int]:
    return [row for row, _ in sorted(squares, key=lambda square: square[1])]


def check_counts(outputs: list[dict[str, Any]]) -> None:
    assert outputs[0]["text/plain"] == str(known_total(8))
    assert outputs[1]["text/plain"].startswith(f"Stats(n=12, solutions={known_total(12)},")
    assert outputs[2]["text/plain"].startswith(f"({known_total(12)}, 1787, ")


def check_a_solution(outputs: list[dict[str, Any]]) -> None:
    drawn = rows_of(queens(outputs[3]["image/svg+xml"]))
    assert_valid_board(drawn, 8)
    (printed,) = parse_plain_boards(outputs[4]["stream"])
    assert list(printed) == drawn
    assert outputs[4]["text/plain"] == str(tuple(drawn))


def check_the_puzzle(outputs: list[dict[str, Any]]) -> None:
    assert queens(outputs[5]["image/svg+xml"]) == [(0, 2)]
    expected = count_completions(8, {(0, 2)}, {(3, 3)}, frozenset({7}))
    assert outputs[6]["text/plain"] == str(expected)
    completed = queens(outputs[7]["image/svg+xml"])
    assert (0, 2) in completed and (3, 3) not in completed
    assert not any(row + col == 7 for row, col in completed)
    assert_valid_board(rows_of(completed), 8)


def check_the_torus(outputs: list[dict[str, Any]]) -> None:
    svg = outputs[8]["image/svg+xml"]
    assert 'class="torus"' in svg
    assert len(queens(svg)) == 7
    assert outputs[9]["text/plain"].replace("\n", "").replace(" ", "") == str(
        list(enumerate(TORUS_COUNTS, start=1))
    ).replace(" ", "")

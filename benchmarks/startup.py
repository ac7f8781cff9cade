"""How long nqueens takes to start, beside another installation of nqueens.

Short commands are mostly start-up: Python, click, the package's modules, and rich where
something is drawn. Each command runs as a whole process from its console script, both
installations in turn for each repeat so that machine noise hits them alike; the table gives
the best and the median wall time and the median processor time. Every answer is checked.

    python benchmarks/startup.py
    python benchmarks/startup.py --against ../previous/.venv/bin/python --repeat 30
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from ortools_program import machine

COMMANDS = {
    "count 8": "92\n",
    "count 8 --stats": "92\n",
    "first 8 --style compact": None,
    "--help": None,
}
"""The commands timed, with what each must print where that is fixed."""


def timed(script: Path, arguments: str) -> tuple[float, float, str]:
    """Wall and processor seconds of ``script arguments``, and its stdout; a failure stops the
    benchmark."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [str(script), *arguments.split()], capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{script} {arguments} failed ({done.returncode}): {done.stderr}")
    processor = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, processor, done.stdout


def script_of(python: str) -> Path:
    """The ``nqueens`` console script beside an installation's interpreter."""
    script = Path(python).parent / "nqueens"
    if not script.exists():
        sys.exit(f"{python} has no nqueens script beside it")
    return script


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--against", metavar="PYTHON", help="another installation's python")
    parser.add_argument("--repeat", type=int, default=15, help="runs of each command")
    arguments = parser.parse_args()
    installations = {"this": script_of(sys.executable)}
    if arguments.against:
        installations["other"] = script_of(arguments.against)
    rows = []
    for command, expected in COMMANDS.items():
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in installations}
        outputs = set()
        for _ in range(arguments.repeat):
            for name, script in installations.items():
                wall, processor, printed = timed(script, command)
                if expected is not None and printed != expected:
                    sys.exit(f"{script} {command} printed {printed!r}, not {expected!r}")
                outputs.add(printed if command != "--help" else "")
                runs[name].append((wall, processor))
        if command.startswith("count") and len(outputs) != 1:
            sys.exit(f"the installations disagree on {command}")
        cells = []
        for name in installations:
            walls = [wall for wall, _ in runs[name]]
            processors = [processor for _, processor in runs[name]]
            cells.append(
                f"{min(walls) * 1000:.0f} / {statistics.median(walls) * 1000:.0f} / "
                f"{statistics.median(processors) * 1000:.0f}"
            )
        rows.append(f"| `{command}` | " + " | ".join(cells) + " |")
    print(f"Machine: {machine()}; {arguments.repeat} runs of each, in turn.\n")
    print("Milliseconds: best wall / median wall / median processor time.\n")
    print("| command | " + " | ".join(installations) + " |")
    print("|---|" + "---|" * len(installations))
    print("\n".join(rows))


if __name__ == "__main__":
    main()

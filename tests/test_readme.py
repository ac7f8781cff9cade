"""The README's promises: CI runs its test command, and the quick start names `nqueens solve 8`."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent


def _shell_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL)


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    test_commands = [block.strip() for block in _shell_blocks(readme) if "pytest" in block]
    assert test_commands, "the README shows no test command"
    assert test_commands[0] in ci_lines


def test_quick_start_installs_and_runs_solve_8() -> None:
    readme = (ROOT / "README.md").read_text()
    first_command = _shell_blocks(readme)[0].strip()
    assert "pip install" in first_command and first_command.endswith("nqueens solve 8")

"""The package as it is built from source: where no C compiler is found, the build stops at
once and says what to install, rather than a compiler's error line or a package without its
searches."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT


@pytest.mark.slow  # a build in an isolated environment: seconds
def test_a_build_without_a_c_compiler_stops_and_names_what_to_install(tmp_path: Path) -> None:
    env = {**os.environ, "CC": "/bin/false", "PIP_NO_INPUT": "1"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--wheel-dir",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode != 0
    said = done.stdout + done.stderr
    assert "its searches are C: it needs a C compiler and" in said
    assert "sudo apt install gcc python3-dev" in said and "xcode-select --install" in said
    assert not list(tmp_path.glob("*.whl"))


def test_the_page_on_wheels_shows_the_message_setup_py_gives() -> None:
    """The message above is setup.py's own (the test above holds a real build to it)."""
    source = (ROOT / "setup.py").read_text()
    message = re.search(r'WITHOUT_A_COMPILER = """\n(.*?)"""', source, flags=re.DOTALL)
    assert message is not None
    shown = (ROOT / "docs" / "how-to" / "wheels.md").read_text()
    for line in message.group(1).splitlines():
        if line.strip() and "{what}" not in line:
            assert line.strip() in shown, line


def test_the_page_on_wheels_names_the_modules_as_version_does() -> None:
    from nqueens.run.installation import installation

    found = installation()
    line = f"C modules: {', '.join(found['c_modules'])} ({found['instructions']})"  # type: ignore[arg-type]
    shown = (ROOT / "docs" / "how-to" / "wheels.md").read_text()
    assert line.split(" (")[0] + " (" in shown
    assert found["instructions"] in ("x86-64-v3 (BMI2)", "x86-64", "portable")
    assert f"`{line}`" in shown or found["instructions"] != "x86-64-v3 (BMI2)"

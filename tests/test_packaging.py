"""The package as it is built from source: where no C compiler is found, the build stops at
once and says what to install, rather than a compiler's error line or a package without its
searches."""

from __future__ import annotations

import os
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

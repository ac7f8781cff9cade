"""A smoke test of an installed wheel, run from outside the source tree (CI, and cibuildwheel's
test-command): the package and its C modules come from site-packages, and the command counts,
lists, finds and verifies as it should. Exits non-zero with what failed."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
from pathlib import Path

import nqueens
from nqueens.run.installation import C_MODULES, c_modules


def run(*arguments: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "nqueens", *arguments],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
        check=False,
    )
    if done.returncode not in (0, 3):
        sys.exit(f"nqueens {' '.join(arguments)}: exit {done.returncode}\n{done.stderr}")
    return done.stdout


def main() -> None:
    installed_in = Path(sysconfig.get_paths()["purelib"]).resolve()
    package = Path(nqueens.__file__).resolve().parent
    platform_lib = Path(sysconfig.get_paths()["platlib"]).resolve()
    if installed_in not in package.parents and platform_lib not in package.parents:
        sys.exit(f"nqueens is imported from {package}, not from the installed wheel")
    missing = [name for name, file in c_modules().items() if file is None]
    if missing:
        sys.exit(f"C modules missing from the wheel: {missing} of {sorted(C_MODULES)}")
    for source in package.rglob("*.c"):
        sys.exit(f"a C source was shipped in the wheel: {source}")
    assert run("count", "8").strip() == "92"
    assert run("count", "13", "--torus").strip() == "4524"
    assert run("count", "12", "--superqueens").strip() == "156"
    assert run("count", "10", "--queen", "1,1").strip() == "64"
    listed = run("solve", "8", "--style", "compact").splitlines()
    assert len(listed) == 92 and len(set(listed)) == 92
    found = run("first", "100000", "-t", "60")
    verdict = json.loads(run("verify", "-", "--format", "json", stdin=found).splitlines()[0])
    assert verdict["valid"], verdict
    version = json.loads(run("--version", "json"))
    assert set(version["c_modules"]) == set(C_MODULES), version
    print(f"the wheel works: {version['c_modules']} ({version['instructions']}), from {package}")


if __name__ == "__main__":
    main()

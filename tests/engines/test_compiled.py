"""The compiled search as a user meets it: cached on disk, never loaded for small boards, and a
clear fallback when numba is missing or cannot compile. Real processes, each in its own setting."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import (
    NQUEENS,
    ROOT,
    known_total,
    process_env,
    run_nqueens,
    run_on_terminal,
    run_python,
    strip_ansi,
)

PACKAGE = ROOT / "src" / "nqueens"


def test_small_boards_and_help_load_no_solver() -> None:
    probe = (
        "import sys\n"
        "from nqueens.cli import cli\n"
        "for args in (['--help'], ['count', '8'], ['count', '13', '--workers', '1']):\n"
        "    try:\n"
        "        cli(args)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] in ('ortools', 'numba')]\n"
        "assert not loaded, loaded\n"
    )
    done = run_python(probe)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == ["92", "73712"]


FAKE_NUMBA = {
    "missing": "raise ImportError('No module named numba (a stand-in for a broken install)')\n",
    "broken compiler": (
        "def njit(*args, **kwargs):\n"
        "    def compile(function):\n"
        "        def fail(*call_args):\n"
        "            raise RuntimeError('LLVM ERROR: a stand-in for a failed compile')\n"
        "        return fail\n"
        "    return compile\n"
    ),
}


@pytest.mark.slow  # N = 14 without symmetry (a plain count is the C counter's): seconds in Python
@pytest.mark.parametrize("problem", list(FAKE_NUMBA))
def test_without_compiled_code_the_count_is_exact_with_one_warning(
    problem: str, tmp_path: Path
) -> None:
    (tmp_path / "numba").mkdir()
    (tmp_path / "numba" / "__init__.py").write_text(FAKE_NUMBA[problem])
    done = run_nqueens(
        "count",
        "14",
        "--no-symmetry",
        "--format",
        "json",
        env=process_env(PYTHONPATH=str(tmp_path)),
    )
    assert done.returncode == 0, done.stderr
    assert f'"solutions": {known_total(14)},' in done.stdout
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("Warning: the compiled bitboard search is unavailable")


@pytest.mark.parametrize("problem", list(FAKE_NUMBA))
def test_without_compiled_code_local_search_still_finds_a_solution(
    problem: str, tmp_path: Path
) -> None:
    (tmp_path / "numba").mkdir()
    (tmp_path / "numba" / "__init__.py").write_text(FAKE_NUMBA[problem])
    arguments = ["first", "2000", "--engine", "local", "--style", "compact"]
    done = run_nqueens(*arguments, env=process_env(PYTHONPATH=str(tmp_path)))
    assert done.returncode == 0, done.stderr
    rows = [int(row) - 1 for row in done.stdout.split()]
    assert sorted(rows) == list(range(2000))
    assert len({row + col for col, row in enumerate(rows)}) == 2000
    assert len({row - col for col, row in enumerate(rows)}) == 2000
    assert done.stderr.startswith("Warning: the compiled local search is unavailable")


@pytest.mark.slow  # processes under tight limits, seconds each: -m slow, as CI runs
def test_numbas_own_settings_keep_off_the_data() -> None:
    """numba's settings are read as it loads: NUMBA_DEBUG_CACHE printed its cache's reports
    into the data on stdout, and a NUMBA_NUM_THREADS it could not read gave a warning with
    Python's traceback of the parse. The reports go to stderr; a warning is one line."""
    env = process_env(NUMBA_DEBUG_CACHE="1", NUMBA_NUM_THREADS="abc")
    done = run_nqueens("count", "15", "--no-symmetry", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{known_total(15)}\n"
    assert "[cache]" in done.stderr  # what numba was asked for still reaches the user
    said = [line for line in done.stderr.splitlines() if line.startswith("Warning:")]
    assert said == [
        "Warning: Environment variable 'NUMBA_NUM_THREADS' is defined but its associated "
        "value 'abc' could not be parsed."
    ]
    assert "Traceback" not in done.stderr


def _in_a_mount_namespace(script: str, site: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """``script`` run by sh in a mount namespace of its own (where it may mount read-only), with
    the package from ``site``, ``home`` as the user's home and numba's default cache folders;
    the test skips where no such namespace can be made."""
    env = process_env(PYTHONPATH=str(site), HOME=str(home), XDG_CACHE_HOME=str(home / "cache"))
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, env=env
    )
    if "unshare" in done.stderr and done.returncode != 0:
        pytest.skip(f"cannot make a mount namespace here: {done.stderr.strip()}")
    return done


@pytest.mark.slow
def test_compiled_code_is_cached_beside_a_read_only_package(tmp_path: Path) -> None:
    """site-packages read-only (a read-only bind mount): numba caches in the user's folder."""
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("needs unshare and root to mount the package read-only")
    site = tmp_path / "site"
    shutil.copytree(PACKAGE, site / "nqueens", ignore=shutil.ignore_patterns("__pycache__"))
    home = tmp_path / "home"
    home.mkdir()
    knows = (
        "from pathlib import Path\n"
        "from nqueens.engines import jit\n"
        "from nqueens.engines.bitboard import kernel\n"
        "print(jit.cache_written(Path(kernel.__file__)))\n"
    )
    script = (
        f'mount --bind "{site}" "{site}" && mount -o remount,bind,ro "{site}" && '
        f"\"{sys.executable}\" -c '{knows}' && "
        f'"{sys.executable}" -m nqueens count 14 --no-symmetry && '
        f'"{sys.executable}" -m nqueens count 14 --no-symmetry && '
        f"\"{sys.executable}\" -c '{knows}'"
    )
    done = _in_a_mount_namespace(script, site, home)
    assert done.returncode == 0, done.stderr
    # the cache is known to be there (so that a time limit does not wait for a compile)
    assert done.stdout.split() == ["False", *[str(known_total(14))] * 2, "True"]
    assert done.stderr == ""
    assert list((home / "cache" / "numba").rglob("*.nbi")), "no cache in the user's folder"
    assert not list(site.rglob("*.nbi"))


@pytest.mark.slow
def test_compiled_code_without_a_folder_to_cache_in_is_compiled_each_run(tmp_path: Path) -> None:
    """The package and the home both read-only (a read-only bind mount of both, as in a locked
    container): numba has no folder to cache in, and said so by a RuntimeError that dropped the
    bitboard, local and reduced searches to plain Python. Each is compiled without the cache,
    one warning saying so and what keeps it; the gpu kernel is made without the cache too."""
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("needs unshare and root to mount the package read-only")
    locked = tmp_path / "locked"
    site, home = locked / "site", locked / "home"
    shutil.copytree(PACKAGE, site / "nqueens", ignore=shutil.ignore_patterns("__pycache__"))
    home.mkdir()
    runs = [
        "-m nqueens count 14 --no-symmetry",
        "-m nqueens first 2000 --engine local --style compact",
        "-m nqueens count 12 --engine reduced",
        "-c 'from nqueens.engines.gpu import device; print(device.count_pieces.py_func.__name__)'",
    ]
    script = f'mount --bind "{locked}" "{locked}" && mount -o remount,bind,ro "{locked}"'
    for run in runs:
        script += f' && "{sys.executable}" {run} 2>&1 && echo ---'
    done = _in_a_mount_namespace(script, site, home)
    assert done.returncode == 0, done.stdout + done.stderr
    bitboard, local, reduced, gpu, _ = done.stdout.split("---\n")
    for said, n in ((bitboard, 14), (reduced, 12)):
        warning, count = said.splitlines()
        assert warning.startswith("Warning: numba cannot keep the compiled searches"), said
        assert "NUMBA_CACHE_DIR" in warning
        assert count == str(known_total(n))
    warning, rows, found = local.splitlines()
    assert warning.startswith("Warning: numba cannot keep") and found.startswith("Found in")
    assert sorted(int(row) for row in rows.split()) == list(range(1, 2001))
    assert "unavailable" not in done.stdout  # no search fell back to plain Python
    assert gpu == "count_pieces\n", gpu  # its module imported: the kernel is there to compile
    assert not list(locked.rglob("*.nbi"))


def test_the_cache_is_looked_for_where_numba_keeps_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Beside the source, in NUMBA_CACHE_DIR, and in the user's cache folder when the source's
    folder cannot be written: as numba's own locators say, without importing numba."""
    from numba.core import caching, config

    from nqueens.engines import jit
    from nqueens.engines.bitboard import kernel

    source = Path(str(kernel.__file__))

    def numbas(locator: type[caching._CacheLocator]) -> Path:
        found = locator(numbas, str(source))  # type: ignore[call-arg]
        return Path(found.get_cache_path())  # type: ignore[no-untyped-call]

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(config, "CACHE_DIR", "")
    assert jit.cache_folder(source) == numbas(caching.InTreeCacheLocator)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "given"))
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "given"))
    assert jit.cache_folder(source) == numbas(caching.UserProvidedCacheLocator)
    index = (
        numbas(caching.UserProvidedCacheLocator)
        / f"{source.stem}.search-1.py{sys.version_info.major}{sys.version_info.minor}.nbi"
    )
    index.parent.mkdir(parents=True)
    index.touch()
    assert jit.cache_written(source)
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setattr(config, "CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user"))
    monkeypatch.setattr(os, "access", lambda path, mode: False)  # a read-only site-packages
    assert jit.cache_folder(source) == numbas(caching.UserWideCacheLocator)
    # No home to be found (no HOME, a user id the password file lacks): Path.home() raised,
    # which dropped every compiled search for plain Python; numba leaves "~" as it is.
    import pwd

    def unknown(uid: int) -> pwd.struct_passwd:
        raise KeyError(uid)

    monkeypatch.delenv("HOME")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setattr(pwd, "getpwuid", unknown)
    assert jit.cache_folder(source) == numbas(caching.UserWideCacheLocator)


@pytest.mark.slow
def test_a_cache_that_cannot_be_written_still_gives_compiled_code(tmp_path: Path) -> None:
    """A full disk (here a file-size limit) fails numba's cache write: the kernel is compiled
    again without the cache, not dropped for plain Python, which is a hundred times slower."""
    probe = (
        "import resource, signal\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))\n"
        "from nqueens.engines.bitboard import kernel as bitkernel\n"
        "print(bitkernel.compiled().compiled)\n"
    )
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", probe],
        capture_output=True,
        text=True,
        env=process_env(NUMBA_CACHE_DIR=str(tmp_path / "cache")),  # cold: it must be written
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True"]
    assert not list((tmp_path / "cache").rglob("*.nbc"))  # the write did fail


def test_the_compiled_search_keeps_one_signature() -> None:
    """numba compiles a new, slower (or wrong) version when an argument changes type: lines
    handed back must be words again, as the masks are."""
    import nqueens
    from nqueens.engines.bitboard import kernel as bitkernel

    assert nqueens.count(15, workers=1).solutions == known_total(15)
    with nqueens.solve(14, engine="bitboard", limit=3) as stream:
        assert len(list(stream)) == 3
    kernel = bitkernel.compiled()
    assert kernel.compiled
    assert len(kernel.search.signatures) == 1  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.parametrize(
    "arguments",
    [
        ["first", "2000", "--engine", "local", "-t", "5"],
        ["count", "14", "--block", "1,1", "-t", "8", "--format", "json"],
        ["first", "30", "--block", "1,1", "--exclude-diagonal", "3,3/", "--engine", "reduced"],
    ],
)
def test_a_first_run_keeps_its_time_limit_and_says_on_a_terminal_what_it_compiles(
    arguments: list[str], tmp_path: Path
) -> None:
    """With an empty cache the search is compiled, which the time limit leaves out: the first
    run finds what every later run finds. On a terminal a line says so; in a pipe, nothing."""
    cold = process_env(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    piped = run_nqueens(*arguments, env=cold)
    assert piped.returncode == 0, piped.stderr
    assert "Compiling" not in piped.stderr
    assert list((tmp_path / "cache").rglob("*.nbi"))  # written, for every later run
    code, screen = run_on_terminal(
        [*NQUEENS, *arguments], process_env(NUMBA_CACHE_DIR=str(tmp_path / "other"))
    )
    assert code == 0, screen
    assert "search, once: later runs load it" in strip_ansi(screen)
    quiet_code, quiet = run_on_terminal(
        [*NQUEENS, *arguments, "--quiet"], process_env(NUMBA_CACHE_DIR=str(tmp_path / "third"))
    )
    assert quiet_code == 0 and "Compiling" not in quiet


@pytest.mark.slow
def test_prepare_compiles_every_search_once(tmp_path: Path) -> None:
    cold = process_env(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    first = run_nqueens("prepare", env=cold, timeout=300)
    assert first.returncode == 0, first.stderr
    for engine in ("bitboard", "local", "reduced"):
        assert f"The {engine} engine's searches: compiled in " in first.stderr
    again = run_nqueens("prepare", env=cold)
    assert again.returncode == 0 and "compiled in" not in again.stderr
    assert again.stderr.endswith("Every compiled search is ready.\n")
    code, screen = run_on_terminal([*NQUEENS, "first", "2000", "--engine", "local"], cold)
    assert code == 0, screen
    assert "Compiling" not in screen  # loaded from the cache prepare wrote

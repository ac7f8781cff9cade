"""Where the gpu engine's compiled kernel is kept, all of it in one place: the folder numba
keeps its cache of the kernel in (found without importing numba), and beside it the machine
code the engine makes through nvJitLink, named after the kernel's source, numba's versions and
the device's compute capability, written whole or not at all. A cache or machine code already
kept means no compiler is needed."""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

from nqueens.engines.gpu.driver import Machine

KERNEL_SOURCE = Path(__file__).with_name("kernel.py")
"""The kernel's source: what numba's cache and the kept machine code are named after."""


def cache_written(source: Path) -> bool:
    """Whether numba's cache of the kernels of the module in ``source`` was written since it
    last changed."""
    folder = cache_folder(source)
    if folder is None:
        return False
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    indexes = list(folder.glob(f"{source.stem}.*.{tag}.nbi"))
    newest_source = source.stat().st_mtime
    return bool(indexes) and max(index.stat().st_mtime for index in indexes) >= newest_source


def cache_folder(source: Path) -> Path | None:
    """The folder numba keeps the cache of ``source``'s kernels in, found as numba finds it
    (numba.core.caching's locators): NUMBA_CACHE_DIR if set, else the ``__pycache__`` beside the
    source if it can be written, else the user's cache folder (None where that is not known:
    numba's other places)."""
    user_given = os.environ.get("NUMBA_CACHE_DIR")
    if user_given:
        return Path(user_given) / _cache_subfolder(source)
    beside = source.parent / "__pycache__"
    if os.access(beside if beside.exists() else source.parent, os.W_OK):
        return beside
    # expanduser as numba's appdirs: a home that cannot be found (no HOME, a user id without
    # an entry in the password file) leaves "~" as it is, where Path.home() raised
    if sys.platform.startswith("linux"):
        caches = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    elif sys.platform == "darwin":
        caches = os.path.expanduser("~/Library/Caches")
    else:
        return None
    return Path(caches) / "numba" / _cache_subfolder(source)


def _cache_subfolder(source: Path) -> str:
    """The folder numba gives a source's cache inside a cache folder: its folder's name and a
    hash of its path."""
    import hashlib  # here: only a count on the GPU needs it

    folder = os.path.dirname(os.path.abspath(source))
    return f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"


@functools.cache
def compiled_by() -> tuple[str, str]:
    """The versions of numba and numba-cuda, which kept machine code is named by: read from
    what pip installed, without importing either."""
    from importlib.metadata import version  # here: every command would import it otherwise

    return version("numba"), version("numba-cuda")


def kept_path(folder: Path, capability: tuple[int, int]) -> Path:
    """Where the kernel's machine code is kept in ``folder``: a name that changes with its
    source (its sizes with it), numba's and numba-cuda's versions and the compute capability."""
    import hashlib  # here, as json and tempfile below: only a count on the GPU needs them

    signed = hashlib.sha256(KERNEL_SOURCE.read_bytes())
    signed.update(repr((*compiled_by(), capability)).encode())
    major, minor = capability
    return folder / f"{KERNEL_SOURCE.stem}-sm{major}{minor}-{signed.hexdigest()[:20]}"


def kept(path: Path) -> Machine | None:
    """The machine code kept at ``path``, if it is there whole."""
    import json

    try:
        facts = json.loads(path.with_suffix(".json").read_text())
        cubin = path.with_suffix(".cubin").read_bytes()
        if len(cubin) != facts["bytes"]:
            return None
        return Machine(cubin, *(facts[name] for name in Machine._fields[1:]))
    except (OSError, ValueError, KeyError, TypeError):  # not there, or not whole
        return None


def keep(path: Path, machine: Machine) -> None:
    """Keep machine code at ``path``, its facts written last, each file whole or not at all;
    where the folder cannot be written, it is compiled again by the next process."""
    import json
    import tempfile

    facts = {name: getattr(machine, name) for name in Machine._fields[1:]}
    facts["bytes"] = len(machine.cubin)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for suffix, content in ((".cubin", machine.cubin), (".json", json.dumps(facts).encode())):
            handle, written = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(handle, "wb") as file:
                file.write(content)
            os.replace(written, path.with_suffix(suffix))
    except OSError:
        return

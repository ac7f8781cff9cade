"""Where numba keeps what it compiled of the gpu engine's kernel, found without importing numba:
the engine's machine code is kept beside it, and a cache already written means no compiler is
needed."""

from __future__ import annotations

import os
import sys
from pathlib import Path


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

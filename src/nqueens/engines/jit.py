"""Compiled kernels with a plain-Python fallback: one rule for every engine that uses numba."""

from __future__ import annotations

import hashlib
import os
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext, redirect_stdout
from pathlib import Path
from types import FunctionType
from typing import Any, TypeVar, cast

from nqueens.core import signals

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


class KernelFallbackWarning(UserWarning):
    """numba could not be imported or could not compile: the search runs in plain Python."""


class KernelCacheWarning(UserWarning):
    """numba has no folder it may keep compiled code in: every run compiles it again."""


_compiles = 0
_compile_seconds = 0.0
_watching = False
_said_uncached = False
_compiling: str | None = None  # what compiled_or_plain is building, for the announcement
_announce: Callable[[str], None] | None = None


def announce_compiles(listener: Callable[[str], None] | None) -> None:
    """Have ``listener`` told what is about to be compiled (``"local search"``), once for each
    search a compile is due for: the command line says so on a terminal, as it takes seconds."""
    global _announce
    _announce = listener


def compile_seconds() -> float:
    """The seconds this process has spent compiling searches (loads from numba's cache not
    included): a time limit leaves them out, so that a first run keeps to it as later runs do."""
    return _compile_seconds


def compiles() -> int:
    """How many compiles this process has begun or found due (loads from numba's cache are
    not compiles): a count whose time limit ends while its search loads waits for one that
    compiles, so that the cache it writes serves every later run."""
    return _compiles


def compile_begun() -> None:
    """Count a compile that begins where numba's events do not show it (a search about to be
    compiled, the gpu engine's machine code): a count under a time limit waits for it, so that
    what it compiles is kept for every later run."""
    global _compiles
    _compiles += 1


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
    (numba.core.caching's locators) but without importing numba: NUMBA_CACHE_DIR if set, else
    the ``__pycache__`` beside the source if it can be written, else the user's cache folder
    (None where that is not known: numba's other places)."""
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
    folder = os.path.dirname(os.path.abspath(source))
    return f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"


def watch_compiles() -> None:
    """Count numba's compiles from now on, by its ``numba:compile`` event (imports numba)."""
    global _watching
    if _watching:
        return
    from numba.core import event

    class Counter(event.Listener):
        def on_start(self, started: event.Event) -> None:
            global _compiles, _compiling
            _compiles += 1
            if _announce is not None and _compiling is not None:
                _announce(_compiling)
                _compiling = None  # said once for the search being built

        def on_end(self, ended: event.Event) -> None:
            pass

    event.register("numba:compile", Counter())  # type: ignore[no-untyped-call]
    _watching = True


def rule(taken: bool) -> bool | None:
    """A board rule as the search takes it: True, or None when the board does not have it, so
    that numba leaves the rule's code out of the search it compiles for that board."""
    return True if taken else None


def compiled_or_plain(build: Callable[[], T], plain: T, what: str) -> T:
    """``build()``, which compiles (or loads from numba's cache) and runs a kernel once, or
    ``plain`` with a KernelFallbackWarning saying why.

    A stop signal ends the process at once where that loses nothing, or waits until the kernel
    is loaded: raised in one of LLVM's callbacks into Python, it would be lost.
    """
    global _compiling
    _compiling = what
    try:
        with signals.held(end_now_if_idle=True), _debug_prints_to_stderr():
            return build()
    except Exception as error:  # numba raises many kinds; any of them means: no compiled code
        reason = f"{type(error).__name__}: {error}".splitlines()[0]
        warnings.warn(
            f"the compiled {what} is unavailable ({reason}); "
            "searching in plain Python, which is much slower",
            KernelFallbackWarning,
            stacklevel=3,
        )
        return plain
    finally:
        _compiling = None


def _debug_prints_to_stderr() -> AbstractContextManager[object]:
    """Where numba is asked to report on itself (NUMBA_DEBUG_CACHE, NUMBA_DUMP_IR, ...), which
    it does with print(), its reports go to stderr, never into the data on stdout; otherwise
    stdout is left alone, as another thread of a program using the API may be writing to it."""
    asked = any(
        key.startswith(("NUMBA_DEBUG", "NUMBA_DUMP_")) and value not in ("", "0")
        for key, value in os.environ.items()
    )
    return redirect_stdout(sys.stderr) if asked else nullcontext()


def compile_search(search: F, first_call: Callable[[F], object], helpers: Sequence[str] = ()) -> F:
    """``search`` compiled by numba (cached on disk, without the interpreter lock) and run once
    by ``first_call``, which is when numba compiles it or loads it from its cache.

    ``helpers`` name the functions of the search's module that it calls: numba compiles a call
    from the module's globals, so they are compiled first and put there. A cache that cannot be
    written (a full disk, a file-size limit) costs a compile per run, never the compiled code:
    the kernel is compiled again without the cache. If anything else fails, the plain helpers go
    back, for the plain search. Where numba finds no folder it may write at all (a read-only
    install, and a home that cannot be written), the kernel is compiled without the cache too,
    and a KernelCacheWarning says so once, with the way out.
    """
    global _compile_seconds
    if not cache_written(Path(str(sys.modules[search.__module__].__file__))):  # before numba
        compile_begun()
    compiles_before, started = _compiles, time.monotonic()
    try:
        return _compiled_or_uncached(search, first_call, helpers)
    finally:
        if _compiles > compiles_before:  # numba compiled, rather than loaded from its cache
            _compile_seconds += time.monotonic() - started


def _compiled_or_uncached(
    search: F, first_call: Callable[[F], object], helpers: Sequence[str]
) -> F:
    """``compile_search``'s tries: with numba's cache, else without it."""
    namespace = cast(FunctionType, search).__globals__
    # A kernel compiled before for other argument types left its helpers compiled there.
    plain = {name: getattr(namespace[name], "py_func", namespace[name]) for name in helpers}
    try:
        return _compiled(search, first_call, plain, cache=True)
    except OSError:  # numba's cache could not be written
        return _compiled(search, first_call, plain, cache=False)
    except RuntimeError as error:  # numba's: no folder to cache in; else the retry fails too
        kernel = _compiled(search, first_call, plain, cache=False)
        _say_uncached(error)
        return kernel


def _say_uncached(error: RuntimeError) -> None:
    """Warn, once a process, that compiled code cannot be kept, and what keeps it."""
    global _said_uncached
    if _said_uncached:
        return
    _said_uncached = True
    reason = str(error).splitlines()[0] if str(error) else type(error).__name__
    warnings.warn(
        f"numba cannot keep the compiled searches ({reason}), so every run compiles them "
        "again, for a few seconds; set NUMBA_CACHE_DIR to a folder you can write",
        KernelCacheWarning,
        stacklevel=4,
    )


def _compiled(
    search: F, first_call: Callable[[F], object], plain: dict[str, Any], *, cache: bool
) -> F:
    """One try of ``compile_search``; on failure the plain helpers are back in place."""
    import numba

    watch_compiles()
    namespace = cast(FunctionType, search).__globals__
    jit = numba.njit(cache=cache, nogil=True)
    try:
        for name, helper in plain.items():
            namespace[name] = jit(helper)
        kernel = cast(F, jit(search))
        first_call(kernel)
    except Exception:
        namespace.update(plain)
        raise
    return kernel

"""Stopping on a signal: SIGTERM and SIGHUP end a search as Ctrl-C does, at any moment.

The command line turns each of them into KeyboardInterrupt, so that every path that keeps a
partial result on Ctrl-C keeps it on the others too, and exits with 128 plus the signal's number.
A signal that lands while a module is being imported, while numba compiles, or in a garbage
collector's callback, cannot raise there: a KeyboardInterrupt raised inside a compiled
extension's initialisation comes out as an ImportError, and one raised in a callback from LLVM
or from the collector is lost (numba-cuda's simulator is plain Python, and can). If the
process holds nothing that would be lost (no worker process, nothing unwritten on stdout, no
partial count: see ``keeping``), it ends at once, as it does in most of start-up; otherwise
the signal waits until that is over. A program that calls the API keeps Python's own handling of
Ctrl-C, but for the same wait while an API call runs (``Guard``). Only the standard library
is imported here, so this can be set up before anything heavy loads.
"""

from __future__ import annotations

import _weakrefset
import functools
import gc
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Any, TypeVar, cast


def _present(*names: str) -> tuple[int, ...]:
    """The signals of these names that this platform has."""
    return tuple(getattr(signal, name) for name in names if hasattr(signal, name))


STOP_SIGNALS = _present("SIGINT", "SIGTERM", "SIGHUP")
"""The signals that stop a search, keeping what it found so far."""
GROUP_SIGNALS = _present("SIGINT", "SIGHUP")
"""The stop signals a terminal sends to every process of its foreground group."""
HANG_UP = _present("SIGHUP")
"""A terminal's hang-up, which Python's helper processes do not ignore as they do Ctrl-C."""

_RETRY_SECONDS = 0.02  # how soon a signal held back during an import is looked at again
_IMPORT_MACHINERY = ("<frozen importlib._bootstrap>", "<frozen importlib._bootstrap_external>")
_WEAK_REFERENCES = (weakref.__file__, _weakrefset.__file__)
"""Where the callbacks of weak references live (a WeakValueDictionary's, a WeakSet's, a
finalizer's), which Python runs from C when an object dies: it swallows what they raise."""
_COMPILERS = (f"{os.sep}numba{os.sep}", f"{os.sep}llvmlite{os.sep}")
_SIMULATOR = f"{os.sep}numba{os.sep}cuda{os.sep}simulator{os.sep}"  # plain Python: no compiler
_PR_SET_PDEATHSIG = 1  # from <sys/prctl.h>

_Function = TypeVar("_Function", bound=Callable[..., Any])

_received: int | None = None
_installed = False
_guarding = False  # an API call is under way with Ctrl-C guarded (see Guard)
_keeping = 0  # searches under way that hold a partial result
_handled = 0  # stop signals the main thread's handler has run for
_held_back: int | None = None  # the _handled of a signal held back, until heard again


def install() -> None:
    """Make every stop signal raise KeyboardInterrupt in the main thread, imports permitting.

    A signal ignored when the process started stays ignored, as the shell and ``nohup`` meant
    it: a background job ignores Ctrl-C, and ``nohup nqueens count ...`` outlives a hang-up.
    """
    global _installed
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) != signal.SIG_IGN:
            signal.signal(signum, _stop)
    _installed = True


def received() -> int:
    """The stop signal that arrived last (Ctrl-C's SIGINT if none was seen)."""
    return _received if _received is not None else signal.SIGINT


def exit_code() -> int:
    """The shell's convention for a process stopped by a signal: 128 plus its number."""
    return 128 + received()


def _heard(signum: int) -> None:
    """Note a stop signal that a handler of this module ran for."""
    global _received, _handled
    _received = signum
    _handled += 1


def _stop(signum: int, frame: FrameType | None) -> None:
    global _held_back
    _heard(signum)
    if (_installed or _guarding) and _unsafe(frame):
        _end_now_if_idle(signum)
        _held_back = _handled
        timer = threading.Timer(_RETRY_SECONDS, _retry, args=(signum,))
        timer.daemon = True
        timer.start()
        return
    _held_back = None
    raise KeyboardInterrupt


def _retry(signum: int) -> None:
    """Send the signal again, to the main thread itself, until its handler has run: a simulated
    one (interrupt_main) would not wake it from a blocking call, and it could then wait forever;
    and one that lands just before a blocking call (a sleep, a wait for a worker) is heard only
    when the call returns, unless another interrupts it."""
    handled = _handled
    _send_to_main(
        signum, _RETRY_SECONDS, lambda: not (_installed or _guarding) or _handled != handled
    )


def _send_to_main(signum: int, every: float, done: Callable[[], bool]) -> None:
    """Send ``signum`` to the main thread every ``every`` seconds until ``done()``, or until
    the main thread has ended: a call blocked in the main thread hears it there."""
    main = threading.main_thread()
    while not done():
        if main.ident is None or not main.is_alive():
            return
        signal.pthread_kill(main.ident, signum)
        time.sleep(every)


def _end_now_if_idle(signum: int) -> None:
    """End the process at once with the signal's exit code, if that loses nothing: no worker
    process runs and stdout takes what it holds. Returns where it would lose something, and in
    any process but the command line's: a program that calls the API is never ended under it."""
    if not _installed or _keeping:
        return
    # Read from the module that defines it: while multiprocessing is still being imported (a
    # signal can land then), no child exists, and the module may lack active_children or the
    # set of children it reads, which is made last.
    process = sys.modules.get("multiprocessing.process")
    if process is not None and hasattr(process, "_children") and process.active_children():
        return
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except (OSError, ValueError, RuntimeError):  # closed, full, or in the middle of a write
        return
    with suppress(OSError):
        os.write(2, b"Interrupted.\n")
    os._exit(128 + signum)


def _unsafe(frame: FrameType | None) -> bool:
    """Whether Python code run from C (an import, numba's compiler, a garbage collector's
    callback, such as Dask's, a weak reference's callback, or a finalizer, such as a Dask
    future's ``__del__``: Python swallows an exception raised in any of them) is on the
    stack."""
    collecting = {getattr(getattr(c, "__func__", c), "__code__", None) for c in gc.callbacks}
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename in _IMPORT_MACHINERY or filename in _WEAK_REFERENCES:
            return True
        if any(part in filename for part in _COMPILERS) and _SIMULATOR not in filename:
            return True
        if frame.f_code in collecting or frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


class Guard:
    """While the API runs in a program that leaves Ctrl-C to Python: a Ctrl-C that lands where
    it cannot raise (an import, a compile, a collector's callback) waits until it can, as on
    the command line, rather than becoming an ImportError or being lost; one still waiting
    when the block ends is raised then. Anywhere else (the command line, a program with a
    handler of its own, a thread other than the main one, a block inside another) nothing
    changes."""

    def __enter__(self) -> None:
        global _guarding
        self._guards = (
            not _guarding
            and not _installed
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
            and threading.current_thread() is threading.main_thread()
        )
        if self._guards:
            _guarding = True
            signal.signal(signal.SIGINT, _stop)

    def __exit__(self, kind: type[BaseException] | None, *exc_info: object) -> None:
        global _guarding, _held_back
        if not self._guards:
            return
        _guarding = False
        if signal.getsignal(signal.SIGINT) is _stop:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        held_back, _held_back = _held_back == _handled, None
        if held_back and kind is None:
            raise KeyboardInterrupt


def guarded(function: _Function) -> _Function:
    """``function`` run under a Guard."""

    @functools.wraps(function)
    def call(*arguments: Any, **options: Any) -> Any:
        with Guard():
            return function(*arguments, **options)

    return cast(_Function, call)


@contextmanager
def keeping() -> Iterator[None]:
    """While a search holds a partial result: a stop signal that lands where it cannot raise
    then waits for a moment where it can, rather than ending the process and losing it."""
    global _keeping
    _keeping += 1
    try:
        yield
    finally:
        _keeping -= 1


@contextmanager
def redirected(stop: Callable[[], None]) -> Iterator[None]:
    """While a solver runs its own C++ loop, stop signals call ``stop`` instead of raising.

    An exception raised from a signal handler cannot unwind through the solver's frames; the
    solver watches for ``stop`` instead.
    """

    def handler(signum: int, frame: FrameType | None) -> None:
        _heard(signum)
        stop()

    with _handled_by(handler):
        yield


class Abandoned(KeyboardInterrupt):
    """A stop that a held block waited on for its whole patience: the block was left where it
    was (a write to a pipe that nobody reads)."""


@contextmanager
def held(*, end_now_if_idle: bool = False, patience: float | None = None) -> Iterator[list[int]]:
    """Hold stop signals back while worker processes start or stop, or code compiles, then act
    on them; with ``end_now_if_idle``, end the process at once where that loses nothing (in the
    command line only: a program that calls the API gets its KeyboardInterrupt). The block is
    given the list of the signals that arrived so far. With ``patience``, a stop waits that many
    seconds at most: if the block has not ended by then (a write blocked on a full pipe), it is
    left where it is, with Abandoned.

    A KeyboardInterrupt in the middle of starting or terminating a process pool can leave it
    waiting forever for a worker that was never told what to do.
    """
    arrived: list[int] = []
    first_stop: list[float] = []
    over = threading.Event()

    def handler(signum: int, frame: FrameType | None) -> None:
        _heard(signum)
        if end_now_if_idle:
            _end_now_if_idle(signum)
        arrived.append(signum)
        if patience is None:
            return
        if not first_stop:
            first_stop.append(time.monotonic())
            _send_again_after(patience, signum, over)
        elif time.monotonic() - first_stop[0] >= patience:
            raise Abandoned

    try:
        with _handled_by(handler):
            yield arrived
    finally:
        over.set()
    if arrived:
        raise KeyboardInterrupt


def _send_again_after(seconds: float, signum: int, over: threading.Event) -> None:
    """Send ``signum`` to the main thread again after ``seconds``, and then as ``_retry``
    does, until ``over`` is set."""

    def send() -> None:
        if not over.wait(seconds):
            _send_to_main(signum, _RETRY_SECONDS, over.is_set)

    threading.Thread(target=send, name="nqueens-stop", daemon=True).start()


@contextmanager
def _handled_by(handler: Callable[[int, FrameType | None], None]) -> Iterator[None]:
    """Stop signals that would raise KeyboardInterrupt go to ``handler`` for a while.

    Only in the main thread, where Python runs signal handlers.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    for signum in STOP_SIGNALS:
        current = signal.getsignal(signum)
        if callable(current):
            previous[signum] = signal.signal(signum, handler)
    try:
        yield
    finally:
        for signum, handler_before in previous.items():
            if handler_before is _stop and not (_installed or _guarding):  # a Guard has ended
                handler_before = signal.default_int_handler
            signal.signal(signum, handler_before)


@contextmanager
def blocked(signals: tuple[int, ...] = STOP_SIGNALS) -> Iterator[None]:
    """Stop signals wait, blocked, while worker processes are forked.

    A worker inherits the mask, so a signal sent to it before it has set up its own handling
    (``leave_to_parent``) stays pending instead of reaching a copy of the parent's handler, which
    would swallow the SIGTERM that stops it and leave the parent waiting for it forever. Workers
    started by code of others (Dask's), which cannot be given ``leave_to_parent``, keep the
    GROUP_SIGNALS blocked for good: a Ctrl-C is the parent's to handle, and it stops them.
    Threads started meanwhile inherit the mask too, and the processes they start.
    """
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def leave_to_parent() -> None:
    """In a worker process: stop signals are the parent's to handle, and the worker ends with it.

    Ctrl-C and SIGHUP reach the whole process group; the parent stops the workers itself. If the
    parent dies without doing so (SIGKILL), Linux sends the worker SIGTERM; if it died before
    the worker asked for that, the worker was already orphaned, and ends here.
    """
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_DFL if signum == signal.SIGTERM else signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # blocked while it was forked
    if sys.platform == "linux":
        import ctypes
        import multiprocessing

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        parent = multiprocessing.parent_process()
        if parent is not None and os.getppid() != parent.pid:
            os.kill(os.getpid(), signal.SIGTERM)

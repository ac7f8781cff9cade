"""The process's standard streams as the command line uses them: a stream closed from the start
(``>&-``) stands in for one that fails as a closed file does, and a descriptor left
non-blocking by whoever started the process is waited on as a blocking one."""

from __future__ import annotations

import errno
import io
import os
import select
import sys
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, WriteableBuffer


def standard_streams() -> None:
    """Set up stdout, stderr and stdin for a command (see the module's docstring)."""
    # None: started with the stream closed (``>&-``, ``2>&-``)
    sys.stdout = _ClosedStdout() if sys.stdout is None else _waiting(sys.stdout)
    sys.stderr = _ClosedStderr() if sys.stderr is None else _waiting(sys.stderr)
    if sys.stdin is not None:
        sys.stdin = _waiting(sys.stdin, reading=True)


class _ClosedStdout(io.TextIOBase):
    """The stdout of a process started without one: bad usage still exits 2, and the first
    result written fails as a write to a closed file does (exit 74)."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


class _ClosedStderr(io.TextIOBase):
    """The stderr of a process started without one: messages go nowhere, and the exit code
    still says what happened (it was 1, from flushing a stderr that was None)."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)


def _waiting(stream: TextIO, *, reading: bool = False) -> TextIO:
    """``stream``, or, where whoever started the process left its descriptor non-blocking (a
    pipe shared with a program that wanted it so), a stream on that descriptor that waits, as
    on a blocking one. Python's own dropped what a full pipe refused (``solve 11`` into a slow
    reader lost all but its first 64 KB, with exit 0), and took a pipe not yet written to for
    its end (``verify -`` found no board)."""
    try:
        descriptor = stream.fileno()
        if os.get_blocking(descriptor):
            return stream
    except (AttributeError, OSError, ValueError):  # not a real file, or a closed one
        return stream
    raw = _Waiting(descriptor, reading=reading)
    return io.TextIOWrapper(
        io.BufferedReader(raw) if reading else io.BufferedWriter(raw),
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=bool(stream.line_buffering),
    )


class _Waiting(io.RawIOBase):
    """A non-blocking descriptor used as a blocking one: a read or a write that would block
    waits until the descriptor is ready for it."""

    def __init__(self, descriptor: int, *, reading: bool) -> None:
        super().__init__()
        self._descriptor = descriptor
        self._reading = reading

    def readable(self) -> bool:
        return self._reading

    def writable(self) -> bool:
        return not self._reading

    def fileno(self) -> int:
        return self._descriptor

    def isatty(self) -> bool:
        return os.isatty(self._descriptor)

    def readinto(self, buffer: WriteableBuffer) -> int:
        while True:
            try:
                return os.readv(self._descriptor, [buffer])
            except BlockingIOError:
                select.select([self._descriptor], [], [])

    def write(self, data: ReadableBuffer) -> int:
        while True:
            try:
                return os.write(self._descriptor, data)
            except BlockingIOError:
                select.select([], [self._descriptor], [])

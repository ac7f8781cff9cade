"""Files and standard input read as a command's parameters: opened, waited for within the time
limit where a pipe has no writer yet, and read as UTF-8 (or the UTF-16 or UTF-32 a mark names);
a binary file, another encoding or a file too large is refused with a message (exit 2), never
read to its end first."""

from __future__ import annotations

import codecs
import io
import os
import select
import stat
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, BinaryIO, NoReturn

import click

from nqueens.api import MAX_N, InputError
from nqueens.cli.exits import EXIT_TIME_LIMIT
from nqueens.cli.text_input import Utf8Lines, decoded, not_binary
from nqueens.core import clock

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem


def _source_name(path: str) -> str:
    """``path`` as messages name it."""
    return "standard input" if path == "-" else path


def _open_source(path: str) -> BinaryIO:
    """The bytes of ``path``, or of stdin for '-', saying on stderr what is awaited when a
    person is at the keyboard; InputError when stdin is closed."""
    if path != "-":
        if not stat.S_ISFIFO(os.stat(path).st_mode):
            return open(path, "rb")
        # A named pipe's open waits for a writer: without waiting, then waited for as it is
        # read, within the time limit.
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        os.set_blocking(descriptor, True)
        return open(descriptor, "rb")
    stdin = sys.stdin
    if stdin is None or stdin.closed:
        raise InputError("standard input is closed: give a FILE, or pipe the boards in")
    if stdin.isatty():  # a person at the keyboard: say what is awaited
        click.echo(
            "Reading from the terminal: type or paste, then press Ctrl-D on a line "
            "of its own (or give a FILE).",
            err=True,
        )
    return stdin.buffer


class ReadingOutlasted(click.ClickException):
    """The time limit ended while a file was still awaited (a pipe nobody writes to): exit 3,
    as for any search the time limit ended, with nothing searched."""

    exit_code = EXIT_TIME_LIMIT


def _time_limit(ctx: click.Context | None) -> float | None:
    """The command's time limit (None: none, or a command without one): ``--time-limit`` is
    read before any file, to bound the wait for one."""
    limit = ctx.params.get("time_limit") if ctx is not None else None
    return limit if isinstance(limit, float) else None  # not given yet: click's own marker


def _read_in_time(stream: BinaryIO, size: int, name: str, time_limit: float | None) -> bytes:
    """At most ``size`` bytes of ``stream`` as soon as some are there, waiting for a pipe or a
    terminal only as long as the command's ``time_limit`` leaves (None: as long as it takes)."""
    if not _is_regular(stream):  # a named pipe opened before its writer: wait for one too
        ready, _, _ = select.select([stream], [], [], clock.remaining(time_limit))
        if not ready:
            raise ReadingOutlasted(
                f"the time limit ended while waiting for {name} to be written: nothing was searched"
            )
    if isinstance(stream, io.BufferedReader):
        return stream.read1(size)
    return stream.read(size)


def _is_regular(stream: BinaryIO) -> bool:
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError):
        return True  # not a real file: nothing to wait for


_MARKS = (  # UTF-32's first: UTF-32-LE's mark begins with UTF-16-LE's
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def _marked_encoding(start: bytes) -> str | None:
    """The encoding that text's byte-order mark names, UTF-16 or UTF-32 (Windows' Notepad and
    PowerShell 5's ``>`` save text so), read by Python's codec of that name, which takes the
    mark's byte order; None for any other start, UTF-8's mark included."""
    return next((encoding for mark, encoding in _MARKS if start.startswith(mark)), None)


def complete_path(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The shell completes what is typed as a file's name, as it does for any command (loaded
    only as the shell completes)."""
    from click.shell_completion import CompletionItem

    return [CompletionItem(incomplete, type="file")]


class _Source(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.3 on
    """A file named on the command line ('-' for stdin), refused with one message whatever
    went wrong in reading it. The shell completes it as a file's name; while it completes,
    nothing is opened or read (a terminal's stdin would be waited on)."""

    name = "FILE"

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        return complete_path(ctx, param, incomplete)

    def _refuse(
        self,
        path: str,
        error: OSError | InputError,
        param: click.Parameter | None,
        ctx: click.Context | None,
    ) -> NoReturn:
        if isinstance(error, InputError):
            self.fail(str(error), param, ctx)
        self.fail(f"cannot read {path}: {error.strerror or error}", param, ctx)


class TextFile(_Source):
    """A text file's contents ('-' for stdin): UTF-8, a byte-order mark dropped.

    A binary file, text in another encoding or a file too large to be a board is refused with a
    message, never a decoding traceback, and never read to its end first.
    """

    max_bytes = 1 << 30
    _CHUNK = 1 << 20

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> str:
        path = str(value)
        if ctx is not None and ctx.resilient_parsing:  # the shell is completing: read nothing
            return path
        name = _source_name(path)
        try:
            stream = _open_source(path)
            try:
                data, encoding = self._contents(stream, name, _time_limit(ctx))
            finally:
                if path != "-":
                    stream.close()
            return decoded(data, name, encoding=encoding).removeprefix("\ufeff")
        except (OSError, InputError) as error:
            self._refuse(path, error, param, ctx)

    def _contents(self, stream: BinaryIO, name: str, time_limit: float | None) -> tuple[bytes, str]:
        """The bytes of ``stream``, and their encoding: UTF-8 unless a mark names another. NUL
        bytes, which UTF-16 and UTF-32 hold and UTF-8 text never does, refuse UTF-8 as they
        come. A pipe is waited for until the command's ``time_limit`` ends."""
        chunks: list[bytes] = []
        size = 0
        encoding = None
        while chunk := _read_in_time(stream, self._CHUNK, name, time_limit):
            if not chunks:
                encoding = _marked_encoding(chunk)
            size += len(chunk if encoding else not_binary(chunk, name))
            if size > self.max_bytes:
                raise InputError(f"{name} is larger than {self.max_bytes >> 20:,} MB")
            chunks.append(chunk)
            self._so_far(chunk, name)
        return b"".join(chunks), encoding or "utf-8"

    def _so_far(self, chunk: bytes, name: str) -> None:
        """Look at each chunk as it is read: InputError where what was read already cannot
        be what the file is for (nothing here: any text is)."""


class TextLines(_Source):
    """A text file's lines ('-' for stdin), read as they are used, so that a stream of any
    length takes constant memory: UTF-8, checked as it is read.

    What opens the file and its first bytes are checked at once (a missing, binary or Latin-1
    file is a usage error before anything is done); a fault further on is an InputError raised
    by the iteration, naming the line. UTF-16 and UTF-32 are read where a mark names them.
    """

    max_line_bytes = MAX_N * (len(str(MAX_N)) + 3)
    """A line longer than this cannot be a board any command writes (the JSON rows of the
    largest N, with room to spare), and is refused before it fills memory."""

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> Iterator[str]:
        path = str(value)
        if ctx is not None and ctx.resilient_parsing:  # the shell is completing: read nothing
            return iter(())
        name = _source_name(path)
        try:
            stream = _open_source(path)
        except (OSError, InputError) as error:
            self._refuse(path, error, param, ctx)
        encoding = None
        try:
            if isinstance(stream, io.BufferedReader):  # a look at the start, not consumed
                start = stream.peek(1 << 16)
                if not start:  # Ctrl-D at once: a terminal would wait for more after it
                    if path != "-":
                        stream.close()
                    return iter(())
                encoding = _marked_encoding(start)
                if encoding is None:
                    not_binary(start, name)
                decoded(start, name, final=False, encoding=encoding or "utf-8")
        except (OSError, InputError) as error:
            if path != "-":
                stream.close()
            self._refuse(path, error, param, ctx)
        if path != "-" and ctx is not None:
            ctx.call_on_close(stream.close)
        if encoding is not None:
            assert isinstance(stream, io.BufferedReader)  # its mark was seen by a look ahead
            return self._marked_lines(stream, name, encoding)
        return self._lines(stream, name)

    def _lines(self, stream: BinaryIO, name: str) -> Iterator[str]:
        return Utf8Lines(stream, name, self.max_line_bytes)

    def _marked_lines(self, stream: io.BufferedReader, name: str, encoding: str) -> Iterator[str]:
        """``_lines`` of UTF-16 or UTF-32 text, decoded as it is read and then split into
        lines: the bytes of its line ends are not one byte there."""
        decoder = codecs.getincrementaldecoder(encoding)()
        pending = ""
        number = 0
        while True:
            try:
                chunk = stream.read1(1 << 16)
            except OSError as error:
                raise InputError(f"cannot read {name}: {error.strerror or error}") from None
            try:
                pending += decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError:
                raise InputError(
                    f"line {number + 1} of {name} is not {encoding.upper()} text; save it as UTF-8"
                ) from None
            *ended, pending = pending.split("\n")
            lines = [line + "\n" for line in ended]
            if not chunk and pending:  # the last line, with no line end
                lines.append(pending)
            for line in lines:
                number += 1
                yield not_binary(line, name)
            if len(pending) > self.max_line_bytes:
                raise InputError(
                    f"line {number + 1} of {name} is longer than a board of N = {MAX_N:,} takes"
                )
            if not chunk:
                return

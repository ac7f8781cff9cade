"""Text read from a file or stdin as ``verify`` and ``--board`` take it: UTF-8 (or UTF-16 and
UTF-32 where a mark names them) checked as it is read, a line at a time or many at once."""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator
from typing import AnyStr, BinaryIO

from nqueens.api import MAX_N, InputError


def not_binary(data: AnyStr, name: str) -> AnyStr:
    """``data``, unless it holds a NUL byte or character, which no text does: InputError
    then."""
    if (b"\0" in data) if isinstance(data, bytes) else ("\0" in data):
        raise InputError(f"{name} is a binary file, not text")
    return data


def decoded(
    data: bytes, name: str, offset: int = 0, *, final: bool = True, encoding: str = "utf-8"
) -> str:
    """``data`` as UTF-8 (a byte-order mark kept for the reader to drop), or in the
    ``encoding`` its byte-order mark names, ``final`` unless it may end inside
    a character; InputError where it is not, naming the byte, or holds a NUL character."""
    try:
        if final:
            text = data.decode(encoding)
        else:
            text = codecs.getincrementaldecoder(encoding)().decode(data, final=False)
    except UnicodeDecodeError as error:
        raise InputError(
            f"{name} is not {encoding.upper()} text (byte 0x{data[error.start]:02x} at offset "
            f"{offset + error.start:,}); save it as UTF-8"
        ) from None
    if encoding == "utf-8":  # its NUL bytes were refused before it was decoded
        return text
    return not_binary(text, name)  # UTF-16's NUL bytes are text; a NUL character is not


BULK_BYTES = 1 << 20
"""What ``Utf8Lines.read_in_bulk`` reads at a time: a megabyte, thousands of lines."""


class Utf8Lines(Iterator[str]):
    """The lines of a UTF-8 stream, checked as they are read: a line that is not UTF-8, holds a
    NUL byte or is longer than ``max_line_bytes`` is an InputError naming it. Many lines at a
    time, too (``read_in_bulk``), where a reader of its own takes them as bytes."""

    def __init__(self, stream: BinaryIO, name: str, max_line_bytes: int) -> None:
        self._stream = stream
        self._name = name
        self._max = max_line_bytes
        self._ahead = b""  # bytes read in bulk and not yet taken
        self._number = 0
        self._offset = 0

    def __next__(self) -> str:
        raw = self._line()
        if not raw:
            raise StopIteration
        self._number += 1
        if len(raw) > self._max:
            raise InputError(
                f"line {self._number} of {self._name} is longer than {self._max >> 20:,} MB, "
                f"more than a board of N = {MAX_N:,} takes"
            )
        text = decoded(not_binary(raw, self._name), self._name, self._offset)
        self._offset += len(raw)
        return text

    def _line(self) -> bytes:
        if self._ahead:
            end = self._ahead.find(b"\n") + 1 or len(self._ahead)
            raw, self._ahead = self._ahead[:end], self._ahead[end:]
            if raw.endswith(b"\n"):
                return raw
            return raw + self._read(lambda: self._stream.readline(self._max + 1 - len(raw)))
        return self._read(lambda: self._stream.readline(self._max + 1))

    def _read(self, read: Callable[[], bytes]) -> bytes:
        try:
            return read()
        except OSError as error:
            raise InputError(f"cannot read {self._name}: {error.strerror or error}") from None

    def read_in_bulk(self, reader: Callable[[bytes], tuple[int, int, int]]) -> tuple[int, int]:
        """The next lines, a megabyte of them, as far as ``reader`` reads them (it returns the
        lines, the boards and the bytes it read, and stops at a line it leaves to others); how
        many lines and boards it read. What it left is read a line at a time, as ever."""
        read = getattr(self._stream, "read1", self._stream.read)  # what has come, not more
        data = self._ahead + self._read(lambda: read(BULK_BYTES))
        lines, boards, used = reader(data)
        self._ahead = data[used:]
        self._number += lines
        self._offset += used
        return lines, boards

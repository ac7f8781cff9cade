"""Whole records on stdout when it is a file: a write cut short by a full disk leaves part of a
record at the file's end, which ``keep_whole_records`` cuts off again."""

from __future__ import annotations

import os
import stat
import sys
from contextlib import suppress


class _Records:
    """Where the records written to stdout start and how each ends, while stdout is a file: a
    write cut short by a full disk leaves part of a record, which ``keep_whole_records``
    cuts off."""

    noted = False  # whether stdout was looked at, before the first record
    start: int | None = None  # the file's offset before the first record, where it is a file
    end: bytes = b"\n"  # what ends a record: a line, or the blank line under a board


def note_records(end: bytes) -> None:
    """Records ending in ``end`` are about to be written to stdout: looked at once, before the
    first (a pipe or a terminal is never cut back, and each record is not flushed for it)."""
    if _Records.noted:
        return
    _Records.noted, _Records.end = True, end
    with suppress(AttributeError, OSError, ValueError):
        sys.stdout.flush()
        descriptor = sys.stdout.fileno()
        if stat.S_ISREG(os.fstat(descriptor).st_mode):
            _Records.start = os.lseek(descriptor, 0, os.SEEK_CUR)


def keep_whole_records() -> None:
    """Cut stdout's file back to the end of its last whole record, after a write that failed
    part way (a full disk): a reader never finds half a record at its end."""
    start = _Records.start
    if start is None:
        return
    with suppress(AttributeError, OSError, ValueError):
        descriptor = sys.stdout.fileno()
        end = _Records.end
        # stdout is open for writing alone: the same file, opened again to read its end
        reader = os.open(f"/dev/fd/{descriptor}", os.O_RDONLY)
        try:
            at = os.fstat(reader).st_size
            while at > start:  # back a chunk at a time to the last record's end
                chunk_start = max(start, at - (1 << 20))
                chunk = os.pread(reader, at - chunk_start + len(end) - 1, chunk_start)
                found = chunk.rfind(end)
                if found >= 0:
                    os.ftruncate(descriptor, chunk_start + found + len(end))
                    return
                at = chunk_start
            os.ftruncate(descriptor, start)
        finally:
            os.close(reader)

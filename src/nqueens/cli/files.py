"""Files a command writes whole or not at all: a file cut short by a full disk or a stop is
never left under the name the user gave."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from nqueens.cli.output import Unwritable


@contextmanager
def written_whole(path: str) -> Iterator[BinaryIO]:
    """A stream to write ``path`` with: the bytes go to a new file beside it, which takes the
    name only when everything is written. A device (``/dev/null``, ``/dev/stdout``) is written
    as it is. A fault is an Unwritable (exit 74); a stop leaves nothing behind either."""
    target = Path(path)
    if target.exists() and not target.is_file():
        try:
            with target.open("wb") as device:
                yield device
        except OSError as error:
            raise Unwritable(f"cannot write {path}: {error.strerror or error}") from None
        return
    try:
        handle, part = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".part"
        )
    except OSError as error:
        raise Unwritable(f"cannot write {path}: {error.strerror or error}") from None
    try:
        os.chmod(part, _mode(target))
        with os.fdopen(handle, "wb") as stream:
            yield stream
        os.replace(part, target)
    except OSError as error:
        raise Unwritable(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        with suppress(OSError):
            os.remove(part)


def _mode(target: Path) -> int:
    """The permissions the file would have had written in place: the old file's, or those the
    user's umask leaves (a temporary file is made readable by its owner alone)."""
    if target.is_file():
        return target.stat().st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask

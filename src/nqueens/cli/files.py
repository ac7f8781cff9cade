"""Files a command writes whole or not at all: a file cut short by a full disk or a stop is
never left under the name the user gave, nor beside it."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from nqueens.cli.output import Unwritable
from nqueens.core import signals


@contextmanager
def written_whole(path: str) -> Iterator[BinaryIO]:
    """A stream to write ``path`` with: the bytes go to a hidden ``.NAME.PID.*.part`` file in
    the same folder, which takes the name only when everything is written. A symbolic link is
    written through, as ``>`` writes it; a device (``/dev/null``, ``/dev/stdout``) is written as
    it is. A fault is an Unwritable (exit 74).

    A stop removes the part file; one left by a process killed outright (``kill -9``) is
    removed by the next command that writes the same name."""
    target = Path(os.path.realpath(path))
    if target.exists() and not target.is_file():
        try:
            with target.open("wb") as device:
                yield device
        except OSError as error:
            raise Unwritable(f"cannot write {path}: {error.strerror or error}") from None
        return
    mode = _mode(target)
    part: str | None = None
    try:
        with signals.held():  # a stop as the file is made is heard once it can be removed
            _remove_left_behind(target)
            part = _new_part(target, mode, path)
        with open(part, "wb") as stream:
            yield stream
        with signals.held():
            os.replace(part, target)
            part = None
    except OSError as error:
        raise Unwritable(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        if part is not None:
            with suppress(OSError):
                os.remove(part)


def _new_part(target: Path, mode: int, path: str) -> str:
    """A new hidden file beside ``target``, named for this process, with ``mode``."""
    try:
        handle, part = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.{os.getpid()}.", suffix=".part"
        )
    except OSError as error:
        raise Unwritable(
            f"cannot write {path}: no new file can be made in {Path(path).parent} "
            f"({error.strerror or error})"
        ) from None
    os.close(handle)
    os.chmod(part, mode)
    return part


def _remove_left_behind(target: Path) -> None:
    """Remove the part files of ``target`` whose process is gone (killed before it could)."""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.([0-9]+)\.[^.]+\.part")
    with suppress(OSError):
        for entry in os.scandir(target.parent):
            found = pattern.fullmatch(entry.name)
            if found and not _alive(int(found.group(1))):
                with suppress(OSError):
                    os.remove(entry.path)


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` runs (one of another user's does too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):  # another user's, or no pid at all: left alone
        pass
    return True


def _mode(target: Path) -> int:
    """The permissions the file would have had written in place: the old file's, or those the
    user's umask leaves (a temporary file is made readable by its owner alone)."""
    if target.is_file():
        return target.stat().st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask

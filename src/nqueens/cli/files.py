"""Files a command writes where the user asked, whole or not at all: a file cut short by a full
disk or a stop is never left under the name the user gave, nor beside it. Pictures (and the
trees of an explained search) go to one file, or one numbered file per solution or step."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from nqueens.cli.exits import Unwritable
from nqueens.core import signals

if TYPE_CHECKING:
    from nqueens.cli.output import Output


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


class Pictures:
    """The pictures a command saves where the user asked, and the line that says so."""

    def __init__(self, path: str | None, what: str = "picture") -> None:
        self.path = path
        self.what = what
        self.saved: list[str] = []

    def save(self, document: str, number: int | None = None, width: int = 1) -> None:
        """Write one picture: to the path, or numbered (``board-07.svg``) as one of several."""
        if self.path is None:
            return
        # A device (/dev/null, /dev/stdout) takes every picture as it is: board-1.svg beside
        # it would be a new file in /dev.
        device = os.path.exists(self.path) and not os.path.isfile(self.path)
        path = self.path
        if number is not None and not device:
            path = numbered_path(self.path, number, width)
        try:
            with open(path, "w", encoding="utf-8") as file:  # closed here: a late error counts
                file.write(document)
        except OSError as error:
            if os.path.isfile(path):  # a picture cut short is no picture (a device stays)
                with suppress(OSError):
                    os.remove(path)
            raise Unwritable(f"cannot write {path}: {error.strerror or error}") from None
        self.saved.append(path)

    def report(self, output: Output) -> None:
        """Say on stderr what was saved, if anything."""
        if len(self.saved) == 1:
            output.message(f"Saved the {self.what} in {self.saved[0]}.")
        elif self.saved and self.saved[0] == self.saved[-1]:
            output.message(f"Wrote {len(self.saved):,} {self.what}s to {self.saved[0]}.")
        elif self.saved:
            output.message(
                f"Saved {len(self.saved):,} {self.what}s: {self.saved[0]} to {self.saved[-1]}."
            )


def numbered_path(path: str, number: int, width: int) -> str:
    """``board.svg``, 3 -> ``board-003.svg`` (width digits): one file per solution or step."""
    stem, dot, suffix = path.rpartition(".")
    if not dot or "/" in suffix:
        stem, suffix = path, "svg"
    return f"{stem}-{number:0{width}d}.{suffix}"

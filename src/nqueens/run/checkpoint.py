"""Checkpoints: a count's finished subproblems, one line each, so a long count can resume.

The first line says which count the file belongs to: N, the puzzle, the engine, the symmetry
setting and a digest of the list of subproblems (how the board was split). Every later line is
one finished subproblem, ``place solutions unique first second crc``, written and flushed as it
arrives. The CRC-32 covers the rest of the line, and a line without its newline was cut short (a
SIGKILL, a full disk): it is dropped, and the file cut back to the last whole line, never counted.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import re
import zlib
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO

from nqueens.core.errors import CheckpointUnwritable as CheckpointUnwritable
from nqueens.core.results import InputError
from nqueens.engines.base import Request, Subcount, Subproblem

_MAGIC = "nqueens checkpoint 1"


_CUT = ("subproblems", "split")  # the parts of an identity that say how the board was cut


def identity(engine: str, request: Request, tasks: Sequence[Subproblem]) -> dict[str, object]:
    """What a checkpoint belongs to: the count and the exact list of its subproblems."""
    split = hashlib.sha256(
        "\n".join(repr(replace(task, deadline=None)) for task in tasks).encode()
    ).hexdigest()
    return {**_count_identity(engine, request), "subproblems": len(tasks), "split": split[:32]}


def _count_identity(engine: str, request: Request) -> dict[str, object]:
    """The count a checkpoint belongs to, whatever the cut: board, puzzle, engine, symmetry."""
    board = request.board
    belongs_to = {
        "n": request.n,
        "engine": engine,
        "symmetry": request.symmetry,
        "queens": sorted(board.queens),
        "blocked": sorted(board.blocked),
        "excluded": sorted(board.excluded),
        **({"rules": sorted(board.rules)} if board.rules else {}),
    }
    return dict(json.loads(json.dumps(belongs_to)))  # as read back: lists, not tuples


def finished(path: Path, engine: str, request: Request) -> list[Subcount] | None:
    """Every subproblem's count, if ``path`` is the whole checkpoint of this count: the answer,
    read without cutting the board again (which loads the compiled search). None otherwise,
    for the ordinary reading to resume it or to say what is wrong with it."""
    try:
        contents = _read(path)
    except InputError:
        return None
    if contents is None or contents.header is None:
        return None
    belongs_to = {key: value for key, value in contents.header.items() if key not in _CUT}
    if belongs_to != _count_identity(engine, request):  # every key: a torus's file is not ours
        return None
    if sorted(contents.done) != list(range(_subproblems(contents.header))):
        return None
    return list(contents.done.values())


@dataclass
class _Contents:
    """What a checkpoint file holds: its header (None: an empty file), the subproblems it
    finished, and how many bytes of it are whole, checked lines."""

    header: dict[str, object] | None
    done: dict[int, Subcount]
    kept: int


def _read(path: Path, stream: IO[bytes] | None = None) -> _Contents | None:
    """The checkpoint at ``path`` (read from ``stream`` when given): None if there is no such
    file. InputError, naming the file and the line, for a file that is not a checkpoint or one
    that cannot be trusted: a count never goes on from a file it would have to guess about.

    A last line without its newline was cut short (a SIGKILL, a full disk) and one whose
    checksum fails, or that is not text at all, was damaged: from there on nothing is counted,
    and the count does that work again (a first line cut short, the whole count). A line whose
    checksum holds but whose content is wrong, a second header (two counts on one file, or a
    file joined to a copy of itself) or a subproblem recorded twice are refused.
    """
    if stream is None:
        if not path.exists():
            return None
        if not path.is_file():
            raise InputError(f"{path} is not a regular file: a checkpoint is one")
        try:
            data = path.read_bytes()
        except OSError as error:
            raise InputError(f"cannot read the checkpoint {path}: {error.strerror}") from None
    else:
        stream.seek(0)
        data = stream.read()
    lines = data.splitlines(keepends=True)
    if not lines or (len(lines) == 1 and _cut_short(lines[0])):
        return _Contents(None, {}, 0)  # nothing yet, or a header cut short: begin again
    header = _header(path, lines[0])
    subproblems = _subproblems(header)
    done: dict[int, Subcount] = {}
    kept = len(lines[0])
    for number, line in enumerate(lines[1:], start=2):
        text = _checked(line)
        if text is None:
            break  # cut short or damaged: this line and anything after it never counted
        if text.startswith(_MAGIC):
            raise _untrusted(path, number, "a second header (two counts wrote to this file?)")
        try:
            place, found = _subcount(text)
        except ValueError:
            raise _untrusted(path, number, "not a finished subproblem") from None
        if not 0 <= place < subproblems:
            raise _untrusted(path, number, f"subproblem {place} of {subproblems}")
        if place in done:
            raise _untrusted(path, number, f"subproblem {place} recorded a second time")
        done[place] = found
        kept += len(line)
    return _Contents(header, done, kept)


def _cut_short(line: bytes) -> bool:
    """Whether ``line`` is a checkpoint's first line cut short before its newline (a full disk
    as the count began): nothing was counted yet. Only one that says it is one: a file that
    is not a checkpoint is never written over."""
    return not line.endswith(b"\n") and line.startswith(_MAGIC.encode() + b" ")


def _header(path: Path, line: bytes) -> dict[str, object]:
    """The first line's record of the count, checked."""
    text = _checked(line)
    if text is None or not text.startswith(_MAGIC + " "):
        raise InputError(f"{path} is not an nqueens checkpoint; give another file")
    try:
        header = json.loads(text.removeprefix(_MAGIC))
    except (ValueError, RecursionError):
        header = None
    if not isinstance(header, dict) or not isinstance(header.get("subproblems"), int):
        raise _untrusted(path, 1, "not the record of a count")
    return header


def _subproblems(header: dict[str, object]) -> int:
    subproblems = header.get("subproblems")
    return subproblems if isinstance(subproblems, int) else -1


def _untrusted(path: Path, line: int, what: str) -> InputError:
    return InputError(
        f"{path}, line {line}: {what}. This checkpoint cannot be trusted, and was left as it "
        "is: give another file, or delete this one to count again from the start"
    )


_WHOLE = re.compile(r"[0-9]+")


def _subcount(text: str) -> tuple[int, Subcount]:
    """A finished subproblem's line: its place and its count; ValueError if it is not one."""
    fields = text.split(" ")
    if len(fields) != 5:
        raise ValueError("not a finished subproblem")
    place, solutions, unique, first_stat, second = fields
    numbers = [place, solutions, first_stat, second] + ([] if unique == "-" else [unique])
    if not all(_WHOLE.fullmatch(number) for number in numbers):
        raise ValueError("not a finished subproblem")
    found = Subcount(
        int(solutions), None if unique == "-" else int(unique), int(first_stat), int(second), True
    )
    return int(place), found


def _line(text: str) -> str:
    return f"{text} {zlib.crc32(text.encode()):08x}\n"


def _checked(line: bytes) -> str | None:
    """The line's text if it is whole, text, and its CRC matches; None otherwise. A line may
    end in CR LF, as a checkpoint copied through Windows or an editor that writes them does."""
    if not line.endswith(b"\n"):
        return None
    body = line[:-2] if line.endswith(b"\r\n") else line[:-1]
    try:
        text, _, crc = body.decode("utf-8").rpartition(" ")
    except UnicodeDecodeError:
        return None
    if not text or f"{zlib.crc32(text.encode()):08x}" != crc:
        return None
    return text


class Checkpoint:
    """An open checkpoint file, locked against a second count: ``done`` holds the subproblems
    finished in earlier runs."""

    def __init__(self, path: Path, belongs_to: dict[str, object]) -> None:
        self.path = path
        if path.exists() and not path.is_file():
            raise InputError(f"{path} is not a regular file: a checkpoint is one")
        try:
            self._file: IO[bytes] = path.open("a+b")
        except OSError as error:
            raise InputError(f"cannot open the checkpoint {path}: {error.strerror}") from None
        try:
            self._lock()
            contents = _read(path, self._file)
            assert contents is not None
            if contents.header is not None and contents.header != belongs_to:
                raise InputError(
                    f"{path} is the checkpoint of another count ({_describe(contents.header)}); "
                    f"this one is {_describe(belongs_to)}: give another file, or delete that one"
                )
            self.done = contents.done
            self._file.truncate(contents.kept)
            self._file.seek(contents.kept)
            if contents.header is None:
                self._file.write(
                    _line(f"{_MAGIC} {json.dumps(belongs_to, sort_keys=True)}").encode()
                )
                self._flush()
        except BaseException:
            self.close()  # never in place of the error: closing flushes, and may fail as well
            raise

    def _lock(self) -> None:
        """Hold the file for this count alone (released when it closes, or the process ends)."""
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InputError(
                f"{self.path} is in use by another count; wait for it to end, or give another file"
            ) from None
        except OSError:  # a filesystem without locks: go on unlocked, as before
            pass

    def record(self, place: int, found: Subcount) -> None:
        """Append one finished subproblem, flushed to the operating system at once."""
        unique = "-" if found.unique is None else str(found.unique)
        text = f"{place} {found.solutions} {unique} {found.first} {found.second}"
        self._file.write(_line(text).encode())
        self._flush()
        self.done[place] = found

    def _flush(self) -> None:
        # To the operating system: a line written survives a SIGKILL of this process.
        try:
            self._file.flush()
        except OSError as error:
            unwritable = CheckpointUnwritable(error.errno, error.strerror, str(self.path))
            unwritable.kept = len(self.done)
            raise unwritable from None

    def close(self) -> None:
        """Close the file; after a failed write, what is left in its buffer is let go (the
        line it held is cut short in the file, and dropped when the count resumes)."""
        with suppress(OSError):
            self._file.close()


def _describe(belongs_to: dict[str, object]) -> str:
    words = f"N = {belongs_to.get('n')}, engine {belongs_to.get('engine')}"
    if belongs_to.get("queens") or belongs_to.get("blocked") or belongs_to.get("excluded"):
        words += ", a puzzle"
    rules = belongs_to.get("rules")
    if isinstance(rules, list) and rules:
        words += ", " + " and ".join(map(str, rules))
    if not belongs_to.get("symmetry"):
        words += ", no symmetry"
    return words + f", {belongs_to.get('subproblems')} subproblems"

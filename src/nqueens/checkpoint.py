"""Checkpoints: a count's finished subproblems, one line each, so a long count can resume.

The first line says which count the file belongs to: N, the puzzle, the engine, the symmetry
setting and a digest of the list of subproblems (how the board was split). Every later line is
one finished subproblem, ``place solutions unique first second crc``, written and flushed as it
arrives. The CRC-32 covers the rest of the line, and a line without its newline was cut short (a
SIGKILL, a full disk): it is dropped, and the file cut back to the last whole line, never counted.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import IO

from nqueens.engines.base import Request, Subcount, Subproblem
from nqueens.results import InputError

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
    puzzle = request.puzzle
    belongs_to = {
        "n": request.n,
        "engine": engine,
        "symmetry": request.symmetry,
        "queens": sorted(puzzle.queens) if puzzle is not None else [],
        "blocked": sorted(puzzle.blocked) if puzzle is not None else [],
        "excluded": sorted(puzzle.excluded) if puzzle is not None else [],
    }
    return dict(json.loads(json.dumps(belongs_to)))  # as read back: lists, not tuples


def finished(path: Path, engine: str, request: Request) -> list[Subcount] | None:
    """Every subproblem's count, if ``path`` is the whole checkpoint of this count: the answer,
    read without cutting the board again (which loads the compiled search). None otherwise,
    for the ordinary reading to resume it or to say what is wrong with it."""
    try:
        with path.open("r", encoding="utf-8", newline="") as existing:
            lines = existing.readlines()
    except (OSError, UnicodeDecodeError):
        return None
    first = _checked(lines[0]) if lines else None
    if first is None or not first.startswith(_MAGIC):
        return None
    try:
        theirs = json.loads(first.removeprefix(_MAGIC))
        wanted = _count_identity(engine, request)
        if not isinstance(theirs, dict) or {k: theirs.get(k) for k in wanted} != wanted:
            return None
        done = dict(_subcount(_checked(line)) for line in lines[1:])
    except (ValueError, TypeError):  # a line cut short or damaged: not finished
        return None
    if sorted(done) != list(range(theirs.get("subproblems", -1))):
        return None
    return list(done.values())


def _subcount(text: str | None) -> tuple[int, Subcount]:
    """A finished subproblem's line: its place and its count; ValueError if it is not one."""
    if text is None:
        raise ValueError("a line cut short or damaged")
    place, solutions, unique, first_stat, second = text.split()
    found = Subcount(
        int(solutions), None if unique == "-" else int(unique), int(first_stat), int(second), True
    )
    return int(place), found


def _line(text: str) -> str:
    return f"{text} {zlib.crc32(text.encode()):08x}\n"


def _checked(line: str) -> str | None:
    """The line's text if it is whole and its CRC matches; None otherwise."""
    if not line.endswith("\n"):
        return None
    text, _, crc = line[:-1].rpartition(" ")
    if not text or f"{zlib.crc32(text.encode()):08x}" != crc:
        return None
    return text


class Checkpoint:
    """An open checkpoint file: ``done`` holds the subproblems finished in earlier runs."""

    def __init__(self, path: Path, belongs_to: dict[str, object]) -> None:
        self.path = path
        self.done: dict[int, Subcount] = {}
        header = _line(f"{_MAGIC} {json.dumps(belongs_to, sort_keys=True)}")
        kept = 0  # bytes of whole, checked lines
        if path.exists() and not path.is_file():
            raise InputError(f"{path} is not a regular file: a checkpoint is one")
        try:
            with path.open("r", encoding="utf-8", newline="") as existing:
                lines = existing.readlines()
        except FileNotFoundError:
            lines = []
        except (OSError, UnicodeDecodeError) as error:
            raise InputError(f"cannot read the checkpoint {path}: {error}") from None
        if lines:
            first = _checked(lines[0])
            if first is None or not first.startswith(_MAGIC):
                raise InputError(f"{path} is not an nqueens checkpoint; give another file")
            theirs = json.loads(first.removeprefix(_MAGIC))
            if theirs != belongs_to:
                raise InputError(
                    f"{path} is the checkpoint of another count ({_describe(theirs)}); this one "
                    f"is {_describe(belongs_to)}: give another file, or delete that one"
                )
            kept = len(lines[0].encode())
            for line in lines[1:]:
                text = _checked(line)
                if text is None:
                    break  # cut short: this line and anything after it never counted
                place, found = _subcount(text)
                self.done[place] = found
                kept += len(line.encode())
        self._file: IO[str] = path.open("a+", encoding="utf-8", newline="")
        self._file.truncate(kept)
        self._file.seek(kept)
        if not lines:
            self._file.write(header)
            self._flush()

    def record(self, place: int, found: Subcount) -> None:
        """Append one finished subproblem, flushed to the operating system at once."""
        unique = "-" if found.unique is None else str(found.unique)
        self._file.write(_line(f"{place} {found.solutions} {unique} {found.first} {found.second}"))
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


class CheckpointUnwritable(OSError):
    """A finished subproblem could not be written to the checkpoint (a full disk, a quota);
    ``kept`` subproblems are safe in it."""

    kept = 0


def _describe(belongs_to: dict[str, object]) -> str:
    words = f"N = {belongs_to.get('n')}, engine {belongs_to.get('engine')}"
    if belongs_to.get("queens") or belongs_to.get("blocked") or belongs_to.get("excluded"):
        words += ", a puzzle"
    if not belongs_to.get("symmetry"):
        words += ", no symmetry"
    return words + f", {belongs_to.get('subproblems')} subproblems"

"""What every export format shares: where a model goes, what a format declares about itself,
and the comment a file begins with."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

from nqueens.core.board import Board
from nqueens.core.geometry import SUPERQUEENS
from nqueens.core.pictures import described


@dataclass(frozen=True)
class Target:
    """Where a model goes: ``stream``, under the file ``name`` that a header's "Run it" line
    uses; ``binary`` asks for the format's binary form, where it has one."""

    stream: BinaryIO
    name: str
    binary: bool = False


@dataclass(frozen=True)
class Format:
    """One format a model can be written in, and everything about it."""

    name: str
    summary: str
    suffixes: tuple[str, ...]  # the first is the one a file is named with in examples
    size: Callable[[int, frozenset[str]], int]  # what its size follows, for N and the rules
    max_size: int  # the most of it the format writes
    why: str  # what grows with the board, the reason for max_size
    write: Callable[[Board, Target], None]

    def refusal(self, board: Board) -> str | None:
        """Why this board is too large for the format, or None."""
        if self.size(board.n, board.rules) <= self.max_size:
            return None
        low, high = 1, board.n  # the largest N within max_size, by bisection: size grows with N
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (
                (middle, high)
                if self.size(middle, board.rules) <= self.max_size
                else (
                    low,
                    middle - 1,
                )
            )
        under = " under these rules" if board.rules else ""
        return (
            f"the {self.name} model of N = {board.n:,} would be too large: {self.why}; "
            f"nqueens writes it up to N = {low:,}{under}"
        )


def squares_named(squares: int, rules: frozenset[str]) -> int:
    """How many squares a model's constraints name, which its size and the time to write it
    follow: each square on its row, column and two diagonals, and under the superqueens rule
    on up to 8 knight's moves."""
    return squares * (4 + (8 if SUPERQUEENS in rules else 0))


def header(board: Board, what: str, target: Target, lines: list[str], run: str) -> list[str]:
    """The lines a file begins with, before the format's comment mark: what it is, which board,
    the format's own ``lines``, and how to ``run`` it (``{file}`` stands for the file; a run of
    several lines is shown indented under "Run it:")."""
    from nqueens import __version__

    first, *more = run.format(file=target.name).split("\n")
    return [
        f"The N-queens problem as {what}, written by nqueens {__version__}.",
        f"Board: {described(board)}.",
        *lines,
        f"Run it: {first}" if first else "Run it:",
        *(f"  {line}" for line in more),
    ]


def commented(mark: str, lines: list[str]) -> bytes:
    """``lines`` as comments of a format whose comments begin with ``mark``."""
    return "".join(f"{mark} {line}".rstrip() + "\n" for line in lines).encode()


_CHILD_FAILED = 255  # a child's exit code for what is not an OSError: no errno is that large
_CHILD_OUT_OF_MEMORY = 254


def written_apart(stream: BinaryIO, write: Callable[[], None]) -> None:
    """Run ``write``, which writes to ``stream``, in a process of its own where the system
    can fork one: OR-Tools' exporter holds Python's lock for seconds, and a stop would wait
    for it. The parent waits; a stop ends the child at once (Ctrl-C reaches it too), and an
    error it met (a full disk, a closed pipe, memory running out) is raised here as its own.
    A process with other threads (a program that exports from one of its threads) writes here:
    a fork would copy locks those threads may hold.
    """
    import os
    import threading

    if not hasattr(os, "fork") or threading.active_count() > 1:
        write()
        return
    import signal

    from nqueens.core.signals import STOP_SIGNALS

    stream.flush()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's part, seen through its exit code
        code = 0
        try:
            for signum in STOP_SIGNALS:
                signal.signal(signum, signal.SIG_DFL)
            write()
            stream.flush()
        except OSError as error:
            code = error.errno if error.errno and 0 < error.errno < _CHILD_OUT_OF_MEMORY else 1
        except MemoryError:
            code = _CHILD_OUT_OF_MEMORY
        except BaseException:
            code = _CHILD_FAILED
        os._exit(code)
    try:
        _, status = os.waitpid(child, 0)
    except BaseException:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
        raise
    code = os.waitstatus_to_exitcode(status)
    if code == 0:
        return
    if code < 0:  # a signal ended it: a stop sent to the whole group, Ctrl-C
        raise KeyboardInterrupt
    if code == _CHILD_OUT_OF_MEMORY:
        raise MemoryError
    if code == _CHILD_FAILED:
        raise RuntimeError("the process that wrote the model failed")
    raise OSError(code, os.strerror(code))

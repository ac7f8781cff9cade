"""What the engines' solution streams share: how they end, report and are used to count."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from typing import Any

from nqueens.core import signals
from nqueens.core.board import Board
from nqueens.core.results import FirstResult, SearchInterrupted, Solution, Stats, Status

BLOCK_SOLUTIONS = 4096
"""How many solutions ``EngineStream.blocks`` gathers into one array, where the engine
finds them one at a time."""


ALREADY_EXECUTING = "generator already executing: a stream serves one thread at a time"
"""What a second thread is told when it asks a stream for solutions while another thread does
(a generator's own words, as a generator shared by threads raises them)."""


class EngineStream(Iterator[Solution]):
    """A stream of solutions with ``stats`` once it has ended, stoppable with ``close()``.

    Subclasses find solutions in ``_next_solution`` (or the whole step, ``_step``) and call
    ``_end(status)`` when they stop; this class stops at the solve's limit (``stopping_after``,
    which the API calls on every stream) and ends the search as interrupted on Ctrl-C. A stream
    serves one thread at a time, as a generator does: a second thread that asks for solutions
    while one is being found gets ValueError, never a solution twice or a lost one.
    """

    _stats: Stats | None = None
    _limit: int | None = None
    _delivered = 0
    _board: Board | None = None

    def __iter__(self) -> EngineStream:
        return self

    @contextmanager
    def _one_thread(self) -> Iterator[None]:
        """Held while a thread takes solutions from the stream; ValueError for another."""
        lock: threading.Lock | None = self.__dict__.get("_taking")
        if lock is None:  # made on first use: the engines' streams share no __init__
            lock = self.__dict__.setdefault("_taking", threading.Lock())
        if not lock.acquire(blocking=False):
            raise ValueError(ALREADY_EXECUTING)
        try:
            yield
        finally:
            lock.release()

    def __next__(self) -> Solution:
        with self._one_thread():
            return self._step()

    def _step(self) -> Solution:
        """The next solution, or StopIteration."""
        if self._stats is not None:
            raise StopIteration
        if self._limit is not None and self._delivered >= self._limit:
            self._end(Status.LIMIT)
            raise StopIteration
        # Guarded for the first solution, which holds the search's start (its imports and
        # compiles): a guard around every solution would cost more than finding one
        guard = signals.Guard() if not self._delivered else nullcontext()
        try:
            with guard:
                solution = self._next_solution()
        except KeyboardInterrupt:
            self._end(Status.INTERRUPTED)
            raise
        if solution is None:
            raise StopIteration
        self._delivered += 1
        return solution if self._board is None else replace(solution, board=self._board)

    lists_in_blocks = False
    """Whether the stream lists much faster a block at a time (a listing in C), and then gives
    its blocks packed too, a byte a column (``packed_blocks``)."""

    def blocks(self) -> Iterator[Any]:
        """The solutions left, as numpy arrays of ``rows`` (one solution a row), up to
        BLOCK_SOLUTIONS of them at a time: for programs that take millions."""
        import numpy

        batch: list[tuple[int, ...]] = []
        for solution in self:  # each step held by one thread, as next() is
            batch.append(solution.rows)
            if len(batch) == BLOCK_SOLUTIONS:
                yield numpy.array(batch, dtype=numpy.int64)
                batch = []
        if batch:
            yield numpy.array(batch, dtype=numpy.int64)

    @property
    def in_all(self) -> int | None:
        """With ``unique``: how many solutions the ones listed so far stand for, where the
        stream keeps that count (None where it does not)."""
        return None

    def found_on(self, board: Board) -> EngineStream:
        """Give each solution its board, where that holds more than N queens, for its
        pictures."""
        self._board = None if board.plain else board
        return self

    def stopping_after(self, limit: int | None) -> EngineStream:
        """This stream, ended after ``limit`` solutions (None: all of them). An engine may also
        hand the limit to its solver, to stop it sooner."""
        self._limit = limit
        return self

    def _next_solution(self) -> Solution | None:
        """The engine's next solution, or None once its search has ended (``_end`` called)."""
        raise NotImplementedError

    def _end(self, status: Status) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Stop the search; what was delivered so far is the partial result."""
        if self._stats is None:
            self._end(Status.INTERRUPTED)

    def close_found(self) -> None:
        """Stop the search because what was asked for was found: the result is complete."""
        if self._stats is None:
            self._end(Status.COMPLETE)

    @property
    def stats(self) -> Stats:
        """How the search ended; available once the stream is exhausted or closed."""
        if self._stats is None:
            raise RuntimeError("the stream is still running: exhaust it or close it first")
        return self._stats

    def __enter__(self) -> EngineStream:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def count_all(stream: EngineStream) -> Stats:
    """Run a stream to its end, counting; Ctrl-C raises SearchInterrupted with the count so far."""
    with stream:
        try:
            for _ in stream:
                pass
        except KeyboardInterrupt:
            raise SearchInterrupted(stream.stats) from None
    return stream.stats


def first_of(stream: EngineStream) -> FirstResult:
    """The stream's first solution, or None with the stats that say whether none exists."""
    with stream:
        try:
            solution = next(stream, None)
        except KeyboardInterrupt:
            raise SearchInterrupted(stream.stats) from None
        if solution is not None:
            stream.close_found()
    return FirstResult(solution, stream.stats)

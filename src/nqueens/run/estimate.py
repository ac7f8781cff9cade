"""How long a count will take, from the measured time of a random sample of its pieces.

Knuth's estimate of a search tree's size ("Estimating the efficiency of backtrack programs",
1975), taken over the engine's own cut of the board: a probe picks one of the pieces at random and
counts it under a short deadline; a piece too large for that is cut one level finer and one of its
pieces picked at random, and so on. The time of the piece finally counted, times the number of
pieces it was one of at every level, is an unbiased guess of the whole count's time; the mean of
many probes is the estimate, and their spread its standard error.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from nqueens.engines.base import Engine, Subproblem

PROBE_SECONDS = 0.02
"""A piece that takes longer than this is cut finer: many small probes beat a few large ones."""

MIN_SECONDS = 0.1
SHARE = 0.01
"""Probes stop after this share of the count's estimated time, if that comes before the budget
(and after MIN_SECONDS)."""

_SEED = 1
"""Probes are drawn the same way every time: the same count gets the same estimate."""


@dataclass(frozen=True)
class Estimate:
    """The time a count needs on one core like this one, in seconds, with its standard error."""

    cpu_seconds: float
    error: float
    probes: int

    def seconds_on(self, workers: int) -> float:
        """The wall time on ``workers`` cores like this one, if they are kept busy to the end."""
        return self.cpu_seconds / max(1, workers)

    def per_piece(self, pieces: int) -> float:
        """The mean time of one of ``pieces`` pieces."""
        return self.cpu_seconds / max(1, pieces)

    @property
    def sureness(self) -> str:
        """How sure the estimate is, in words: its standard error as a share, and the samples
        it rests on ("± 9%, from 412 timed samples")."""
        share = self.error / self.cpu_seconds if self.cpu_seconds else math.inf
        spread = f"± {share:.0%}" if math.isfinite(share) else "a rough guess"
        samples = f"{self.probes:,} timed sample{'s' if self.probes != 1 else ''}"
        return f"{spread}, from {samples}"


def estimate(
    engine: Engine, pieces: Sequence[Subproblem], budget: float, share: float = SHARE
) -> Estimate | None:
    """Probe the pieces for ``budget`` seconds at most, or less: for ``share`` of the time the
    count looks like it takes. None if no probe could finish (an engine that cannot cut a piece
    finer, with pieces larger than a probe's deadline).

    The probes run in this process: Ctrl-C raises a plain KeyboardInterrupt, since nothing they
    counted belongs to the count.
    """
    if not pieces:
        return None
    draw = random.Random(_SEED)
    guesses: list[float] = []
    depth = 0  # how many times the last probe had to cut before a piece fitted its deadline
    started = time.monotonic()
    stop = started + budget
    try:
        while not guesses or time.monotonic() < min(stop, started + _enough(guesses, share)):
            probe = _probe(engine, pieces, draw, depth, stop)
            if probe is None:
                break
            guess, depth = probe
            guesses.append(guess)
    except KeyboardInterrupt:
        raise KeyboardInterrupt from None
    if not guesses:
        return None
    error = statistics.stdev(guesses) / math.sqrt(len(guesses)) if len(guesses) > 1 else math.inf
    return Estimate(statistics.fmean(guesses), error, len(guesses))


def _enough(guesses: list[float], share: float) -> float:
    """Seconds of probes worth spending on a count that looks like ``guesses`` say: a small
    share of it, so that a count of seconds is not held up for long."""
    return max(MIN_SECONDS, share * statistics.fmean(guesses))


def _probe(
    engine: Engine, pieces: Sequence[Subproblem], draw: random.Random, depth: int, stop: float
) -> tuple[float, int] | None:
    """One random descent, cut ``depth`` levels before its first try: the measured time of the
    piece it ends on times its weight, and the depth of that piece."""
    weight = float(len(pieces))
    piece = draw.choice(pieces)
    level = 0
    while True:
        if level >= depth:
            started = time.perf_counter()
            found = engine.count_subproblem(replace(piece, deadline=time.time() + PROBE_SECONDS))
            if found.complete:
                return weight * (time.perf_counter() - started), level
        started = time.perf_counter()
        finer = engine.finer(piece)
        if finer is None or time.monotonic() > stop + 1:
            return None
        if not finer:  # nothing in it: its work was the search that cut it
            return weight * (time.perf_counter() - started), level
        weight *= len(finer)
        piece = draw.choice(finer)
        level += 1

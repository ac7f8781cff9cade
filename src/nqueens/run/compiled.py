"""Compiled searches made ready before a search, or all of them ahead (``nqueens prepare``).

numba compiles a search on its first use after an install, for seconds, and keeps it in its
cache: a time limit leaves that compile out, so that a first run keeps to its limit as every
later run does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from nqueens.engines import jit, registry
from nqueens.engines.base import Engine, Request


@dataclass(frozen=True)
class Prepared:
    """One engine's compiled searches made ready: ``seconds`` in all, ``compiling`` of them
    spent compiling (0: loaded from numba's cache, compiled before)."""

    engine: str
    seconds: float
    compiling: float


def prepare() -> list[Prepared]:
    """Compile every search nqueens compiles on first use (numba keeps them in its cache), so
    that no later run, nor the time limit of a first one, waits for a compile: for images,
    clusters and CI, where each machine's first run would otherwise compile them."""
    done = []
    for engine in registry.ENGINES.values():
        if engine.compiled_search is None:
            continue
        started, compiled_before = time.monotonic(), jit.compile_seconds()
        engine.compile_ahead()
        seconds = time.monotonic() - started
        done.append(Prepared(engine.name, seconds, jit.compile_seconds() - compiled_before))
    return done


def ready(engine: Engine, request: Request) -> tuple[Request, float]:
    """Load the search of ``request`` on ``engine``, and give the request back with its time
    limit moved on by the seconds that loading spent compiling, and those seconds: numba
    compiles a search on its first use after an install, which a time limit leaves out, so
    that a first run keeps to it as every later run does."""
    compiled_before = jit.compile_seconds()
    engine.prepare(request)
    compiling = jit.compile_seconds() - compiled_before
    if compiling and request.deadline is not None:
        request = replace(request, deadline=request.deadline + compiling)
    return request, compiling

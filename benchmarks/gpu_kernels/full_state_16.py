"""A candidate for the gpu engine's kernel, not used by it: ``full_state.py`` with a stack of 16
lines rather than 24, so that a block takes 16 KB of shared memory rather than 24 KB and more
threads fit a multiprocessor at once (shared memory, not registers, bounds full_state's).

It counts plain boards up to N = 23 only (the deepest piece of N = 22 stacks 15 lines), and
puzzles whose pieces leave as few: a device is to say whether the threads it adds pay, before
the engine would size the stack by the board. The same function, compiled with another size.
"""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path
from typing import Any

from numba import cuda

STACK_LINES = 16

_source = Path(__file__).with_name("full_state.py")
_spec = importlib.util.spec_from_file_location("full_state", _source)
assert _spec is not None and _spec.loader is not None
_full_state = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_full_state)
_function = getattr(_full_state.count_pieces, "py_func", None) or _full_state.count_pieces.fn

_resized = types.FunctionType(
    _function.__code__,
    {**_function.__globals__, "STACK_LINES": STACK_LINES},
    _function.__name__,
    _function.__defaults__,
    _function.__closure__,
)
_resized.__qualname__ = f"count_pieces_{STACK_LINES}_lines"  # numba's cache, named apart

THREADS_PER_BLOCK: int = _full_state.THREADS_PER_BLOCK
count_pieces: Any = cuda.jit(cache=True)(_resized)

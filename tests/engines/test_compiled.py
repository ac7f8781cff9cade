"""The compiled searches as a user meets them: C modules built with the package, nothing
compiled at run time, numba never loaded by a search on the processor, Python's lock released
around every call, and hostile arguments refused with an error instead of a crash."""

from __future__ import annotations

import threading
import time
from array import array
from collections.abc import Callable

import pytest
from helpers import run_nqueens, run_python

from nqueens.engines.bitboard import _edges, _search
from nqueens.engines.local import _local
from nqueens.engines.reduced import _reduced
from nqueens.formats import _text


def test_small_boards_and_help_load_no_solver() -> None:
    probe = (
        "import sys\n"
        "from nqueens.cli import cli\n"
        "for args in (['--help'], ['count', '8'], ['count', '13', '--workers', '1']):\n"
        "    try:\n"
        "        cli(args)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] in ('ortools', 'numba', 'numpy')]\n"
        "assert not loaded, loaded\n"
    )
    done = run_python(probe)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == ["92", "73712"]


SEARCHES_ON_THE_PROCESSOR = [
    ["count", "14", "--torus", "--workers", "1"],
    ["count", "13", "--superqueens", "--workers", "1"],
    ["count", "12", "--queen", "1,2", "--workers", "1"],
    ["count", "36", "-t", "0.2", "--workers", "1", "--format", "json"],
    ["solve", "9", "--limit", "3"],
    ["first", "5000", "--engine", "local"],
    ["first", "30", "--queen", "1,1", "--engine", "reduced"],
]
"""A command for each search in C: the bitboard search's rules, puzzles and listing, the local
search and the reduced engine."""


def test_every_search_on_the_processor_runs_without_numba() -> None:
    """One process runs them all in turn (numba, once loaded, would stay loaded), checking
    after each."""
    probe = (
        "import sys\n"
        "from nqueens.cli import cli\n"
        f"for arguments in {SEARCHES_ON_THE_PROCESSOR!r}:\n"
        "    try:\n"
        "        cli(arguments)\n"
        "    except SystemExit as stop:\n"
        "        assert stop.code in (0, 3, None), (arguments, stop.code)  # 3: its time limit\n"
        "    loaded = [m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')]\n"
        "    assert not loaded, (arguments, loaded)\n"
    )
    done = run_python(probe)
    assert done.returncode == 0, done.stderr


def test_nothing_is_compiled_at_run_time() -> None:
    """The package holds no numba search, and no nqueens command offers to compile ahead."""
    done = run_nqueens("prepare")
    assert done.returncode == 2
    assert "No such command 'prepare'" in done.stderr


def _local_search_under_way() -> Callable[[], object]:
    """A local search past its quick first phases (a shuffle, the rows laid out): its next call
    places every queen and repairs the board, in one call."""
    attempt = _local.start(
        300_000, array("i", bytes(1_200_000)), bytes(300_000), array("q"), 1, 1 << 40, 0
    )
    _local.search(attempt, 1 << 40)
    _local.search(attempt, 1 << 40)
    return lambda: _local.search(attempt, 1 << 40)


LONG_CALLS: dict[str, Callable[[], Callable[[], object]]] = {
    "counting": lambda: lambda: _edges.count(20, 0, 40, bytearray(_edges.STATE_SIZE), 1 << 25),
    "search": lambda: (
        lambda: _search.count(_search.start(22, 0, (0,) * 22, 21, -1, 0, 0), _search.COUNT, 1 << 25)
    ),
    "listing": lambda: (
        lambda: _search.fill(
            _search.start(22, 0, (0,) * 22, 21, -1, 0, 0), bytearray(22 << 20), 1 << 25
        )
    ),
    "local": _local_search_under_way,
    "reduced": lambda: (
        lambda: _reduced.search(
            bytes(8 * 40**3), _reduced.start((2**40 - 1,) * 40), bytearray(), 1 << 21
        )
    ),
    "text": lambda: (
        lambda: _text.solutions(bytes(range(16)) * 2_000_000, 16, 2_000_000, _text.JSON, b"", 1)
    ),
}
"""For each C module, what makes a call of a tenth of a second or more, and that call."""


@pytest.mark.parametrize("module", list(LONG_CALLS))
def test_a_call_into_c_lets_other_threads_run(module: str) -> None:
    """While one thread is inside a C call, another runs Python: the lock is released. Held,
    the other thread would not run at all until the call returned."""
    inside = threading.Event()
    returned = threading.Event()
    long_call = LONG_CALLS[module]()

    def call() -> None:
        inside.set()
        long_call()
        returned.set()

    worker = threading.Thread(target=call)
    worker.start()
    inside.wait()
    time.sleep(0.001)  # the worker is on its way into C
    turns = 0
    while not returned.is_set():
        turns += 1
        if turns == 1000:
            break
    worker.join()
    assert turns == 1000, f"the other thread ran {turns} times before the call returned"


def _forged_reduced() -> bytearray:
    """A reduced search's state with a column past the table: after the header, the masks,
    the candidates and the columns chosen, the column searched at depth 0 is 200."""
    state = _reduced.start((3, 3))
    state[-64] = 200  # column_at[0], the state's last 64 bytes
    return state


def _forged_edges() -> bytearray:
    """A counter's state, started, with its depth far past its lines."""
    state = bytearray(_edges.STATE_SIZE)
    _edges.count(12, 0, 5, state, 1)
    state[12:16] = (10**6).to_bytes(4, "little")  # depth, after started, index and active
    return state


HOSTILE: list[tuple[str, Callable[[], object]]] = [
    ("n 0", lambda: _search.start(0, 0, (), 0, -1, 0, 0)),
    ("n 65", lambda: _search.start(65, 0, (0,) * 65, 64, -1, 0, 0)),
    ("last past the board", lambda: _search.start(4, 0, (0,) * 4, 9, -1, 0, 0)),
    ("masks too few", lambda: _search.start(4, 0, (0,) * 3, 3, -1, 0, 0)),
    ("unknown flags", lambda: _search.start(4, 64, (0,) * 4, 3, -1, 0, 0)),
    (
        "a forged state",
        lambda: _search.count(bytearray(len(_search.start(4, 0, (0,) * 4, 3, -1, 0, 0))), 0, 9),
    ),
    ("a state cut short", lambda: _search.count(bytearray(8), 0, 9)),
    ("an unknown mode", lambda: _search.count(_search.start(4, 0, (0,) * 4, 3, -1, 0, 0), 7, 9)),
    ("a huge mask", lambda: _search.start(4, 0, (1 << 200,) * 4, 3, -1, 0, 0)),
    ("local n 0", lambda: _local.start(0, array("i"), b"", array("q"), 1, 9, 0)),
    (
        "local n past its most",
        lambda: _local.start(10**7 + 1, array("i"), b"", array("q"), 1, 9, 0),
    ),
    ("local rows short", lambda: _local.start(8, array("i", [0]), bytes(8), array("q"), 1, 9, 0)),
    (
        "local given row off the board",
        lambda: _local.start(8, array("i", [99] * 8), b"\x01" * 8, array("q"), 1, 9, 0),
    ),
    (
        "local blocked unsorted",
        lambda: _local.start(8, array("i", [0] * 8), bytes(8), array("q", [9, 3]), 1, 9, 0),
    ),
    (
        "local unknown flags",
        lambda: _local.start(8, array("i", [0] * 8), bytes(8), array("q"), 1, 9, 8),
    ),
    ("local not an attempt", lambda: _local.search(bytearray(64), 9)),  # type: ignore[arg-type]
    (
        "local budget 0",
        lambda: _local.search(
            _local.start(8, array("i", [0] * 8), bytes(8), array("q"), 1, 9, 0), 0
        ),
    ),
    ("reduced 65 columns", lambda: _reduced.start((1,) * 65)),
    (
        "reduced columns forged",
        lambda: _reduced.search(bytes(64), _forged_reduced(), bytearray(), 9),
    ),
    ("edges state forged", lambda: _edges.count(12, 0, 5, _forged_edges(), 9)),
    ("reduced table short", lambda: _reduced.search(b"", _reduced.start((3, 3)), bytearray(), 9)),
    (
        "reduced forged state",
        lambda: _reduced.search(b"", bytearray(len(_reduced.start(()))), bytearray(), 9),
    ),
    ("edges n 99", lambda: _edges.count(99, 0, 1, bytearray(_edges.STATE_SIZE), 9)),
    ("edges span past the end", lambda: _edges.count(8, 0, 10**6, bytearray(_edges.STATE_SIZE), 9)),
    ("text rows past n", lambda: _text.solutions(bytes([200] * 8), 8, 1, _text.COMPACT, b"", 1)),
    ("text count past rows", lambda: _text.solutions(bytes(8), 8, 1 << 62, _text.COMPACT, b"", 1)),
]


def test_output_larger_than_memory_is_a_memory_error() -> None:
    """A terabyte of JSON records asked of the text writer: refused by the allocator, raised as
    MemoryError (under AddressSanitizer too, which CI runs with allocations allowed to fail)."""
    with pytest.raises(MemoryError):
        _text.solutions(bytes(8) * 10**6, 8, 10**6, _text.JSON, bytes(10**6), 1)


@pytest.mark.parametrize("call", [call for _, call in HOSTILE], ids=[name for name, _ in HOSTILE])
def test_hostile_arguments_raise_an_error_and_never_crash(call: Callable[[], object]) -> None:
    with pytest.raises((ValueError, IndexError, OverflowError, TypeError)):
        call()

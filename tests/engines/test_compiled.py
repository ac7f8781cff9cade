"""The compiled searches as a user meets them: C modules built with the package, nothing
compiled at run time, numba never loaded by a search on the processor, Python's lock released
around every call, and hostile arguments refused with an error instead of a crash."""

from __future__ import annotations

import sys
import threading
import time
from array import array
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import process_env, run_python

from nqueens.engines.bitboard import _edges, _search
from nqueens.engines.join import _join
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


def _tree(folder: Path) -> dict[str, float]:
    """Every file under ``folder`` and when it last changed; caches of Python's own left out."""
    return {
        str(path): path.stat().st_mtime
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_nothing_is_compiled_at_run_time(tmp_path: Path) -> None:
    """Every search on the processor runs where no compiler can be reached (CC fails, no gcc
    or cc on the PATH) and writes nothing: no module is built, no machine code cached, in the
    package or in a compiler's cache."""
    import nqueens

    package = Path(nqueens.__file__).parent
    before = _tree(package)
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "python").symlink_to(sys.executable)
    env = process_env(
        PATH=str(tools),
        CC="/bin/false",
        NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
    )
    probe = (
        "from nqueens.cli import cli\n"
        f"for arguments in {SEARCHES_ON_THE_PROCESSOR!r}:\n"
        "    try:\n"
        "        cli(arguments)\n"
        "    except SystemExit as stop:\n"
        "        assert stop.code in (0, 3, None), (arguments, stop.code)\n"
    )
    done = run_python(probe, env=env)
    assert done.returncode == 0, done.stderr
    assert _tree(package) == before
    assert not (tmp_path / "numba-cache").exists() and not (tmp_path / "cache").exists()


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
    "counting": lambda: lambda: _edges.count(_edges.start(20, 0, 40), 1 << 25),
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
        lambda: _reduced.search(_reduced.start((2**40 - 1,) * 40, bytes(8 * 40**3), 0), 1 << 21)
    ),
    "text": lambda: (
        lambda: _text.solutions(bytes(range(16)) * 2_000_000, 16, 2_000_000, _text.JSON, b"", 1)
    ),
}
"""For each C module, what makes a call of a tenth of a second or more, and that call."""


@pytest.mark.slow
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


HOSTILE: list[tuple[str, Callable[[], object]]] = [
    ("n 0", lambda: _search.start(0, 0, (), 0, -1, 0, 0)),
    ("n 65", lambda: _search.start(65, 0, (0,) * 65, 64, -1, 0, 0)),
    ("last past the board", lambda: _search.start(4, 0, (0,) * 4, 9, -1, 0, 0)),
    ("masks too few", lambda: _search.start(4, 0, (0,) * 3, 3, -1, 0, 0)),
    ("unknown flags", lambda: _search.start(4, 64, (0,) * 4, 3, -1, 0, 0)),
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
    ("a bytearray for a search", lambda: _search.count(bytearray(4096), 0, 9)),  # type: ignore[arg-type]
    ("a bytearray for a listing", lambda: _search.fill(bytearray(4096), bytearray(8), 9)),  # type: ignore[arg-type]
    ("a bytearray for a count", lambda: _edges.count(bytearray(4096), 9)),  # type: ignore[arg-type]
    ("a bytearray for a reduced search", lambda: _reduced.search(bytearray(4096), 9)),  # type: ignore[arg-type]
    ("reduced 65 columns", lambda: _reduced.start((1,) * 65, bytes(8 * 65**3), 0)),
    ("reduced table short", lambda: _reduced.start((3, 3), b"", 0)),
    ("reduced listing negative", lambda: _reduced.start((3, 3), bytes(64), -1)),
    ("edges n 99", lambda: _edges.start(99, 0, 1)),
    ("edges weighed past the end", lambda: _edges.weighed(8, 10**6, (1,), (0,))),
    ("edges weighed before the start", lambda: _edges.weighed(8, -1, (1,), (0,))),
    ("edges weighed unequal", lambda: _edges.weighed(8, 0, (1, 2), (0,))),
    ("edges weighed a negative count", lambda: _edges.weighed(8, 0, (-1,), (0,))),
    ("edges span past the end", lambda: _edges.start(8, 0, 10**6)),
    ("edges rows for two constellations", lambda: _edges.start(12, 0, 2, (1,))),
    ("edges too many rows", lambda: _edges.start(12, 0, 1, (1,) * 40)),
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


def _rows_written(rows: bytes, n: int, form: int) -> list[str]:
    """The lines the text writer is expected to write for boards of ``rows``, n bytes each."""
    boards = [rows[at : at + n] for at in range(0, len(rows), n)]
    if form == _text.COMPACT:
        return [" ".join(str(row + 1) for row in board) for board in boards]
    return [
        f'"solution": {number}, "rows": [{", ".join(map(str, board))}]}}'
        for number, board in enumerate(boards, start=1)
    ]


@pytest.mark.parametrize("form", [_text.COMPACT, _text.JSON])
@pytest.mark.parametrize("n", [99, 100, 150, 256])
def test_text_of_boards_of_a_hundred_columns_and_more_is_whole(form: int, n: int) -> None:
    """Rows of three digits fill every column: the buffer is sized for them, and every line
    comes back whole (it was sized for two digits, and a realloc failed past its end)."""
    rows = bytes((column * 7 + board) % n for board in range(50) for column in range(n))
    text = _text.solutions(rows, n, 50, form, b"", 1).decode()
    assert text.splitlines() == _rows_written(rows, n, form)


def _small_attempt() -> _local.Attempt:
    return _local.start(64, array("i", [0] * 64), bytes(64), array("q"), 7, 1 << 30, 0)


def test_a_local_search_with_budgets_past_any_board_ends_and_stays_in_bounds() -> None:
    """A huge budget once overflowed the step count of the pass over memory, which then wrote
    before its arrays (AddressSanitizer: a use after free), or never ended."""
    attempt = _small_attempt()
    _local.search(attempt, 100)
    _local.search(attempt, 2**60 - 63)
    _local.search(attempt, 1)
    for budget in (2**63 - 1, 2**62, 2**60 - 63):
        attempt = _small_attempt()
        calls = 0
        while _local.search(attempt, budget)[0] == _local.UNFINISHED:
            calls += 1
            assert calls < 10, f"budget {budget}: the attempt never ends"


def _counter_call() -> tuple[Callable[[], object], Callable[[], object]]:
    counter = _edges.start(20, 0, 40)
    return (lambda: _edges.count(counter, 1 << 25)), (lambda: _edges.count(counter, 1))


def _search_call() -> tuple[Callable[[], object], Callable[[], object]]:
    search = _search.start(22, 0, (0,) * 22, 21, -1, 0, 0)
    return (lambda: _search.count(search, _search.COUNT, 1 << 25)), (lambda: _search.rows(search))


def _listing_call() -> tuple[Callable[[], object], Callable[[], object]]:
    search = _search.start(22, 0, (0,) * 22, 21, -1, 0, 0)
    return (lambda: _search.fill(search, bytearray(22 << 20), 1 << 25)), (
        lambda: _search.fill(search, bytearray(22), 1)
    )


def _reduced_call() -> tuple[Callable[[], object], Callable[[], object]]:
    search = _reduced.start((2**40 - 1,) * 40, bytes(8 * 40**3), 0)
    return (lambda: _reduced.search(search, 1 << 22)), (lambda: _reduced.search(search, 1))


def _join_call() -> tuple[Callable[[], object], Callable[[], object]]:
    quarters = _join.quarters(17, True)
    counter = _join.start(quarters, 0, _join.jobs(quarters))
    return (lambda: _join.count(counter, 1 << 40)), (lambda: _join.count(counter, 1))


def _local_call() -> tuple[Callable[[], object], Callable[[], object]]:
    long_call = _local_search_under_way()
    attempt = long_call.__closure__[0].cell_contents  # type: ignore[index]
    return long_call, (lambda: _local.search(attempt, 1))


ONE_STATE_TWO_THREADS = {
    "counting": _counter_call,
    "search": _search_call,
    "listing": _listing_call,
    "reduced": _reduced_call,
    "join": _join_call,
    "local": _local_call,
}
"""For each module's state, a long call and a short one on the same state."""


@pytest.mark.slow
@pytest.mark.parametrize("module", list(ONE_STATE_TWO_THREADS))
def test_one_state_driven_by_two_threads_is_refused(module: str) -> None:
    """While one thread is in a call on a state, a call from another thread on the same state
    raises instead of sharing its stack (the counter indexed at -1 this way)."""
    long_call, short_call = ONE_STATE_TWO_THREADS[module]()
    calling = threading.Event()

    def call() -> None:
        calling.set()
        long_call()

    worker = threading.Thread(target=call)
    worker.start()
    calling.wait()
    refused = False
    try:
        while worker.is_alive() and not refused:
            time.sleep(0.02)  # the worker, on its way into C, takes the lock meanwhile
            try:
                short_call()
            except RuntimeError as error:
                assert "another thread" in str(error)
                refused = True
    finally:
        worker.join()
    assert refused, "the long call ended before a second call was tried"


def test_a_state_is_the_module_s_own_and_no_buffer() -> None:
    """The searches' states are objects of their modules, not buffers a caller could edit,
    resize or free under a call (a count once read its state after letting its buffer go)."""
    states = [
        _edges.start(12, 0, 5),
        _search.start(4, 0, (0,) * 4, 3, -1, 0, 0),
        _reduced.start((3, 3), bytes(64), 1),
        _small_attempt(),
    ]
    for state in states:
        with pytest.raises(TypeError):
            memoryview(state)  # type: ignore[arg-type]


def test_a_state_dropped_by_its_caller_during_a_call_counts_on() -> None:
    """The thread that counts keeps the state alive: dropping every other reference while the
    call runs changes nothing."""
    holder = [_edges.start(14, 0, len(_edges.constellations(14)))]
    found: list[tuple[int, int, int, bool]] = []
    worker = threading.Thread(target=lambda: found.append(_edges.count(holder[0], 1 << 40)))
    worker.start()
    holder.clear()
    worker.join()
    assert found[0][0] == 365_596 and found[0][3]


def _misaligned(data: bytes) -> memoryview:
    """``data`` one byte past an aligned address."""
    return memoryview(b"\0" + data)[1:]


def test_misaligned_buffers_are_read_as_well_as_aligned_ones() -> None:
    """Every buffer a module reads may start at any address (UndefinedBehaviorSanitizer
    reported a misaligned read of each): the answers are those of aligned copies."""
    literals = array("i", [1, -2, 0, 3, 0]).tobytes()
    assert _text.clauses(_misaligned(literals)) == _text.clauses(literals) == b"1 -2 0\n3 0\n"
    rows = bytes(range(8))
    assert _text.solutions(_misaligned(rows), 8, 1, _text.COMPACT, b"", 1) == (b"1 2 3 4 5 6 7 8\n")
    given = array("i", [0] * 8).tobytes()
    blocked = array("q", [3, 9]).tobytes()
    aligned = _local.start(8, array("i", [0] * 8), bytes(8), array("q", [3, 9]), 5, 1 << 20, 0)
    shifted = _local.start(8, _misaligned(given), bytes(8), _misaligned(blocked), 5, 1 << 20, 0)  # type: ignore[arg-type]
    assert _local.search(shifted, 1 << 30) == _local.search(aligned, 1 << 30)
    assert _local.rows(shifted) == _local.rows(aligned)
    attack = bytes(8 * 27)
    one = _reduced.search(_reduced.start((7, 7, 7), attack, 0), 1 << 20)
    other = _reduced.search(_reduced.start((7, 7, 7), _misaligned(attack), 0), 1 << 20)
    assert one == other

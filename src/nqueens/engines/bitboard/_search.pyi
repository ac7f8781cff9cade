from typing import final

MAX_N: int
TORUS: int
KNIGHT: int
UNIQUE: int
COUNT: int
COUNT_CLASSES: int
STOP_AT_SOLUTION: int

@final
class Search: ...

def start(
    n: int,
    flags: int,
    blocked: tuple[int, ...],
    last: int,
    need_line: int,
    need_rows: int,
    first_row: int,
    /,
) -> Search: ...
def count(search: Search, mode: int, budget: int, /) -> tuple[int, int, int, int, bool]: ...
def fill(search: Search, out: bytearray, budget: int, /) -> tuple[int, int, bool, int]: ...
def rows(search: Search, /) -> tuple[int, ...]: ...

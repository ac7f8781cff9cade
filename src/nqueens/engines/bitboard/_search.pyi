MAX_N: int
TORUS: int
KNIGHT: int
UNIQUE: int
COUNT: int
COUNT_CLASSES: int
STOP_AT_SOLUTION: int

def start(
    n: int,
    flags: int,
    blocked: tuple[int, ...],
    last: int,
    need_line: int,
    need_rows: int,
    first_row: int,
    /,
) -> bytearray: ...
def count(state: bytearray, mode: int, budget: int, /) -> tuple[int, int, int, int, bool]: ...
def fill(state: bytearray, out: bytearray, budget: int, /) -> tuple[int, int, bool, int]: ...
def rows(state: bytearray, /) -> tuple[int, ...]: ...

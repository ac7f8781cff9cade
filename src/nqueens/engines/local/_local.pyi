from array import array

STATE_SIZE: int
WORK_PER_N: int
MAX_N: int
UNFINISHED: int
TORUS: int
KNIGHT: int

def search(
    n: int,
    rows: array[int],
    fixed: bytearray,
    blocked: array[int],
    seed: int,
    max_moves: int,
    counters: array[int],
    work: array[int],
    state: bytearray,
    budget: int,
    flags: int,
    /,
) -> int: ...

from array import array
from typing import final

MAX_N: int
UNFINISHED: int
TORUS: int
KNIGHT: int

@final
class Attempt: ...

def start(
    n: int,
    rows: array[int],
    fixed: bytes | bytearray,
    blocked: array[int],
    seed: int,
    max_moves: int,
    flags: int,
    /,
) -> Attempt: ...
def search(attempt: Attempt, budget: int, /) -> tuple[int, int, int]: ...
def rows(attempt: Attempt, /) -> tuple[int, ...]: ...

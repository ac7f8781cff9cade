STATE_SIZE: int
MAX_N: int

def count(
    n: int, start: int, end: int, state: bytearray, budget: int, /
) -> tuple[int, int, int, bool]: ...
def constellations(n: int, /) -> list[tuple[int, int, int, int, int]]: ...

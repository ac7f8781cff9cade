STATE_SIZE: int
MAX_N: int
TORUS: int
KNIGHT: int
UNIQUE: int

def fill(
    n: int, flags: int, blocked: bytes, state: bytearray, out: object, budget: int, /
) -> tuple[int, int, bool, int]: ...

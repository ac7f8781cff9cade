COMPACT: int
BOARD: int
JSON: int

def solutions(
    rows: object, n: int, count: int, form: int, prefix: bytes, first: int, /
) -> bytes: ...
def check(text: bytes, /) -> tuple[int, int, int]: ...

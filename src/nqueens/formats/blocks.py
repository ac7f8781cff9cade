"""Solutions written as text a block at a time, by the package's C module
(``nqueens.formats._text``): what ``solve`` writes off a terminal, byte for byte as the
writers of one solution write it, at the speed of the output."""

from __future__ import annotations

from nqueens.formats import _text

COMPACT = "compact"
BOARD = "board"
JSON = "json"


def solutions(packed: bytes, n: int, form: str, first: int, prefix: bytes = b"") -> bytes:
    """The solutions of ``packed`` (their rows one after another, a byte a column) numbered
    from ``first``: compact rows or plain boards under their headings, or JSON records after
    ``prefix`` (``records.record_head``, encoded)."""
    count = len(packed) // n
    kind = {COMPACT: _text.COMPACT, BOARD: _text.BOARD, JSON: _text.JSON}[form]
    written: bytes = _text.solutions(packed, n, count, kind, prefix, first)
    return written

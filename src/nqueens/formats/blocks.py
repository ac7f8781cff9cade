"""Solutions written as text a block at a time, by the package's C module
(``nqueens.formats._text``): what ``solve`` writes off a terminal, byte for byte as the
writers of one solution write it, at the speed of the output."""

from __future__ import annotations

import json

from nqueens.formats import _text

COMPACT = "compact"
BOARD = "board"
JSON = "json"


def rules_field(rules: frozenset[str]) -> dict[str, object]:
    """A JSON record's ``rules``, where the board has any: plain boards' records stay as they
    were."""
    return {"rules": sorted(rules)} if rules else {}


def record_head(n: int, rules: frozenset[str]) -> str:
    """What a solution's JSON record holds before its number (its type, N and rules), as every
    writer of solution records begins it: ``{"type": "solution", "n": 8, ``."""
    return json.dumps({"type": "solution", "n": n, **rules_field(rules)})[:-1] + ", "


def solutions(packed: bytes, n: int, form: str, first: int, prefix: bytes = b"") -> bytes:
    """The solutions of ``packed`` (their rows one after another, a byte a column) numbered
    from ``first``: compact rows or plain boards under their headings, or JSON records after
    ``prefix`` (``record_head``, encoded)."""
    count = len(packed) // n
    kind = {COMPACT: _text.COMPACT, BOARD: _text.BOARD, JSON: _text.JSON}[form]
    written: bytes = _text.solutions(packed, n, count, kind, prefix, first)
    return written

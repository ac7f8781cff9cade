"""The marks that boards for people draw (the queen glyph verify also reads back), as chess
symbols or, for fonts without them, as letters (--ascii)."""

from __future__ import annotations

from typing import NamedTuple

QUEEN = "♛"


class Glyphs(NamedTuple):
    """What a board for people marks its squares with."""

    queen: str
    forced: str  # a queen placed by propagation
    cross: str  # a square ruled out
    knight: str  # the superqueens' mark


SYMBOLS = Glyphs(
    queen=QUEEN,
    forced="\N{WHITE CHESS QUEEN}",
    cross="\N{MULTIPLICATION SIGN}",
    knight="\N{BLACK CHESS KNIGHT}",
)
LETTERS = Glyphs(queen="Q", forced="F", cross="x", knight="N")


def glyphs(ascii_only: bool) -> Glyphs:
    """The marks to draw with: letters where the user asked for ASCII, else chess symbols."""
    return LETTERS if ascii_only else SYMBOLS

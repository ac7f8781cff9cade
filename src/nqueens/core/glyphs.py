"""The queen glyph that boards for people draw, and that verify reads back."""

QUEEN = "♛"

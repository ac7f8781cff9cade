"""Published solution counts, used to explain why some requests are out of reach.

Totals are OEIS A000170. N = 27 is the largest board anyone has counted (2016).
"""

from __future__ import annotations

from nqueens.core.wording import counted

KNOWN_TOTALS: dict[int, int] = {
    1: 1,
    2: 0,
    3: 0,
    4: 2,
    5: 10,
    6: 4,
    7: 40,
    8: 92,
    9: 352,
    10: 724,
    11: 2_680,
    12: 14_200,
    13: 73_712,
    14: 365_596,
    15: 2_279_184,
    16: 14_772_512,
    17: 95_815_104,
    18: 666_090_624,
    19: 4_968_057_848,
    20: 39_029_188_884,
    21: 314_666_222_712,
    22: 2_691_008_701_644,
    23: 24_233_937_684_440,
    24: 227_514_171_973_736,
    25: 2_207_893_435_808_352,
    26: 22_317_699_616_364_044,
    27: 234_907_967_154_122_528,
}
"""The published number of solutions of each plain N x N board (OEIS A000170), by N: what every
count of a plain board is checked against, and how long ones are estimated."""


def how_many(n: int) -> str:
    """How many solutions the board has, in words, as far as anyone has counted."""
    known = KNOWN_TOTALS.get(n)
    if known is None:
        return f"nobody has counted the solutions for N = {n} yet (N = 27 alone has 2.3e17)"
    return f"N = {n} has {counted(known, 'solution')}"

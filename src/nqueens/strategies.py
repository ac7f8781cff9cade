"""Search strategies the engines share, by name, and the largest board enumerated to the end.

``first-min`` is the OR-Tools guide's: columns left to right, lowest row first. ``first-fail-mid``
is the Mozart/Oz tutorial's: the column with the fewest rows left first, the middle of its domain
first. ``auto`` leaves the search to the engine's own default.
"""

from __future__ import annotations

FIRST_MIN = "first-min"
FIRST_FAIL_MID = "first-fail-mid"
AUTO = "auto"
STRATEGIES = (FIRST_MIN, FIRST_FAIL_MID, AUTO)

MAX_UNBOUNDED_ENUMERATION_N = 18
"""The largest board whose solutions are enumerated with no time or solution limit.

N = 18 has 666,090,624 solutions, already hours of enumeration; N = 19 has 7.5 times as many.
"""

"""Search strategies the engines share, by name, and the largest board enumerated to the end.

``first-min`` is the OR-Tools guide's: columns left to right, lowest row first. ``first-fail-mid``
is the Mozart/Oz tutorial's: the column with the fewest rows left first, the middle of its domain
first. ``auto`` leaves the search to the engine's own default.
"""

from __future__ import annotations

FIRST_MIN = "first-min"
"""The OR-Tools guide's search: columns left to right, lowest row first."""

FIRST_FAIL_MID = "first-fail-mid"
"""The Mozart/Oz tutorial's search: the column with the fewest rows left first, the middle of
its rows first."""

AUTO = "auto"
"""The engine's own default search (and, as an engine's name, nqueens's choice of engine)."""

STRATEGIES = (FIRST_MIN, FIRST_FAIL_MID, AUTO)
"""Every strategy a search may be asked to follow, for engines that follow one."""

MAX_UNBOUNDED_ENUMERATION_N = 18
"""The largest board whose solutions are enumerated with no time or solution limit.

Beyond it the solutions number in the billions: a count takes minutes on the fastest engine
and days on the others, and only gets longer, so it needs a limit to be asked for.
"""

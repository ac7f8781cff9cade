"""Search strategies the engines share, by name, and the engines that can run them.

``first-min`` is the OR-Tools guide's: columns left to right, lowest row first. ``first-fail-mid``
is the Mozart/Oz tutorial's: the column with the fewest rows left first, the middle of its domain
first. ``auto`` leaves the search to the engine's own default.
"""

from __future__ import annotations

FIRST_MIN = "first-min"
FIRST_FAIL_MID = "first-fail-mid"
AUTO = "auto"
STRATEGIES = (FIRST_MIN, FIRST_FAIL_MID, AUTO)

CP_SAT = "cp-sat"
CP = "cp"
MIP = "mip"
ENGINES = (CP_SAT, CP, MIP)

MIP_SOLVERS = ("scip", "cbc", "highs")
"""MIP backends linked into the ortools wheel (GLPK, the seed's, is not)."""

MAX_ENGINE_N = {MIP: 200, CP_SAT: 1_000}
"""The largest board each engine takes. mip builds N² binary variables (40,000 at N = 200).
CP-SAT's memory grows fast with N: 2.2 GB at N = 1,000 and 4.8 GB at N = 2,000 within 5 s
(first-fail-mid); a run at N = 5,000 was killed for lack of memory at 24 GB."""

MAX_CP_AUTO_N = 500
"""The cp engine's auto strategy (impact-based search) ignores the time limit while it
initialises: 12 s for a 5 s limit at N = 1,000, 85 s at N = 2,000."""

MAX_UNBOUNDED_ENUMERATION_N = 18
"""The largest board whose solutions are enumerated with no time or solution limit.

N = 18 has 666,090,624 solutions, already hours of enumeration; N = 19 has 7.5 times as many.
"""

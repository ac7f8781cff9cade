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

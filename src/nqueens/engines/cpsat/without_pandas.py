"""CP-SAT's Python module, ``cp_model``, imported without pandas where that is safe.

``cp_model`` imports pandas at its top for its ``*_series`` helpers, which nqueens never calls, and
pandas is most of what that import costs: it made ``nqueens solve 8`` take about twice as long.
The module only names ``pd.Index`` and ``pd.Series`` while it is imported (in a type alias and in
annotations), and reaches everything else through its global ``pd`` when a helper is called.

So while ``cp_model`` is imported, ``sys.modules`` holds a stand-in for pandas that has those two
names; the stand-in then leaves ``sys.modules`` and becomes a module that imports the real pandas
the first time ``cp_model`` asks it for anything. This is done only while no other thread runs
(one could import pandas in that moment and get the stand-in) and while pandas is not imported
yet. Where the stand-in is not enough, for instance in a later release of OR-Tools, the import is
made again the usual way.
"""

from __future__ import annotations

import importlib
import sys
import threading
import types
from typing import TYPE_CHECKING


def _pandas_stand_in() -> types.ModuleType:
    """A module with the two names ``cp_model`` reads from pandas while it is imported."""
    stand_in = types.ModuleType("pandas")
    stand_in.Index = type("Index", (), {})  # type: ignore[attr-defined]
    stand_in.Series = type("Series", (), {})  # type: ignore[attr-defined]
    return stand_in


def _imports_pandas_when_asked(stand_in: types.ModuleType) -> None:
    """Turn the stand-in into a module that hands every lookup to the real pandas."""
    del stand_in.Index, stand_in.Series

    def __getattr__(name: str) -> object:
        return getattr(importlib.import_module("pandas"), name)

    stand_in.__getattr__ = __getattr__  # type: ignore[method-assign]


def _import_cp_model() -> types.ModuleType:
    """``ortools.sat.python.cp_model``, without pandas where the stand-in is safe and enough."""
    name = "ortools.sat.python.cp_model"
    if name in sys.modules or "pandas" in sys.modules or threading.active_count() > 1:
        return importlib.import_module(name)
    stand_in = _pandas_stand_in()
    sys.modules["pandas"] = stand_in
    try:
        module: types.ModuleType | None = importlib.import_module(name)
    except Exception:  # the stand-in is not enough for this release
        module = None
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
    if module is None:
        return importlib.import_module(name)
    _imports_pandas_when_asked(stand_in)
    return module


if TYPE_CHECKING:
    from ortools.sat.python import cp_model as cp_model
else:
    cp_model = _import_cp_model()

"""CP-SAT's Python module, ``cp_model``, imported without pandas.

``cp_model`` imports pandas at its top for its ``*_series`` helpers, which nqueens never calls, and
pandas is most of what that import costs: it made ``nqueens solve 8`` take about twice as long.
The module only names ``pd.Index`` and ``pd.Series`` while it is imported (in a type alias and in
annotations), and reaches everything else through its global ``pd`` when a helper is called.

So ``cp_model`` is imported with an ``__import__`` of its own, which gives its ``import pandas``
a stand-in with those two names; the stand-in then becomes a module that imports the real pandas
the first time ``cp_model`` asks it for anything. Nothing changes for other modules: pandas never
enters ``sys.modules`` as the stand-in, so another thread that imports pandas meanwhile gets the
real one. Where the stand-in is not enough (a later release of OR-Tools, say), the import is made
again the usual way.
"""

from __future__ import annotations

import builtins
import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

CP_MODEL = "ortools.sat.python.cp_model"


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


class _StandInLoader(importlib.abc.Loader):
    """``cp_model``'s own loader, run with builtins whose ``__import__`` answers ``import
    pandas`` with the stand-in while the module's code runs, and as usual afterwards."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self._loader = loader

    def __getattr__(self, name: str) -> Any:  # get_source and the like, for tracebacks
        return getattr(self._loader, name)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        stand_in = _pandas_stand_in()

        def importing(
            name: str,
            globals: Mapping[str, object] | None = None,
            locals: Mapping[str, object] | None = None,
            fromlist: Sequence[str] = (),
            level: int = 0,
        ) -> types.ModuleType:
            if name == "pandas" and level == 0:
                return stand_in
            return builtins.__import__(name, globals, locals, fromlist, level)

        # The module's functions keep the builtins they were made with: a copy, whose
        # __import__ is Python's own again once the module has run.
        module_builtins = dict(vars(builtins), __import__=importing)
        module.__builtins__ = module_builtins  # type: ignore[attr-defined]
        self._loader.exec_module(module)
        module_builtins["__import__"] = builtins.__import__
        _imports_pandas_when_asked(stand_in)


class _StandInFinder(importlib.abc.MetaPathFinder):
    """Finds ``cp_model`` where Python would, to be run by the stand-in loader."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != CP_MODEL:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return None
        spec.loader = _StandInLoader(spec.loader)
        return spec


def _import_cp_model() -> types.ModuleType:
    """``ortools.sat.python.cp_model``, imported with the stand-in for pandas (unless it is
    imported already: the finder is asked only for a module not yet in ``sys.modules``)."""
    finder = _StandInFinder()
    sys.meta_path.insert(0, finder)
    try:
        return importlib.import_module(CP_MODEL)
    except Exception:  # the stand-in is not enough for this release: the usual import below
        pass
    finally:
        sys.meta_path.remove(finder)
    return importlib.import_module(CP_MODEL)


if TYPE_CHECKING:
    from ortools.sat.python import cp_model as cp_model
else:
    cp_model = _import_cp_model()

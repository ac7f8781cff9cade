"""CP-SAT's Python module, ``cp_model``, imported without pandas.

``cp_model`` imports pandas at its top for its ``*_series`` helpers, which nqueens never calls, and
pandas is most of what that import costs: it made ``nqueens solve 8`` take about twice as long.
The module only names ``pd.Index`` and ``pd.Series`` while it is imported (in a type alias and in
annotations), and reaches everything else through its global ``pd`` when a helper is called.

So ``cp_model`` is imported with an ``__import__`` of its own, which gives its ``import pandas``
a stand-in with those two names; the stand-in then becomes a module that imports the real pandas
the first time ``cp_model`` asks it for anything. Nothing changes for other modules: pandas never
enters ``sys.modules`` as the stand-in, so another thread that imports pandas meanwhile gets the
real one. Where the stand-in is asked for a name it lacks (by a later release of OR-Tools, say),
the import is made again the usual way; any other error is the import's own, and raised.
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
STAND_IN_NAMES = ("Index", "Series")
"""What ``cp_model`` reads from pandas while it is imported, and the stand-in has."""


def _pandas_stand_in(missed: list[str]) -> types.ModuleType:
    """A module with the names ``cp_model`` reads from pandas while it is imported, which notes
    in ``missed`` any other name it is asked for."""
    stand_in = types.ModuleType("pandas")
    for name in STAND_IN_NAMES:
        setattr(stand_in, name, type(name, (), {}))

    def __getattr__(name: str) -> object:
        missed.append(name)
        raise AttributeError(f"pandas' stand-in has no {name!r}")

    stand_in.__getattr__ = __getattr__  # type: ignore[method-assign]
    return stand_in


def _imports_pandas_when_asked(stand_in: types.ModuleType) -> None:
    """Turn the stand-in into a module that hands every lookup to the real pandas."""
    for name in STAND_IN_NAMES:
        delattr(stand_in, name)

    def __getattr__(name: str) -> object:
        return getattr(importlib.import_module("pandas"), name)

    stand_in.__getattr__ = __getattr__  # type: ignore[method-assign]


class _StandInLoader(importlib.abc.Loader):
    """``cp_model``'s own loader, run with builtins whose ``__import__`` answers ``import
    pandas`` with the stand-in while the module's code runs, and as usual afterwards."""

    def __init__(self, loader: importlib.abc.Loader, missed: list[str]) -> None:
        self._loader = loader
        self._missed = missed

    def __getattr__(self, name: str) -> Any:  # get_source and the like, for tracebacks
        return getattr(self._loader, name)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        stand_in = _pandas_stand_in(self._missed)

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
    """Finds ``cp_model`` where Python would, to be run by the stand-in loader; ``missed`` holds
    what its stand-in was asked for and lacked."""

    def __init__(self) -> None:
        self.missed: list[str] = []

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
        spec.loader = _StandInLoader(spec.loader, self.missed)
        return spec


def _import_cp_model() -> types.ModuleType:
    """``ortools.sat.python.cp_model``, imported with the stand-in for pandas (unless it is
    imported already: the finder is asked only for a module not yet in ``sys.modules``)."""
    finder = _StandInFinder()
    sys.meta_path.insert(0, finder)
    try:
        return importlib.import_module(CP_MODEL)
    except Exception:
        if not finder.missed:  # not the stand-in's doing (a failed import of its own, say)
            raise
    finally:
        sys.meta_path.remove(finder)
    return importlib.import_module(CP_MODEL)  # with pandas: this release needs more of it


if TYPE_CHECKING:
    from ortools.sat.python import cp_model as cp_model
else:
    cp_model = _import_cp_model()

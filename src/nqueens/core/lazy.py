"""Names a package loads on first use, from the modules that define them: the package and the
API import fast, and the command line sets up its signal handling before anything heavy loads.
Only the standard library is imported here, and only once a name is asked for."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def loader(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A ``__getattr__`` for ``package``: each name of ``homes`` loaded from its module on
    first use and kept in the package, so that it is loaded once (a home that is the
    package's own submodule of that name is the module itself)."""

    def load(name: str) -> Any:
        if name not in homes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib
        import sys

        home = importlib.import_module(homes[name])
        value = home if homes[name] == f"{package}.{name}" else getattr(home, name)
        setattr(sys.modules[package], name, value)
        return value

    return load

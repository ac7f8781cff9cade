"""The package's layers: imports run one way, without cycles, and each module says its job.

Read from the source with ``ast``, so that a lazy import inside a function counts too.
"""

from __future__ import annotations

import ast
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import nqueens

PACKAGE = Path(nqueens.__file__).parent
LAYERS = {
    "core": 0,
    "engines": 1,
    "run": 2,
    "formats": 2,
    "explain": 2,
    "export": 2,
    "api": 3,
    "bench": 4,
}
"""What each top-level module or folder may import: its own layer and those below; the command
line (``cli``) and ``__main__`` sit on top of everything."""


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _in_c(module: str, root: Path = PACKAGE.parent) -> bool:
    """Whether ``module`` is one of the package's C modules: its source beside the others in a
    checkout, or, installed from a wheel that carries no source, its built file."""
    stem = root / module.replace(".", "/")
    built = (stem.with_name(stem.name + suffix) for suffix in EXTENSION_SUFFIXES)
    return stem.with_suffix(".c").exists() or any(path.exists() for path in built)


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``path`` imports, anywhere in it."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("nqueens"):
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if full in modules:
                    names.add(full)
                elif not _in_c(full):  # a C module imports none of the package
                    names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.startswith("nqueens"))
    return {name for name in names if name in modules}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.get(parts[1]) if len(parts) > 1 else None


def test_imports_run_down_the_layers() -> None:
    modules = _modules()
    upward = [
        f"{module} imports {imported}"
        for module, path in modules.items()
        for imported in _imports(path, modules)
        if (below := _layer(module)) is not None
        and (above := _layer(imported)) is not None
        and above > below
    ]
    assert upward == []


def test_no_module_imports_itself_back() -> None:
    modules = _modules()
    graph = {module: _imports(path, modules) - {module} for module, path in modules.items()}
    cycles = []

    def walk(module: str, path: list[str], done: set[str]) -> None:
        for imported in graph[module]:
            if imported in path:
                cycles.append(" -> ".join([*path[path.index(imported) :], imported]))
            elif imported not in done:
                done.add(imported)
                walk(imported, [*path, imported], done)

    for module in graph:
        walk(module, [module], set())
    assert cycles == []


def test_a_c_module_installed_without_its_source_is_a_module(tmp_path: Path) -> None:
    """An installation from a wheel holds the built file alone: ``from ... import _edges`` is
    still an import of the C module, not of its package (150 cycles were reported so)."""
    folder = tmp_path / "nqueens" / "engines" / "bitboard"
    folder.mkdir(parents=True)
    module = "nqueens.engines.bitboard._edges"
    assert not _in_c(module, root=tmp_path)
    (folder / f"_edges{EXTENSION_SUFFIXES[0]}").touch()
    assert _in_c(module, root=tmp_path)


def test_every_module_says_what_it_is_for() -> None:
    """A module is cut along one job, which its docstring names: a module without one, or with
    a word or two, gives a reader nothing to hold its contents against. (Files are not cut by
    their length: a cap of 400 lines split modules where they grew, not where their jobs part.)"""
    unsaid = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if len((ast.get_docstring(ast.parse(path.read_text())) or "").split()) < 8
    ]
    assert unsaid == []


def test_commands_name_no_engine() -> None:
    """Which engine runs is the registry's business: a command that names one is out of date
    the day the engines change."""
    from nqueens.engines import registry

    commands = PACKAGE / "cli" / "commands"
    named = [
        f"{path.name}: {name}"
        for path in commands.glob("*.py")
        for name in registry.ENGINES
        if f'"{name}"' in path.read_text()
    ]
    assert named == []


PUBLIC_TO_THE_COMMAND_LINE = ("nqueens.api", "nqueens.formats", "nqueens.export", "nqueens.core")
"""What the command line may import besides itself and ``nqueens``'s ``__all__``: the API,
the reading and writing modules, and the core every layer shares (its wording, clock, signals
and pictures), so that the API names only what a program needs. What it says of a search
comes from the API, so a program can ask for it too."""


def test_the_command_line_imports_only_the_public_face() -> None:
    """Read from the source, so a lazy import inside a function counts too."""
    outside = []
    for path in sorted((PACKAGE / "cli").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "nqueens":
                imported = [
                    f"nqueens.{a.name}" for a in node.names if a.name not in nqueens.__all__
                ]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("nqueens."):
                imported = [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                imported = [a.name for a in node.names if a.name.startswith("nqueens")]
            else:
                continue
            outside += [
                f"{path.relative_to(PACKAGE)}:{node.lineno} {name}"
                for name in imported
                if not name.startswith(("nqueens.cli.", *PUBLIC_TO_THE_COMMAND_LINE))
            ]
    assert outside == []


def test_the_public_face_names_what_it_has() -> None:
    """Every name in ``nqueens.api.__all__`` loads, the lazy ones included."""
    from nqueens import api

    missing = [name for name in api.__all__ if not hasattr(api, name)]
    assert missing == []

"""``nqueens --version``: what this installation has, said for people or as JSON."""

from __future__ import annotations

import json

import click

from nqueens.cli.exits import EXIT_OK


def show(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """``--version``: what this installation has, as text or a JSON object, and exit."""
    if value is None or ctx.resilient_parsing:
        return
    from nqueens.api import installation

    found = installation()
    if value == "json":
        click.echo(json.dumps(found))
    else:
        click.echo(installation_lines(found))
    ctx.exit(EXIT_OK)


def installation_lines(found: dict[str, object]) -> str:
    """What ``nqueens --version`` says, a line a part (``nqueens.run.installation``)."""
    modules = found["c_modules"]
    assert isinstance(modules, dict)
    missing = [name for name, file in modules.items() if file is None]
    c_line = f"C modules: {', '.join(modules)} ({found['instructions']})"
    if missing:
        c_line += f"; missing: {', '.join(missing)}: reinstall nqueens"
    numba_cuda = found["numba_cuda"] or "not installed (the gpu extra)"
    return "\n".join(
        [
            f"nqueens {found['nqueens']}",
            f"Python {found['python']}",
            f"OR-Tools {found['ortools'] or 'not installed'}",
            c_line,
            f"numba-cuda {numba_cuda}",
            f"GPU: {found['gpu']}",
        ]
    )

"""The ``nqueens`` command line: parses arguments, calls the API, prints what comes back.

Data for programs goes to stdout; summaries, statistics and messages go to stderr. Each command
is a module of ``nqueens.cli.commands``; the group, its exit codes and ``main`` are in
``nqueens.cli.group``.
"""

from nqueens.cli.commands.bench import bench
from nqueens.cli.commands.count import count
from nqueens.cli.commands.explain import explain
from nqueens.cli.commands.export import export
from nqueens.cli.commands.first import first
from nqueens.cli.commands.solve import solve
from nqueens.cli.commands.verify import verify
from nqueens.cli.group import cli, main

for _command in (solve, count, first, explain, verify, export, bench):
    cli.add_command(_command)

__all__ = ["cli", "main"]

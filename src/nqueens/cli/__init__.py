"""The ``nqueens`` command line: parses arguments, calls the API, prints what comes back.

Data for programs goes to stdout; summaries, statistics and messages go to stderr. Each command
is a module of ``nqueens.cli.commands``; the group, its exit codes and ``main`` are in
``nqueens.cli.group``.
"""

from nqueens.cli.group import COMMANDS, cli, main

__all__ = ["COMMANDS", "cli", "main"]

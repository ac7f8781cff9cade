"""How a command ends: its exit codes, what the group's help says of them, and the errors that
end a command with one."""

from __future__ import annotations

import click

from nqueens.api import Status
from nqueens.core import signals

EXIT_OK = 0
EXIT_NO_SOLUTION = 1
EXIT_CLUSTER_LOST = 1  # no answer either: the count's cluster is out of reach or went away
EXIT_BAD_INPUT = 2  # click's code for bad usage, kept for input too large for the memory
EXIT_TIME_LIMIT = 3
EXIT_IO_ERROR = 74  # EX_IOERR of sysexits.h


EXIT_CODES_HELP = """\b
Conventions: data for programs uses rows[c], the 0-based row of the queen in
column c; boards for people are labelled 1-based, row 1 at the top, column 1
at the left.

\b
Exit codes:
  0    success (a count of 0 is a success)
  1    no solution exists (solve, first, explain); a board is not valid
       (verify); the cluster's scheduler went away (count --cluster)
  2    bad usage or bad input; memory or threads running out (ulimit)
  3    the time limit ended the search first: the result is partial
  70   this installation is broken: one of its C modules is missing
  74   an output or a file could not be written (a full disk, stdout closed
       from the start); a pipe's reader leaving early (| head -1) is no error
  130  interrupted (Ctrl-C): the result is partial; 143 after SIGTERM,
       129 after SIGHUP
"""


SEE_MAIN_HELP = "Exit codes, and how rows and columns are numbered: nqueens --help."
"""What each command's help says of what every command shares, once, in the group's help."""


class BadInput(click.ClickException):
    """Input that was read and is not what the command takes (no board in it, a line that is
    not part of one): exit 2 with the message alone, as the command line itself was right."""

    exit_code = EXIT_BAD_INPUT


class Unwritable(click.ClickException):
    """A file the user asked for could not be written (a full disk, a folder gone): exit 74."""

    exit_code = EXIT_IO_ERROR


def exit_code(status: Status) -> int:
    """The exit code of a search that ended this way with a result worth reporting."""
    return {
        Status.COMPLETE: EXIT_OK,
        Status.LIMIT: EXIT_OK,
        Status.TIME_LIMIT: EXIT_TIME_LIMIT,
        Status.INTERRUPTED: signals.exit_code(),
    }[status]

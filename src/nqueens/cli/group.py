"""The ``nqueens`` group and its entry point: exit codes that stay true when the outside world
fails (a closed pipe, a full disk, a stop signal), and warnings as one line."""

from __future__ import annotations

import atexit
import importlib
import os
import re
import sys
import threading
import warnings
from contextlib import suppress
from typing import Any, NoReturn, TextIO

import click

from nqueens.cli import version
from nqueens.cli.command import QueensCommand, QueensContext
from nqueens.cli.exits import EXIT_BAD_INPUT, EXIT_CODES_HELP, EXIT_IO_ERROR, EXIT_OK
from nqueens.cli.options import COLOR_HELP, engines_help, remember_color
from nqueens.cli.output import discard_stdout
from nqueens.cli.records import keep_whole_records
from nqueens.cli.streams import standard_streams
from nqueens.core import signals

COMMANDS = ("solve", "count", "first", "explain", "verify", "export", "bench")
"""Every command, each the function of that name in its module of ``nqueens.cli.commands``,
in the order the reference lists them."""


class QueensGroup(click.Group):
    """Ends quietly on a closed pipe and with exit code 130 on Ctrl-C, never with a traceback.

    Each command is imported when it runs (or help lists them all), so that ``nqueens count 8``
    does not load what ``export`` or ``bench`` need."""

    command_class = QueensCommand
    context_class = QueensContext

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS and cmd_name not in self.commands:
            module = importlib.import_module(f"nqueens.cli.commands.{cmd_name}")
            self.add_command(getattr(module, cmd_name))
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """A board size where a command belongs gets the commands that take it."""
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError:
            typed = args[0] if args else ""
            if re.fullmatch(r"[0-9]+", typed):
                raise click.UsageError(
                    f"No such command '{typed}'. Name what to do with the board first: "
                    f"nqueens solve {typed}, nqueens count {typed} or nqueens first {typed}.",
                    ctx,
                ) from None
            raise

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        """``nqueens --help`` and ``--version`` print while the command line is read: a reader
        that left early (``| head -1``) is no error there either."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            discard_stdout()
            raise click.exceptions.Exit(EXIT_OK) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()
            return result
        except BrokenPipeError:
            discard_stdout()
            ctx.exit(EXIT_OK)
        except KeyboardInterrupt:
            _say_on_stderr("Interrupted.")
            ctx.exit(signals.exit_code())


@click.group(
    cls=QueensGroup,
    invoke_without_command=True,
    epilog=engines_help() + "\n\n" + EXIT_CODES_HELP,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option(
    "--version",
    type=click.Choice(["text", "json"]),
    flag_value="text",
    is_flag=False,
    expose_value=False,
    is_eager=True,
    callback=version.show,
    metavar="[json]",
    help="Versions of nqueens and its parts (json: an object).",
)
@click.option(
    "--color/--no-color",
    default=None,
    expose_value=False,
    is_eager=True,
    callback=remember_color,
    help=COLOR_HELP,
)
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Place N queens on an N x N board so that no two attack each other: no two in a row, a
    column or a diagonal. List the solutions, count them, find one fast, or watch the search.

    \b
    Examples:
      nqueens solve 8              every solution for 8 queens, as boards
      nqueens count 12 --stats     how many there are, with the search's figures
      nqueens first 50             one solution for 50 queens, fast
      nqueens explain 5            the search step by step, each step drawn
      nqueens first 8 | nqueens verify
    Each command's --help says more: nqueens solve --help.

    \b
    Colour: NO_COLOR=1 or --no-color turns it off, FORCE_COLOR=1 or --color on.
    Completion: eval "$(_NQUEENS_COMPLETE=bash_source nqueens)" in ~/.bashrc
    (zsh_source or fish_source for zsh and fish).
    """
    if ctx.invoked_subcommand is None:  # bare nqueens: what it can do, and success
        click.echo(ctx.get_help())


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """A warning is one line on stderr for the person at the terminal, not a source listing
    (nor the traceback some libraries add: numba's for a setting it cannot read); a stderr
    that cannot take it (its reader gone) does not end the command."""
    first_line = next((line for line in str(message).splitlines() if line.strip()), "")
    _say_on_stderr(f"Warning: {first_line}")


def main() -> None:
    """Run the command line with exit codes that stay true when the outside world fails.

    A usage error keeps its code 2 even when stderr cannot take its message; output that cannot
    be written (a full disk, a closed stdout) ends with one line on stderr and code 74 instead
    of a traceback or a count silently lost; memory running out is one line and code 2, as the
    engines' own refusals of boards too large are; a stop signal before a command could keep a
    partial result ends with 128 plus its number.
    """
    warnings.showwarning = _show_warning
    standard_streams()
    try:
        code = cli.main(prog_name="nqueens", standalone_mode=False)
    except click.ClickException as error:
        try:
            error.show()
        except OSError:
            # stderr failed (the exit code still says what went wrong), or click could not
            # import what draws the usage line (no file descriptor left): the message alone.
            _say_on_stderr(f"Error: {error.format_message()}")
        code = error.exit_code
    except (KeyboardInterrupt, click.exceptions.Abort):  # click turns Ctrl-C into Abort
        _say_on_stderr("Interrupted.")
        code = signals.exit_code()
    except OSError as error:
        code = _output_lost(error)
    except MemoryError:  # what the engines' own estimates did not foresee: a huge input line
        _say_on_stderr(
            "Error: out of memory: this command needs more than this process may take "
            "(ulimit -v, or the machine's memory)."
        )
        code = EXIT_BAD_INPUT
    except RuntimeError as error:
        if str(error) != "can't start new thread":  # Python's words for a thread refused
            raise
        _say_on_stderr(
            "Error: out of memory or threads: this command could not start a thread "
            "(ulimit -v, ulimit -u, or the machine's memory)."
        )
        code = EXIT_BAD_INPUT
    _exit_at_once(code if isinstance(code, int) else EXIT_OK)


def _exit_at_once(code: int) -> NoReturn:
    """End the process as an ordinary exit would (other threads finished, exit handlers run,
    output flushed), but without the interpreter's teardown of every module it loaded: numba's
    and OR-Tools' take longer to tear down than many a command takes to run."""
    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
    except (OSError, ValueError) as error:
        if code == EXIT_OK and not isinstance(error, BrokenPipeError):
            code = _output_lost(error)
        else:  # a closed pipe is the reader's choice; another failure has said its piece
            discard_stdout()
    with suppress(OSError, ValueError):
        sys.stderr.flush()
    os._exit(code)


def _output_lost(error: OSError | ValueError) -> int:
    """Say in one line that the output could not be written (a full disk, a closed stdout), and
    give the exit code for it."""
    keep_whole_records()
    discard_stdout()
    reason = error.strerror if isinstance(error, OSError) and error.strerror else error
    _say_on_stderr(f"Error: the output could not be written: {reason}.")
    return EXIT_IO_ERROR


def _say_on_stderr(text: str) -> None:
    """A last word on stderr, which may itself be closed or full."""
    with suppress(OSError, ValueError):
        click.echo(text, err=True)

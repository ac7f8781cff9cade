"""The command line's entry point (``nqueens`` and ``python -m nqueens``).

Signal handling is set up before the command line, the API and the solvers are imported, so a
Ctrl-C, SIGTERM or SIGHUP during start-up ends cleanly too.
"""

from nqueens.core import clock, signals


def main() -> None:
    """Start the command's clock, set up signal handling, then run the command line."""
    clock.start()
    signals.install()
    from nqueens.cli import main as run_command_line

    run_command_line()


if __name__ == "__main__":
    main()

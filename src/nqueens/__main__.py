"""The command line's entry point (``nqueens`` and ``python -m nqueens``).

Signal handling is set up before the command line, the API and the solvers are imported, so a
Ctrl-C, SIGTERM or SIGHUP during start-up ends cleanly too.
"""

import os
from contextlib import suppress

from nqueens.core import clock, signals


def main() -> None:
    """Start the command's clock, set up signal handling, then run the command line."""
    clock.start()
    try:
        signals.install()
        from nqueens.cli import main as run_command_line

        run_command_line()  # which ends the process, and says what a stop signal did
    except KeyboardInterrupt:  # a stop signal before the command line could hear it
        with suppress(OSError):  # stderr closed: the exit code still says it
            os.write(2, b"Interrupted.\n")
        os._exit(signals.exit_code())


if __name__ == "__main__":
    main()

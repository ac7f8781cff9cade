"""The command line's entry point (``nqueens`` and ``python -m nqueens``).

Signal handling is set up before the command line, the API and the solvers are imported, so a
Ctrl-C, SIGTERM or SIGHUP during start-up ends cleanly too; and a count on the GPU starts CUDA's
driver beside those imports (:mod:`nqueens.engines.gpu.early`).
"""

import os
import sys
from contextlib import suppress

from nqueens.core import clock, signals


def main() -> None:
    """Start the command's clock, set up signal handling (and CUDA's driver, for a count on the
    GPU), then run the command line."""
    clock.start()
    try:
        signals.install()
        from nqueens.engines.gpu import early

        early.start(sys.argv[1:])
        from nqueens.cli import main as run_command_line

        run_command_line()  # which ends the process, and says what a stop signal did
    except KeyboardInterrupt:  # a stop signal before the command line could hear it
        with suppress(OSError):  # stderr closed: the exit code still says it
            os.write(2, b"Interrupted.\n")
        os._exit(signals.exit_code())


if __name__ == "__main__":
    main()

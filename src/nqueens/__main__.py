"""The command line's entry point (``nqueens`` and ``python -m nqueens``).

Signal handling is set up before the command line, the API and the solvers are imported, so a
Ctrl-C, SIGTERM or SIGHUP during start-up ends cleanly too; and a count on the GPU starts CUDA's
driver beside those imports (``nqueens.engines.gpu.early``).
"""

import os
import signal
import sys


def _stop_at_once(signum: int, frame: object) -> None:
    """A stop signal before the command line's own handling is in place: nothing to keep."""
    try:
        os.write(2, b"Interrupted.\n")
    finally:
        os._exit(128 + signum)


for _signum in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
    if _signum is not None and signal.getsignal(_signum) != signal.SIG_IGN:
        signal.signal(_signum, _stop_at_once)

from contextlib import suppress  # noqa: E402  (after the handlers: a stop ends cleanly)

from nqueens.core import clock, signals  # noqa: E402

BROKEN_INSTALL = 70
"""The exit code of an installation missing one of its C modules (EX_SOFTWARE): the command
line imports every one of them as it loads, inside ``main``'s handling."""


def main() -> None:
    """Start the command's clock, set up signal handling (and CUDA's driver, for a count on the
    GPU), then run the command line."""
    clock.start()
    _fill_closed_standard_streams()
    # numpy's OpenBLAS starts the threads OPENBLAS_NUM_THREADS says (one a core by default) on
    # import, which no search uses; where threads are limited (ulimit -u) it fails, says so on
    # stderr and raises SIGINT in its own process, an "Interrupted." nobody sent. One thread,
    # whatever the environment asks for other programs.
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
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
    except ImportError as error:  # the command line's own imports: a module of the package
        from nqueens.run.installation import broken

        message = broken(error)
        if message is None:
            raise
        with suppress(OSError):
            os.write(2, message.encode() + b"\n")
        os._exit(BROKEN_INSTALL)


def _fill_closed_standard_streams() -> None:
    """Open the null device on stdin, stdout or stderr where the process was started with it
    closed (``2>&-``), so that no file this process opens takes its number: a checkpoint that
    got number 2 would take in whatever a solver, or a message of the last resort, writes to
    stderr. Python has already seen them closed (``sys.stderr`` is None), and the command line
    goes by that."""
    for number in (0, 1, 2):
        try:
            os.fstat(number)
        except OSError:  # the lowest free number, this one, as those below are open
            os.open(os.devnull, os.O_RDWR)


if __name__ == "__main__":
    main()

"""What every test run sets up once."""

from __future__ import annotations

import compileall
import os
import signal
import sys
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C and hang-ups reach the tests and the processes they start, however the suite was
    started; and the package's bytecode is written once (below).

    A shell starts a background job (``.ci/run &``, or under ``nohup``) with SIGINT or SIGHUP
    ignored, every process it starts inherits that, and nqueens rightly keeps a signal ignored
    at its start ignored: the tests of what Ctrl-C does would then test nothing.
    """
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    _keep_bytecode(config)


def _keep_bytecode(config: pytest.Config) -> None:
    """Keep the bytecode of the package and of the tests, even where PYTHONDONTWRITEBYTECODE
    is set: the suite starts hundreds of nqueens processes, and each would otherwise compile
    every module it imports from source, and each test process rewrite every test module's
    asserts again. On two busy cores that was a third of the suite's processor time."""
    sys.dont_write_bytecode = False  # the rewritten test modules, by each test process
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # the processes the tests start
    if not hasattr(config, "workerinput"):  # once, before the test processes start
        import nqueens

        compileall.compile_dir(Path(str(nqueens.__file__)).parent, quiet=1)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (the README's command): two workers more than the cores this process may
    use. Many tests spend their time waiting on a process they started (a time limit, a signal,
    a pipe), and the extra workers keep the cores busy meanwhile; every time a test bounds holds
    on a machine four times slower, so their load costs no test its bound."""
    from nqueens.run.executors import default_workers

    return default_workers() + 2

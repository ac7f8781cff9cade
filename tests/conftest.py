"""Fixtures shared by the tests."""

from __future__ import annotations

import pytest
from click.testing import CliRunner


@pytest.fixture
def runner() -> CliRunner:
    """A CLI runner; click (8.2 and later) keeps stdout and stderr apart."""
    return CliRunner()

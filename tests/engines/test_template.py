"""The template engine, registered as a new engine would be, keeps every promise the registry
makes for one: exact counts, solutions checked by the tests' own checker, time limits, refusals
naming the engines that can."""

from __future__ import annotations

import pytest
from helpers import assert_valid_board, bound, known_total

import nqueens
from nqueens.engines import TEMPLATE, registry


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.ENGINES, TEMPLATE.NAME, TEMPLATE.ENGINE)


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize("n", range(1, 9))
def test_a_registered_engine_counts_exactly(n: int) -> None:
    stats = nqueens.count(n, engine=TEMPLATE.NAME)
    assert stats.solutions == known_total(n)
    assert stats.engine == TEMPLATE.NAME and set(stats.figures) == set(TEMPLATE.STAT_NAMES)


@pytest.mark.usefixtures("registered")
def test_a_registered_engine_solves_and_finds_first() -> None:
    with nqueens.solve(6, engine=TEMPLATE.NAME) as stream:
        boards = list(stream)
    assert len(boards) == known_total(6)
    for board in boards:
        assert_valid_board(board.rows, 6)
    first = nqueens.first(8, engine=TEMPLATE.NAME)
    assert first.solution is not None
    assert_valid_board(first.solution.rows, 8)


@pytest.mark.usefixtures("registered")
def test_a_registered_engine_keeps_its_time_limit() -> None:
    stats = nqueens.count(12, engine=TEMPLATE.NAME, time_limit=0.2)
    assert stats.status is nqueens.Status.TIME_LIMIT
    assert 0 <= stats.solutions < known_total(12)
    assert stats.wall_time < bound(0.2 + 0.1)


@pytest.mark.usefixtures("registered")
def test_what_it_declares_it_cannot_do_is_refused_naming_the_engines_that_can() -> None:
    with pytest.raises(nqueens.InputError, match=r"engines that can: .*cp-sat"):
        nqueens.count(8, engine=TEMPLATE.NAME, queens=[(0, 0)])
    with pytest.raises(nqueens.InputError, match="takes boards up to N = 12"):
        nqueens.first(13, engine=TEMPLATE.NAME)

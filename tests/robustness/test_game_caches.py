"""What the game layer remembers within one run never changes an answer: the state before a
day is the same whether worked out fresh or from the phases already applied, and a host
decision, a recorded result or another clock time is seen at once (T1, A3, N1).

The game is the bundled demo (fixtures/demo: the real phpBB 3.3 topic and night-1 PMs).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from robust_helpers import FIXTURES

from referee.game import Game
from referee.night import GameState
from referee.sync import open_adapter, sync_pms, sync_topic

DEMO = FIXTURES / "demo" / "referee.toml"
MSK = ZoneInfo("Europe/Moscow")
AFTER_THE_GAME = datetime(2026, 11, 29, 12, 0, tzinfo=MSK)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "game.db"
    game = Game.open(DEMO, path, clock=lambda: AFTER_THE_GAME)
    adapter = open_adapter(game.config, db_path=path)
    sync_topic(game.config, game.store, adapter, progress=False)
    sync_pms(game.config, game.store, adapter)
    game.close()
    return path


@pytest.fixture
def game(db: Path) -> Iterator[Game]:
    g = Game.open(DEMO, db, clock=lambda: AFTER_THE_GAME)
    yield g
    g.close()


def fresh(db: Path, when: datetime = AFTER_THE_GAME) -> tuple[GameState, tuple[str, ...]]:
    g = Game.open(DEMO, db, clock=lambda: when)
    try:
        return g.state_before_day(3)
    finally:
        g.close()


def test_a_day_asked_twice_or_after_others_gives_the_fresh_answer_T1(
    game: Game, db: Path
) -> None:
    game.check_activity(2, record=False)      # asks about every earlier phase
    game.tally_day(2, record=False)
    again = game.state_before_day(3)
    assert again == game.state_before_day(3) == fresh(db)
    assert "Mr. Smith" not in again[0].alive  # hanged on day 1


def test_a_result_recorded_elsewhere_in_the_run_is_seen_at_once_A3(
    game: Game, db: Path
) -> None:
    before, _ = game.state_before_day(3)
    assert "Гроза" in before.alive
    # The host's activity check records a removal effective after day 2 (A3).
    game.store.record_result("activity", 2, {"removed": [
        {"nick": "Гроза", "rule": "A1", "explanation": "", "effective_after_day": 2}]})
    after, _ = game.state_before_day(3)
    assert "Гроза" not in after.alive
    assert (after, _) == fresh(db)


def test_another_clock_time_is_another_answer_T2(game: Game, db: Path) -> None:
    after_day1 = datetime(2026, 11, 21, 22, 30, tzinfo=MSK)  # the night of day 1
    game.state_before_day(3)
    game.clock = lambda: after_day1
    early = game.state_before_day(3)
    assert early == fresh(db, after_day1)
    assert "Mr. Smith" not in early[0].alive and early != fresh(db)


def test_a_recorded_night_replays_the_same_deaths_N1(game: Game, db: Path) -> None:
    provisional = fresh(db)
    game.resolve_night(1)  # recorded now
    assert game.store.result("night", 1) is not None
    recorded = Game.open(DEMO, db, clock=lambda: AFTER_THE_GAME)
    try:
        state, notes = recorded.state_before_day(3)
    finally:
        recorded.close()
    assert state.alive == provisional[0].alive
    assert not any(n.startswith("Ночь 1 ещё не записана") for n in notes)  # not provisional
    assert any(n.startswith("Ночь 1 ещё не записана") for n in provisional[1])

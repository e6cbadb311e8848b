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

from referee.core.kernel import Post, TopicPage
from referee.game import Game
from referee.rules.night import GameState
from referee.store.sync import open_adapter, sync_pms, sync_topic

DEMO = FIXTURES / "demo" / "referee.toml"
MSK = ZoneInfo("Europe/Moscow")
AFTER_THE_GAME = datetime(2026, 11, 29, 12, 0, tzinfo=MSK)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "game.db"
    game = Game.open(DEMO, path, clock=lambda: AFTER_THE_GAME)
    adapter = open_adapter(game.config, db_path=path)
    sync_topic(game.config, game.store, adapter)
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


def test_a_recorded_day_is_not_counted_again_for_the_activity_check_A2(db: Path) -> None:
    host = Game.open(DEMO, db, clock=lambda: AFTER_THE_GAME)
    host.tally_day(1), host.tally_day(2)  # the host's tallies, recorded
    expected = host.check_activity(2, record=False).report
    host.close()
    later = Game.open(DEMO, db, clock=lambda: AFTER_THE_GAME)
    counted: list[int] = []
    count = later.tally_day
    later.tally_day = lambda day, **kw: counted.append(day) or count(day, **kw)  # type: ignore[method-assign]
    try:
        assert later.check_activity(2, record=False).report == expected
    finally:
        later.close()
    assert counted == []


def test_a_vote_synced_after_the_day_was_recorded_counts_for_activity_A2(db: Path) -> None:
    host = Game.open(DEMO, db, clock=lambda: AFTER_THE_GAME)
    host.tally_day(1)
    silent = next(r.nick for r in host.check_activity(1, record=False).report.rows
                  if r.vote in ("no", "rejected") and r.status == "ok")
    # A post made before the deadline that the host's sync only picked up later.
    late = Post(post_id=990001, author=silent, author_id=None,
                posted_at=datetime(2026, 11, 21, 12, 0, tzinfo=MSK),
                body_html='Мой голос – <span style="color:red">Kotik</span><br>Он весь день '
                          "уходит от ответа, это подозрительно.",
                body_text="", topic_id=999)
    host.store.save_topic_page(TopicPage(999, "", 1, 1, 25, (late,)), AFTER_THE_GAME)
    host.close()
    again = Game.open(DEMO, db, clock=lambda: AFTER_THE_GAME)
    try:
        row = next(r for r in again.check_activity(1, record=False).report.rows
                   if r.nick == silent)
    finally:
        again.close()
    assert row.vote == "yes"

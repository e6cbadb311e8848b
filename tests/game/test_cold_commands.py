"""A cold command (nothing recorded yet) works each phase of the game out once (issue 15):
the PMs are loaded once per run, each night's intake is read once per run, and recording
a day's result keeps the states already worked out for the other days. Counted, not timed
— the times are the benchmark's (benchmarks/bench_game.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import small_game
from small_game import day

from referee.config.game import Config
from referee.core.kernel import PrivateMessage
from referee.game import Game
from referee.game import nights as night_room
from referee.store import Store

DAYS = 6


def config(tmp: Path) -> Config:
    return small_game.config(tmp, DAYS)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "game.db"
    with Store.open(path) as store:
        small_game.fill(store, DAYS)
    return path


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    calls: Counter[str] = Counter()
    real_pms, real_read = Store.pms, night_room.read_night

    def pms(self: Store, *a: object, **kw: object) -> list[PrivateMessage]:
        calls["pms"] += 1
        return real_pms(self, *a, **kw)  # type: ignore[arg-type]

    def read_night(pms: object, cfg: object, night: int, window: object) -> object:
        calls[f"night {night}"] += 1
        return real_read(pms, cfg, night, window)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "pms", pms)
    monkeypatch.setattr(night_room, "read_night", read_night)
    yield calls


AFTER = day(DAYS).night_deadline + timedelta(hours=1)
COMMANDS = {
    "check-activity": lambda g: g.check_activity(DAYS),
    "tally": lambda g: g.tally_day(DAYS),
    "resolve-night": lambda g: g.resolve_night(DAYS),
}


@pytest.mark.parametrize("command", COMMANDS)
def test_a_cold_command_reads_the_pms_once_and_each_night_once(
    db: Path, tmp_path: Path, counted: Counter[str], command: str
) -> None:
    game = Game(config(tmp_path), Store.open(db), clock=lambda: AFTER)
    try:
        COMMANDS[command](game)
    finally:
        game.close()
    assert counted["pms"] == 1
    nights = {k: v for k, v in counted.items() if k.startswith("night ")}
    assert nights and set(nights.values()) == {1}
    assert len(nights) >= DAYS - 1


def test_recording_a_day_keeps_the_states_of_the_days_before_it(
    db: Path, tmp_path: Path, counted: Counter[str]
) -> None:
    game = Game(config(tmp_path), Store.open(db), clock=lambda: AFTER)
    try:
        game.state_before_day(DAYS)          # days 1–5 counted (and recorded) on the way
        assert sorted(game._after_night) == list(range(1, DAYS))
        game.tally_day(DAYS)                 # records day 6
        assert game.store.result("day", DAYS) is not None
        seen = dict(counted)
        game.state_before_night(DAYS)        # what check-activity asks next
        assert dict(counted) == seen         # no night before it is worked out again
        assert sorted(game._after_night) == list(range(1, DAYS))
        fresh = Game(config(tmp_path), Store.open(db), clock=lambda: AFTER)
        try:
            assert fresh.state_before_day(DAYS) == game.state_before_day(DAYS)
        finally:
            fresh.close()
    finally:
        game.close()


def test_a_result_recorded_by_someone_else_still_throws_the_states_away(
    db: Path, tmp_path: Path
) -> None:
    game = Game(config(tmp_path), Store.open(db), clock=lambda: AFTER)
    try:
        before, _ = game.state_before_day(DAYS)
        gone = sorted(before.alive)[0]
        game.store.record_result("activity", 2, {"removed": [
            {"nick": gone, "rule": "A1", "explanation": "", "effective_after_day": 2}]})
        after, _ = game.state_before_day(DAYS)
        assert gone in before.alive and gone not in after.alive
    finally:
        game.close()

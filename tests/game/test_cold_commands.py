"""A cold command (nothing recorded yet) works each phase of the game out once (issue 15):
the PMs are loaded once per run, each night's intake is read once per run, and recording
a day's result keeps the states already worked out for the other days. Counted, not timed
— the times are the benchmark's (benchmarks/bench_game.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from referee.config.game import Config, DaySchedule, ForumConfig, Player
from referee.core.forum_settings import ForumSettings
from referee.core.kernel import Post, PrivateMessage, TopicPage
from referee.game import Game
from referee.game import nights as night_room
from referee.store import Store

DAYS = 6
START = datetime(2026, 11, 1, 7, 0, tzinfo=UTC)
PLAYERS = ("Лиса", "Шерлок", "Kotik", "Полковник", "Ёжик", "Гроза", "Nika-77", "Мотылёк",
           "Снежок", "Ира-Ира", "Фея", "Zorro", "Сова", "Боцман", "Барон", "Alice", "Тайга",
           "Рыжик", "Пчёлка", "Маргарита")
ROLES = {"Лиса": ("mafia", "A"), "Шерлок": ("mafia", "A"), "Полковник": ("commissar", None)}
HOST = "Ведущий"


def day(n: int) -> DaySchedule:
    begin = START + timedelta(days=n - 1)
    return DaySchedule(n, begin, begin + timedelta(hours=12), begin + timedelta(hours=23))


def config(tmp: Path) -> Config:
    return Config(
        path=tmp / "referee.toml", host=HOST,
        forum=ForumConfig(ForumSettings(timezone="Europe/Moscow")),
        players=tuple(Player(n, *ROLES.get(n, ("citizen", None))) for n in PLAYERS),
        schedule=tuple(day(n) for n in range(1, DAYS + 1)),
    )


def fill(store: Store) -> None:
    """Each day every living player votes for the day's target; each night the mafia
    shoots one citizen and the commissar checks someone."""
    alive = list(PLAYERS)
    pid, posts = 1000, []
    citizens = [n for n in PLAYERS if n not in ROLES]
    for n in range(1, DAYS + 1):
        target, victim = citizens.pop(), citizens.pop()
        for i, voter in enumerate(a for a in alive if a != target):
            pid += 1
            posts.append(Post(pid, voter, None, day(n).start + timedelta(minutes=5 + i),
                              f'Мой голос – <span style="color:red">{target}</span><br>'
                              "Он весь день уходит от ответа, это подозрительно.", ""))
        alive.remove(target)
        night = day(n).deadline
        store.save_pm(PrivateMessage(pid, "Лиса", None, (HOST,), night + timedelta(hours=1),
                                     "Ход", f"Стреляем в {victim}", f"Стреляем в {victim}"))
        store.save_pm(PrivateMessage(pid + 1, "Полковник", None, (HOST,),
                                     night + timedelta(hours=2), "Ход", f"Проверяю {alive[3]}",
                                     f"Проверяю {alive[3]}"))
        alive.remove(victim)
    store.save_topic_page(TopicPage(3, "Игра", 1, 1, len(posts), tuple(posts)), START)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "game.db"
    with Store.open(path) as store:
        fill(store)
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

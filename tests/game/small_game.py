"""The small game the counted-not-timed tests play (cold commands, recorded commands): 20
players, a mafia pair and a commissar, one day's count and one night's PMs a turn. The
times are the benchmark's (benchmarks/bench_game.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from referee.config.game import Config, DaySchedule, ForumConfig, Player
from referee.core.forum_settings import ForumSettings
from referee.core.kernel import Post, PrivateMessage, TopicPage
from referee.store import Store

START = datetime(2026, 11, 1, 7, 0, tzinfo=UTC)
PLAYERS = ("Лиса", "Шерлок", "Kotik", "Полковник", "Ёжик", "Гроза", "Nika-77", "Мотылёк",
           "Снежок", "Ира-Ира", "Фея", "Zorro", "Сова", "Боцман", "Барон", "Alice", "Тайга",
           "Рыжик", "Пчёлка", "Маргарита")
ROLES = {"Лиса": ("mafia", "A"), "Шерлок": ("mafia", "A"), "Полковник": ("commissar", None)}
HOST = "Ведущий"


def day(n: int) -> DaySchedule:
    begin = START + timedelta(days=n - 1)
    return DaySchedule(n, begin, begin + timedelta(hours=12), begin + timedelta(hours=23))


def config(tmp: Path, scheduled: int) -> Config:
    """The game with ``scheduled`` days in its schedule."""
    return Config(
        path=tmp / "referee.toml", host=HOST,
        forum=ForumConfig(ForumSettings(timezone="Europe/Moscow")),
        players=tuple(Player(n, *ROLES.get(n, ("citizen", None))) for n in PLAYERS),
        schedule=tuple(day(n) for n in range(1, scheduled + 1)),
    )


def fill(store: Store, days: int, *, morning_after: bool = False) -> None:
    """Each day every living player votes for the day's target; each night the mafia
    shoots one citizen and the commissar checks someone. ``morning_after``: everyone writes
    on the day after the last one too, so nobody leaves for silence (A1)."""
    alive = list(PLAYERS)
    pid, posts = 1000, []
    citizens = [n for n in PLAYERS if n not in ROLES]
    for n in range(1, days + 1):
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
    for i, who in enumerate(alive if morning_after else ()):
        pid += 1
        posts.append(Post(pid, who, None, day(days + 1).start + timedelta(minutes=i),
                          "Доброе утро.", ""))
    store.save_topic_page(TopicPage(3, "Игра", 1, 1, len(posts), tuple(posts)), START)

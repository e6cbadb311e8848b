"""Recorded days are not recomputed (issue 30, item 2): ``status``, ``history`` and
``check-activity`` read the recorded results; only the phases not recorded yet are worked
out. Counted, not timed — how often a day is counted (V1–V6) and a night's PMs are read
(N1) — on a game of 3 and of 6 turns, every phase recorded as a host does (the times are
the benchmark's: benchmarks/bench_game.py).

| command                          | days counted | nights' PMs read |
|----------------------------------|--------------|------------------|
| status, every phase recorded     | 0            | 0                |
| history, every phase recorded    | 0            | 0                |
| check-activity of the last turn  | 0            | 0                |
| status, the last day unrecorded  | 1 (that day) | 0                |
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import small_game
from small_game import day

from referee.config.game import Config
from referee.core.kernel import Post, TopicPage
from referee.game import Game
from referee.game import days as day_room
from referee.game import nights as night_room
from referee.host.history import game_history
from referee.host.status import game_status
from referee.render.morning import private_results
from referee.store import Store


def config(tmp: Path, days: int) -> Config:
    """The game of ``days`` turns and the day after them."""
    return small_game.config(tmp, days + 1)


def fill(store: Store, days: int) -> None:
    small_game.fill(store, days, morning_after=True)


def after(days: int) -> datetime:
    return day(days + 1).start + timedelta(hours=1)


def recorded_game(tmp: Path, days: int, *, last_day: bool = True) -> Path:
    """A game of ``days`` turns, every day, night and activity check recorded at its time
    (``last_day`` False: the last day's count is left unrecorded, and what follows it)."""
    db = tmp / f"game{days}.db"
    with Store.open(db) as store:
        fill(store, days)
    for n in range(1, days + 1):
        if n == days and not last_day:
            break
        for at, work in ((day(n).deadline + timedelta(minutes=1),
                          lambda g, n=n: g.tally_day(n)),
                         (day(n).night_deadline + timedelta(minutes=1),
                          lambda g, n=n: g.resolve_night(n)),
                         (day(n + 1).start + timedelta(minutes=2),
                          lambda g, n=n: g.check_activity(n))):
            game = Game(config(tmp, days), Store.open(db), clock=lambda at=at: at)
            try:
                work(game)
            finally:
                game.close()
    return db


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    calls: Counter[str] = Counter()
    real_tally, real_read = day_room.tally, night_room.read_night

    def tally(*a: object, **kw: object) -> object:
        calls["day counted"] += 1
        return real_tally(*a, **kw)  # type: ignore[arg-type]

    def read_night(*a: object, **kw: object) -> object:
        calls["night read"] += 1
        return real_read(*a, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(day_room, "tally", tally)
    monkeypatch.setattr(night_room, "read_night", read_night)
    yield calls


COMMANDS = {
    "status": lambda g: game_status(g, private_results),
    "history": game_history,
}


def run(tmp: Path, db: Path, days: int, command: str, calls: Counter[str]) -> dict[str, int]:
    calls.clear()
    game = Game(config(tmp, days), Store.open(db), clock=lambda: after(days))
    try:
        if command == "check-activity":
            game.check_activity(days)
        else:
            COMMANDS[command](game)
    finally:
        game.close()
    return dict(calls)


@pytest.mark.parametrize("command", [*COMMANDS, "check-activity"])
def test_a_command_over_recorded_phases_is_flat_in_the_game_length(
        tmp_path: Path, counted: Counter[str], command: str) -> None:
    short, long = recorded_game(tmp_path, 3), recorded_game(tmp_path, 6)
    assert run(tmp_path, short, 3, command, counted) == {}
    assert run(tmp_path, long, 6, command, counted) == {}


def test_only_the_day_not_recorded_is_counted(
        tmp_path: Path, counted: Counter[str]) -> None:
    short = recorded_game(tmp_path, 3, last_day=False)
    long = recorded_game(tmp_path, 6, last_day=False)
    assert run(tmp_path, short, 3, "status", counted) == {"day counted": 1, "night read": 1}
    assert run(tmp_path, long, 6, "status", counted) == {"day counted": 1, "night read": 1}


def test_the_recorded_history_is_the_history_counted_afresh(
        tmp_path: Path, counted: Counter[str]) -> None:
    db = recorded_game(tmp_path, 4)
    counted.clear()
    game = Game(config(tmp_path, 4), Store.open(db), clock=lambda: after(4))
    try:
        from_record = game_history(game)
        assert dict(counted) == {}
        for n in range(1, 5):
            game.store.forget_result("day", n)
        afresh = game_history(Game(config(tmp_path, 4), game.store, clock=lambda: after(4)))
    finally:
        game.close()
    assert counted["day counted"] == 4      # the same history, counted afresh
    assert from_record.players == afresh.players and from_record.nights == afresh.nights
    assert from_record.days == tuple(replace(d, recorded=True) for d in afresh.days)


def test_a_recorded_days_voters_are_checked_by_the_mark_of_its_posts(
        tmp_path: Path, counted: Counter[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A2 reads every earlier day's voters: a recorded day's are those its record keeps
    while the day's posts are as they were — told by the mark of its posts
    (``Store.window_mark``), no post read; once a sync writes a post of the day again (here
    an edit of a vote), the day is counted anew."""
    db = recorded_game(tmp_path, 4, last_day=False)
    digests: Counter[str] = Counter()
    real = Store.post_digest

    def post_digest(self: Store, *a: object, **kw: object) -> str:
        digests["read"] += 1
        return real(self, *a, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "post_digest", post_digest)
    assert run(tmp_path, db, 4, "status", counted) == {"day counted": 1, "night read": 1}
    assert digests == Counter()
    with Store.open(db) as store:
        posts = [Post(p.post_id, p.author, p.author_id, p.posted_at, p.body_html, p.body_text)
                 for p in store.posts()]
        first = posts[0]
        posts[0] = replace(first, body_html=first.body_html.replace("подозрительно",
                                                                    "странно"))
        store.save_topic_page(TopicPage(3, "Игра", 1, 1, len(posts), tuple(posts)),
                              after(4))
    assert run(tmp_path, db, 4, "status", counted) == {"day counted": 4, "night read": 1}
    assert digests == Counter()

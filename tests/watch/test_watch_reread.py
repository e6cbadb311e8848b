"""Issue 30, item 1: the watch re-reads the open day's earlier pages by need, not by habit.

The scripted game (support/phpbb/game_board.py) on a board of 2 posts a page: day 1
(12:00–22:00 Moscow) fills pages 1–5; Kotik's vote for Ёжик (#1004, 16:00, page 3) is
edited at 19:00 into a vote for Тень_Ночи. Each round is a ``Game.sync(scheduled=True)``
as the watch makes it, on a fake clock; the board logs which pages each round asked for.

Rules under test (docs/rules.md V4, :mod:`referee.game.reread`):

| when                                   | the round reads                       |
|----------------------------------------|---------------------------------------|
| within ``reread_every`` of a full read | the last page (and new ones) only     |
| ``reread_every`` after the last one    | every page of the open day            |
| the last ``reread_before_deadline``    | every page of the day, once           |
| the first round after the deadline     | every page of the day, once           |
| the post count shown ≠ posts stored    | every page of the day (a post gone)   |
| a day left unread, then no read after  | the day's count is not recorded       |
|   its deadline                         |   (НЕПОЛНЫЕ ДАННЫЕ)                   |
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from support.clock import FakeClock
from support.moscow import msk
from support.phpbb.board import TopicPages
from support.phpbb.game_board import GameBoard, write_config
from watch_helpers import watch

from referee.game import Game
from referee.game.safety import INCOMPLETE
from referee.store import Store


@pytest.fixture
def small_pages(board: GameBoard) -> GameBoard:
    board.per_page = 2
    board.topic = TopicPages(board.posts, 2)
    return board


def config_with(tmp_path: Path, board: GameBoard, every: int = 240, before: int = 60) -> Path:
    path = write_config(tmp_path, board)
    text = path.read_text(encoding="utf-8").replace(
        "timeout = 5\n", f"timeout = 5\nreread_every = {every}\n"
                         f"reread_before_deadline = {before}\n")
    path.write_text(text, encoding="utf-8")
    return path


@contextmanager
def game_at(config: Path, db: Path, clock: FakeClock) -> Iterator[Game]:
    game = Game.open(config, db, clock=clock.now)
    try:
        yield game
    finally:
        game.close()


def rounds(board: GameBoard, clock: FakeClock, config: Path, db: Path, start: datetime,
           end: datetime, every: timedelta = timedelta(minutes=10)) -> dict[str, list[int]]:
    """A scheduled sync every ``every`` from ``start`` to ``end``: the topic pages each
    round asked for, by the round's time (HH:MM)."""
    out: dict[str, list[int]] = {}
    clock.t = start
    while clock.t <= end:
        served = len(board.requests("topic:"))
        with game_at(config, db, clock) as game:
            game.sync(scheduled=True, pms=False)
        out[clock.t.strftime("%H:%M")] = [
            int(k.split(":")[1]) for k in board.requests("topic:")[served:]]
        clock.t += every
    return out


def full(pages: list[int]) -> bool:
    return 1 in pages or 2 in pages


def test_an_open_day_is_read_again_on_its_schedule_not_every_round(
        small_pages: GameBoard, clock: FakeClock, tmp_path: Path) -> None:
    config, db = config_with(tmp_path, small_pages), tmp_path / "game.db"
    seen = rounds(small_pages, clock, config, db, msk("2026-11-20 16:05"),
                  msk("2026-11-20 22:35"))
    assert seen["16:05"] == [1, 2, 3]                 # the first read: every page
    # Until the cadence says so: the last stored page and the new ones only.
    assert seen["16:15"] == [3] and seen["18:05"] == [4] and seen["19:55"] == [4]
    re_read = [t for t, pages in seen.items() if t != "16:05" and full(pages)]
    # 4 hours after the first read, once when the last hour begins, once after the
    # deadline; then not again while the night is young.
    assert re_read == ["20:05", "21:05", "22:05"]
    assert seen["22:05"] == [1, 2, 3, 4, 5]           # every page of day 1 (from 12:00)
    assert seen["22:15"] == [5]
    requests = sum(len(p) for p in seen.values())
    assert requests < 3 * len(seen)                   # before: every page, every round


def test_a_sync_before_a_count_still_reads_the_open_day_every_time(
        small_pages: GameBoard, clock: FakeClock, tmp_path: Path) -> None:
    config, db = config_with(tmp_path, small_pages), tmp_path / "game.db"
    clock.t = msk("2026-11-20 18:05")
    with game_at(config, db, clock) as game:   # as tally, resolve-night… without --offline
        game.sync(pms=False)
        served = len(small_pages.requests("topic:"))
        clock.t += timedelta(minutes=10)
        game.sync(pms=False)
    assert small_pages.requests("topic:")[served:] == [f"topic:{n}" for n in (1, 2, 3, 4)]


def test_an_edit_of_an_early_vote_is_caught_before_the_count_is_recorded(
        small_pages: GameBoard, clock: FakeClock, tmp_path: Path) -> None:
    # No re-read by cadence before the deadline at all: only the one after it.
    config, db = config_with(tmp_path, small_pages, every=1000, before=0), tmp_path / "g.db"
    seen = rounds(small_pages, clock, config, db, msk("2026-11-20 16:05"),
                  msk("2026-11-20 21:55"))
    assert not any(full(p) for t, p in seen.items() if t != "16:05")
    with Store.open(db) as store:
        assert len(store.post(1004).revisions) == 1     # the edit of 19:00 not seen yet
    clock.t = msk("2026-11-20 22:01")
    with game_at(config, db, clock) as game:
        game.sync(scheduled=True, pms=False)
        result = game.tally_day(1)
    assert result.recorded and not result.held
    v4 = [f for f in result.tally.flags if f.rule == "V4"]
    assert [(f.post_id, f.voter) for f in v4] == [(1004, "Kotik")]
    assert "Ёжик" in v4[0].text                          # the first-seen target counts


def test_a_day_left_unread_is_not_recorded_without_a_read_after_its_deadline(
        small_pages: GameBoard, clock: FakeClock, tmp_path: Path) -> None:
    config, db = config_with(tmp_path, small_pages, every=1000, before=0), tmp_path / "g.db"
    rounds(small_pages, clock, config, db, msk("2026-11-20 16:05"), msk("2026-11-20 21:55"))
    clock.t = msk("2026-11-20 22:01")
    with game_at(config, db, clock) as game:               # `tally --offline`
        held = game.tally_day(1)
        assert not held.recorded and INCOMPLETE in held.held
        assert any("не перечитаны после дедлайна" in n for n in held.notes)
        game.sync(pms=False)                               # `referee sync` by hand
        game._tallies.clear()
        assert game.tally_day(1).recorded


def test_a_post_count_that_differs_from_the_store_has_the_day_read_again(
        small_pages: GameBoard, clock: FakeClock, tmp_path: Path) -> None:
    config, db = config_with(tmp_path, small_pages), tmp_path / "game.db"
    seen = rounds(small_pages, clock, config, db, msk("2026-11-20 18:05"),
                  msk("2026-11-20 18:15"))
    small_pages.delete_post(1002)                       # page 2, by a moderator
    seen |= rounds(small_pages, clock, config, db, msk("2026-11-20 18:25"),
                   msk("2026-11-20 18:35"))
    assert seen["18:15"] == [4]
    assert full(seen["18:25"])                          # 8 posts shown, 9 stored
    assert seen["18:35"] == [4]
    with Store.open(db) as store:
        assert store.post(1002).missing_since is not None


def test_the_watch_says_when_the_next_full_read_is_due(
        small_pages: GameBoard, clock: FakeClock, tmp_path: Path) -> None:
    config, db = config_with(tmp_path, small_pages), tmp_path / "game.db"
    clock.t = msk("2026-11-20 16:05")
    _, seen = watch(config, db, clock, until=msk("2026-11-20 16:40"), every=10)
    assert "перечитать страницы дня 20:05" in seen.statuses[0]

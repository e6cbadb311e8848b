"""Issue 30, item 1: the host's inbox has a cadence of its own, and ``referee sync`` by hand
keeps the watch's schedule.

Night requests count for the night they are sent for, one sent by day for the next night
(docs/rules.md N1): while a day is open a scheduled sync lists the inbox once an hour
(``[forum] pm_every_by_day``), by night at every round (``pm_every_by_night``), and always
once after each start and deadline — so ``resolve-night`` and ``check-activity`` never
record a night read before its end (:mod:`referee.game.reread`).

The scripted game (watch_board.py): day 1 12:00–22:00 Moscow, night 1 to 10:00; the night's
requests come by PM at 00:30–02:00 (the mafia shoot Шерлок, the doctor heals him, the
commissar checks Kotik).
"""

from __future__ import annotations

from contextlib import closing
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from support.clock import FakeClock
from support.moscow import msk
from support.phpbb.board import TopicPages
from support.phpbb.game_board import GameBoard, write_config
from typer.testing import CliRunner
from watch_helpers import results, watch

from referee.cli import app
from referee.game import Game


def config_with(tmp_path: Path, board: GameBoard, **forum: float) -> Path:
    path = write_config(tmp_path, board)
    keys = "".join(f"{k} = {v}\n" for k, v in forum.items())
    path.write_text(path.read_text(encoding="utf-8").replace(
        "timeout = 5\n", f"timeout = 5\n{keys}"), encoding="utf-8")
    return path


def inbox_rounds(board: GameBoard, clock: FakeClock, config: Path, db: Path,
                 start: datetime, end: datetime) -> list[str]:
    """A scheduled sync every 10 minutes from ``start`` to ``end``: the rounds (HH:MM)
    that listed the inbox."""
    listed = []
    clock.t = start
    while clock.t <= end:
        served = len(board.requests("folder:"))
        game = Game.open(config, db, clock=clock.now)
        try:
            game.sync(scheduled=True)
        finally:
            game.close()
        if len(board.requests("folder:")) > served:
            listed.append(clock.t.strftime("%H:%M"))
        clock.t += timedelta(minutes=10)
    return listed


def listings(board: GameBoard, clock: FakeClock) -> set[str]:
    """The times (DD HH:MM) the board is asked for an inbox page from now on."""
    seen: set[str] = set()
    answer = board.answer

    def logged(h: Any) -> None:
        answer(h)
        if board.log and board.log[-1].startswith("folder:"):
            seen.add(clock.t.strftime("%d %H:%M"))

    board.answer = logged  # type: ignore[method-assign]
    return seen


def test_by_day_the_inbox_is_listed_hourly_by_night_every_round(
        board: GameBoard, clock: FakeClock, tmp_path: Path) -> None:
    config, db = config_with(tmp_path, board), tmp_path / "game.db"
    listed = inbox_rounds(board, clock, config, db, msk("2026-11-20 12:05"),
                          msk("2026-11-20 22:35"))
    by_day = [t for t in listed if t < "22:00"]
    assert by_day == [f"{h}:05" for h in range(12, 22)]   # the first round, then hourly
    assert [t for t in listed if t > "22:00"] == ["22:05", "22:15", "22:25", "22:35"]


def test_the_round_after_the_nights_deadline_reads_the_inbox_before_the_night_is_resolved(
        board: GameBoard, clock: FakeClock, tmp_path: Path) -> None:
    # The inbox left all night long by the cadence: only the deadline has it read.
    config = config_with(tmp_path, board, pm_every_by_day=2000, pm_every_by_night=2000)
    db = tmp_path / "game.db"
    listed = listings(board, clock)
    clock.t = msk("2026-11-20 21:50")
    watch(config, db, clock, until=msk("2026-11-21 09:55"), every=10, tally=True)
    assert sorted(listed) == ["20 21:50", "20 22:00"]   # the first round, after the deadline
    with closing(Game.open(config, db)) as game:
        assert game.store.pms() == []        # the night's requests (00:30–02:00) not read yet
    _, seen = watch(config, db, clock, until=msk("2026-11-21 10:30"), every=10, resolve=True,
                    activity=True)
    assert sorted(listed)[2:] == ["21 10:01"]  # the round after the night, before its work
    # Read in the morning, told as the night's requests they are.
    assert len(seen.having("заявка на ночь 1")) == 3 and not seen.having("вне окна ночи")
    night = next(p for phase, n, p, _ in results(db) if (phase, n) == ("night", 1))
    assert sorted(r["action"] for r in night["requests"]) == ["check", "heal", "shoot"]
    assert ("activity", 1) in {(phase, n) for phase, n, _, _ in results(db)}


def test_a_sync_by_hand_keeps_the_schedule_and_says_what_it_left(
        board: GameBoard, clock: FakeClock, tmp_path: Path) -> None:
    board.per_page = 2
    board.topic = TopicPages(board.posts, 2)
    config, db = config_with(tmp_path, board), tmp_path / "game.db"

    def sync(at: str, *args: str) -> str:
        res = CliRunner().invoke(app, ["--config", str(config), "--db", str(db), "--now", at,
                                       "sync", *args])
        assert res.exit_code == 0, res.output
        return res.stderr

    clock.t = msk("2026-11-20 19:05")                    # the board shows posts to 19:05
    first = sync("2026-11-20 19:05")
    assert "ЛС (входящие)" in first
    served = len(board.log)
    again = sync("2026-11-20 19:15")
    assert board.log[served:] == ["topic:4"]             # the last page, nothing else
    assert "перечитаны" not in again
    assert "ЛС: не читались в этот раз" in again and "следующее чтение в 20.11 20:05" in again
    served = len(board.log)
    full = sync("2026-11-20 19:15", "--full")
    assert board.log[served:] == [*(f"topic:{n}" for n in range(1, 5)), "folder:inbox:1"]
    assert "ЛС (входящие)" in full


@pytest.mark.parametrize("option", ["--sent", "--full"])
def test_asking_for_the_folders_reads_them_whatever_the_schedule(
        board: GameBoard, clock: FakeClock, tmp_path: Path, option: str) -> None:
    config, db = config_with(tmp_path, board), tmp_path / "game.db"
    clock.t = msk("2026-11-20 19:05")
    with closing(Game.open(config, db, clock=clock.now)) as game:
        game.sync(scheduled=True)
        served = len(board.requests("folder:inbox"))
        clock.t += timedelta(minutes=10)
        lines = game.sync(scheduled=True, sent=option == "--sent", full=option == "--full")
    folders = 3 if option == "--sent" else 1   # the board names every folder «inbox»
    assert len(board.requests("folder:inbox")) == served + folders
    assert not any("не читались" in line for line in lines)


def test_a_sync_set_before_the_last_reading_reads_again(
        board: GameBoard, clock: FakeClock, tmp_path: Path) -> None:
    # ``--now`` earlier than what the store remembers (a rehearsal after a real sync):
    # the schedule cannot say what was read by then, so everything is read.
    board.per_page = 2
    board.topic = TopicPages(board.posts, 2)
    config, db = config_with(tmp_path, board), tmp_path / "game.db"
    clock.t = msk("2026-11-20 19:05")
    with closing(Game.open(config, db, clock=clock.now)) as game:
        game.sync(scheduled=True)
    served = len(board.log)
    clock.t = msk("2026-11-20 18:05")
    with closing(Game.open(config, db, clock=clock.now)) as game:
        game.sync(scheduled=True)
    assert "folder:inbox:1" in board.log[served:] and "topic:1" in board.log[served:]

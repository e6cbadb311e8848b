"""Done when (issue 21): a watched 2-day game on a local board gives the same recorded
results and posts as running the commands by hand at each deadline.

Two boards play the same scripted game (support/phpbb/game_board.py) with their own fake clocks. On
one, ``referee watch --tally-at-deadline --resolve-at-deadline --activity-at-deadline
--post --send --yes`` runs through the CLI from before day 1 to the end of the game. On
the other, a host runs at each deadline, through the same CLI with ``--now``, exactly
what a host does: ``tally --day 1 --post``, ``resolve-night --night 1 --post --send``,
``check-activity --turn 1 --post``, ``tally --day 2 --post``. The game here has no edit
of a vote: a watch that reads the topic all day sees a vote's first text before its edit
(V4 counts that one), which a host reading only at the deadline never sees.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from support.clock import FakeClock
from support.moscow import msk
from support.phpbb.game_board import GameBoard, script, write_config
from typer.testing import CliRunner, Result
from watch_helpers import results, sent

import referee.host.watch
from referee.cli import app


def local(rows: list[Any], board: GameBoard) -> list[str]:
    """Rows with the board's address taken out and times as instants."""
    return [repr(tuple(v.astimezone(UTC) if isinstance(v, datetime) else v for v in row)
                 ).replace(board.url, "BOARD/") for row in rows]


def invoke(args: list[str]) -> Result:
    return CliRunner().invoke(app, args, catch_exceptions=False)


@pytest.fixture
def two_boards(board: GameBoard, tmp_path: Path) -> Iterator[tuple[GameBoard, GameBoard]]:
    """``board`` for the watch, a second one for the host by hand; no edited vote."""
    board.lines = [line for line in script() if line.edits is None]
    hand = GameBoard(clock=FakeClock(msk("2026-11-20 11:00")),
                     lines=[line for line in script() if line.edits is None])
    with hand.running():
        yield board, hand


def by_hand(hand: GameBoard, folder: Path) -> Path:
    folder.mkdir()
    cfg, db = write_config(folder, hand), folder / "game.db"
    base = ["--config", str(cfg), "--db", str(db)]
    for when, command in [
        ("2026-11-20 22:01", ["tally", "--day", "1", "--post", "--yes"]),
        ("2026-11-21 10:01", ["resolve-night", "--night", "1", "--post", "--send", "--yes"]),
        ("2026-11-21 10:01", ["check-activity", "--turn", "1", "--post", "--yes"]),
        ("2026-11-21 22:01", ["tally", "--day", "2", "--post", "--yes"]),
    ]:
        hand.clock.t = msk(when)
        res = invoke([*base, "--now", when, *command])
        assert res.exit_code == 0, res.output
    return db


def watched(board: GameBoard, clock: FakeClock, folder: Path,
            monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Result]:
    folder.mkdir()
    cfg, db = write_config(folder, board), folder / "game.db"

    def fake_clock(start: object) -> FakeClock:
        clock.t = start  # type: ignore[assignment]
        return clock

    monkeypatch.setattr(referee.host.watch, "make_clock", fake_clock)
    res = invoke(["--config", str(cfg), "--db", str(db), "--now", "2026-11-20 11:00",
                  "watch", "--every", "30", "--tally-at-deadline", "--resolve-at-deadline",
                  "--activity-at-deadline", "--post", "--send", "--yes",
                  "--until", "2026-11-22 12:00"])
    assert res.exit_code == 0, res.output
    return db, res


def test_a_watched_game_records_and_posts_what_the_commands_by_hand_do(
    two_boards: tuple[GameBoard, GameBoard], clock: FakeClock, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board, hand = two_boards
    hand_db = by_hand(hand, tmp_path / "hand")
    watch_db, res = watched(board, clock, tmp_path / "watch", monkeypatch)

    # The same results, recorded at the same moments (the deadline plus a minute).
    assert results(watch_db) == results(hand_db)
    assert sorted((r[0], r[1]) for r in results(watch_db)) == [
        ("activity", 1), ("day", 1), ("day", 2), ("night", 1)]
    # The same posts at the same times, the same private results, recorded the same way
    # (the two boards differ only in their port, which the posts' links carry).
    assert local(board.replies, board) == local(hand.replies, hand)
    assert len(board.replies) == 4
    assert board.sent_pms == hand.sent_pms == [
        (60, "Ночь 1: результат", "Ночь 1, проверка (комиссар — Шерлок): [b]Kotik[/b] — Мафия.\n")]
    assert local(sent(watch_db), board) == local(sent(hand_db), hand)
    # And the watch told it as it went, and stopped at the game's end.
    out = res.stdout
    assert "22:01 день 1: итог записан — на виселицу — Лиса; отправлено: 1" in out
    assert "10:01 ночь 1: итог записан — никто не погиб; отправлено: 2" in out
    assert "Игра окончена: победа — мирные жители" in out
    assert out.rstrip().endswith("наблюдение окончено: игра окончена")


"""W2, N15.14: a watch started after the end of the game stops with its «игра окончена»
reason and does none of the deadline work after the end: the scripted game ends with Day 2
(Kotik, the last mafioso, hanged), but the schedule has a Day 3 the players still vote in.
"""

from __future__ import annotations

from pathlib import Path

from support.clock import FakeClock
from support.moscow import msk
from support.phpbb.game_board import GameBoard, Line, vote, write_config
from typer.testing import CliRunner
from watch_helpers import results, sent, watch

from referee.cli import app

DAY_3 = """
[[schedule.days]]
day = 3
start = "2026-11-22 10:00"
deadline = "2026-11-22 22:00"
night_deadline = "2026-11-23 10:00"
"""


def by_hand(board: GameBoard, config: Path, db: Path) -> None:
    """The host's commands at each deadline, up to the day that ends the game."""
    for when, command in [
        ("2026-11-20 22:01", ["tally", "--day", "1"]),
        ("2026-11-21 10:01", ["resolve-night", "--night", "1"]),
        ("2026-11-21 10:01", ["check-activity", "--turn", "1"]),
        ("2026-11-21 22:01", ["tally", "--day", "2"]),
    ]:
        board.clock.t = msk(when)
        res = CliRunner().invoke(app, ["--config", str(config), "--db", str(db), "--now", when,
                                       *command])
        assert res.exit_code == 0, res.output


def test_w2_a_watch_after_the_end_stops_and_counts_nothing(
    board: GameBoard, clock: FakeClock, tmp_path: Path, db: Path
) -> None:
    board.lines = [line for line in board.lines if line.edits is None] + [
        Line(msk("2026-11-22 12:00"), "Шерлок", vote("Игра идёт дальше, голосую", "Ёжик"))]
    config = write_config(tmp_path, board, extra=DAY_3)
    by_hand(board, config, db)
    recorded, posted = results(db), sent(db)
    clock.t = msk("2026-11-22 23:00")  # after Day 3's deadline
    why, seen = watch(config, db, clock, tally=True, resolve=True, activity=True, post=True,
                      send=True)
    assert why == "over"
    assert results(db) == recorded and sent(db) == posted and board.replies == []
    assert any("Игра окончена после дня 2: победа — мирные жители." in line
               for line in seen.lines), seen.lines
    assert not seen.having("не удалось") and not seen.having("ошибка"), seen.lines

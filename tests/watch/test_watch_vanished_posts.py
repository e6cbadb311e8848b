"""Issue 27, item 2: a post gone from its page is told with what it held in the day's count,
by the rule ``tally`` applies (V1 deleted_vote, V3, …): a vote that still counts, a vote
that did not count and why, or no vote at all. Before, ``sync`` and ``watch`` said of every
vanished post «голос в нём по-прежнему считается (V4)», a chat post too.

The board's day 1: Гроза's greeting (#1001, no vote), Шерлок's vote for Лиса (#1002,
counted) and Тень_Ночи's vote without a reason (#1007, V3) are deleted at 19:30.
"""

from __future__ import annotations

from pathlib import Path

from support.clock import FakeClock
from support.moscow import msk
from support.phpbb.game_board import GameBoard, write_config
from watch_helpers import watch

from referee.game import Game
from referee.game.daystate import post_held

DELETED = {1001: "Гроза", 1002: "Шерлок", 1007: "Тень_Ночи"}


def test_vanished_posts_are_told_with_what_they_held(
    board: GameBoard, clock: FakeClock, tmp_path: Path,
) -> None:
    config, db = write_config(tmp_path, board), tmp_path / "game.db"
    clock.at(msk("2026-11-20 19:30"), lambda: [board.delete_post(p) for p in DELETED])
    until = msk("2026-11-20 20:30")
    _, seen = watch(config, db, clock, until=until, every=30)
    said = {pid: [line for line in seen.lines if f"#{pid}" in line and "исч" in line
                  or f"#{pid} " in line and "пропало" in line] for pid in DELETED}
    # What tally says of each post at that moment.
    game = Game.open(config, db, clock=lambda: until)
    try:
        held = {pid: post_held(game, pid) for pid in DELETED}
    finally:
        game.close()
    assert [held[p].held for p in DELETED] == ["none", "counted", "rejected"]
    assert held[1002].rule == "V1" and held[1007].rule == "V3"
    for pid, h in held.items():
        lines = said[pid]
        # the watch's news line and the sync's line, each saying what the count says
        assert len(lines) == 2, (pid, seen.lines)
        assert all(h.text in line for line in lines), (pid, lines, h.text)
    assert "голоса в нём не было" in said[1001][0]
    assert "по-прежнему считается (V1" in said[1002][0]
    assert "не засчитан" in said[1007][0] and "(V3)" in said[1007][0]
    assert not any("(V4)" in line for lines in said.values() for line in lines)

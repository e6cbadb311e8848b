"""``referee watch`` against the scripted game on a live board on 127.0.0.1, with a fake
clock: what it tells, what it posts, and what it survives (issue 21)."""

from __future__ import annotations

from pathlib import Path

from watch_board import FakeClock, GameBoard, msk
from watch_helpers import replies, results, sent, watch


def test_smoke(config: Path, db: Path, clock: FakeClock, board: GameBoard) -> None:
    why, seen = watch(config, db, clock, until=msk("2026-11-22 12:00"), tally=True,
                      resolve=True, activity=True, post=True, send=True)
    print("\n".join(seen.lines))
    print(why)
    print(replies(board))
    print(board.sent_pms)
    assert 0

"""Running a watch over the scripted game with a fake clock, and reading what it did."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from support.clock import FakeClock
from support.phpbb.game_board import GameBoard

from referee.host.watch import Options, Screen, Watch
from referee.render.watch import WatchTexts
from referee.store import Store


@dataclass
class Seen:
    """What a watch showed: its lines and its status lines."""

    lines: list[str] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)

    def screen(self) -> Screen:
        return Screen(say=self.lines.append, status=self.statuses.append)

    def having(self, text: str) -> list[str]:
        return [line for line in self.lines if text in line]


def watch(config: Path, db: Path, clock: FakeClock, *, until: datetime | None = None,
          every: int = 30, notifier: Any = None, **options: Any) -> tuple[str, Seen]:
    """One ``referee watch`` run until ``until`` (or the game's end); returns why it
    stopped and what it showed."""
    seen = Seen()
    opts = Options(every=timedelta(minutes=every), until=until, **options)
    w = Watch(config, db, opts, WatchTexts(), seen.screen(), clock=clock, notifier=notifier)
    return w.run(), seen


def results(db: Path) -> list[tuple[str, int, dict[str, Any], datetime]]:
    with Store.open(db) as store:
        return [(r.phase, r.number, r.payload, r.recorded_at) for r in store.results()]


def sent(db: Path) -> list[tuple[str, str, str, int | None]]:
    with Store.open(db) as store:
        return [(s.kind, s.recipient, s.body, s.forum_id) for s in store.sent()]


def replies(board: GameBoard) -> list[str]:
    return [body for _, body in board.replies]


__all__ = ["Seen", "results", "replies", "sent", "watch"]

"""A game of the benchmark's kind (``benchmarks/bench_game.py``): thirty players, every day
a thousand posts in real phpBB markup, the nights' requests as PMs in natural Russian —
served on 127.0.0.1, synced into a fresh database, and played by the host at the times a
host would (each day tallied after its deadline, each night resolved, each turn checked).

The benchmark itself plays 10 and 20 days; the tests take fewer days of the same size so the
suite stays fast, and ``benchmarks/bench_glance.py`` measures the full sizes.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_game import GameTopic, Mailbox, Plan, make_plan, serve, write_config  # noqa: E402

from referee.game import Game  # noqa: E402


@dataclass
class BenchGame:
    plan: Plan
    config: Path
    db: Path

    def at(self, when: datetime) -> Game:
        return Game.open(self.config, self.db, clock=lambda: when)

    @property
    def end(self) -> datetime:
        return self.plan.days[-1].night_deadline + timedelta(hours=1)


def build(folder: Path, days: int, *, played: bool = True) -> BenchGame:
    """Sync a ``days``-day benchmark game into ``folder``; ``played``: the host recorded
    every phase at its time, as a host does."""
    plan = make_plan(days)
    server, base = serve(GameTopic(plan), Mailbox(plan))
    try:
        config = write_config(plan, base, folder)
        game = BenchGame(plan, config, folder / "game.db")
        g = game.at(game.end)
        try:
            g.sync(pms=True)
        finally:
            g.close()
    finally:
        server.shutdown()
    if played:
        for day in plan.days:
            nxt = plan.days[day.number] if day.number < len(plan.days) else None
            steps = [(day.deadline + timedelta(minutes=10), "tally_day"),
                     (day.night_deadline + timedelta(minutes=5), "resolve_night")]
            if nxt is not None:
                steps.append((nxt.start + timedelta(minutes=10), "check_activity"))
            for when, command in steps:
                g = game.at(when)
                try:
                    getattr(g, command)(day.number)
                finally:
                    g.close()
    return game

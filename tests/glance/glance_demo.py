"""The bundled demo game «Мафия: игра 2» (``fixtures/demo``) synced into a fresh database,
and the host's commands at the times a host runs them."""

from __future__ import annotations

from pathlib import Path

from support.moscow import msk

from referee.game import Game
from referee.store.sync import open_adapter, sync_pms, sync_topic

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "fixtures/demo/referee.toml"

HOST_STEPS: tuple[tuple[str, str, int], ...] = (
    # (forum time, the host's command, its day/night/turn)
    ("2026-11-21 22:05", "tally_day", 1),
    ("2026-11-22 10:05", "resolve_night", 1),
    ("2026-11-22 10:10", "check_activity", 1),
    ("2026-11-23 22:05", "tally_day", 2),
    ("2026-11-24 10:05", "resolve_night", 2),
    ("2026-11-24 12:00", "check_activity", 2),
)


def demo(db: Path, when: str = "2026-11-29 12:00") -> Game:
    """The demo synced (topic and PMs), its clock at ``when`` (Moscow)."""
    game = Game.open(DEMO, db, clock=lambda: msk(when))
    adapter = open_adapter(game.config, db_path=db)
    try:
        sync_topic(game.config, game.store, adapter)
        sync_pms(game.config, game.store, adapter)
    finally:
        adapter.close()
    return game


def at(game: Game, when: str) -> Game:
    """The same game as a new command run at ``when`` would see it."""
    fresh = Game(game.config, game.store, clock=lambda: msk(when))
    return fresh


def play_as_host(game: Game, until: str) -> Game:
    """Every host command of :data:`HOST_STEPS` up to ``until``; the game at ``until``."""
    for when, command, n in HOST_STEPS:
        if msk(when) > msk(until):
            break
        getattr(at(game, when), command)(n)
    return at(game, until)

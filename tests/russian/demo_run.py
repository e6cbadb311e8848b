"""The demo game played through the command line as a host would, one database per run:
each step's stdout, and its public part (before the one host-only divider)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

from referee.cli import app
from referee.render.parts import HOST_ONLY

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "fixtures" / "demo" / "referee.toml"
GOLDEN = Path(__file__).resolve().parent / "golden"

STEPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # name               the forum time      the command
    ("tally_day1", "2026-11-22 09:00", ("tally", "--day", "1")),
    ("activity_turn1", "2026-11-22 09:30", ("check-activity", "--turn", "1", "--offline")),
    ("morning_night1", "2026-11-22 10:30", ("resolve-night", "--night", "1", "--offline")),
    ("activity_turn2", "2026-11-24 10:00", ("check-activity", "--turn", "2", "--offline")),
    ("tally_day2", "2026-11-24 10:05", ("tally", "--day", "2", "--offline")),
)
"""The demo's days, nights and turns in game order (each step records what the next needs)."""


def run(db: Path, now: str, *args: str) -> Result:
    return CliRunner().invoke(app, ["--config", str(DEMO), "--db", str(db), "--now", now,
                                    *args], catch_exceptions=False)


def public(stdout: str) -> str:
    head, found, _ = stdout.partition(HOST_ONLY)
    assert found, "every public text has the host-only divider after it"
    return head.rstrip() + "\n"


def play(db: Path) -> dict[str, str]:
    """Every step's whole stdout, by name."""
    out: dict[str, str] = {}
    for name, now, args in STEPS:
        res = run(db, now, *args)
        assert res.exit_code == 0, res.output
        out[name] = res.stdout
    return out


def golden(name: str) -> str:
    return (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")


def private_night1(db: Path) -> str:
    """The PMs night 1 sends (the commissar's check, the ninja's miss), as the players read
    them: the text of each, under the name of its recipient."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from referee.game import Game
    from referee.render.morning import private_results

    at = datetime(2026, 11, 22, 10, 30, tzinfo=ZoneInfo("Europe/Moscow"))
    game = Game.open(DEMO, db, clock=lambda: at)
    try:
        outcome = game.resolve_night(1, record=False).outcome
    finally:
        game.close()
    return "".join(f"── ЛС для {nick}\n{text.rstrip()}\n"
                   for nick, text in private_results(outcome))

"""Small games that end (W2, N15.14) while the schedule goes on, played into a database the
way a host plays them (``tests/night/dbgame.py``: votes as posts in the topic, requests as
PMs to the host), with the players writing on after the end as if nothing had happened:
votes on Day 2, requests in Night 2.

    config, db = played(HANGED, tmp_path)          # the ending phases recorded by the host
    config, db = played(HANGED, tmp_path, record=False)   # … or not

Schedule (dbgame): Day N starts at BASE + N-1 days, its deadline 10 h later, the night
ends 10 h after that; these games have days 1–3. :data:`EVENING` is after Day 3's deadline:
every day and night the host could ask about is over.
"""

from __future__ import annotations

import shutil
import sqlite3
import sys
from collections.abc import Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "night"))
from dbgame import build, day_start  # noqa: E402

from referee.cli import app  # noqa: E402
from referee.core.errors import RefereeError  # noqa: E402

EVENING = day_start(3) + timedelta(hours=11)
"""Day 3's deadline has passed (the evening after it): nothing the host asks is ahead."""


def _players(spec: str) -> list[dict[str, str]]:
    """``"Ann, Don=mafia/A"`` → the replay's players."""
    out: list[dict[str, str]] = []
    for item in spec.split(","):
        nick, _, role = item.strip().partition("=")
        role, _, clan = (role or "citizen").partition("/")
        out.append({"nick": nick, "role": role} | ({"clan": clan} if clan else {}))
    return out


def _request(text: str) -> dict[str, str]:
    actor, action, *target = text.split()
    return {"actor": actor, "action": action} | ({"target": target[0]} if target else {})


def game(players: str, *phases: tuple[str, int, str]) -> dict[str, Any]:
    """A replay-shaped game: ``("day", 1, "Ann Bob → Don")`` (voters → target) or
    ``("night", 1, "Nin kill Don; Don shoot Ann")``."""
    out: list[dict[str, Any]] = []
    for kind, n, text in phases:
        if kind == "day":
            voters, target = text.split("→")
            out.append({"day": n, "votes": [{"voter": v, "target": target.strip()}
                                            for v in voters.split()]})
        else:
            out.append({"night": n, "requests": [_request(r) for r in text.split(";")]})
    return {"players": _players(players), "phases": out}


HANGED = game("Ann, Bob, Cid, Don=mafia/A",
              ("day", 1, "Ann Bob Cid → Don"),       # the clan's last member hanged: town wins
              ("night", 1, "Don shoot Ann"),          # written by a dead man
              ("day", 2, "Ann Bob → Cid"),
              ("night", 2, "Bob shoot Cid"))
"""W2: the town wins after Day 1 (its hanging)."""

AT_NIGHT = game("Ann, Bob, Nin=ninja, Don=mafia/A, Jack=maniac",
                ("day", 1, "Ann Bob Nin → Jack"),
                ("night", 1, "Nin kill Don; Don shoot Ann"),   # the ninja kills the last mafioso
                ("day", 2, "Bob → Nin"),
                ("night", 2, "Nin kill Bob"))
"""W2: the town wins after Night 1 (Bob and Nin are left)."""

DRAW = game("Ann, Bob, Kami=kamikaze/A",
            ("day", 1, "Bob Kami → Ann"),
            ("night", 1, "Kami blow Bob"),           # the kamikaze and Bob: nobody is left
            ("day", 2, "Bob → Kami"),
            ("night", 2, "Kami blow Bob"))
"""N15.14: nobody left after Night 1, a draw."""

PARITY = game("Ann, Bob, Cid, Don=mafia/A",
              ("day", 1, "Bob Cid Don → Ann"),
              ("night", 1, "Don shoot Bob"),          # Cid and Don: one against one
              ("day", 2, "Cid → Don"))
"""W2 with ``clan_wins_at_parity``: the clan wins after Night 1; without it the game goes
on."""

ENDING = {"HANGED": (HANGED, ("day", 1)), "AT_NIGHT": (AT_NIGHT, ("night", 1)),
          "DRAW": (DRAW, ("night", 1)), "PARITY": (PARITY, ("night", 1))}
"""Each game and the phase that ends it."""


def played(g: Mapping[str, Any], folder: Path, *, record: bool = True,
           rules: str = "") -> tuple[Path, Path]:
    """The game's config and database; with ``record`` the host has run ``tally`` and
    ``resolve-night`` for every phase up to the end (those the game counts). ``rules``:
    lines for ``[rules]``."""
    folder.mkdir(parents=True, exist_ok=True)
    config, db = build(g, folder)
    if rules:
        # The config's last table is [rules] (dbgame): the lines join it.
        config.write_text(config.read_text(encoding="utf-8") + f"{rules}\n",
                          encoding="utf-8")
    if record:
        for kind, n in _up_to_the_end(g):
            command = ("tally", "--day") if kind == "day" else ("resolve-night", "--night")
            res = referee(config, db, *command, str(n))
            assert res.exit_code == 0, res.output
    return config, db


def _up_to_the_end(g: Mapping[str, Any]) -> list[tuple[str, int]]:
    name = next(k for k, (v, _) in ENDING.items() if v is g)
    end = ENDING[name][1]
    order = [("day", 1), ("night", 1), ("day", 2), ("night", 2)]
    return order[:order.index(end) + 1]


def referee(config: Path, db: Path, *args: str, now: datetime = EVENING) -> Result:
    """One ``referee`` command as the host types it, offline, at ``now``."""
    offline = ("--offline",) if args[0] in {"tally", "resolve-night", "check-activity",
                                            "status", "history", "export"} else ()
    return CliRunner().invoke(app, ["--config", str(config), "--db", str(db), "--now",
                                    f"{now:%Y-%m-%d %H:%M}", *args, *offline])


def exit_code(res: Result) -> int:
    """The exit code ``referee`` gives (its errors leave through :func:`referee.cli.main`)."""
    if isinstance(res.exception, RefereeError):
        return res.exception.exit_code
    return res.exit_code


def refusal(res: Result) -> str:
    """The message of a command refused as a refusal is (exit code 2): what and what to do."""
    assert exit_code(res) == 2, (res.output, res.exception)
    return str(res.exception)


def dump(db: Path) -> str:
    """Every row of the database, as SQL text."""
    with sqlite3.connect(db) as conn:
        return "\n".join(conn.iterdump())


def copy(db: Path, folder: Path) -> Path:
    folder.mkdir()
    out = folder / db.name
    shutil.copy(db, out)
    return out


__all__ = ["AT_NIGHT", "DRAW", "ENDING", "EVENING", "HANGED", "PARITY", "build", "copy",
           "day_start", "dump", "exit_code", "game", "played", "referee", "refusal"]

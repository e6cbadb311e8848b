"""A replay game played the way a host plays it: a ``referee.toml`` with the roster and a
day-by-day schedule, each day's votes as posts in the game topic, each request as a PM to
the host (the necromancer's day namings sent by day, everything else during the night),
then ``referee resolve-night`` on the database, night after night.

    got = play_in_database(game, tmp_path)   # the same shape as referee.host.replay.replay()

The schedule: Day N starts at BASE + N-1 days, its deadline 10 hours later, the night ends
10 hours after that. Votes are posted an hour into the day, day namings two hours in,
night PMs an hour into the night, one minute apart in the order given.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from referee.cli import app
from referee.core.kernel import Post, PrivateMessage, TopicPage
from referee.store import Store

HOST = "Ведущий"
TOPIC = 3
BASE = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)
REASON = " — весь день молчит и уводит обсуждение в сторону, это подозрительно."

PM_TEXT: dict[str, str] = {
    "check": "Проверяю {t}",
    "heal": "Лечу {t}",
    "shoot": "Стреляем в {t}",
    "kill": "Убиваю {t}",
    "ambush": "Засада",
    "beat": "Бью {t}",
    "blow": "Взрываю {t}",
    "take": "Забираю к себе {t}",
    "protect": "Защищаю {t} и {t2}",
}
"""How a player writes each request (the role PMs of ``referee deal`` teach these)."""


def day_start(n: int) -> datetime:
    return BASE + (n - 1) * DAY


def pm_text(request: Mapping[str, Any]) -> str:
    targets = list(request.get("targets") or [request.get("target")])
    text = PM_TEXT[request["action"]].format(t=targets[0], t2=targets[-1])
    if request.get("executor"):
        text += f", исполнитель {request['executor']}"
    return text


def _players_toml(players: Sequence[Mapping[str, Any]]) -> str:
    lines = ["[players]"]
    for p in players:
        if p.get("clan"):
            lines.append(f'"{p["nick"]}" = {{ role = "{p["role"]}", clan = "{p["clan"]}" }}')
        else:
            lines.append(f'"{p["nick"]}" = "{p["role"]}"')
    return "\n".join(lines)


def turns(game: Mapping[str, Any]) -> int:
    return max(p.get("day", p.get("night", 1)) for p in game["phases"])


def config_toml(game: Mapping[str, Any]) -> str:
    days = "\n".join(
        f"[[schedule.days]]\nday = {n}\n"
        f'start = "{day_start(n):%Y-%m-%d %H:%M}"\n'
        f'deadline = "{day_start(n) + timedelta(hours=10):%Y-%m-%d %H:%M}"\n'
        f'night_deadline = "{day_start(n) + timedelta(hours=20):%Y-%m-%d %H:%M}"\n'
        for n in range(1, turns(game) + 2)
    )
    return (
        f'[game]\nhost = "{HOST}"\nstart = "{BASE:%Y-%m-%d %H:%M}"\n\n'
        f'[forum]\nurl = "https://forum.test/viewtopic.php?t={TOPIC}"\ntimezone = "UTC"\n\n'
        f"{days}\n{_players_toml(game['players'])}\n\n"
        # A replay game names the votes, not who misses them: missed votes remove nobody
        # (A2) unless the game says so. The last table: a test adds its [rules] lines.
        f"[rules]\nmissed_vote_limit = {game.get('missed_vote_limit', 99)}\n"
    )


CHAT = "Читаю тему, думаю."
"""The post each player writes every day (A1: nobody is silent unless the game says so:
``"silent": {turn: [nicks]}``)."""


def _votes(phase: Mapping[str, Any]) -> list[tuple[str, str]]:
    if "votes" in phase:
        return [(v["voter"], v["target"]) for v in phase["votes"]]
    return [(voter, phase["hanged"]) for voter in phase.get("voters", [])]


def build(game: Mapping[str, Any], folder: Path) -> tuple[Path, Path]:
    """The game's config and database: votes as posts, requests as PMs to the host."""
    config = folder / "referee.toml"
    config.write_text(config_toml(game), encoding="utf-8")
    db = folder / "game.db"
    posts: list[Post] = []
    pms: list[PrivateMessage] = []
    silent = game.get("silent", {})
    for n in range(1, turns(game) + 1):
        for j, p in enumerate(game["players"]):
            if p["nick"] not in silent.get(n, ()):
                posts.append(Post(
                    post_id=1000 * n + 500 + j, author=p["nick"], author_id=None,
                    posted_at=day_start(n) + timedelta(minutes=j), body_html=CHAT,
                    body_text=CHAT, page=1, position=0, topic_id=TOPIC))
    for phase in game["phases"]:
        if "day" in phase:
            n = phase["day"]
            for i, (voter, target) in enumerate(_votes(phase)):
                html = f'Мой голос — <span style="color:red">{target}</span>{REASON}'
                posts.append(Post(
                    post_id=1000 * n + i, author=voter, author_id=None,
                    posted_at=day_start(n) + timedelta(hours=1, minutes=i), body_html=html,
                    body_text=f"Мой голос — {target}{REASON}", page=1,
                    position=len(posts) + 1, topic_id=TOPIC))
            sent = day_start(n) + timedelta(hours=2)
        else:
            n = phase["night"]
            sent = day_start(n) + timedelta(hours=11)
        for i, r in enumerate(phase.get("requests", [])):
            text = pm_text(r)
            pms.append(PrivateMessage(
                pm_id=100 + len(pms), sender=r["actor"], sender_id=None, recipients=(HOST,),
                sent_at=sent + timedelta(minutes=i), subject="Ход", body_html=text,
                body_text=text))
    posts = [replace(p, position=i) for i, p in
             enumerate(sorted(posts, key=lambda p: (p.posted_at, p.post_id)), start=1)]
    with Store.open(db) as store:
        store.save_topic_page(TopicPage(TOPIC, "Мафия", 1, 1, max(25, len(posts)),
                                        tuple(posts)), BASE)
        for pm in pms:
            store.save_pm(pm)
    return config, db


def referee_text(config: Path, db: Path, now: datetime, *args: str) -> str:
    """One ``referee`` command on the game, as the host types it (offline), at ``now``."""
    res = CliRunner().invoke(app, ["--config", str(config), "--db", str(db),
                                   "--now", f"{now:%Y-%m-%d %H:%M}", *args, "--offline"])
    assert res.exit_code == 0, (res.output, res.exception)
    return res.stdout


def referee(config: Path, db: Path, now: datetime, *args: str) -> dict[str, Any]:
    return json.loads(referee_text(config, db, now, *args, "--format", "json"))


def play_in_database(game: Mapping[str, Any], folder: Path) -> dict[str, Any]:
    """Every night through ``referee resolve-night`` (recorded, in order), every day through
    ``referee tally``, a day's removals through ``referee remove``: the replay's output
    shape. A day's rejected namings show in the next
    night's output here (they are read with its PMs), so they are moved there."""
    config, db = build(game, folder)
    after = day_start(turns(game) + 1)
    for phase in game["phases"]:
        for removal in phase.get("removed", []):
            nick, reason = ((removal, "пропал без вести") if isinstance(removal, str)
                            else (removal["player"], removal.get("reason", "")))
            CliRunner().invoke(app, ["--config", str(config), "--db", str(db), "remove",
                                     nick, "--after-day", str(phase["day"]), "--reason",
                                     reason], catch_exceptions=False)
    phases: list[dict[str, Any]] = []
    winner: Any = None
    for phase in game["phases"]:
        if "day" in phase:
            doc = referee(config, db, after, "tally", "--day", str(phase["day"]))
            phases.append({"day": phase["day"], "hanged": doc["hanged"], "rejected": []})
        else:
            doc = referee(config, db, after, "resolve-night", "--night", str(phase["night"]))
            keep = ("deaths", "saved", "checks", "rejected", "log")
            phases.append({key: doc[key] for key in keep} | {"night": phase["night"]})
        winner = doc["winner"]
    return {"phases": phases, "winner": winner}

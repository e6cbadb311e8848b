"""The night mail of a benchmark game: bench_game's 30-player plan (``game_plan.py``) and,
each night, the held-out PMs of ``heldout_night_pms.py`` re-sent by the plan's players of
the same roles — for ``bench_night_intake.py``. Uses only what every revision of the
intake reads (``Config``, ``PrivateMessage``)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from game_plan import make_plan
from heldout_night_pms import CASES, PLAYERS

from referee.config.game import Config, DaySchedule, ForumConfig
from referee.core.forum_settings import ForumSettings
from referee.core.kernel import PrivateMessage


def night_game(days: int) -> tuple[Config, list[PrivateMessage]]:
    plan = make_plan(days)
    config = Config(
        path=Path("referee.toml"), host="Ведущий",
        forum=ForumConfig(ForumSettings(url="http://forum/viewtopic.php?t=1")),
        players=tuple(plan.players),
        schedule=tuple(DaySchedule(d.number, d.start, d.deadline, d.night_deadline)
                       for d in plan.days),
    )
    pms = [PrivateMessage(pm_id=p.pm_id, sender=p.sender, sender_id=None,
                          recipients=("Ведущий",), sent_at=p.sent_at, subject=p.subject,
                          body_html=p.text, body_text=p.text) for p in plan.pms]
    role_of = {p.nick: p.role for p in PLAYERS}
    player_of = {}
    for p in plan.players:
        player_of.setdefault(p.role, p.nick)
    pm_id = 900_000
    for day in plan.days:
        for i, (sender, texts, _stands, _asks) in enumerate(CASES):
            who = player_of.get(role_of[sender])
            if who is None:
                continue
            for k, text in enumerate(texts):
                pm_id += 1
                when = day.deadline + timedelta(minutes=5 + i * 5 + k)
                pms.append(PrivateMessage(pm_id=pm_id, sender=who, sender_id=None,
                                          recipients=("Ведущий",), sent_at=when, subject="",
                                          body_html=text, body_text=text))
    pms.sort(key=lambda p: (p.sent_at, p.pm_id))
    return config, pms

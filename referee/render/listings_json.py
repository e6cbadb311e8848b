"""``--format json`` of the host's listings — ``votes``, ``pms``, ``check``, ``export`` — for
a host's own scripts: the same facts the text shows, with ids, ISO times (UTC) and the
post's link, keys in English as in every other JSON of the tool."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.core.kernel import PrivateMessage
from referee.host.checkup import Checkup
from referee.render.cells import iso
from referee.render.tally import post_link
from referee.rules.day.result import Tally


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def votes_json(day: int, tally: Tally, topic_url: str | None) -> str:
    """Every vote event of the day, in time order: counted ones with their target, rejected
    ones with the rule and the reason."""
    events = [{"post_id": v.post_id, "at": iso(v.at), "voter": v.voter, "typed": v.typed,
               "target": v.target, "counted": True, "accepted_by": v.accepted_by,
               "rule": None, "reason": None, "flags": [str(n) for n in v.flags],
               "link": post_link(v.post_id, topic_url)} for v in tally.votes]
    events += [{"post_id": r.post_id, "at": iso(r.at), "voter": r.voter, "typed": r.typed,
                "target": r.target, "counted": False, "accepted_by": None, "rule": r.rule,
                "reason": r.reason, "flags": [], "link": post_link(r.post_id, topic_url)}
               for r in tally.rejected]
    events.sort(key=lambda e: (e["at"], e["post_id"]))
    return dumps({"day": day, "events": events})


def pms_json(items: Sequence[PrivateMessage], night: int | None) -> str:
    """The stored PMs (of one night's window when asked), the whole text of each."""
    return dumps({"night": night, "pms": [
        {"pm_id": p.pm_id, "sender": p.sender, "recipients": list(p.recipients),
         "sent_at": iso(p.sent_at), "subject": p.subject, "folder": p.folder,
         "text": p.body_text} for p in items]})


def checkup_json(c: Checkup) -> str:
    """What ``check`` understood: ok, the errors and warnings, the schedule, the roster."""
    config = c.config
    topic = c.topic
    return dumps({
        "config": str(c.path), "ok": c.ok, "errors": list(c.errors),
        "warnings": list(c.warnings),
        "schedule": [{"day": d.day, "start": iso(d.start), "deadline": iso(d.deadline),
                      "night_deadline": iso(d.night_deadline)} for d in c.schedule],
        "players": [{"nick": p.nick, "role": p.role if p.role_given else None,
                     "clan": p.clan} for p in (config.players if config else ())],
        "sides": dict(c.sides), "setup_sides": dict(c.setup_sides),
        "dealt_seed": c.dealt_seed,
        "rules_changed": [{"key": k, "value": v, "default": d}
                          for k, v, d in c.rules_changed],
        "topic": None if topic is None else {
            "engine": topic.engine, "title": topic.title, "pages": topic.pages,
            "posts": topic.posts, "first_author": topic.first_author,
            "logged_in_as": topic.logged_in_as},
    })


def export_json(game_file: Path, votes_file: Path, events: int) -> str:
    """What ``export`` wrote."""
    return dumps({"game_file": str(game_file), "votes_csv": str(votes_file),
                  "vote_events": events})

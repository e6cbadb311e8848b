"""The interactions the rules text leaves open, as decided in docs/rules.md N15.1–N15.15: one
scenario per decision and per edge it names, written the way a host tells the night.

Each :class:`Case` is a small game (phases in order, each night with what the host
announces after it) and the host's explanation of why. :func:`replay_game` turns it into the
replay format, so the same case runs through ``referee replay`` and, with
:mod:`dbgame`, through ``referee resolve-night`` on a game in the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from nighttable import request, roster

PLAYERS = (
    "Ann, Bob, Vera, Kom=commissar, Ser=sergeant, Nin=ninja, Doc=doctor, Necro=necromancer, "
    "Pr=priest, SonA=boss_son/A, SonB=boss_son/B, Don=mafia/A, Vito=mafia/A, ThugA=thug/A, "
    "KamiA=kamikaze/A, Tony=mafia/B, ThugB=thug/B, KamiB=kamikaze/B, Jack=maniac"
)
"""Two clans of Мафия + Громила + Камикадзе + ВСБ, the maniac, every town role, three
citizens (the docs/rules.md setup, smaller)."""


@dataclass(frozen=True)
class Day:
    """Day ``n``: votes in time order (``"Ann>Nin, Bob>Nin"``), the necromancer's namings
    sent by day, and what the day decides."""

    n: int
    votes: str = ""
    requests: tuple[str, ...] = ()
    hanged: str | None = None
    rejected: tuple[str, ...] = ()


@dataclass(frozen=True)
class Night:
    """Night ``n``: the requests in sending order (``"Don shoot Ann by Vito"``) and what the
    host announces: who died of what (``{"Ann": "mafia:A"}``, causes joined by ``" + "``),
    who was saved by whom, the check results (target → role id), the rejected requests
    (``"Don shoot"``), and a line the host's log must say (with the decision's number)."""

    n: int
    requests: tuple[str, ...] = ()
    dead: Mapping[str, str] = field(default_factory=dict)
    saved: Mapping[str, str] = field(default_factory=dict)
    checks: Mapping[str, str] = field(default_factory=dict)
    rejected: tuple[str, ...] = ()
    says: str = ""


@dataclass(frozen=True)
class Case:
    rule: str
    edge: str
    why: str
    phases: tuple[Day | Night, ...]
    winner: str | None = None
    players: str = PLAYERS

    @property
    def id(self) -> str:
        return f"{self.rule} {self.edge}"


def _request_json(line: str) -> dict[str, Any]:
    r = request(line)
    out: dict[str, Any] = {"actor": r.actor, "action": r.action}
    if r.targets:
        out["targets"] = list(r.targets)
    elif r.target:
        out["target"] = r.target
    if r.executor:
        out["executor"] = r.executor
    return out


def replay_game(case: Case) -> dict[str, Any]:
    """The case in the replay format (``referee replay GAME.json``)."""
    players = [{"nick": p.nick, "role": p.role, **({"clan": p.clan} if p.clan else {})}
               for p in roster(case.players)]
    phases: list[dict[str, Any]] = []
    for p in case.phases:
        if isinstance(p, Day):
            votes = [dict(zip(("voter", "target"), v.strip().split(">"), strict=True))
                     for v in p.votes.split(",") if v.strip()]
            phase: dict[str, Any] = {"day": p.n, "votes": votes}
        else:
            phase = {"night": p.n}
        if p.requests:
            phase["requests"] = [_request_json(line) for line in p.requests]
        phases.append(phase)
    return {"_rule": case.rule, "_why": case.why, "players": players, "phases": phases}


def expected(case: Case) -> list[dict[str, Any]]:
    """What the host announces, phase by phase, in the shape :func:`host_reads` gives."""
    out: list[dict[str, Any]] = []
    for p in case.phases:
        if isinstance(p, Day):
            out.append({"day": p.n, "hanged": p.hanged, "rejected": sorted(p.rejected)})
        else:
            out.append({
                "night": p.n,
                "dead": {n: sorted(c.split(" + ")) for n, c in p.dead.items()},
                "saved": dict(p.saved),
                "checks": dict(p.checks),
                "rejected": sorted(p.rejected),
            })
    return out


def host_reads(phases: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A replay's (or the database's) phases reduced to what the host announces."""
    out: list[dict[str, Any]] = []
    for p in phases:
        rejected = sorted(f"{r['actor']} {r['action']}" for r in p.get("rejected", []))
        if "day" in p:
            out.append({"day": p["day"], "hanged": p.get("hanged"), "rejected": rejected})
        else:
            out.append({
                "night": p["night"],
                "dead": {d["player"]: sorted(d["causes"]) for d in p["deaths"]},
                "saved": {s["player"]: s["by"] for s in p["saved"]},
                "checks": {c["target"]: c["result"] for c in p["checks"]},
                "rejected": rejected,
            })
    return out


def night_reads_day(phases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """In the database the necromancer's day PMs are read with the next night's: a naming
    the day rejected shows in that night's output. Move it there to compare."""
    out: list[dict[str, Any]] = []
    carry: list[str] = []
    for p in phases:
        p = dict(p)
        if "day" in p:
            carry, p["rejected"] = p["rejected"], []
        else:
            p["rejected"], carry = sorted([*p["rejected"], *carry]), []
        out.append(p)
    return out

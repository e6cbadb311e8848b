"""The host's decisions («решения ведущего») as typed values, and the one place that turns
them into store rows and back.

Every decision is appended to the database with its time and reason and never rewritten;
a later decision on the same subject wins where the rules read them. The commands build
these values (``referee vote accept``, ``hang``, ``remove``, ``excuse``, ``action add``,
``tally --deadline`` …), :func:`record` writes one, :func:`recorded` reads them back, oldest
first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from referee.config.game import Player
from referee.core.errors import GameError

if TYPE_CHECKING:  # the rules read decisions without loading the database (issue 28)
    from referee.rules.intake.requests_file import HostEdit
    from referee.store import Override, Store

VoteAction = Literal["accept", "reject", "set"]
NightEditOp = Literal["add", "drop"]
NightEditSource = Literal["host", "file"]


@dataclass(frozen=True, slots=True)
class VoteDecision:
    """On one post (V3): ``accept`` (count it although V1/V3/V4 said no), ``reject``
    (it counts as no vote), ``set`` (the vote is for ``target``)."""

    action: VoteAction
    post_id: int
    reason: str = ""
    target: str | None = None

    @classmethod
    def parse(cls, text: str) -> VoteDecision:
        """``accept 85`` | ``reject 85 флуд`` | ``set 99 target Снежок``."""
        parts = text.strip().split(maxsplit=2)
        hint = "пишите: accept НОМЕР | reject НОМЕР причина | set НОМЕР target НИК"
        if len(parts) < 2 or parts[0].lower() not in ("accept", "reject", "set"):
            raise GameError(f"не удаётся прочитать решение {text!r}", hint)
        action = parts[0].lower()
        try:
            post_id = int(parts[1].lstrip("#p"))
        except ValueError as e:
            raise GameError(f"решение {text!r}: {parts[1]!r} — не номер сообщения", hint) from e
        rest = parts[2].strip() if len(parts) > 2 else ""
        if action == "set":
            word, _, nick = rest.partition(" ")
            if word.lower() != "target" or not nick.strip():
                raise GameError(f"решение {text!r}: нет ника цели", hint)
            return cls("set", post_id, target=nick.strip())
        if action == "reject":
            return cls("reject", post_id, reason=rest)
        return cls("accept", post_id, reason=rest)

    def __str__(self) -> str:
        """The decision in the host's words (host-only texts), never the command syntax
        («set 9 target Kotik» read as a leak of the tool's insides)."""
        if self.action == "set":
            return f"сообщение #{self.post_id}: голос за {self.target}"
        if self.action == "reject":
            why = f" ({self.reason})" if self.reason else ""
            return f"сообщение #{self.post_id}: не засчитывать{why}"
        why = f" ({self.reason})" if self.reason else ""
        return f"сообщение #{self.post_id}: засчитать{why}"


@dataclass(frozen=True, slots=True)
class Hanging:
    """The day's result as the host decides it over the count (``referee hang``);
    ``hanged`` None: nobody is hanged."""

    day: int
    hanged: str | None
    reason: str = ""
    """The host's own record: never in a public part."""
    public_note: str = ""
    """What the host wants the players to read with the result (``--public-note``)."""


@dataclass(frozen=True, slots=True)
class Removal:
    """A player removed at the end of Day ``after_day`` (A3), for any reason."""

    nick: str
    after_day: int
    reason: str = "решение ведущего"
    """The host's own record: never in a public part."""
    public_note: str = ""
    """Why the players are told the player leaves (``--public-note``); else «решение
    ведущего»."""


@dataclass(frozen=True, slots=True)
class Excuse:
    """The player warned the host: not flagged for missing turn ``turn`` (A1, A2)."""

    nick: str
    turn: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class NightEdit:
    """A night request added in the host's name (replacing the requester's requests of
    that kind) or dropped (N1)."""

    op: NightEditOp
    night: int
    actor: str
    action: str | None = None
    target: str | None = None
    targets: tuple[str, ...] = ()
    executor: str | None = None
    source: NightEditSource = "host"
    reason: str = ""
    decision_id: int | None = field(default=None, compare=False)
    """The row it was read from (``host#N`` in the night's log)."""

    def host_edit(self) -> HostEdit:
        """The edit as the night's intake applies it (its row as ``host#N``)."""
        # Imported here: the intake's reader is not loaded by every command that reads
        # decisions (a day's count never needs it).
        from referee.rules.intake.requests_file import HostEdit

        return HostEdit(op=self.op, night=self.night, actor=self.actor, action=self.action,
                        target=self.target, targets=self.targets, executor=self.executor,
                        reason=self.reason, source=self.source,
                        source_id=f"host#{self.decision_id}")


@dataclass(frozen=True, slots=True)
class ScheduleChange:
    """A day's deadline moved, or a day the config does not list added with its start."""

    day: int
    deadline: datetime
    start: datetime | None = None
    night_deadline: datetime | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Deal:
    """The roles ``referee deal`` gave (docs/rules.md Setup): the game's roster from then on."""

    seed: int
    players: tuple[Player, ...]
    reason: str = ""


Decision = VoteDecision | Hanging | Removal | Excuse | NightEdit | ScheduleChange | Deal
D = TypeVar("D", VoteDecision, Hanging, Removal, Excuse, NightEdit, ScheduleChange, Deal)


# --------------------------------------------------------------------------- to rows

def _row(d: Decision) -> tuple[str, str, dict[str, Any]]:
    """(kind, subject, payload) of the store row for ``d``."""
    match d:
        case VoteDecision():
            return f"vote.{d.action}", str(d.post_id), {"target": d.target} if d.target else {}
        case Hanging():
            return "result.day", str(d.day), {"hanged": d.hanged, **_note(d.public_note)}
        case Removal():
            return "player.remove", d.nick, {"effective_after_day": d.after_day,
                                             **_note(d.public_note)}
        case Deal():
            return "deal", str(d.seed), {"players": [
                {"nick": p.nick, "role": p.role, "clan": p.clan} for p in d.players]}
        case Excuse():
            return "excuse", d.nick, {"turn": d.turn}
        case NightEdit():
            payload: dict[str, Any] = {"night": d.night, "action": d.action}
            if d.op == "add":
                payload |= {"target": d.target, "targets": list(d.targets),
                            "executor": d.executor}
            if d.source != "host":
                payload["source"] = d.source
            return f"action.{d.op}", d.actor, payload
        case ScheduleChange() if d.start is not None:
            payload = {"start": d.start.isoformat(), "deadline": d.deadline.isoformat()}
            if d.night_deadline is not None:
                payload["night_deadline"] = d.night_deadline.isoformat()
            return "schedule.day", str(d.day), payload
        case ScheduleChange():
            return "schedule.deadline", str(d.day), {"deadline": d.deadline.isoformat()}
    raise TypeError(f"not a host decision: {d!r}")


def _note(text: str) -> dict[str, str]:
    return {"public_note": text} if text else {}


def record(store: Store, decision: Decision) -> Override:
    """Append one decision to the game's record (one transaction)."""
    kind, subject, payload = _row(decision)
    return store.add_override(kind, subject, payload, decision.reason)


# --------------------------------------------------------------------------- from rows

def _when(value: Any) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _vote(o: Override, p: Mapping[str, Any]) -> VoteDecision:
    action = o.kind.split(".", 1)[1]
    return VoteDecision(action, int(o.subject), o.reason, p.get("target"))  # type: ignore[arg-type]


def _night_edit(o: Override, p: Mapping[str, Any]) -> NightEdit:
    return NightEdit(
        op="add" if o.kind == "action.add" else "drop", night=int(p.get("night", -1)),
        actor=o.subject, action=p.get("action"), target=p.get("target"),
        targets=tuple(p.get("targets") or ()), executor=p.get("executor"),
        source="file" if p.get("source") == "file" else "host", reason=o.reason,
        decision_id=o.id,
    )


def _schedule(o: Override, p: Mapping[str, Any]) -> ScheduleChange:
    deadline = _when(p["deadline"])
    assert deadline is not None
    return ScheduleChange(int(o.subject), deadline, _when(p.get("start")),
                          _when(p.get("night_deadline")), o.reason)


_READERS: dict[type, tuple[str, Any]] = {
    VoteDecision: ("vote.", _vote),
    Hanging: ("result.day", lambda o, p: Hanging(int(o.subject), p.get("hanged"), o.reason,
                                                 p.get("public_note", ""))),
    Removal: ("player.remove", lambda o, p: Removal(
        o.subject, int(p.get("effective_after_day", 0)), o.reason, p.get("public_note", ""))),
    Deal: ("deal", lambda o, p: Deal(int(o.subject), tuple(
        Player(x["nick"], x["role"], x.get("clan")) for x in p.get("players", [])), o.reason)),
    Excuse: ("excuse", lambda o, p: Excuse(o.subject, int(p.get("turn", 0)), o.reason)),
    NightEdit: ("action.", _night_edit),
    ScheduleChange: ("schedule.", _schedule),
}


def recorded(store: Store, kind: type[D]) -> list[D]:
    """Every recorded decision of one kind, oldest first."""
    prefix, read = _READERS[kind]
    return [read(o, o.payload) for o in store.overrides(prefix)]


def all_recorded(store: Store) -> list[tuple[Override, Decision]]:
    """The whole record, oldest first, each row with its typed decision (for a game log)."""
    out: list[tuple[Override, Decision]] = []
    for o in store.overrides():
        for prefix, read in _READERS.values():
            if o.kind == prefix or (prefix.endswith(".") and o.kind.startswith(prefix)):
                out.append((o, read(o, o.payload)))
                break
    return out

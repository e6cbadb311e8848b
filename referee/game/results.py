"""What the game's commands return: a day's count, a night's resolution, an activity check,
with what the game recorded of each; and the small conversions they share."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from referee.actions import Request
from referee.config import DaySchedule
from referee.day.activity import ActivityReport
from referee.day.result import Tally
from referee.intake import NightIntake
from referee.night import NightOutcome
from referee.night.win import GameResult


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class DayResult:
    """A day's tally with what the game recorded of it."""

    tally: Tally
    recorded: bool
    """True when this run recorded the result (first run after the deadline)."""
    recorded_hanged: str | None
    recorded_at: datetime | None
    notes: tuple[str, ...]
    """Host-facing notes: provisional nights, recorded result that differs, ..."""
    day: int = 0
    window: DaySchedule | None = None
    winner: GameResult | None = None
    """W2, N15.14: the game is over after this day (who won, or a draw)."""
    removals: tuple[dict[str, Any], ...] = ()
    """A3: players leaving the game at the end of this day, after the tally (recorded
    activity checks and the host's ``remove``): ``nick``, ``rule``, ``explanation``."""


@dataclass(frozen=True, slots=True)
class NightResult:
    night: int
    window: tuple[datetime, datetime]
    intake: NightIntake
    requests: tuple[Request, ...]
    host_edits: tuple[str, ...]
    outcome: NightOutcome
    recorded: bool
    already_recorded: bool
    final: bool
    notes: tuple[str, ...] = ()
    winner: GameResult | None = None

    @property
    def early(self) -> bool:
        """The night is not over and not resolved: its requests may still change, so no
        death, check or save of it is shown yet (not even to the host)."""
        return not (self.final or self.recorded or self.already_recorded)


@dataclass(frozen=True, slots=True)
class ActivityResult:
    report: ActivityReport
    recorded: bool
    notes: tuple[str, ...] = ()





def _sync_warnings(adapter: object, report: object) -> list[str]:
    """What a host must know after a sync: pages of the topic that were not read (a
    snapshot folder without them), saved files that could not be used, and why, and what
    the engine says once (``notes``: e.g. a board's API closed, its pages read instead)."""
    out: list[str] = [f"! {note}" for note in getattr(adapter, "notes", ())]
    last, total = getattr(report, "last_page", 0), getattr(report, "total_pages", 0)
    if total and last < total:
        out.append(f"! страницы {last + 1}–{total} темы не прочитаны: "
                   + ("их нет в папке snapshot — сохраните и их"
                      if hasattr(adapter, "skipped") else "форум их не отдал"))
    out += [f"! {note}" for note in getattr(report, "notes", ())]
    for path, why in getattr(adapter, "skipped", []):
        name = getattr(path, "name", str(path))
        if name.lower().endswith((".html", ".htm")):
            out.append(f"! пропущен сохранённый файл {name}: {why}")
    return out


def _voters_of(t: Tally, nick: str | None) -> tuple[str, ...]:
    if nick is None:
        return ()
    for c in t.counts:
        if c.target == nick:
            return tuple(v.voter for v in c.voters)
    return ()


def _request_to(r: Request) -> dict[str, Any]:
    return {
        "actor": r.actor, "action": r.action, "target": r.target, "targets": list(r.targets),
        "executor": r.executor, "order": r.order, "source": r.source, "source_id": r.source_id,
        "sent_at": r.sent_at.isoformat() if r.sent_at else None, "note": r.note,
    }


def _request_from(d: dict[str, Any]) -> Request:
    return Request(
        actor=d["actor"], action=d["action"], target=d.get("target"),
        targets=tuple(d.get("targets") or ()), executor=d.get("executor"),
        order=int(d.get("order") or 0), source=d.get("source") or "pm",
        source_id=d.get("source_id"),
        sent_at=datetime.fromisoformat(d["sent_at"]) if d.get("sent_at") else None,
        note=d.get("note") or "",
    )

"""What the game's commands return: a day's count, a night's resolution, an activity check,
with what the game recorded of each; and the small conversions they share."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from referee.config.game import DaySchedule
from referee.core.errors import RequestRefused
from referee.rules.actions import Request
from referee.rules.day.activity import ActivityReport
from referee.rules.day.result import Tally
from referee.rules.intake import NightIntake
from referee.rules.night import GameState, NightOutcome
from referee.rules.night.win import GameResult


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
    held: tuple[str, ...] = ()
    """Issue 26: what stands against recording and posting this count (incomplete data,
    a roster in doubt); empty when nothing does."""


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
    held: tuple[str, ...] = ()
    """Issue 26: what stands against recording and sending this night (a PM listing cut
    short); empty when nothing does."""
    leaving: tuple[dict[str, Any], ...] = ()
    """A3: players who leave at the start of the next day for a silent turn, announced with
    this night's morning summary (``nick``, ``rule``, ``explanation``); worked out once the
    turn is over."""
    morning: GameState | None = None
    """The game at the start of the next day: the night's deaths, then ``leaving``."""

    @property
    def morning_state(self) -> GameState:
        return self.morning if self.morning is not None else self.outcome.state

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
    held: tuple[str, ...] = ()
    """Issue 26: what stands against recording and posting this check (see DayResult)."""


PhaseKind = Literal["day", "night"]
Asked = Literal["day", "night", "turn"]
"""What a command may be about once the game is over: a day, a night, a turn's activity
check."""


@dataclass(frozen=True, slots=True)
class GameEnd:
    """Where the game ended (W2, N15.14): after Day or Night ``number``, with ``result``.
    ``recorded``: that phase's result is recorded; else the game counted it as it stands
    (a day past its deadline, a night over but not resolved yet)."""

    result: GameResult
    phase: PhaseKind
    number: int
    recorded: bool = True

    @property
    def after(self) -> str:
        """«после ночи 4»."""
        return f"после {'дня' if self.phase == 'day' else 'ночи'} {self.number}"

    def explain(self) -> str:
        """«Игра окончена после ночи 4: победа — мирные жители.»"""
        return f"Игра окончена {self.after}: {self.result.outcome_ru()}."

    def hint(self) -> str:
        """What the host can do: see the end, or change it by a decision about a phase up
        to the end (then the game goes on and the later phases count again)."""
        about = f"о {'дне' if self.phase == 'day' else 'ночи'} {self.number} или раньше"
        change = (f"игра продолжится, только если решение ведущего {about} (hang, vote, "
                  "remove, excuse, action) изменит этот итог")
        if self.recorded:
            return f"итог игры — referee status; {change}"
        if self.phase == "day":
            return (f"итог дня {self.number} ещё не записан, он посчитан по голосам: "
                    f"referee tally --day {self.number}; {change}")
        return (f"ночь {self.number} ещё не записана, она разобрана по ЛС: "
                f"referee resolve-night --night {self.number}; {change}")


class GameOver(RequestRefused):
    """A phase after the end of the game was asked for (W2, N15.14): refused before
    anything is counted, recorded or sent (exit code 2, like every refusal)."""

    def __init__(self, end: GameEnd, refused: str) -> None:
        self.end = end
        super().__init__(f"{end.explain()} {refused}", end.hint())


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

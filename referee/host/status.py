"""The game at a glance for the host (``referee status``): the phase now and the next
deadline, who lives with role and clan, who left the game — how and when — and what is still
to do. Plain values; :mod:`referee.render.status` writes them as text or JSON.

"Still to do" is what the host would otherwise track in a spreadsheet beside the topic:

- days past their deadline whose result is not recorded (``tally``), nights that are over
  and not resolved (``resolve-night``), turns that are over and not checked
  (``check-activity``);
- PMs of a night not resolved yet that could not be read (N14: the host decides them);
- private results of a resolved night not sent yet (``resolve-night --send``);
- host decisions recorded since the last count: the phase they change has no recorded
  result yet, so nothing published shows them so far.

Nothing is recorded or sent: the status only looks (:mod:`referee.host.chronicle`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from referee.config.game import DaySchedule
from referee.core.errors import GameError
from referee.game import Game, NightResult
from referee.host.chronicle import Chronicle, DayEntry, NightEntry, chronicle
from referee.host.outgoing import night_messages
from referee.rules import decisions
from referee.rules.decisions import (
    Decision,
    Excuse,
    Hanging,
    NightEdit,
    Removal,
    ScheduleChange,
    VoteDecision,
)
from referee.rules.intake import NightIntake
from referee.rules.night import NightOutcome

PhaseKind = Literal["before", "day", "night", "break", "unscheduled", "over"]
ItemKind = Literal["day", "night", "activity", "pm", "private", "decision"]
PrivateResults = Callable[[NightOutcome], Sequence[tuple[str, str]]]
"""A night's private results as sent (:func:`referee.render.morning.private_results`)."""


@dataclass(frozen=True, slots=True)
class PhaseNow:
    """Where the game stands (T1): ``day``/``night`` N with its deadline; ``before`` Day 1
    (deadline = its start); a ``break`` between Night N-1 and Day N (deadline = the day's
    start); ``unscheduled`` past the last scheduled phase; ``over`` after the end (W2)."""

    kind: PhaseKind
    number: int | None
    deadline: datetime | None
    left: timedelta | None


@dataclass(frozen=True, slots=True)
class Living:
    nick: str
    role: str
    clan: str | None
    dealt_role: str
    """Differs from ``role`` for a sergeant who took the commissar's badge (N12)."""


@dataclass(frozen=True, slots=True)
class Gone:
    """A player out of the game: ``how`` is ``hanged`` (V6), ``night`` (N2, ``causes`` as
    the engine's tokens, e.g. ``mafia:<clan>``) or ``removed`` (A3: ``rule`` and
    ``explanation`` as recorded). ``recorded`` is false while the phase is only counted, not
    recorded yet."""

    nick: str
    role: str
    clan: str | None
    how: Literal["hanged", "night", "removed"]
    number: int
    at: datetime
    causes: tuple[str, ...] = ()
    rule: str = ""
    explanation: str = ""
    recorded: bool = True
    at_start: bool = False
    """A removal at the start of Day ``number`` (A3: a silent turn), not at its end."""


@dataclass(frozen=True, slots=True)
class OpenItem:
    """One thing still to do, with the command that does it."""

    kind: ItemKind
    number: int
    """The day, night or turn it belongs to."""
    command: str
    subject: str = ""
    """A nick, ``ЛС #N``, or what a decision is about."""
    detail: str = ""
    at: datetime | None = None
    decision: Decision | None = None


@dataclass(frozen=True)
class Status:
    title: str
    now: datetime
    timezone: str
    phase: PhaseNow
    living: tuple[Living, ...]
    gone: tuple[Gone, ...]
    open: tuple[OpenItem, ...]
    winner: str | None
    winner_text: str | None


def game_status(game: Game, private_results: PrivateResults | None = None,
                story: Chronicle | None = None) -> Status:
    """The status of ``game`` now. ``private_results`` writes a night's private results as
    they are sent, to find those not sent yet (without it they are not looked for);
    ``story``: the chronicle, if the caller has it."""
    story = story or chronicle(game)
    config = game.config
    state = story.state
    living = tuple(Living(n, state.role_of(n), state.clan_of(n), state.dealt_role_of(n))
                   for n in state.alive)
    return Status(
        title=config.title, now=game.now, timezone=str(config.tz), phase=phase_now(game, story),
        living=living, gone=_gone(story), open=open_items(game, story, private_results),
        winner=story.winner_token, winner_text=story.winner_text,
    )


def phase_now(game: Game, story: Chronicle) -> PhaseNow:
    """The phase the clock is in (T1, T2: a deadline instant belongs to what follows)."""
    now = game.now
    if story.winner is not None:
        return PhaseNow("over", None, None, None)
    schedule = game.schedule
    if schedule and now < schedule[0].start:
        return _phase("before", schedule[0].day, schedule[0].start, now)
    for d in schedule:
        if d.start <= now < d.deadline:
            return _phase("day", d.day, d.deadline, now)
        end = _night_end(game, d)
        if end is not None and d.deadline <= now < end:
            return _phase("night", d.day, end, now)
        nxt = next((x for x in schedule if x.day == d.day + 1), None)
        if nxt is not None and end is not None and end <= now < nxt.start:
            return _phase("break", nxt.day, nxt.start, now)
    last = schedule[-1].day if schedule else None
    return PhaseNow("unscheduled", last, None, None)


def _phase(kind: PhaseKind, number: int, deadline: datetime, now: datetime) -> PhaseNow:
    return PhaseNow(kind, number, deadline, deadline - now)


def _night_end(game: Game, day: DaySchedule) -> datetime | None:
    try:
        return game.night_window(day.day)[1]
    except GameError:
        return None


def _gone(story: Chronicle) -> tuple[Gone, ...]:
    out: list[Gone] = []
    for p in story.phases:
        before = p.before
        if isinstance(p, DayEntry):
            leaving = {x.nick: x for x in p.leaving}
            for d in p.deaths:
                role, clan = before.role_of(d.player), before.clan_of(d.player)
                if "hanged" in d.causes:
                    out.append(Gone(d.player, role, clan, "hanged", p.day, p.window.deadline,
                                    recorded=p.recorded))
                else:
                    x = leaving.get(d.player)
                    out.append(Gone(d.player, role, clan, "removed", p.day, p.window.deadline,
                                    rule=x.rule if x else "",
                                    recorded=p.recorded and (x is None or x.recorded),
                                    explanation=x.explanation if x else ""))
        else:
            for d in p.deaths:
                out.append(Gone(d.player, before.role_of(d.player), before.clan_of(d.player),
                                "night", p.night, p.window[1], causes=d.causes,
                                recorded=p.recorded))
            for x in p.leaving:  # A3: a silent turn, out with the start of the next day
                out.append(Gone(x.nick, before.role_of(x.nick), before.clan_of(x.nick),
                                "removed", p.night + 1, p.window[1], rule=x.rule,
                                explanation=x.explanation, recorded=x.recorded,
                                at_start=True))
    return tuple(out)


# ---------------------------------------------------------------------- still to do

def open_items(game: Game, story: Chronicle,
               private_results: PrivateResults | None = None) -> tuple[OpenItem, ...]:
    """What is still to do, phase by phase, then the decisions not counted yet."""
    items: list[OpenItem] = []
    # After the end of the game (W2) the phases after it are nobody's business (the game
    # refuses them): not the night after a day that ended it, nor the last turn's check.
    end = story.end
    last = end.number if end is not None else max((d.day for d in game.schedule), default=0)
    last_night = end is None or end.phase == "night"
    for d in game.schedule:
        if d.day > last:
            break
        items += _phase_items(game, story, d, private_results,
                              with_night=d.day < last or last_night,
                              with_turn=d.day < last or end is None)
    refused = {("night", last)} if not last_night else set()
    if end is not None:
        refused.add(("activity", last))
    items += _decision_items(game, last, refused)
    return tuple(items)


def _phase_items(game: Game, story: Chronicle, d: DaySchedule,
                 private_results: PrivateResults | None, *, with_night: bool,
                 with_turn: bool) -> list[OpenItem]:
    now, store, n = game.now, game.store, d.day
    items: list[OpenItem] = []
    if now >= d.deadline and store.result("day", n) is None:
        items.append(OpenItem("day", n, f"referee tally --day {n}", at=d.deadline))
    end = _night_end(game, d) if with_night else None
    night = story.night(n)
    if end is not None and now >= d.deadline and store.result("night", n) is None:
        if now >= end:
            items.append(OpenItem("night", n, f"referee resolve-night --night {n}", at=end))
        for u in game.night_intake(n).unreadable:
            pm = f"ЛС #{u.pm_id}" if u.pm_id is not None else "ЛС"
            items.append(OpenItem("pm", n, f"referee pms --night {n}", subject=pm,
                                  detail=f"{u.sender}: {u.reason}", at=u.sent_at))
    elif night is not None and night.recorded and private_results is not None:
        items += _unsent(game, night, private_results)
    nxt = next((x for x in game.schedule if x.day == n + 1), None)
    if with_turn and nxt is not None and now >= nxt.start and store.result("activity", n) is None:
        items.append(OpenItem("activity", n, f"referee check-activity --turn {n}",
                              at=nxt.start))
    return items


def _unsent(game: Game, night: NightEntry, private_results: PrivateResults) -> list[OpenItem]:
    """N9, N10, N12: the private results of a resolved night that were not sent yet.

    From the recorded night's outcome: its PMs are not read again (issue 30). What
    :func:`night_messages` is handed stands for the night only by its number, window and
    end (the messages' keys and recipients); the texts come from ``private_results``."""
    if game.now < night.window[1]:
        return []
    intake = NightIntake(night.night, night.window, requests=(), flags=(), unreadable=())
    recorded = NightResult(night=night.night, window=night.window, intake=intake,
                           requests=(), host_edits=(), outcome=night.outcome, recorded=False,
                           already_recorded=True, final=True)
    messages = night_messages(game.config, recorded, report="",
                              private=private_results(night.outcome), post=False,
                              send=True, now=game.now)
    return [OpenItem("private", night.night,
                     f"referee resolve-night --night {night.night} --send",
                     subject=m.recipient, detail=m.body.strip())
            for m in messages if game.store.was_sent(m.key) is None]


def _decision_items(game: Game, last: int, refused: set[tuple[str, int]]) -> list[OpenItem]:
    """Host decisions whose phase has no recorded result yet: no count shows them so far
    (none about a phase the game refuses after its end: ``refused``)."""
    out: list[OpenItem] = []
    for row, decision in decisions.all_recorded(game.store):
        where = _decision_phase(game, decision)
        if where is None or where[1] > last or game.store.result(*where) is not None:
            continue
        if where in refused:
            continue
        command = {"day": f"referee tally --day {where[1]}",
                   "night": f"referee resolve-night --night {where[1]}",
                   "activity": f"referee check-activity --turn {where[1]}"}[where[0]]
        out.append(OpenItem("decision", where[1], command, subject=row.kind,
                            detail=row.reason, at=row.recorded_at, decision=decision))
    return out


def _decision_phase(game: Game, decision: Decision) -> tuple[str, int] | None:
    """(phase, number) of the recorded result a decision changes."""
    match decision:
        case VoteDecision():
            post = game.store.post(decision.post_id)
            if post is None:
                return None
            for d in game.schedule:
                if d.start <= post.posted_at < (d.night_deadline or d.deadline):
                    return "day", d.day
            return None
        case Hanging() | ScheduleChange():
            return "day", decision.day
        case Excuse():
            return "activity", decision.turn
        case NightEdit():
            return "night", decision.night
        case Removal():
            # It takes effect at the end of the day, before the night: the night's record
            # is the first count made after it.
            return "night", decision.after_day
    return None

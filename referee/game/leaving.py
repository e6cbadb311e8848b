"""Who leaves the game and when (docs/rules.md A1–A3), worked out — not only recorded (issue 27).

A removal takes effect at a moment of the game (A3): an A2 removal (missed votes) at the end
of Day N, after its tally; an A1 removal (a silent turn N) at the start of Day N+1, with the
morning summary of night N (``silent_leave = "morning"``), or at the end of Day N+1
(``"end_of_day"``); the host's ``remove`` at the end of the day he names. Once a removal is
final — A2 at Day N's deadline, A1 when turn N is over — every command applies it at that
moment, whether ``check-activity`` has recorded the turn or not: the day's summary names it,
the next day does not count its votes (V5), the morning summary announces it. A turn
recorded by ``check-activity`` is applied as recorded (the same removals, worked out from
the same facts); a turn not recorded yet is worked out here, and nothing is recorded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from referee.core.errors import GameError
from referee.core.kernel import Post
from referee.game.core import GameCore
from referee.game.safety import hold
from referee.rules import decisions
from referee.rules.day.activity import (
    ActivityReport,
    Effect,
    Excuse,
    TurnDeath,
    check_activity,
    turn_window,
)
from referee.rules.day.result import Tally
from referee.rules.decisions import Excuse as ExcuseDecision
from referee.rules.decisions import Removal
from referee.rules.night import GameState
from referee.rules.night.day import remove_player

if TYPE_CHECKING:
    from referee.game.results import DayResult
    from referee.game.states import States

_ACTIVITY_RULE = re.compile(r"^A[12](, A[12])*$")
"""The reason an activity removal is recorded with (``A1``, ``A2``, ``A1, A2``)."""

Voters = tuple[tuple[str, ...], tuple[str, ...]]
"""(counted, rejected) voters of a day (A2)."""


class Counts(Protocol):
    """A day's count as the day part makes it (:class:`referee.game.days.Days`): a turn's
    check reads its voters (A2). The day part receives :class:`Leaving` (a day's end names
    who leaves, A3), so the count is reached back through this, answered by the
    :class:`~referee.game.Game`."""

    def tally_day(self, day: int, *, as_of: Any = None, record: bool = True,
                  _state: GameState | None = None) -> DayResult: ...

    def memo_holds(self, day: int, memo: dict[str, Any], window: Any,
                   alive: Iterable[str]) -> bool: ...


def removal_effect(r: dict[str, Any]) -> Effect:
    """When a removal (as recorded) takes effect (A3)."""
    if r.get("effective_before_day") is not None:
        return ("start", int(r["effective_before_day"]))
    return ("end", int(r.get("effective_after_day") or 0))


def is_activity_removal(causes: Iterable[str]) -> bool:
    """A death that is an activity removal (A1, A2): not a death of the turn for A1–A2."""
    causes = tuple(causes)
    return bool(causes) and all(c.startswith("removed:")
                                and _ACTIVITY_RULE.match(c.removeprefix("removed:"))
                                for c in causes)


class Leaving:
    """Removals (A1–A3): recorded, or worked out once final; applied at their moment. A
    turn's check reads the days' voters (``phases``, the day part) and the game at the
    turn's start (``states``)."""

    def __init__(self, core: GameCore, states: States, phases: Counts) -> None:
        self.core = core
        self.states = states
        self.phases = phases

    # ------------------------------------------------------------------ the moments

    def leaving_at(self, effect: Effect, after: GameState, *,
                   before_day: GameState | None = None,
                   today: Voters | None = None) -> list[dict[str, Any]]:
        """Every removal taking effect at ``effect`` (the end or the start of a day), each
        as ``{"nick", "rule", "explanation"}``: the recorded ones (a recorded activity check,
        the host's ``remove``) and those worked out from a turn not recorded yet, once final.
        ``after``: the game just before the removals (a day: after its hanging); ``before_day``:
        the game at the start of that day; ``today``: the day's voters when already counted.
        Players no longer alive in ``after`` are left out."""
        out = [r for r in self.recorded_leaving().get(effect, []) if after.is_alive(r["nick"])]
        kind, day = effect
        turns: list[tuple[int, GameState]] = []
        if kind == "end":
            turns.append((day, after))
            if self.core.config.activity.silent_leave == "end_of_day" and before_day is not None:
                turns.append((day - 1, before_day))
        elif self.core.config.activity.silent_leave == "morning":
            turns.append((day - 1, after))
        named = {r["nick"] for r in out}
        for turn, seen in turns:
            if turn < 1 or self.core.store.result("activity", turn) is not None \
                    or not any(d.day == turn for d in self.core.schedule):
                continue
            if kind == "end" and turn == day and self.core.now < self.core.window(day).deadline:
                continue
            if turn != day and self.core.now < turn_window(turn, self.core.schedule).end:
                continue
            if self._turn_held(turn):
                continue  # the turn's posts not read whole, or the roster in doubt
            report = self.turn_report(turn, seen, today=today if turn == day else None)
            for f in report.removed:
                if f.effect == effect and after.is_alive(f.nick) and f.nick not in named:
                    named.add(f.nick)
                    out.append({"nick": f.nick, "rule": f.rule, "explanation": f.explanation,
                                "computed": True})
        return out

    def morning_after(self, night: int, state: GameState
                      ) -> tuple[GameState, list[dict[str, Any]]]:
        """The start of Day ``night + 1`` (A3): who leaves then (a silent turn ``night``),
        and the game after they left. No morning without its night: a night with no end in
        the schedule (the last day without a night deadline) has none."""
        try:
            self.core.night_window(night)
        except GameError:
            return state, []
        leaving = self.leaving_at(("start", night + 1), state)
        for r in leaving:
            if state.is_alive(r["nick"]):
                state, _ = remove_player(state, r["nick"], r["rule"],
                                         phase=f"morning {night + 1}")
        return state, leaving

    def recorded_leaving(self) -> dict[Effect, list[dict[str, Any]]]:
        """The removals recorded (activity checks, the host's ``remove``) by their moment."""
        key = "recorded"
        cache = self._memo()
        if key not in cache:
            by: dict[Effect, list[dict[str, Any]]] = {}
            for r in self.core.store.results():
                if r.phase == "activity":
                    for removal in r.payload.get("removed", []):
                        by.setdefault(removal_effect(removal), []).append(removal)
            for removal in decisions.recorded(self.core.store, Removal):
                # What the players read is the public note; the reason is the host's own.
                by.setdefault(("end", removal.after_day), []).append(
                    {"nick": removal.nick, "rule": removal.public_note or "решение ведущего"})
            cache[key] = by
        return cache[key]

    # ------------------------------------------------------------------ a turn's check

    def turn_report(self, turn: int, after: GameState, *,
                    today: Voters | None = None) -> ActivityReport:
        """A1–A2 for turn ``turn`` as of now (:func:`referee.rules.day.activity.check_activity`),
        ``after`` being the game as far as the turn has gone (its day's hanging, its night's
        deaths). Activity removals are no deaths of the turn: a player who leaves for them
        is judged, not passed over."""
        cache = self._memo()
        key = ("turn", turn, frozenset(after.alive), today)
        if key in cache:
            return cache[key]
        start = self._day_start(turn)
        schedule = self.core.schedule
        window = turn_window(turn, schedule)
        counted: dict[int, tuple[str, ...]] = {}
        rejected: dict[int, tuple[str, ...]] = {}
        for d in schedule:
            if d.day > turn or self.core.now < d.start:
                continue
            voters = today if d.day == turn and today is not None else self._voters_now(d.day)
            counted[d.day], rejected[d.day] = voters
        # A1 looks at who posted when, never at the text.
        posts = [
            Post(post_id=pid, author=self.core.slot_of(author, at, pid), author_id=None,
                 posted_at=at, body_html="", body_text="")
            for pid, author, at in self.core.store.post_times(since=window.start, until=window.end)
        ]
        excuses = [Excuse(e.nick, e.turn, e.reason)
                   for e in decisions.recorded(self.core.store, ExcuseDecision)]
        report = check_activity(
            turn, players_alive_at_turn_start=start.alive, posts=posts, schedule=schedule,
            counted_voters_by_day=counted, rejected_voters_by_day=rejected, excuses=excuses,
            deaths_during_turn=self._turn_deaths(turn, start, after), host=self.core.config.host,
            rules=self.core.config.activity, now=self.core.now,
        )
        cache[key] = report
        return report

    def _turn_deaths(self, turn: int, start: GameState, after: GameState) -> list[TurnDeath]:
        """Who died during the turn: hanged or removed by the host at the day's end, killed
        in its night (once the night is over or recorded: ``after`` has it then)."""
        deadline = self.core.window(turn).deadline
        night_end: datetime | None
        try:
            night_end = self.core.night_window(turn)[1]
        except GameError:
            night_end = None
        known = {d.player for d in start.graveyard}
        out: list[TurnDeath] = []
        for death in after.graveyard:
            if death.player in known or is_activity_removal(death.causes):
                continue
            if "hanged" in death.causes:
                out.append(TurnDeath(death.player, deadline, "повешен(а) по итогам дня"))
            elif all(c.startswith("removed:") for c in death.causes):
                out.append(TurnDeath(death.player, deadline, "выбыл(а): " + ", ".join(
                    c.removeprefix("removed:") for c in death.causes)))
            else:
                out.append(TurnDeath(death.player, night_end or deadline, "погиб(ла) ночью"))
        return out

    def _turn_held(self, turn: int) -> bool:
        """Whether what stops ``check-activity`` from recording turn ``turn`` stands (issue
        26: its window not read whole, the roster in doubt): then no removal of it is worked
        out either — a player whose posts were not read is not taken for silent."""
        cache = self._memo()
        if ("held", turn) not in cache:
            window = turn_window(turn, self.core.schedule)
            cache[("held", turn)] = bool(
                hold(self.core, window.start, window.end, f"ход {turn}").reasons)
        return bool(cache[("held", turn)])

    # ------------------------------------------------------------------ what a run has seen

    def _memo(self) -> dict[Any, Any]:
        """What this run has worked out at this moment of the clock and of the database:
        kept while neither moves."""
        key = (self.core.now, self.core.version)
        if self.core.leaving_memo.get("key") != key:
            self.core.leaving_memo.clear()
            self.core.leaving_memo["key"] = key
        return self.core.leaving_memo

    def remember_day(self, day: int, state: GameState, t: Tally) -> None:
        """Day ``day`` as it was just counted from ``state`` (the game at its start): the
        views (``status``, ``history``) count the days in order and never ask the game to
        work a day out again — so nothing is recorded on their way (A2 reads it)."""
        self._memo()[("day", day)] = (state, (t.counted_voters, t.rejected_voters))

    def _day_start(self, day: int) -> GameState:
        seen = self._memo().get(("day", day))
        return seen[0] if seen is not None else self.states.state_before_day(day)[0]

    def _voters_now(self, day: int) -> Voters:
        """(counted, rejected) voters of Day ``day`` (A2) as every view counts them, without
        recording anything: as this run counted the day, else from the recorded result while
        nothing it was counted from has changed, else counted now."""
        seen = self._memo().get(("day", day))
        if seen is not None:
            return seen[1]
        stored = self.core.store.result("day", day)
        memo = stored.payload.get("voters_memo") if stored is not None else None
        window = self.core.window(day)
        if memo and self.core.now >= window.deadline:
            cache = self._memo()
            if ("record holds", day) not in cache:  # asked once per turn report
                state, _ = self.states.state_before_day(day)
                cache[("record holds", day)] = self.phases.memo_holds(
                    day, memo, window, state.alive)
            if cache[("record holds", day)]:
                return tuple(memo["counted"]), tuple(memo["rejected"])
        t: Tally = self.phases.tally_day(day, record=False).tally
        return t.counted_voters, t.rejected_voters

"""What every part of the game stands on: the config, the store, the clock, the schedule
(T1) with the host's changes, the roster and its slots, and what a run has worked out that
more than one part must forget together (a result recorded, a host's decision)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from referee.config.game import Config, DaySchedule
from referee.core.errors import GameError
from referee.core.nicks import Roster
from referee.game.results import DayResult, GameEnd, NightResult, utcnow
from referee.rules import decisions
from referee.rules.decisions import ScheduleChange
from referee.rules.night import GameState
from referee.rules.slots import Slots
from referee.store import RecordedResult, Store


@dataclass
class GameCore:
    """One game's config, store and clock (injectable for tests), and the run's shared
    memory of what it has counted: kept while the clock and the database stand still."""

    config: Config
    store: Store
    clock: Callable[[], datetime] = utcnow
    roster_ok: bool = field(default=False, repr=False)
    """The host confirmed the roster (``--roster-ok``): a roster doubt (issue 26,
    :mod:`referee.game.safety`) no longer holds a count back."""
    tallies: dict[tuple[int, Any], DayResult] = field(default_factory=dict, repr=False)
    """The days counted this run (:class:`referee.game.days.Days`)."""
    nights: dict[int, NightResult] = field(default_factory=dict, repr=False)
    """The nights resolved this run without recording (:class:`referee.game.nights.Nights`)."""
    after_night: dict[int, tuple[GameState, tuple[str, ...], GameEnd | None]] = field(
        default_factory=dict, repr=False)
    """Day k → the state after Night k, the notes so far and the end of the game if it came
    by then: each phase of the game is applied once per run, not once per question about a
    later day (:class:`referee.game.states.States`)."""
    leaving_memo: dict[Any, Any] = field(default_factory=dict, repr=False)
    """The removals recorded, by their moment, and the turns' activity checks worked out
    (:class:`referee.game.leaving.Leaving`), keyed by :attr:`version` and the clock."""
    own_changes: int = field(default=0, repr=False)
    """Rows this game wrote recording results it had just worked out (:meth:`record`): not
    a change of what its caches were worked out from."""
    _schedule: tuple[int, tuple[DaySchedule, ...]] | None = field(default=None, repr=False)

    def close(self) -> None:
        self.store.close()

    @property
    def now(self) -> datetime:
        return self.clock()

    @property
    def version(self) -> int:
        """Changes to the database since it was opened, but the results this game recorded
        from its own working (:meth:`record`): what the run's caches are keyed by. A sync,
        a host decision or a result recorded elsewhere changes it."""
        return self.store.conn.total_changes - self.own_changes

    def record(self, phase: str, number: int, payload: dict[str, Any], *,
               recorded_at: datetime) -> RecordedResult:
        """Record a result this run has just worked out. The states worked out before it
        stay: they are its inputs; only the states from this phase on are worked out
        again, and the activity removals when it is an activity check (A3)."""
        before = self.store.conn.total_changes
        result = self.store.record_result(phase, number, payload, recorded_at=recorded_at)
        self.own_changes += self.store.conn.total_changes - before
        for k in [k for k in self.after_night if k >= number]:
            del self.after_night[k]
        if phase == "activity":
            # Its removals end a day or open one (A3): the counts shown so far miss them.
            self.leaving_memo.clear()
            self.tallies.clear()
        return result

    def forget_counts(self) -> None:
        """A host's decision changed what the days and nights are counted from."""
        self.tallies.clear()
        self.nights.clear()

    # ------------------------------------------------------------------ roster

    def roster(self) -> Roster:
        """Every nick a vote or request may name (V2): players, replacement players,
        the host's aliases."""
        nicks = [p.nick for p in self.config.players]
        nicks += [r.player for r in self.config.replacements]
        return Roster(
            nicks,
            self.config.aliases,
            near_distance=self.config.votes.near_match_distance,
            near_min_length=self.config.votes.near_match_min_length,
            case_forms=True,  # «мой голос – Лису»: read, flagged (docs/rules.md V2)
        )

    def slot_of(self, author: str, at: datetime, post_id: int | None = None) -> str:
        """The roster slot a post's author plays (``[[replacements]]``)."""
        return self.slots.slot_at(author, at, post_id)

    @cached_property
    def slots(self) -> Slots:
        return Slots(self.config.replacements, (p.nick for p in self.config.players))

    @property
    def vote_topic_id(self) -> int | None:
        """The topic votes are read from: ``[forum] vote_url`` if set (V1 then applies to
        that topic), else every stored topic of the game."""
        if not self.config.forum.vote_url:
            return None
        from adapters.registry import topic_id  # noqa: PLC0415 — engines load only here

        return topic_id(self.config.forum.vote_url, self.config.forum.board.engine)

    # ------------------------------------------------------------------ schedule

    @property
    def schedule(self) -> tuple[DaySchedule, ...]:
        """The game's days (T1): ``[[schedule.days]]`` of the config, plus days and
        deadlines the host set on the command line (``tally --start/--deadline``, recorded
        as ``schedule.day`` / ``schedule.deadline`` decisions; the latest one wins)."""
        version = self.version
        if self._schedule is not None and self._schedule[0] == version:
            return self._schedule[1]
        days = {d.day: d for d in self.config.schedule}
        for change in decisions.recorded(self.store, ScheduleChange):
            n = change.day
            if change.start is not None:
                days[n] = DaySchedule(
                    n, change.start, change.deadline,
                    change.night_deadline or (days[n].night_deadline if n in days else None))
            elif n in days:
                d = days[n]
                days[n] = DaySchedule(n, d.start, change.deadline, d.night_deadline)
        result = tuple(days[n] for n in sorted(days))
        self._schedule = (version, result)
        return result

    def window(self, day: int) -> DaySchedule:
        """Day ``day``'s window (T1, T2), as :attr:`schedule` has it."""
        for d in self.schedule:
            if d.day == day:
                return d
        days = ", ".join(str(d.day) for d in self.schedule) or "none"
        raise GameError(
            f"дня {day} нет в расписании (дни в расписании: {days})",
            f"добавьте для него запись [[schedule.days]] в referee.toml или задайте окно: "
            f'referee tally --day {day} --start "…" --deadline "…"',
        )

    def current_day(self) -> int:
        """The latest scheduled day that has started (the first one before the game)."""
        now = self.now
        schedule = self.schedule
        started = [d.day for d in schedule if d.start <= now]
        if started:
            return max(started)
        if schedule:
            return schedule[0].day
        raise GameError("[schedule] пуст", "добавьте записи [[schedule.days]] в referee.toml")

    def activity_turn(self) -> int:
        """The turn ``check-activity`` looks at by default: the turn that has just ended if
        its check is not recorded yet (A1 is only final when Day N+1 starts), else the
        current one (a reminder list)."""
        day = self.current_day()
        previous = day - 1
        if previous >= 1 and any(d.day == previous for d in self.schedule) \
                and self.store.result("activity", previous) is None:
            return previous
        return day

    def current_night(self) -> int:
        """The latest night whose day deadline has passed."""
        now = self.now
        begun = [d.day for d in self.schedule if d.deadline <= now]
        if not begun:
            raise GameError("ещё не началась ни одна ночь (дедлайн дня 1 не прошёл)")
        return max(begun)

    def night_window(self, night: int) -> tuple[datetime, datetime]:
        """Night N: from Day N's deadline to the night deadline (T1), else to Day N+1's
        start."""
        day = self.window(night)
        end = day.night_deadline
        if end is None:
            nxt = next((d for d in self.schedule if d.day == night + 1), None)
            end = nxt.start if nxt is not None else None
        if end is None:
            raise GameError(
                f"у ночи {night} нет конца в расписании",
                f"задайте night_deadline для дня {night} в [[schedule.days]]",
            )
        return day.deadline, end

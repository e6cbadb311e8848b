"""The game over its store: the config, the clock, the schedule (T1) with the host's
changes, the roster and its slots, and the state of the game before each phase, worked
out once per run (the phases folded by :mod:`referee.rules.timeline`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from referee.config.game import Config, DaySchedule, load_config
from referee.core.errors import GameError
from referee.core.kernel import PrivateMessage
from referee.core.nicks import Roster
from referee.game.dealing import with_recorded_roster
from referee.game.results import (
    Asked,
    DayResult,
    GameEnd,
    GameOver,
    NightResult,
    PhaseKind,
    _request_from,
    _sync_warnings,
    _voters_of,
    utcnow,
)
from referee.rules import decisions
from referee.rules.decisions import ScheduleChange
from referee.rules.intake import NightIntake
from referee.rules.night import GameState
from referee.rules.night import winner as game_winner
from referee.rules.night.win import GameResult
from referee.rules.slots import Slots
from referee.rules.timeline import DayPlay, NightPlay, play_day, play_night
from referee.store import RecordedResult, Store

if TYPE_CHECKING:  # the HTTP client loads when a command syncs, not with the game (issue 30)
    from referee.store.sync import ProgressCallback, Secret, SyncReport


@dataclass
class GameBase:
    """One game: its config, its store and a clock (injectable for tests)."""

    config: Config
    store: Store
    clock: Callable[[], datetime] = utcnow
    roster_ok: bool = field(default=False, repr=False)
    """The host confirmed the roster (``--roster-ok``): a roster doubt (issue 26,
    :mod:`referee.game.safety`) no longer holds a count back."""
    _tallies: dict[tuple[int, Any], DayResult] = field(default_factory=dict, repr=False)
    _nights: dict[int, NightResult] = field(default_factory=dict, repr=False)
    _after_night: dict[int, tuple[GameState, tuple[str, ...], GameEnd | None]] = field(
        default_factory=dict, repr=False)
    """Day k → the state after Night k, the notes so far and the end of the game if it came
    by then: each phase of the game is applied once per run, not once per question about a
    later day."""
    _sides: tuple[Config, bool] | None = field(default=None, repr=False)
    _chain_key: tuple[datetime, int] | None = field(default=None, repr=False)
    _leaving: dict[Any, Any] = field(default_factory=dict, repr=False)
    """The removals recorded, by their moment, and the turns' activity checks worked out
    (:mod:`referee.game.leaving`), keyed by :attr:`version` and the clock."""
    _schedule: tuple[int, tuple[DaySchedule, ...]] | None = field(default=None, repr=False)
    _pms: tuple[int, list[PrivateMessage], list[datetime]] | None = field(
        default=None, repr=False)
    """The game's PMs (by :attr:`version`) and their times, for picking a night's."""
    _intakes: dict[int, tuple[Any, NightIntake]] = field(default_factory=dict, repr=False)
    _inputs: dict[Any, str] = field(default_factory=dict, repr=False)
    """A day's count inputs digest (A2) by window, the living and :attr:`version`."""
    _own_changes: int = field(default=0, repr=False)
    """Rows this game object wrote recording results it had just worked out
    (:meth:`_record`): not a change of what its caches were worked out from."""

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(
        cls,
        config_path: str | Path,
        db_path: str | Path | None = None,
        clock: Callable[[], datetime] = utcnow,
    ) -> Self:
        config = load_config(config_path)
        store = Store.open(Path(db_path) if db_path else config.db_path)
        try:
            # Every command plays with the roster ``referee deal`` recorded.
            config = with_recorded_roster(config, store)
        except GameError:
            store.close()
            raise
        return cls(config, store, clock)

    def close(self) -> None:
        self.store.close()

    @property
    def now(self) -> datetime:
        return self.clock()

    @property
    def version(self) -> int:
        """Changes to the database since it was opened, but the results this game object
        recorded from its own working (:meth:`_record`): what the run's caches are keyed
        by. A sync, a host decision or a result recorded elsewhere changes it."""
        return self.store.conn.total_changes - self._own_changes

    def _record(self, phase: str, number: int, payload: dict[str, Any], *,
                recorded_at: datetime) -> RecordedResult:
        """Record a result this run has just worked out. The states worked out before it
        stay: they are its inputs; only the states from this phase on are worked out
        again, and the activity removals when it is an activity check (A3)."""
        before = self.store.conn.total_changes
        result = self.store.record_result(phase, number, payload, recorded_at=recorded_at)
        self._own_changes += self.store.conn.total_changes - before
        for k in [k for k in self._after_night if k >= number]:
            del self._after_night[k]
        if phase == "activity":
            # Its removals end a day or open one (A3): the counts shown so far miss them.
            self._leaving.clear()
            self._tallies.clear()
        return result

    # ------------------------------------------------------------------ sync

    def sync(self, *, sent: bool = False, full: bool = False,
             progress: ProgressCallback | None = None, pms: bool | None = None,
             password: Callable[[str], Secret] | None = None,
             scheduled: bool = False) -> list[str]:
        """Read new pages of the game topic (and of ``[forum] vote_url``, the separate voting
        topic, when set) and the host's new PMs; returns one summary line per source.

        PMs are read when a login is configured or the source is a snapshot folder: by
        folder page where the engine can, else each opened once (see :mod:`referee.store.sync`).
        ``password`` asks for the forum password when a login needs one (the command line's
        asks with its progress bar stopped). ``scheduled`` (``referee watch``, ``referee
        sync``): the open day's earlier pages are read again by need, not at every sync, and
        the inbox on its own cadence unless ``sent``, ``full`` or ``pms`` ask for it
        (:mod:`referee.game.reread`).
        """

        from referee.store.sync import open_adapter

        lines: list[str] = []
        adapter = open_adapter(self.config, password=password, db_path=self.store.path)
        try:
            report = self._sync_topic(self.config, adapter, progress, full, scheduled)
            report = report.with_held(self._post_held_text)
            lines.append(report.summary())
            lines += _sync_warnings(adapter, report)
            board = self.config.forum.board
            read_pms = pms if pms is not None else (
                board.snapshot is not None or bool(board.username))
            if read_pms:
                lines.append(self._sync_pms(adapter, sent=sent, by_need=(
                    scheduled and pms is None and not sent and not full)))
        finally:
            adapter.close()
        if self.config.forum.vote_url and self.config.forum.board.snapshot is None:
            forum = self.config.forum
            votes_config = replace(
                self.config, forum=replace(forum, board=replace(forum.board, url=forum.vote_url))
            )
            adapter = open_adapter(votes_config, password=password, db_path=self.store.path)
            try:
                lines.append("голосование: " + self._sync_topic(
                    votes_config, adapter, progress, full, scheduled).summary())
            finally:
                adapter.close()
        from referee.game.safety import roster_doubts

        # Issue 26: a mistyped nick in [players] is said as soon as the topic shows it.
        lines += [f"! {d.text()}" for d in roster_doubts(self.config, self.store.posts())]
        return lines

    def _sync_pms(self, adapter: Any, *, sent: bool, by_need: bool) -> str:
        """The inbox read (:func:`referee.store.sync.sync_pms`); ``by_need``: only when its
        cadence says so (:func:`referee.game.reread.pms_due`)."""
        from referee.game import reread
        from referee.store.sync import sync_pms

        if by_need and not reread.pms_due(self):
            return reread.pms_left(self)
        at = self.now
        line = sync_pms(self.config, self.store, adapter, sent=sent).summary()
        reread.remember_pms(self.store, at)  # listed to the end: sync_pms raises otherwise
        return line

    def _post_held_text(self, post_id: int) -> str:
        """What a post gone from its page held, by the day's count (tally's rule)."""
        from referee.game.daystate import post_held

        return post_held(self, post_id).text  # type: ignore[arg-type]

    def _sync_topic(self, config: Config, adapter: Any, progress: ProgressCallback | None,
                    full: bool, scheduled: bool) -> SyncReport:
        """One topic read (:func:`referee.store.sync.sync_topic`) with the pages of the open day
        read again as :mod:`referee.game.reread` says; when the last page shows a post count the
        store does not hold, the pages left are read too (a sign of a change above)."""
        from referee.game import reread
        from referee.store.sync import sync_topic

        at = self.now
        days = reread.plan(self, adapter.topic_id, scheduled=scheduled)
        report = sync_topic(config, self.store, adapter, progress=progress, full=full,
                            recheck=reread.pages(days))
        left = [p for p in reread.pages(days, all_of_them=True)
                if p < report.start_page and p not in report.rechecked]
        if left and reread.count_changed(self.store, report):
            more = sync_topic(config, self.store, adapter, recheck=left)
            report = replace(report, rechecked=tuple(sorted({*report.rechecked, *left})),
                             requests=report.requests + more.requests,
                             edited_posts=report.edited_posts + more.edited_posts,
                             missing_posts=report.missing_posts + more.missing_posts,
                             new_posts=report.new_posts + more.new_posts,
                             notes=report.notes + more.notes,
                             vanished=report.vanished + more.vanished)
        reread.remember(self.store, report, days, at)
        return report

    def pages_to_recheck(self, topic_id: int | None) -> list[int]:
        """The topic pages a sync by hand reads again: those holding posts of the day that
        is open and of the last day that has closed but is not recorded yet, so that an
        edited or deleted vote of that day is seen (V4) without reading the whole topic."""
        from referee.game import reread

        return reread.pages(reread.plan(self, topic_id, scheduled=False))

    @property
    def vote_topic_id(self) -> int | None:
        """The topic votes are read from: ``[forum] vote_url`` if set (V1 then applies to
        that topic), else every stored topic of the game."""
        if not self.config.forum.vote_url:
            return None
        from adapters.registry import topic_id  # noqa: PLC0415 — engines load only here

        return topic_id(self.config.forum.vote_url, self.config.forum.board.engine)

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

    def set_deadline(self, day: int, deadline: datetime, reason: str = "", *,
                     start: datetime | None = None) -> None:
        """The host sets a day's deadline — and its start, for a day the config does not
        list (recorded, shown in the output). A day not in the schedule without ``start``
        starts at the previous day's night deadline."""
        self.refuse_after_end("day", day, f"Дедлайн дня {day} не записан.")
        known = {d.day: d for d in self.schedule}
        if start is None and day not in known:
            prev = known.get(day - 1)
            start = prev.night_deadline if prev is not None else None
            if start is None:
                raise GameError(
                    f"дня {day} нет в расписании, и его начало неизвестно",
                    f'задайте его: referee tally --day {day} --start "…" --deadline "…"')
        if start is not None:
            if deadline <= start:
                raise GameError(f"дедлайн {deadline:%d.%m %H:%M} не позже начала дня {day} "
                                f"({start:%d.%m %H:%M})")
            decisions.record(self.store, ScheduleChange(day, deadline, start, reason=reason))
        else:
            if deadline <= known[day].start:
                raise GameError(
                    f"дедлайн {deadline:%d.%m %H:%M} раньше начала дня {day}")
            decisions.record(self.store, ScheduleChange(day, deadline, reason=reason))
        self.store.forget_result("day", day)
        self._tallies.clear()
        self._nights.clear()

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

    # ------------------------------------------------------------------ game state

    def initial_state(self) -> GameState:
        return GameState.new(self.config.players)

    def state_before_day(self, day: int) -> tuple[GameState, tuple[str, ...]]:
        """The state at the start of Day ``day`` and notes on anything provisional; after
        the end of the game (W2, N15.14) the state it ended with: no phase after the end is
        played, counted or recorded."""
        state, notes, _ = self._played_before(day)
        return state, notes

    def state_before_night(self, night: int) -> tuple[GameState, tuple[str, ...]]:
        state, notes, end = self._played_before(night)
        if end is not None:
            return state, notes
        state, more = self._through_day(state, night)
        return state, notes + more

    def end_before(self, asked: Asked, number: int) -> GameEnd | None:
        """The end of the game (W2, N15.14) before Day or Night ``number``, or None while
        the game goes on there. A turn's activity check is final only when the next day
        starts (A1): the end before Day ``number + 1`` (nobody leaves a game that is over).
        Worked out from what is recorded now — the results and the host's decisions (one
        that changes a phase up to the end can make the game go on) — with a phase that is
        over and not recorded yet counted as every command counts it."""
        state, _, end = self._played_before(number + 1 if asked == "turn" else number)
        if end is None and asked == "night":
            state, _ = self._through_day(state, number)
            end = self._end_after(state, "day", number)
        return end

    def refuse_after_end(self, asked: Asked, number: int, refused: str) -> None:
        """W2, N15.14: once the game is over, nothing after its end is counted, resolved,
        recorded or sent; every command that counts a phase or records a decision about one
        asks here first. ``refused`` says what is not done («День 5 не считается.»). The
        phase that ended the game and those before it stay open to the host's decisions."""
        end = self.end_before(asked, number)
        if end is not None:
            raise GameOver(end, refused)

    def _played_before(self, day: int) -> tuple[GameState, tuple[str, ...], GameEnd | None]:
        """The phases before Day ``day`` applied in order, up to the end of the game."""
        # The states already worked out hold while the clock and the database stand still;
        # the results this run records from them are the ones they were made from.
        if self._chain_key != (self.now, self.version):
            self._after_night.clear()
        state = self.initial_state()
        notes: tuple[str, ...] = ()
        end: GameEnd | None = None
        for k in sorted(d.day for d in self.schedule):
            if k >= day or end is not None:
                break
            if k in self._after_night:
                state, notes, end = self._after_night[k]
                continue
            state, n = self._through_day(state, k)
            notes += n
            end = self._end_after(state, "day", k)
            if end is None:
                state, n = self._through_night(state, k)
                notes += n
                # A3: a silent turn k ends the player's game at the start of Day k+1.
                state, _ = self.morning_after(k, state)  # type: ignore[attr-defined]
                end = self._end_after(state, "night", k)
            self._after_night[k] = (state, notes, end)
        self._chain_key = (self.now, self.version)
        return state, notes, end

    def _end_after(self, state: GameState, phase: PhaseKind, number: int) -> GameEnd | None:
        won = self.winner(state)
        if won is None:
            return None
        return GameEnd(won, phase, number, self.store.result(phase, number) is not None)

    def _through_day(self, state: GameState, day: int) -> tuple[GameState, tuple[str, ...]]:
        """Apply Day ``day``: the hanging (recorded, or counted now if the deadline passed),
        then activity removals effective at its end (A3)."""
        window = self.window(day)
        recorded = self.store.result("day", day)
        today = None
        if recorded is not None:
            hanged = recorded.payload.get("hanged")
            voters = recorded.payload.get("voters", [])
        elif self.now >= window.deadline:
            result = self.tally_day(day, _state=state)
            hanged = result.tally.hanged
            voters = _voters_of(result.tally, hanged)
            today = (result.tally.counted_voters, result.tally.rejected_voters)
        else:
            return state, ()
        return self.day_end_state(state, day, hanged, tuple(voters), today), ()

    def day_end_state(self, state: GameState, day: int, hanged: str | None,
                      voters: tuple[str, ...], today: Any = None) -> GameState:
        """The game after Day ``day``: the hanging (V6), then who leaves at its end (A3),
        recorded or worked out (:meth:`referee.game.leaving.LeavingRoom.leaving_at`)."""
        hanging, _ = play_day(state, DayPlay(day, hanged, voters), self.config.night,
                              strict=False)
        leaving = self.leaving_at(  # type: ignore[attr-defined]
            ("end", day), hanging, before_day=state, today=today)
        removals = tuple((r["nick"], r["rule"]) for r in leaving)
        after, _ = play_day(hanging, DayPlay(day, removals=removals), self.config.night,
                            strict=False)
        return after

    def _through_night(self, state: GameState, night: int) -> tuple[GameState, tuple[str, ...]]:
        try:
            start, end = self.night_window(night)
        except GameError:
            return state, ()
        if self.now < start:
            return state, ()
        stored = self.store.result("night", night)
        if stored is None and not all(p.role_given for p in self.config.players):
            return state, (f"Ночь {night} не разрешена: роли не розданы (referee deal), "
                           "живые посчитаны без её итога.",)
        if stored is not None:
            # A recorded night is replayed from its recorded requests: no PM is read again.
            requests = tuple(_request_from(d) for d in stored.payload["requests"])
            return play_night(state, NightPlay(night, requests, start),
                              self.config.night).state, ()
        result = self.resolve_night(night, record=False, _state=state)
        notes: tuple[str, ...] = ()
        if not result.already_recorded:
            if self.now < end:
                return state, ()
            dead = ", ".join(d.player for d in result.outcome.deaths) or "никто"
            notes = (
                f"Ночь {night} ещё не записана: живые посчитаны по предварительному разрешению "
                f"ночи из ЛС (погибли: {dead}). Проверьте: referee resolve-night --night {night}",
            )
        return result.outcome.state, notes

    def winner(self, state: GameState) -> GameResult | None:
        """W2, N15.14: how the game ended in ``state``; None while it goes on. A game whose
        sides are not known yet (a role not dealt) or that has none to play against (every
        player town: a count of votes only) never ends so."""
        if self._sides is None or self._sides[0] is not self.config:
            has_sides = (all(p.role_given for p in self.config.players)
                         and game_winner(self.initial_state(), self.config.night) is None)
            self._sides = (self.config, has_sides)
        return game_winner(state, self.config.night) if self._sides[1] else None

"""The game as the host runs it: config + store + the rules, one phase after another.

This is the library layer under the CLI (sqlite-utils style: every command is a few lines
over a method here, and tests call these methods directly). It is the only place that
knows the order of a game (RULES.md T1): Day N (tally → hanging, V6), the end of Day N
(activity removals, A3), Night N (requests → deaths, N1–N14), then Day N+1.

Who is alive on a day comes from what the game has recorded (``results`` in the store):
each day's hanging once its deadline has passed, each night's resolution once the host has
resolved it, activity removals once final. A night that is over but not resolved yet is
resolved provisionally from the stored PMs, and every output says so, so that a vote for a
player the night killed is not counted silently.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

from adapters.registry import topic_id
from referee import decisions
from referee.actions import Request
from referee.config import Config, DaySchedule, load_config
from referee.day.activity import ActivityReport, Excuse, TurnDeath, check_activity, turn_window
from referee.day.count import tally
from referee.day.overrides import HostOverride
from referee.day.result import Tally
from referee.decisions import Excuse as ExcuseDecision
from referee.decisions import Hanging, NightEdit, Removal, ScheduleChange, VoteDecision
from referee.errors import GameError
from referee.intake import HostEdit, NightIntake, apply_host_edits, load_requests_file, read_night
from referee.kernel import Post, PrivateMessage
from referee.nicks import Roster
from referee.night import GameState, NightOutcome, apply_day, remove_player, resolve_night
from referee.night import winner as game_winner
from referee.night.win import GameResult
from referee.slots import Slots
from referee.store import Store
from referee.sync import ProgressCallback
from referee.timeline import DayPlay, NightPlay, play_day, play_night


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


@dataclass(frozen=True, slots=True)
class ActivityResult:
    report: ActivityReport
    recorded: bool
    notes: tuple[str, ...] = ()


@dataclass
class Game:
    """One game: its config, its store and a clock (injectable for tests)."""

    config: Config
    store: Store
    clock: Callable[[], datetime] = utcnow
    _tallies: dict[tuple[int, Any], DayResult] = field(default_factory=dict, repr=False)
    _nights: dict[int, NightResult] = field(default_factory=dict, repr=False)
    _after_night: dict[int, tuple[GameState, tuple[str, ...]]] = field(
        default_factory=dict, repr=False)
    """Day k → the state after Night k and the notes so far: each phase of the game is
    applied once per run, not once per question about a later day."""
    _chain_key: tuple[datetime, int] | None = field(default=None, repr=False)
    _removals: tuple[int, dict[Any, list[dict[str, Any]]]] | None = field(
        default=None, repr=False)
    _schedule: tuple[int, tuple[DaySchedule, ...]] | None = field(default=None, repr=False)

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(
        cls,
        config_path: str | Path,
        db_path: str | Path | None = None,
        clock: Callable[[], datetime] = utcnow,
    ) -> Game:
        config = load_config(config_path)
        store = Store.open(Path(db_path) if db_path else config.db_path)
        return cls(config, store, clock)

    def close(self) -> None:
        self.store.close()

    @property
    def now(self) -> datetime:
        return self.clock()

    # ------------------------------------------------------------------ sync

    def sync(self, *, sent: bool = False, full: bool = False,
             progress: ProgressCallback | None = None, pms: bool | None = None) -> list[str]:
        """Read new pages of the game topic (and of ``[forum] vote_url``, the separate voting
        topic, when set) and the host's new PMs; returns one summary line per source.

        PMs are read when a login is configured or the source is a snapshot folder; opening
        a PM marks it read for the host, so each is opened once (see :mod:`referee.sync`).
        """
        from dataclasses import replace

        from referee.sync import open_adapter, sync_pms, sync_topic

        lines: list[str] = []
        adapter = open_adapter(self.config, db_path=self.store.path)
        try:
            report = sync_topic(self.config, self.store, adapter, progress=progress,
                                full=full)
            lines.append(report.summary())
            lines += _sync_warnings(adapter, report)
            read_pms = pms if pms is not None else (
                self.config.forum.snapshot is not None or bool(self.config.forum.username)
            )
            if read_pms:
                lines.append(sync_pms(self.config, self.store, adapter, sent=sent).summary())
        finally:
            adapter.close()
        if self.config.forum.vote_url and self.config.forum.snapshot is None:
            votes_config = replace(
                self.config, forum=replace(self.config.forum, url=self.config.forum.vote_url)
            )
            adapter = open_adapter(votes_config, db_path=self.store.path)
            try:
                lines.append("votes " + sync_topic(votes_config, self.store, adapter,
                                                   progress=progress, full=full).summary())
            finally:
                adapter.close()
        return lines

    @property
    def vote_topic_id(self) -> int | None:
        """The topic votes are read from: ``[forum] vote_url`` if set (V1 then applies to
        that topic), else every stored topic of the game."""
        if not self.config.forum.vote_url:
            return None
        return topic_id(self.config.forum.vote_url, self.config.forum.engine)

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
        version = self.store.conn.total_changes
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
            f"day {day} is not in the schedule (scheduled days: {days})",
            f"add a [[schedule.days]] entry for it in referee.toml, or give its window: "
            f'referee tally --day {day} --start "…" --deadline "…"',
        )

    def set_deadline(self, day: int, deadline: datetime, reason: str = "", *,
                     start: datetime | None = None) -> None:
        """The host sets a day's deadline — and its start, for a day the config does not
        list (recorded, shown in the output). A day not in the schedule without ``start``
        starts at the previous day's night deadline."""
        known = {d.day: d for d in self.schedule}
        if start is None and day not in known:
            prev = known.get(day - 1)
            start = prev.night_deadline if prev is not None else None
            if start is None:
                raise GameError(
                    f"day {day} is not in the schedule and its start is unknown",
                    f'give it: referee tally --day {day} --start "…" --deadline "…"')
        if start is not None:
            if deadline <= start:
                raise GameError(f"the deadline {deadline.isoformat()} is not after the start "
                                f"{start.isoformat()} of day {day}")
            decisions.record(self.store, ScheduleChange(day, deadline, start, reason=reason))
        else:
            if deadline <= known[day].start:
                raise GameError(
                    f"the deadline {deadline.isoformat()} is before day {day} starts")
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
        raise GameError("[schedule] is empty", "add [[schedule.days]] entries to referee.toml")

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
            raise GameError("no night has begun yet (day 1's deadline has not passed)")
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
                f"night {night} has no end in the schedule",
                f"set night_deadline for day {night} in [[schedule.days]]",
            )
        return day.deadline, end

    # ------------------------------------------------------------------ game state

    def initial_state(self) -> GameState:
        return GameState.new(self.config.players)

    def state_before_day(self, day: int) -> tuple[GameState, tuple[str, ...]]:
        """The state at the start of Day ``day`` and notes on anything provisional."""
        # The states already worked out hold while the clock and the database stand still;
        # the results recorded while working them out are the ones they were made from.
        if self._chain_key != (self.now, self.store.conn.total_changes):
            self._after_night.clear()
        state = self.initial_state()
        notes: tuple[str, ...] = ()
        for k in sorted(d.day for d in self.schedule):
            if k >= day:
                break
            if k in self._after_night:
                state, notes = self._after_night[k]
                continue
            state, n = self._through_day(state, k)
            notes += n
            state, n = self._through_night(state, k)
            notes += n
            self._after_night[k] = (state, notes)
        self._chain_key = (self.now, self.store.conn.total_changes)
        return state, notes

    def state_before_night(self, night: int) -> tuple[GameState, tuple[str, ...]]:
        state, notes = self.state_before_day(night)
        state, more = self._through_day(state, night)
        return state, notes + more

    def _through_day(self, state: GameState, day: int) -> tuple[GameState, tuple[str, ...]]:
        """Apply Day ``day``: the hanging (recorded, or counted now if the deadline passed),
        then activity removals effective at its end (A3)."""
        notes: list[str] = []
        window = self.window(day)
        recorded = self.store.result("day", day)
        if recorded is not None:
            hanged = recorded.payload.get("hanged")
            voters = recorded.payload.get("voters", [])
        elif self.now >= window.deadline:
            result = self.tally_day(day, _state=state)
            hanged = result.tally.hanged
            voters = _voters_of(result.tally, hanged)
        else:
            return state, ()
        removals = tuple((r["nick"], r["rule"]) for r in self._removals_effective_after(day))
        state, _ = play_day(state, DayPlay(day, hanged, tuple(voters), removals=removals),
                            self.config.night, strict=False)
        return state, tuple(notes)

    def _through_night(self, state: GameState, night: int) -> tuple[GameState, tuple[str, ...]]:
        try:
            start, end = self.night_window(night)
        except GameError:
            return state, ()
        if self.now < start:
            return state, ()
        stored = self.store.result("night", night)
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

    def _removals_effective_after(self, day: int) -> list[dict[str, Any]]:
        # Read once per state of the database, not once per day of the game.
        version = self.store.conn.total_changes
        if self._removals is None or self._removals[0] != version:
            by_day: dict[Any, list[dict[str, Any]]] = {}
            for r in self.store.results():
                if r.phase != "activity":
                    continue
                for removal in r.payload.get("removed", []):
                    by_day.setdefault(removal.get("effective_after_day"), []).append(removal)
            for removal in decisions.recorded(self.store, Removal):
                by_day.setdefault(removal.after_day, []).append(
                    {"nick": removal.nick, "rule": removal.reason or "host"})
            self._removals = (version, by_day)
        return list(self._removals[1].get(day, []))

    # ------------------------------------------------------------------ votes

    def day_posts(self, window: DaySchedule) -> list[list[Post]]:
        """The day's posts, each as its stored revisions, first-seen first (V4)."""
        out: list[list[Post]] = []
        for sp in self.store.posts(since=window.start, until=window.night_deadline,
                                   topic_id=self.vote_topic_id):
            versions = [sp.as_post(r) for r in sp.revisions] or [sp.as_post()]
            out.append(versions)
        return out

    def vote_overrides(self) -> list[HostOverride]:
        return [HostOverride(d.action, d.post_id, d.reason, d.target)
                for d in decisions.recorded(self.store, VoteDecision)]

    def tally_day(
        self,
        day: int,
        *,
        as_of: int | datetime | None = None,
        record: bool = True,
        _state: GameState | None = None,
    ) -> DayResult:
        """Count Day ``day`` (V1–V6). Before the deadline it is a preview; the first run
        after it records the hanging once; later runs show the recorded result."""
        key = (day, as_of)
        if key in self._tallies and _state is None:
            return self._tallies[key]
        notes: list[str] = []
        if _state is None:
            state, n = self.state_before_day(day)
            notes += n
        else:
            state = _state
        window = self.window(day)
        if as_of is None and self.now < window.deadline:
            # Before the deadline the count is a preview as of now: nobody is hanged yet.
            as_of = self.now
        t = tally(
            self.day_posts(window),
            window,
            alive=state.alive,
            roster=self.roster(),
            host=self.config.host,
            rules=self.config.votes,
            overrides=self.vote_overrides(),
            replacements=self.config.replacements,
            as_of=as_of,
        )
        decided = [h for h in decisions.recorded(self.store, Hanging) if h.day == day]
        if decided and t.closed:
            # The host's word on the day's result stands over the count (recorded, shown).
            choice = decided[-1].hanged
            why = f" ({decided[-1].reason})" if decided[-1].reason else ""
            t = replace(
                t, hanged=choice, hanged_all=(choice,) if choice else (),
                explanation=f"Решение ведущего{why}: "
                + (f"на виселицу отправляется {choice}." if choice else "никого не вешают.")
                + f" По голосам: {t.explanation}",
                overrides=(*t.overrides, f"hang {choice or '—'}{why}"),
            )
        recorded_now = False
        stored = self.store.result("day", day)
        if stored is None and record and as_of is None and t.closed:
            stored = self.store.record_result(
                "day", day, {
                    "hanged": t.hanged,
                    "hanged_all": list(t.hanged_all),
                    "voters": list(_voters_of(t, t.hanged)),
                    "counts": [{"target": c.target, "votes": len(c.voters)} for c in t.counts],
                    "explanation": t.explanation,
                    # Who voted and who did not, with what it was counted from (A2).
                    "voters_memo": {
                        "inputs": self._tally_inputs(window, state.alive),
                        "counted": list(t.counted_voters),
                        "rejected": list(t.rejected_voters),
                    },
                },
                recorded_at=self.now,
            )
            recorded_now = True
        if stored is not None and not recorded_now and stored.payload.get("hanged") != t.hanged \
                and as_of is None:
            notes.append(
                f"Записанный итог дня {day}: {stored.payload.get('hanged') or 'никто'}; "
                f"пересчёт сейчас даёт: {t.hanged or 'никто'}. Записанный итог остаётся в силе; "
                "решения ведущего по голосам пересчитывают день заново."
            )
        winner: GameResult | None = None
        removals: list[dict[str, Any]] = []
        if t.closed and as_of is None:
            hanged = stored.payload.get("hanged") if stored else t.hanged
            after = state
            if hanged is not None and state.is_alive(hanged):
                after, _ = apply_day(state, day, hanged, [
                    v for v in _voters_of(t, hanged) if state.has(v)])
            # A3: removals take effect at the end of the day, after the tally, and are in
            # the day's summary — so is the end of the game they may bring.
            for removal in self._removals_effective_after(day):
                if after.is_alive(removal["nick"]):
                    after, _ = remove_player(after, removal["nick"], removal["rule"],
                                             phase=f"day {day}")
                    removals.append(removal)
            winner = game_winner(after, self.config.night)
        result = DayResult(
            tally=t,
            recorded=recorded_now,
            recorded_hanged=stored.payload.get("hanged") if stored else None,
            recorded_at=stored.recorded_at if stored else None,
            notes=tuple(notes),
            day=day,
            window=window,
            winner=winner,
            removals=tuple(removals),
        )
        if _state is None:
            self._tallies[key] = result
        return result

    def set_hanged(self, day: int, nick: str | None, reason: str = "") -> str | None:
        """The host decides the day's result himself (``referee hang``): recorded; the
        day's recorded result is replaced by it."""
        name = None
        if nick is not None:
            m = self.roster().match(nick)
            if m.nick is None:
                raise GameError(f"hang: {m.explain()}", "use a nick from [players]")
            name = m.nick
        decisions.record(self.store, Hanging(day, name, reason))
        self.store.forget_result("day", day)
        self._tallies.clear()
        self._nights.clear()
        return name

    def remove(self, nick: str, after_day: int, reason: str = "") -> str:
        """The host removes a player at the end of Day ``after_day`` (A3), for any reason
        (e.g. a replacement that never came): recorded, applied like an activity removal."""
        m = self.roster().match(nick)
        if m.nick is None:
            raise GameError(f"remove: {m.explain()}", "use a nick from [players]")
        decisions.record(self.store, Removal(m.nick, after_day, reason or "решение ведущего"))
        self._tallies.clear()
        self._nights.clear()
        return m.nick

    def _tally_inputs(self, window: DaySchedule, alive: Iterable[str]) -> str:
        """A digest of everything a day's count reads (V1–V6): the window, the living, the
        roster and rules, the host's vote decisions, and every stored text of every post of
        the day. Equal digests mean the count would come out the same."""
        digest = hashlib.sha256(repr((
            window, sorted(alive), self.config.host, self.config.votes,
            [(p.nick, p.role, p.clan) for p in self.config.players],
            self.config.replacements, sorted(self.config.aliases.items()),
            self.vote_topic_id, self.vote_overrides(),
        )).encode("utf-8"))
        digest.update(self.store.post_digest(since=window.start, until=window.night_deadline,
                                             topic_id=self.vote_topic_id).encode("ascii"))
        return digest.hexdigest()

    def _day_voters(self, day: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(counted, rejected) voters of Day ``day`` for A2: from the recorded result when
        nothing it was counted from has changed since, else counted now."""
        stored = self.store.result("day", day)
        memo = stored.payload.get("voters_memo") if stored is not None else None
        window = self.window(day)
        if memo and self.now >= window.deadline:
            state, _ = self.state_before_day(day)
            if memo.get("inputs") == self._tally_inputs(window, state.alive):
                return tuple(memo["counted"]), tuple(memo["rejected"])
        t = self.tally_day(day).tally
        return t.counted_voters, t.rejected_voters

    def override_vote(self, action: str, post_id: int, *, reason: str = "",
                      target: str | None = None) -> None:
        """``referee vote accept|reject|set``: recorded; the post's day is counted anew."""
        post = self.store.post(post_id)
        if post is None:
            raise GameError(f"post {post_id} is not in the database", "run referee sync first")
        if action == "set":
            if not target:
                raise GameError("vote set needs --target NICK")
            match = self.roster().match(target)
            if match.nick is None:
                raise GameError(f"--target {target!r}: {match.explain()}",
                                "use a nick from [players]")
            target = match.nick
        decisions.record(self.store, VoteDecision(action, post_id, target, reason))
        for d in self.schedule:
            if d.start <= post.posted_at < (d.night_deadline or d.deadline):
                self.store.forget_result("day", d.day)
        self._tallies.clear()
        self._nights.clear()

    # ------------------------------------------------------------------ activity

    def check_activity(self, turn: int, *, record: bool = True) -> ActivityResult:
        """A1–A3 for turn ``turn``; once final, the removals are recorded (A3)."""
        state, notes = self.state_before_day(turn)
        schedule = self.schedule
        window = turn_window(turn, schedule)
        counted: dict[int, tuple[str, ...]] = {}
        rejected: dict[int, tuple[str, ...]] = {}
        for d in schedule:
            if d.day > turn or self.now < d.start:
                continue
            counted[d.day], rejected[d.day] = self._day_voters(d.day)
        # A1 looks at who posted when, never at the text.
        posts = [
            Post(post_id=pid, author=self.slot_of(author, at, pid), author_id=None,
                 posted_at=at, body_html="", body_text="")
            for pid, author, at in self.store.post_times(since=window.start, until=window.end)
        ]
        deaths: list[TurnDeath] = []
        after_day, _ = self.state_before_night(turn)
        day_window = self.window(turn)
        for death in after_day.graveyard:
            if state.is_alive(death.player):
                cause = ("повешен(а) по итогам дня" if "hanged" in death.causes
                         else "выбыл(а): " + ", ".join(c.removeprefix("removed:")
                                                        for c in death.causes))
                deaths.append(TurnDeath(death.player, day_window.deadline, cause))
        try:
            (_, night_end), outcome = self._night_outcome(turn)
            for night_death in outcome.deaths:
                deaths.append(TurnDeath(night_death.player, night_end, "погиб(ла) ночью"))
        except GameError:
            pass
        excuses = [
            Excuse(e.nick, e.turn, e.reason) for e in decisions.recorded(self.store, ExcuseDecision)
        ]
        report = check_activity(
            turn,
            players_alive_at_turn_start=state.alive,
            posts=posts,
            schedule=schedule,
            counted_voters_by_day=counted,
            rejected_voters_by_day=rejected,
            excuses=excuses,
            deaths_during_turn=deaths,
            host=self.config.host,
            rules=self.config.activity,
            now=self.now,
        )
        recorded = False
        if record and report.final and self.store.result("activity", turn) is None:
            self.store.record_result("activity", turn, {
                "removed": [
                    {"nick": f.nick, "rule": f.rule, "explanation": f.explanation,
                     "effective_after_day": f.effective_after_day}
                    for f in report.removed
                ],
            }, recorded_at=self.now)
            recorded = True
        return ActivityResult(report, recorded, notes)

    def excuse(self, nick: str, turn: int, reason: str = "") -> str:
        match = self.roster().match(nick)
        if match.nick is None:
            raise GameError(f"excuse: {match.explain()}", "use a nick from [players]")
        decisions.record(self.store, ExcuseDecision(match.nick, turn, reason))
        self.store.forget_result("activity", turn)
        return match.nick

    # ------------------------------------------------------------------ night

    def game_pms(self) -> list[PrivateMessage]:
        """PMs inside the game's time span (``[game] start``/``end``); others are stored
        but ignored by the game commands."""
        return self.store.pms(since=self.config.game_start, until=self.config.game_end)

    def night_intake(self, night: int) -> NightIntake:
        return read_night(self.game_pms(), self.config, night, self.night_window(night))

    def host_edits(self, night: int) -> list[HostEdit]:
        """The host's recorded edits of Night ``night``'s requests, oldest first."""
        return [
            HostEdit(op=e.op, night=night, actor=e.actor, action=e.action, target=e.target,
                     targets=e.targets, executor=e.executor, reason=e.reason, source=e.source,
                     source_id=f"host#{e.decision_id}")
            for e in decisions.recorded(self.store, NightEdit) if e.night == night
        ]

    def resolve_night(
        self, night: int, *, record: bool = True, _state: GameState | None = None
    ) -> NightResult:
        """Night ``night`` (N1–N14): the requests read from the PMs and the host's edits,
        resolved in N2 order. Recorded once when ``record`` and the night is over; a
        recorded night is re-resolved from its recorded requests (same answer)."""
        if _state is None and night in self._nights and not record:
            return self._nights[night]
        notes: list[str] = []
        if _state is None:
            state, n = self.state_before_night(night)
            notes += n
        else:
            state = _state
        start, end = self.night_window(night)
        intake = self.night_intake(night)
        stored = self.store.result("night", night)
        host_log: list[str] = []
        if stored is not None:
            requests = tuple(_request_from(d) for d in stored.payload["requests"])
        else:
            clans = {p.nick: p.clan for p in self.config.players if p.clan}
            requests, edit_log = apply_host_edits(
                intake.requests, self.host_edits(night), night=night, clans=clans
            )
            host_log = list(edit_log)
        # The night's start tells a naming sent by day (N9) from one sent at night (N15.5).
        outcome = resolve_night(state, night, requests, self.config.night, night_start=start)
        final = self.now >= end
        recorded = False
        if record and stored is None:
            if final:
                self.store.record_result("night", night, {
                    "requests": [_request_to(r) for r in requests],
                    "deaths": [{"player": d.player, "causes": list(d.causes)}
                               for d in outcome.deaths],
                }, recorded_at=self.now)
                recorded = True
            else:
                notes.append(
                    f"Ночь {night} ещё идёт (до {end.isoformat()}): результат не записан."
                )
        result = NightResult(
            night=night, window=(start, end), intake=intake, requests=requests,
            host_edits=tuple(host_log), outcome=outcome, recorded=recorded,
            already_recorded=stored is not None, final=final, notes=tuple(notes),
            winner=game_winner(outcome.state, self.config.night),
        )
        if _state is None and not record:
            self._nights[night] = result
        return result

    def import_requests(self, path: str | Path) -> list[HostEdit]:
        """A host-written requests file (:mod:`referee.intake.requests_file`): every entry is
        recorded as the host's decision, exactly like ``action add``/``action drop``."""
        edits = load_requests_file(Path(path), self.roster())
        for e in edits:
            decisions.record(self.store, NightEdit(
                e.op, e.night, e.actor, e.action, e.target, e.targets, e.executor,
                source="file", reason=e.reason))
            self.store.forget_result("night", e.night)
        self._nights.clear()
        return list(edits)

    def _night_outcome(self, night: int) -> tuple[tuple[datetime, datetime], NightOutcome]:
        """Night ``night`` resolved (N2): a recorded night from its recorded requests (no PM
        is read again), else as :meth:`resolve_night` reads it from the PMs."""
        stored = self.store.result("night", night)
        if stored is None:
            result = self.resolve_night(night, record=False)
            return result.window, result.outcome
        window = self.night_window(night)
        state, _ = self.state_before_night(night)
        requests = tuple(_request_from(d) for d in stored.payload["requests"])
        return window, resolve_night(state, night, requests, self.config.night,
                                     night_start=window[0])

    def add_action(self, night: int, actor: str, action: str, *, target: str | None = None,
                   targets: Sequence[str] = (), executor: str | None = None,
                   reason: str = "") -> None:
        roster = self.roster()
        names = {}
        for label, typed in (("actor", actor), ("target", target), ("executor", executor),
                             *((f"target {i + 1}", t) for i, t in enumerate(targets))):
            if typed is None:
                continue
            m = roster.match(typed)
            if m.nick is None:
                raise GameError(f"action {label}: {m.explain()}", "use a nick from [players]")
            names[label] = m.nick
        decisions.record(self.store, NightEdit(
            "add", night, names["actor"], action, names.get("target"),
            tuple(names[f"target {i + 1}"] for i in range(len(targets))),
            names.get("executor"), reason=reason))
        self.store.forget_result("night", night)
        self._nights.clear()

    def drop_action(self, night: int, actor: str, action: str | None = None,
                    reason: str = "") -> None:
        m = self.roster().match(actor)
        if m.nick is None:
            raise GameError(f"action drop: {m.explain()}", "use a nick from [players]")
        decisions.record(self.store, NightEdit("drop", night, m.nick, action, reason=reason))
        self.store.forget_result("night", night)
        self._nights.clear()

    def winner(self, state: GameState) -> GameResult | None:
        return game_winner(state, self.config.night)


# ---------------------------------------------------------------------- helpers

def _sync_warnings(adapter: object, report: object) -> list[str]:
    """What a host must know after a sync: pages of the topic that were not read (a
    snapshot folder without them), saved files that could not be used, and why, and what
    the engine says once (``notes``: e.g. a board's API closed, its pages read instead)."""
    out: list[str] = [f"! {note}" for note in getattr(adapter, "notes", ())]
    last, total = getattr(report, "last_page", 0), getattr(report, "total_pages", 0)
    if total and last < total:
        out.append(f"! pages {last + 1}–{total} of the topic were not read: "
                   + ("they are not in the snapshot folder — save them too"
                      if hasattr(adapter, "skipped") else "the forum did not serve them"))
    for path, why in getattr(adapter, "skipped", []):
        name = getattr(path, "name", str(path))
        if name.lower().endswith((".html", ".htm")):
            out.append(f"! skipped saved file {name}: {why}")
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


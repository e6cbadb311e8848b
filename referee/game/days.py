"""The game's days: each day's vote count from the stored posts (V1–V6), recorded once
after the deadline, and the host's decisions on votes, hangings and removals."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from referee.config.game import DaySchedule
from referee.core.errors import GameError, RequestRefused
from referee.core.kernel import Post
from referee.core.nicks import normalise
from referee.game.core import GameCore
from referee.game.leaving import Leaving
from referee.game.refusals import Refusals
from referee.game.reread import unread_hold
from referee.game.results import DayResult, _voters_of
from referee.game.safety import INCOMPLETE, Hold, hold, not_in_game_notes
from referee.game.states import States
from referee.rules import decisions
from referee.rules.day.count import tally
from referee.rules.day.result import CountedVote, Rejection, Tally
from referee.rules.decisions import Hanging, Removal, ScheduleChange, VoteAction, VoteDecision
from referee.rules.night import GameState
from referee.rules.night.events import Removed
from referee.rules.night.win import GameResult
from referee.rules.timeline import DayPlay, play_day
from referee.store import RecordedResult


@dataclass(frozen=True, slots=True)
class VoteEffect:
    """Where a host's word on a post took effect: the post's vote in the day's count before
    and after it (``counted``: the vote that counts; ``rejected``: why it does not)."""

    day: int
    post_id: int
    author: str
    counted_before: CountedVote | None
    counted: CountedVote | None
    rejected: Rejection | None


class Days:
    """The day («день»): the count (V1–V6), the host's decisions on votes, hangings and
    deadlines; who leaves at its end (A3) as :class:`~referee.game.leaving.Leaving` says."""

    def __init__(self, core: GameCore, refusals: Refusals, states: States,
                 leaving: Leaving) -> None:
        self.core = core
        self.refusals = refusals
        self.states = states
        self.leaving = leaving
        self._inputs: dict[Any, str] = {}
        """A day's count inputs digest (A2) by window, the living and the version."""

    def day_posts(self, window: DaySchedule) -> list[list[Post]]:
        """The day's posts, each as its stored revisions, first-seen first (V4)."""
        return self._day_posts(window)[0]

    def _day_posts(self, window: DaySchedule) -> tuple[list[list[Post]], dict[int, datetime]]:
        """The day's posts with their revisions, and when each post that has vanished from
        the topic since (deleted, hidden) was found missing."""
        out: list[list[Post]] = []
        vanished: dict[int, datetime] = {}
        for sp in self.core.store.posts(since=window.start, until=window.night_deadline,
                                   topic_id=self.core.vote_topic_id):
            versions = [sp.as_post(r) for r in sp.revisions] or [sp.as_post()]
            out.append(versions)
            if sp.missing_since is not None:
                vanished[sp.post_id] = sp.missing_since
        return out, vanished

    def vote_overrides(self) -> list[VoteDecision]:
        return decisions.recorded(self.core.store, VoteDecision)

    def tally_day(
        self,
        day: int,
        *,
        as_of: int | datetime | None = None,
        record: bool = True,
        _state: GameState | None = None,
    ) -> DayResult:
        """Count Day ``day`` (V1–V6). Before the deadline it is a preview; the first run
        after it records the hanging once; later runs show the recorded result. A day
        after the end of the game is refused (W2, N15.14)."""
        if _state is None:
            self.states.refuse_after_end("day", day, f"День {day} не считается.")
        key = (day, as_of, record)  # a preview must not stand in for the run that records
        if key in self.core.tallies and _state is None:
            return self.core.tallies[key]
        notes: list[str] = []
        if _state is None:
            state, n = self.states.state_before_day(day)
            notes += n
        else:
            state = _state
        window = self.core.window(day)
        asked = as_of
        # Issue 26: also a day recorded on the way to a later one waits for whole data.
        held = hold(self.core, window.start, window.deadline, f"подсчёт дня {day}")
        if (unread := unread_hold(self.core, window)) is not None:
            # Issue 30: nor is one whose earlier pages were not read after its deadline.
            held = Hold(held.notes + (unread,), tuple({*held.reasons, INCOMPLETE}))
        if _state is None:
            notes += held.notes
        if as_of is None and self.core.now < window.deadline:
            # Before the deadline the count is a preview as of now: nobody is hanged yet.
            as_of = self.core.now
        t = self._host_hanging(day, self._count(window, state, as_of))
        if asked is None:
            self.leaving.remember_day(day, state, t)
        if _state is None:
            notes += not_in_game_notes(self.core.config, t.rejected)
        stored, recorded_now = self._record_day(day, t, window, state,
                                                record=record and as_of is None
                                                and not held.reasons)
        if stored is not None and not recorded_now and stored.payload.get("hanged") != t.hanged \
                and as_of is None:
            notes.append(
                f"Записанный итог дня {day}: {stored.payload.get('hanged') or 'никто'}; "
                f"пересчёт сейчас даёт: {t.hanged or 'никто'}. Записанный итог остаётся в силе; "
                "решения ведущего по голосам пересчитывают день заново."
            )
        winner: GameResult | None = None
        removals: tuple[dict[str, Any], ...] = ()
        if t.closed and as_of is None:
            winner, removals = self._day_end(state, day, t, stored)
        result = DayResult(
            tally=t,
            recorded=recorded_now,
            recorded_hanged=stored.payload.get("hanged") if stored else None,
            recorded_at=stored.recorded_at if stored else None,
            notes=tuple(notes),
            day=day,
            window=window,
            winner=winner,
            removals=removals,
            held=held.reasons,
        )
        if _state is None:
            self.core.tallies[key] = result
        return result

    def _count(self, window: DaySchedule, state: GameState,
               as_of: int | datetime | None, extra: Iterable[VoteDecision] = ()) -> Tally:
        """V1–V6 over the day's stored posts (``extra``: a decision not recorded yet, to
        see what it would do)."""
        posts, vanished = self._day_posts(window)
        return tally(
            posts,
            window,
            alive=state.alive,
            roster=self.core.roster(),
            host=self.core.config.host,
            rules=self.core.config.votes,
            overrides=[*self.vote_overrides(), *extra],
            replacements=self.core.config.replacements,
            as_of=as_of,
            vanished=vanished,
        )

    def _host_hanging(self, day: int, t: Tally) -> Tally:
        """The host's word on the day's result stands over the count (recorded, shown)."""
        decided = [h for h in decisions.recorded(self.core.store, Hanging) if h.day == day]
        if not decided or not t.closed:
            return t
        last = decided[-1]
        choice = last.hanged
        # The public note is for the players; the reason stays in the host-only part.
        note = f" ({last.public_note})" if last.public_note else ""
        why = f" (причина ведущего: {last.reason})" if last.reason else ""
        return replace(
            t, hanged=choice, hanged_all=(choice,) if choice else (),
            explanation=f"Решение ведущего{note}: "
            + (f"на виселицу отправляется {choice}." if choice else "никого не вешают.")
            + f" По голосам: {t.explanation}",
            overrides=(*t.overrides, f"hang {choice or '—'}{why}"),
        )

    def _record_day(self, day: int, t: Tally, window: DaySchedule, state: GameState, *,
                    record: bool) -> tuple[RecordedResult | None, bool]:
        """The day's recorded result, recording it now when the count is final and nothing
        is recorded yet: (the result, whether this run recorded it)."""
        stored = self.core.store.result("day", day)
        if stored is not None or not record or not t.closed:
            return stored, False
        inputs = self._tally_inputs(window, state.alive)
        result = self.core.record(
            "day", day, {
                "hanged": t.hanged,
                "hanged_all": list(t.hanged_all),
                "voters": list(_voters_of(t, t.hanged)),
                "counts": [{"target": c.target, "votes": len(c.voters)} for c in t.counts],
                "explanation": t.explanation,
                # Who voted and who did not, with what it was counted from (A2).
                "voters_memo": {
                    "inputs": inputs,
                    "counted": list(t.counted_voters),
                    "rejected": list(t.rejected_voters),
                },
                # The counted votes, so that `history` reads them and never counts a
                # recorded day again (issue 30).
                "votes": [{"slot": self.core.slot_of(v.voter, v.at, v.post_id), "voter": v.voter,
                           "target": v.target, "post_id": v.post_id, "at": v.at.isoformat()}
                          for v in t.votes],
            },
            recorded_at=self.core.now,
        )
        self._keep_marks(day, inputs, window, state.alive)
        return result, True

    def _day_end(self, state: GameState, day: int, t: Tally, stored: RecordedResult | None
                 ) -> tuple[GameResult | None, tuple[dict[str, Any], ...]]:
        """The end of the day in its summary: who leaves after the tally (A3: recorded, or
        worked out once final — :mod:`referee.game.leaving`) and the end of the game the day
        may bring (W2)."""
        hanged = stored.payload.get("hanged") if stored else t.hanged
        voters = tuple(stored.payload.get("voters", [])) if stored else _voters_of(t, hanged)
        hanging, _ = play_day(state, DayPlay(day, hanged, voters), self.core.config.night,
                              strict=False)
        effective = self.leaving.leaving_at(
            ("end", day), hanging, before_day=state,
            today=(t.counted_voters, t.rejected_voters))
        play = DayPlay(day, removals=tuple((r["nick"], r["rule"]) for r in effective))
        after, events = play_day(hanging, play, self.core.config.night, strict=False)
        gone = [e.player for e in events if isinstance(e, Removed)]
        removals = []
        for r in effective:
            if r["nick"] in gone:
                gone.remove(r["nick"])
                removals.append(r)
        return self.states.winner(after), tuple(removals)

    def set_deadline(self, day: int, deadline: datetime, reason: str = "", *,
                     start: datetime | None = None) -> None:
        """The host sets a day's deadline — and its start, for a day the config does not
        list (recorded, shown in the output). A day not in the schedule without ``start``
        starts at the previous day's night deadline."""
        self.states.refuse_after_end("day", day, f"Дедлайн дня {day} не записан.")
        known = {d.day: d for d in self.core.schedule}
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
            decisions.record(self.core.store, ScheduleChange(day, deadline, start, reason=reason))
        else:
            if deadline <= known[day].start:
                raise GameError(
                    f"дедлайн {deadline:%d.%m %H:%M} раньше начала дня {day}")
            decisions.record(self.core.store, ScheduleChange(day, deadline, reason=reason))
        self.core.store.forget_result("day", day)
        self.core.forget_counts()

    def set_hanged(self, day: int, nick: str | None, reason: str = "",
                   public_note: str = "") -> str | None:
        """The host decides the day's result himself (``referee hang``): recorded; the
        day's recorded result is replaced by it. ``reason`` is the host's own record,
        ``public_note`` is shown with the result."""
        self.refusals.scheduled_day(day)
        self.states.refuse_after_end("day", day, f"Решение об итоге дня {day} не записано.")
        name = None
        if nick is not None:
            self.refusals.known_player(nick, "hang")
            state, _ = self.states.state_before_day(day)
            name = self.refusals.living_player(nick, "hang", state, f"к началу дня {day}")
        decisions.record(self.core.store, Hanging(day, name, reason, public_note))
        self.core.store.forget_result("day", day)
        self.core.forget_counts()
        return name

    def remove(self, nick: str, after_day: int, reason: str = "",
               public_note: str = "") -> str:
        """The host removes a player at the end of Day ``after_day`` (A3), for any reason
        (e.g. a replacement that never came): recorded, applied like an activity removal.
        ``reason`` is the host's own record; the players read ``public_note`` (or «решение
        ведущего»)."""
        self.refusals.scheduled_day(after_day, "--after-day")
        self.states.refuse_after_end("day", after_day,
                                     f"Выбывание после дня {after_day} не записано.")
        self.refusals.known_player(nick, "remove")
        state, _ = self.states.state_before_day(after_day)
        name = self.refusals.living_player(nick, "remove", state, f"к началу дня {after_day}")
        decisions.record(self.core.store, Removal(name, after_day, reason or "решение ведущего",
                                             public_note))
        self.core.forget_counts()
        return name

    def _tally_inputs(self, window: DaySchedule, alive: Iterable[str]) -> str:
        """A digest of everything a day's count reads (V1–V6): the window, the living, the
        roster and rules, the host's vote decisions, and every stored text of every post of
        the day. Equal digests mean the count would come out the same. Worked out once per
        run for a day: the digest recorded with its count is the one its activity check
        compares (A2)."""
        key = (window, frozenset(alive), self.core.version)
        if key in self._inputs:
            return self._inputs[key]
        digest = hashlib.sha256(self._settings_read(window, alive))
        digest.update(self.core.store.post_digest(since=window.start, until=window.night_deadline,
                                             topic_id=self.core.vote_topic_id).encode("ascii"))
        self._inputs[key] = digest.hexdigest()
        return self._inputs[key]

    def _settings_read(self, window: DaySchedule, alive: Iterable[str]) -> bytes:
        """What a day's count reads besides the posts: the window, the living, the roster
        and rules, the host's vote decisions."""
        return repr((
            window, sorted(frozenset(alive)), self.core.config.host, self.core.config.votes,
            [(p.nick, p.role, p.clan) for p in self.core.config.players],
            self.core.config.replacements, sorted(self.core.config.aliases.items()),
            self.core.vote_topic_id, self.vote_overrides(),
        )).encode("utf-8")

    def _keep_marks(self, day: int, inputs: str, window: DaySchedule,
                    alive: Iterable[str]) -> None:
        """Beside a day's record, what its voters (A2) were counted from in two cheap parts:
        the settings' digest and the mark of the day's posts (:meth:`Store.window_mark`).
        Kept in ``meta``, not in the record: the mark numbers this database's saves, and two
        databases of one game record the same results."""
        before = self.core.store.conn.total_changes
        self.core.store.set_meta(f"voters_marks:day:{day}", json.dumps({
            "inputs": inputs,
            "settings": hashlib.sha256(self._settings_read(window, alive)).hexdigest(),
            "posts": self.core.store.window_mark(window.start, window.night_deadline,
                                            topic_id=self.core.vote_topic_id)}))
        self.core.own_changes += self.core.store.conn.total_changes - before

    def memo_holds(self, day: int, memo: dict[str, Any], window: DaySchedule,
                    alive: Iterable[str]) -> bool:
        """Whether a day's recorded voters were counted from what the day holds now. The
        marks kept with the record (:meth:`_keep_marks`) answer without reading the day's
        posts (issue 30); without them the whole digest is compared."""
        kept = self.core.store.get_meta(f"voters_marks:day:{day}")
        marks = json.loads(kept) if kept else {}
        if marks.get("inputs") == memo.get("inputs") and "posts" in marks:
            return bool(marks["posts"] == self.core.store.window_mark(
                window.start, window.night_deadline, topic_id=self.core.vote_topic_id)
                and marks["settings"] == hashlib.sha256(
                    self._settings_read(window, alive)).hexdigest())
        return bool(memo.get("inputs") == self._tally_inputs(window, alive))

    def override_vote(self, action: VoteAction, post_id: int, *, reason: str = "",
                      target: str | None = None) -> VoteEffect:
        """``referee vote accept|reject|set``: recorded; the post's day is counted anew and
        the post's vote before and after is returned. Refused (nothing recorded) for a post
        not stored, the host's own, one outside every day, an ``accept`` of a vote that
        already counts or of a post with no vote."""
        post = self.core.store.post(post_id)
        if post is None:
            raise RequestRefused(f"сообщения {post_id} нет в базе",
                                 "сначала referee sync; номер — из ссылки …#p<номер>")
        if normalise(post.author) == normalise(self.core.config.host):
            raise RequestRefused(f"сообщение {post_id} — ведущего: ведущий не голосует (V5), "
                                 "решать по нему нечего", "укажите сообщение игрока")
        day = self._day_of(post.posted_at, post_id)
        self.states.refuse_after_end("day", day, f"Решение по сообщению {post_id} (день {day}) не "
                              "записано.")
        if action == "set":
            if not target:
                raise RequestRefused("vote set: нужен --target НИК")
            target = self.refusals.known_player(target, "--target")
        decision = VoteDecision(action, post_id, reason=reason, target=target)
        counted, rejected = self._post_vote(day, post_id)
        self._refuse_idle(decision, day, counted, rejected)
        decisions.record(self.core.store, decision)
        self.core.store.forget_result("day", day)
        self.core.forget_counts()
        after, why = self._post_vote(day, post_id)
        return VoteEffect(day, post_id, post.author, counted, after, why)

    def _refuse_idle(self, decision: VoteDecision, day: int, counted: CountedVote | None,
                     rejected: Rejection | None) -> None:
        """A decision that could change nothing is refused: an accept of a vote that counts
        or that would still not count (V2, V5, V6 are not the host's to waive), a reject of
        a vote that does not count, any of them on a post with no vote."""
        post_id, action = decision.post_id, decision.action
        if action != "set" and counted is None and rejected is None:
            raise RequestRefused(
                f"в сообщении {post_id} нет голоса за день {day}: {action} применить не к чему",
                f"голос за игрока назначается так: referee vote set {post_id} --target НИК")
        if action == "accept" and counted is not None:
            raise RequestRefused(f"голос из сообщения {post_id} ({counted.voter} → "
                                 f"{counted.target}) и так засчитан", "решать нечего")
        if action == "reject" and counted is None and rejected is not None:
            raise RequestRefused(f"голос из сообщения {post_id} и так не засчитан: "
                                 f"{rejected.label}", "решать нечего")
        if action == "accept":
            would, why = self._post_vote(day, post_id, decision)
            if would is None:
                raise RequestRefused(
                    f"vote accept {post_id} ничего не изменит: голос всё равно не засчитан — "
                    f"{why.label if why else 'голоса нет'}",
                    f"без ника голос назначается так: referee vote set {post_id} --target "
                    "НИК; V2, V5 и V6 ведущий не отменяет")

    def _day_of(self, at: datetime, post_id: int) -> int:
        for d in self.core.schedule:
            if d.start <= at < (d.night_deadline or d.deadline):
                return d.day
        raise RequestRefused(f"сообщение {post_id} написано вне дней расписания",
                             "голоса бывают только в окнах дней [[schedule.days]]")

    def _post_vote(self, day: int, post_id: int, extra: VoteDecision | None = None
                   ) -> tuple[CountedVote | None, Rejection | None]:
        """The post's vote in the day's count (with ``extra`` applied, when given): the
        vote that counts, or why it does not."""
        window = self.core.window(day)
        state, _ = self.states.state_before_day(day)
        as_of = self.core.now if self.core.now < window.deadline else None
        t = self._count(window, state, as_of, [extra] if extra is not None else ())
        counted = next((v for v in t.votes if v.post_id == post_id), None)
        rejected = next((r for r in t.rejected if r.post_id == post_id), None)
        return counted, rejected

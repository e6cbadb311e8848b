"""The game's days: each day's vote count from the stored posts (V1–V6), recorded once
after the deadline, and the host's decisions on votes, hangings and removals."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime
from typing import Any

from referee import decisions
from referee.config import DaySchedule
from referee.day.count import tally
from referee.day.result import Tally
from referee.decisions import Hanging, Removal, VoteDecision
from referee.errors import GameError
from referee.game.base import GameBase
from referee.game.results import DayResult, _voters_of
from referee.kernel import Post
from referee.night import GameState
from referee.night import winner as game_winner
from referee.night.events import Removed
from referee.night.win import GameResult
from referee.store import RecordedResult
from referee.timeline import DayPlay, play_day


class DayRoom(GameBase):
    """The day («день»): the count (V1–V6), the host's decisions on votes and hangings."""

    def day_posts(self, window: DaySchedule) -> list[list[Post]]:
        """The day's posts, each as its stored revisions, first-seen first (V4)."""
        out: list[list[Post]] = []
        for sp in self.store.posts(since=window.start, until=window.night_deadline,
                                   topic_id=self.vote_topic_id):
            versions = [sp.as_post(r) for r in sp.revisions] or [sp.as_post()]
            out.append(versions)
        return out

    def vote_overrides(self) -> list[VoteDecision]:
        return decisions.recorded(self.store, VoteDecision)

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
        t = self._host_hanging(day, self._count(window, state, as_of))
        stored, recorded_now = self._record_day(day, t, window, state,
                                                record=record and as_of is None)
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
        )
        if _state is None:
            self._tallies[key] = result
        return result

    def _count(self, window: DaySchedule, state: GameState,
               as_of: int | datetime | None) -> Tally:
        """V1–V6 over the day's stored posts."""
        return tally(
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

    def _host_hanging(self, day: int, t: Tally) -> Tally:
        """The host's word on the day's result stands over the count (recorded, shown)."""
        decided = [h for h in decisions.recorded(self.store, Hanging) if h.day == day]
        if not decided or not t.closed:
            return t
        choice = decided[-1].hanged
        why = f" ({decided[-1].reason})" if decided[-1].reason else ""
        return replace(
            t, hanged=choice, hanged_all=(choice,) if choice else (),
            explanation=f"Решение ведущего{why}: "
            + (f"на виселицу отправляется {choice}." if choice else "никого не вешают.")
            + f" По голосам: {t.explanation}",
            overrides=(*t.overrides, f"hang {choice or '—'}{why}"),
        )

    def _record_day(self, day: int, t: Tally, window: DaySchedule, state: GameState, *,
                    record: bool) -> tuple[RecordedResult | None, bool]:
        """The day's recorded result, recording it now when the count is final and nothing
        is recorded yet: (the result, whether this run recorded it)."""
        stored = self.store.result("day", day)
        if stored is not None or not record or not t.closed:
            return stored, False
        return self.store.record_result(
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
        ), True

    def _day_end(self, state: GameState, day: int, t: Tally, stored: RecordedResult | None
                 ) -> tuple[GameResult | None, tuple[dict[str, Any], ...]]:
        """The end of the day in its summary: who leaves after the tally (A3) and the end of
        the game the day may bring (W2)."""
        hanged = stored.payload.get("hanged") if stored else t.hanged
        effective = self._removals_effective_after(day)
        play = DayPlay(day, hanged, _voters_of(t, hanged),
                       removals=tuple((r["nick"], r["rule"]) for r in effective))
        after, events = play_day(state, play, self.config.night, strict=False)
        gone = [e.player for e in events if isinstance(e, Removed)]
        removals = []
        for r in effective:
            if r["nick"] in gone:
                gone.remove(r["nick"])
                removals.append(r)
        return game_winner(after, self.config.night), tuple(removals)

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
        decisions.record(self.store, VoteDecision(action, post_id, reason=reason, target=target))
        for d in self.schedule:
            if d.start <= post.posted_at < (d.night_deadline or d.deadline):
                self.store.forget_result("day", d.day)
        self._tallies.clear()
        self._nights.clear()

"""The game's activity checks (A1–A3) over its turns, recorded once a turn is over, and
the host's excuses."""

from __future__ import annotations

from referee import decisions
from referee.day.activity import Excuse, TurnDeath, check_activity, turn_window
from referee.decisions import Excuse as ExcuseDecision
from referee.errors import GameError
from referee.game.refusals import Refusals
from referee.game.results import ActivityResult
from referee.game.safety import hold
from referee.kernel import Post


class ActivityRoom(Refusals):
    """Activity («активность»): who went missing (A1–A3)."""

    def check_activity(self, turn: int, *, record: bool = True) -> ActivityResult:
        """A1–A3 for turn ``turn``; once final, the removals are recorded (A3). Refused
        once the game has ended in that turn or before (W2), unless it was recorded before
        the end: then it shows again what it recorded."""
        self.scheduled_day(turn, "--turn", "ход")
        if self.store.result("activity", turn) is None:
            self.refuse_after_end("turn", turn, f"Ход {turn} не проверяется.")
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
            # No result before its time: a night's deaths show once the night is over or
            # resolved (recorded), never while its requests may still change.
            if self.now >= night_end or self.store.result("night", turn) is not None:
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
        held = hold(self, window.start, window.end, f"проверка активности хода {turn}")
        notes = [*notes, *held.notes]
        recorded = False
        if record and report.final and not held.reasons \
                and self.store.result("activity", turn) is None:
            self._record("activity", turn, {
                "removed": [
                    {"nick": f.nick, "rule": f.rule, "explanation": f.explanation,
                     "effective_after_day": f.effective_after_day}
                    for f in report.removed
                ],
            }, recorded_at=self.now)
            recorded = True
        return ActivityResult(report, recorded, tuple(notes), held=held.reasons)

    def excuse(self, nick: str, turn: int, reason: str = "") -> str:
        """The player warned the host: not flagged as missing for turn ``turn`` (A1).
        Refused for a turn outside the schedule or a player out of the game by then, and
        for a turn after the end of the game (W2); the turn in which it ended stays open:
        an excuse may take back a removal that ended it."""
        self.scheduled_day(turn, "--turn", "ход")
        self.refuse_after_end("day", turn, f"Предупреждение на ход {turn} не записано.")
        self.known_player(nick, "excuse")
        state, _ = self.state_before_day(turn)
        name = self.living_player(nick, "excuse", state, f"к началу хода {turn}")
        decisions.record(self.store, ExcuseDecision(name, turn, reason))
        self.store.forget_result("activity", turn)
        self._tallies.clear()
        self._nights.clear()
        return name

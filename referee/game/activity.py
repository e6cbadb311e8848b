"""The game's activity checks (A1–A3) over its turns, recorded once a turn is over, and
the host's excuses."""

from __future__ import annotations

from referee.game.leaving import LeavingRoom
from referee.game.results import ActivityResult
from referee.game.safety import hold
from referee.rules import decisions
from referee.rules.decisions import Excuse as ExcuseDecision


class ActivityRoom(LeavingRoom):
    """Activity («активность»): who went missing (A1–A3)."""

    def check_activity(self, turn: int, *, record: bool = True) -> ActivityResult:
        """A1–A3 for turn ``turn``, worked out as every command works it out
        (:meth:`~referee.game.leaving.LeavingRoom.turn_report`); once final, the removals are
        recorded, each with when it takes effect (A3). Refused
        once the game has ended in that turn or before (W2), unless it was recorded before
        the end: then it shows again what it recorded."""
        self.scheduled_day(turn, "--turn", "ход")
        if self.store.result("activity", turn) is None:
            self.refuse_after_end("turn", turn, f"Ход {turn} не проверяется.")
        _, notes = self.state_before_day(turn)
        # The game as far as the turn has gone: its day, and its night once over (A1).
        after, _ = self.state_before_day(turn + 1)
        report = self.turn_report(turn, after)
        window = report.window
        held = hold(self, window.start, window.end, f"проверка активности хода {turn}")
        notes = (*notes, *held.notes)
        recorded = False
        if record and report.final and not held.reasons \
                and self.store.result("activity", turn) is None:
            self._record("activity", turn, {
                "removed": [
                    {"nick": f.nick, "rule": f.rule, "explanation": f.explanation,
                     "effective_after_day": f.effective_after_day,
                     "effective_before_day": f.effective_before_day}
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

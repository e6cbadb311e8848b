"""The game's activity checks (A1–A3) over its turns, recorded once a turn is over, and
the host's excuses."""

from __future__ import annotations

from referee.game.core import GameCore
from referee.game.leaving import Leaving
from referee.game.refusals import Refusals
from referee.game.results import ActivityResult
from referee.game.safety import hold
from referee.game.states import States
from referee.rules import decisions
from referee.rules.decisions import Excuse as ExcuseDecision


class Activity:
    """Activity («активность»): who went missing (A1–A3), checked over what
    :class:`~referee.game.leaving.Leaving` works out."""

    def __init__(self, core: GameCore, refusals: Refusals, states: States,
                 leaving: Leaving) -> None:
        self.core = core
        self.refusals = refusals
        self.states = states
        self.leaving = leaving

    def check_activity(self, turn: int, *, record: bool = True) -> ActivityResult:
        """A1–A3 for turn ``turn``, worked out as every command works it out
        (:meth:`~referee.game.leaving.Leaving.turn_report`); once final, the removals are
        recorded, each with when it takes effect (A3). Refused
        once the game has ended in that turn or before (W2), unless it was recorded before
        the end: then it shows again what it recorded."""
        self.refusals.scheduled_day(turn, "--turn", "ход")
        if self.core.store.result("activity", turn) is None:
            self.states.refuse_after_end("turn", turn, f"Ход {turn} не проверяется.")
        _, notes = self.states.state_before_day(turn)
        # The game as far as the turn has gone: its day, and its night once over (A1).
        after, _ = self.states.state_before_day(turn + 1)
        report = self.leaving.turn_report(turn, after)
        window = report.window
        held = hold(self.core, window.start, window.end, f"проверка активности хода {turn}")
        notes = (*notes, *held.notes)
        recorded = False
        if record and report.final and not held.reasons \
                and self.core.store.result("activity", turn) is None:
            self.core.record("activity", turn, {
                "removed": [
                    {"nick": f.nick, "rule": f.rule, "explanation": f.explanation,
                     "effective_after_day": f.effective_after_day,
                     "effective_before_day": f.effective_before_day}
                    for f in report.removed
                ],
            }, recorded_at=self.core.now)
            recorded = True
        return ActivityResult(report, recorded, tuple(notes), held=held.reasons)

    def excuse(self, nick: str, turn: int, reason: str = "") -> str:
        """The player warned the host: not flagged as missing for turn ``turn`` (A1).
        Refused for a turn outside the schedule or a player out of the game by then, and
        for a turn after the end of the game (W2); the turn in which it ended stays open:
        an excuse may take back a removal that ended it."""
        self.refusals.scheduled_day(turn, "--turn", "ход")
        self.states.refuse_after_end("day", turn, f"Предупреждение на ход {turn} не записано.")
        self.refusals.known_player(nick, "excuse")
        state, _ = self.states.state_before_day(turn)
        name = self.refusals.living_player(nick, "excuse", state, f"к началу хода {turn}")
        decisions.record(self.core.store, ExcuseDecision(name, turn, reason))
        self.core.store.forget_result("activity", turn)
        self.core.forget_counts()
        return name

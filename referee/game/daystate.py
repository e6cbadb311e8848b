"""One source of a day's state for every view (issue 27): what a post held in the day's count
(:func:`post_held`, :func:`held_in`) and the day as the game applies it now
(:func:`day_state`: who lives, who may vote, what counts, who leaves and when).

``watch``'s news and status line, ``tally``, ``status``, ``history``, ``check-activity``,
``sync`` and the morning summary all read the day through here, so that they cannot
disagree: a vote ``watch`` tells as counted is one ``tally --as-of`` counts at that moment.
Nothing here records: every count is made with ``record=False``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from referee.day.result import Tally
from referee.errors import GameError

if TYPE_CHECKING:
    from referee.game import Game

Held = Literal["counted", "rejected", "none"]


@dataclass(frozen=True, slots=True)
class PostHeld:
    """What one post held in its day's count (V1–V6), by the rule ``tally`` applies:
    a vote that counts (``counted``), a vote that does not (``rejected``, with its first
    rule and reason), or no vote at all (``none``)."""

    post_id: int
    held: Held
    voter: str = ""
    target: str | None = None
    rule: str = ""
    reason: str = ""

    @property
    def text(self) -> str:
        """What the host reads after «сообщение пропало»: «голос в нём (Kotik → Лиса)
        по-прежнему считается (V1: …)», «голос в нём не засчитан: … (V5)», «голоса в нём
        не было»."""
        if self.held == "counted":
            why = f" ({self.rule}: {self.reason})" if self.rule else ""
            return f"голос в нём ({self.voter} → {self.target}) по-прежнему считается{why}"
        if self.held == "rejected":
            to = f" → {self.target}" if self.target else ""
            return f"голос в нём ({self.voter}{to}) не засчитан: {self.reason} ({self.rule})"
        return "голоса в нём не было"


def held_in(t: Tally, post_id: int) -> PostHeld:
    """What post ``post_id`` holds in the count ``t``."""
    for v in t.votes:
        if v.post_id == post_id:
            # The note a vanished post carries (V1, deleted_vote) is the rule it counts by.
            note = next((n for n in v.flags if n.rule == "V1"), None)
            return PostHeld(post_id, "counted", v.voter, v.target,
                            note.rule if note else "", note.text if note else "")
    for r in t.rejected:
        if r.post_id == post_id:
            return PostHeld(post_id, "rejected", r.voter, r.target, r.rule, r.reason)
    return PostHeld(post_id, "none")


def post_held(game: Game, post_id: int, at: datetime | None = None) -> PostHeld:
    """What post ``post_id`` holds in its day's count as ``tally`` makes it now (or as of
    ``at``); no vote for a post outside every day or not stored."""
    post = game.store.post(post_id)
    if post is None:
        return PostHeld(post_id, "none")
    day = next((d.day for d in game.schedule
                if d.start <= post.posted_at < (d.night_deadline or d.deadline)), None)
    if day is None:
        return PostHeld(post_id, "none")
    try:
        t = game.tally_day(day, as_of=at, record=False).tally
    except GameError:
        return PostHeld(post_id, "none")  # the day is not counted (after the end, W2)
    return held_in(t, post_id)

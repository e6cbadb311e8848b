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
from typing import TYPE_CHECKING, Any, Literal

from referee.core.errors import GameError
from referee.core.nicks import normalise
from referee.rules.day.result import Tally

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


@dataclass(frozen=True)
class DayState:
    """Day ``day`` as the game applies it at ``at`` («состояние дня»): who is alive at its
    start (after the removals of its morning, A3), who may vote (V5: the living but the
    host), the count (V1–V6: counted votes, candidates in the count's order, rejected posts,
    who has not voted), the leaders, and who leaves when (A3): at its start, and at its end
    once final. Every view reads the day through this."""

    day: int
    at: datetime
    closed: bool
    alive: tuple[str, ...]
    may_vote: tuple[str, ...]
    tally: Tally
    hanged: str | None
    left_at_start: tuple[dict[str, Any], ...]
    """A3: who left with the start of this day (a silent previous turn)."""
    leaving_at_end: tuple[dict[str, Any], ...]
    """A3: who leaves at its end, after the tally (once its deadline has passed)."""
    winner: str | None
    """W2 in words, when the day ends the game."""

    @property
    def counts(self) -> tuple[tuple[str, int], ...]:
        return tuple((c.target, c.votes) for c in self.tally.counts)

    @property
    def leaders(self) -> tuple[str, ...]:
        """The candidates with the most votes (several on a tie), none before a vote."""
        top = max((n for _, n in self.counts), default=0)
        return tuple(t for t, n in self.counts if n == top and top > 0)

    @property
    def not_voted(self) -> tuple[str, ...]:
        return self.tally.not_voted


def day_state(game: Game, day: int, at: datetime | None = None) -> DayState:
    """Day ``day`` now (or as of ``at``, as ``tally --as-of`` counts it); nothing recorded."""
    result = game.tally_day(day, as_of=at, record=False)
    t = result.tally
    host = normalise(game.config.host)
    try:
        left = game.resolve_night(day - 1, record=False).leaving if day > 1 else ()
    except GameError:
        left = ()  # no night before it in the schedule, or its roles not dealt
    return DayState(
        day=day, at=at or game.now, closed=t.closed, alive=t.alive,
        may_vote=tuple(n for n in t.alive if normalise(n) != host), tally=t,
        hanged=t.hanged if t.closed else None, left_at_start=tuple(left),
        leaving_at_end=result.removals,
        winner=result.winner.explain() if result.winner is not None else None,
    )

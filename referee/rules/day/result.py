"""What a day's count gives (docs/rules.md V6): the counted votes, each candidate's line, the
posts that did not count and why, and the :class:`Tally` itself. Plain values, made by
:func:`referee.rules.day.count.tally` and shown by the renderers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from referee.core.nicks import normalise
from referee.rules.day.notes import CHECK
from referee.rules.day.reading import Note


@dataclass(frozen=True, slots=True)
class CountedVote:
    """A vote that counts: who, for whom, when, from which post and by which rule."""

    voter: str
    target: str
    post_id: int
    at: datetime
    typed: str
    match_kind: str
    accepted_by: str
    flags: tuple[Note, ...] = ()


@dataclass(frozen=True, slots=True)
class Move:
    """A counted vote as the count moves (V4): ``voter``'s vote goes to ``target`` from
    ``old``, the player his earlier vote was for (``None``: his first vote of the day)."""

    at: datetime
    post_id: int
    voter: str
    old: str | None
    target: str


@dataclass(frozen=True, slots=True)
class Candidate:
    """One line of the count: ``target`` with ``votes`` from ``voters`` in voting order.
    ``reached_at`` is when the count last rose to its final value (V6 tie rule)."""

    target: str
    votes: int
    voters: tuple[CountedVote, ...]
    reached_at: datetime | None = None
    reached_post: int | None = None


@dataclass(frozen=True, slots=True)
class Rejection:
    """A post that looked like a vote and did not count, with every reason found."""

    post_id: int
    voter: str
    at: datetime
    typed: str
    target: str | None
    notes: tuple[Note, ...]

    @property
    def rule(self) -> str:
        return self.notes[0].rule

    @property
    def reason(self) -> str:
        return self.notes[0].text

    @property
    def label(self) -> str:
        return "; ".join(str(n) for n in self.notes)

    @property
    def asks_host(self) -> bool:
        """Not read for the host but put to him («ведущему проверить», docs/rules.md V1)."""
        return self.notes[0].text.startswith(CHECK)


@dataclass(frozen=True, slots=True)
class Flag:
    """A remark the host should check on a vote that counts (near match, edit, override)."""

    post_id: int
    voter: str
    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.text}"


@dataclass(frozen=True, slots=True)
class Tally:
    """One day's result (V6). ``closed`` is false for a count as it stands mid-day
    (``as_of``): then nobody is hanged yet and ``leader`` says who leads. ``hanged_all``
    has several nicks only with ``tie = "all"``; ``hanged`` is then the first of them."""

    day: int
    start: datetime
    deadline: datetime
    closed: bool
    hanged: str | None
    hanged_all: tuple[str, ...]
    leader: str | None
    tied: tuple[str, ...]
    explanation: str
    counts: tuple[Candidate, ...]
    not_voted: tuple[str, ...]
    rejected: tuple[Rejection, ...]
    flags: tuple[Flag, ...]
    overrides: tuple[str, ...]
    alive: tuple[str, ...]
    tie_rule: str
    as_of: datetime | None = None
    as_of_post: int | None = None
    closed_early_by: int | None = None
    moves: tuple[Move, ...] = ()
    """Every counted vote as the count moved, in voting order (a change of vote moves a vote
    from one player to another, V4): the story the counts above end in."""

    @property
    def votes(self) -> tuple[CountedVote, ...]:
        """Every counted vote in voting order."""
        return tuple(sorted((v for c in self.counts for v in c.voters),
                            key=lambda v: (v.at, v.post_id)))

    @property
    def counted_voters(self) -> tuple[str, ...]:
        return tuple(v.voter for v in self.votes)

    @property
    def rejected_voters(self) -> tuple[str, ...]:
        """Players with a rejected vote-like post and no counted vote (A2: a missed vote).
        Posts rejected by V5 (host, not a player, dead, replaced) are not players' votes."""
        counted = {normalise(v) for v in self.counted_voters}
        out = dict.fromkeys(r.voter for r in self.rejected
                            if r.rule != "V5" and normalise(r.voter) not in counted)
        return tuple(out)



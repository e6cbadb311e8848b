"""What is new between two looks at the game (issue 21): pure values and one pure diff.

A :class:`Look` is what ``referee watch`` saw of the game after one sync: the phase, the
day's count as it stands (counted votes, the posts that did not count and why, who leads,
who has not voted), the day's posts with how many texts each had and whether it vanished,
the host's PMs with what the night intake read in each, and who has not posted this turn.
:func:`news` compares the last look with the new one and says, once, what changed. Nothing
here reads the store, the forum or the clock: :mod:`referee.host.watch.look` takes looks,
:mod:`referee.host.watch.loop` keeps the last one (in the game database, so a restarted watch
goes on from its last look instead of telling everything again).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from referee.rules.actions import Request

Phase = Literal["before", "day", "night", "morning", "over"]
"""Before day 1; a day until its deadline; its night; after the night until the next day
starts; after the last scheduled night (or once the game is won)."""


# --------------------------------------------------------------------------- a look

@dataclass(frozen=True, slots=True)
class SeenVote:
    """A counted vote (V1–V6) as the count stands."""

    post_id: int
    voter: str
    target: str
    at: datetime


@dataclass(frozen=True, slots=True)
class SeenRejection:
    """A post that looked like a vote and did not count: the first reason found."""

    post_id: int
    voter: str
    target: str | None
    rule: str
    reason: str


@dataclass(frozen=True, slots=True)
class SeenPost:
    """One post of the day: how many distinct texts the tool saw (V4), gone or not."""

    post_id: int
    author: str
    texts: int
    missing: bool
    held: str = ""
    """For a vanished post: what it holds in the day's count (tally's rule)."""


@dataclass(frozen=True, slots=True)
class SeenPm:
    """One PM to the host, with what the night intake read in it (N1, N14): the requests,
    or why nothing was read. A PM outside any night's reading has neither."""

    pm_id: int
    sender: str
    sent_at: datetime
    night: int | None = None
    requests: tuple[Request, ...] = ()
    not_understood: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Look:
    """The game as one sync left it (see the module docstring)."""

    at: datetime
    phase: Phase
    number: int
    """The day (or night) the phase belongs to."""
    ends: datetime | None
    """When the phase ends: the day's deadline, the night's end, the next day's start."""
    votes: tuple[SeenVote, ...] = ()
    counts: tuple[tuple[str, int], ...] = ()
    """Candidates and their votes, in the count's order."""
    not_voted: tuple[str, ...] = ()
    rejected: tuple[SeenRejection, ...] = ()
    posts: tuple[SeenPost, ...] = ()
    pms: tuple[SeenPm, ...] = ()
    silent: tuple[str, ...] = ()
    """Living players with no post this turn (A1), the host's excuses left out."""
    hanged: str | None = None
    winner: str | None = None
    """The end of the game (W2) in words, once the game knows it."""

    @property
    def leaders(self) -> tuple[str, ...]:
        """The candidates with the most votes (several on a tie), none before a vote."""
        top = max((n for _, n in self.counts), default=0)
        return tuple(t for t, n in self.counts if n == top and top > 0)

    def votes_for(self, target: str) -> int:
        return dict(self.counts).get(target, 0)


# --------------------------------------------------------------------------- what is new

@dataclass(frozen=True, slots=True)
class VoteCounted:
    """A vote counted since the last look; ``votes`` is the candidate's count now,
    ``before`` the voter's earlier counted target that day (a changed vote)."""

    voter: str
    target: str
    votes: int
    post_id: int
    at: datetime
    before: str | None = None
    kind: str = field(default="vote", init=False)


@dataclass(frozen=True, slots=True)
class VoteDropped:
    """A vote that counted at the last look and no longer does (its post was edited or
    vanished, a host decision, a later vote of the voter)."""

    voter: str
    target: str
    votes: int
    post_id: int
    kind: str = field(default="vote", init=False)


@dataclass(frozen=True, slots=True)
class VoteRejected:
    """A post that looks like a vote and does not count, and why."""

    voter: str
    target: str | None
    rule: str
    reason: str
    post_id: int
    kind: str = field(default="rejected", init=False)


@dataclass(frozen=True, slots=True)
class PostChanged:
    """A post of the day edited (a new text seen) or vanished from its page."""

    post_id: int
    author: str
    change: Literal["edited", "vanished", "back"]
    held: str = ""
    """For a vanished post: what it holds in the day's count («голоса в нём не было»)."""
    kind: str = field(default="post", init=False)


@dataclass(frozen=True, slots=True)
class NightPm:
    """A new PM to the host, read as a request, or not understood (and why)."""

    pm: SeenPm
    kind: str = field(default="pm", init=False)


@dataclass(frozen=True, slots=True)
class LeaderChanged:
    before: tuple[str, ...]
    after: tuple[str, ...]
    votes: int
    kind: str = field(default="leader", init=False)


@dataclass(frozen=True, slots=True)
class PhaseChanged:
    phase: Phase
    number: int
    ends: datetime | None
    winner: str | None = None
    kind: str = field(default="phase", init=False)


@dataclass(frozen=True, slots=True)
class FirstLook:
    """The watch's first look at this game: a summary instead of every vote so far."""

    look: Look
    kind: str = field(default="phase", init=False)


News = VoteCounted | VoteDropped | VoteRejected | PostChanged | NightPm | LeaderChanged | \
    PhaseChanged | FirstLook


def news(before: Look | None, after: Look) -> list[News]:
    """What ``after`` shows that ``before`` did not, in the order a host reads it: the
    phase, the posts, the votes, the leader, the PMs. Votes and posts are compared within
    one day; a new day starts from nothing."""
    if before is None:
        return [FirstLook(after)]
    out: list[News] = []
    same_day = (before.number == after.number and before.phase in ("day", "night")
                and after.phase in ("day", "night"))
    if (before.phase, before.number) != (after.phase, after.number):
        out.append(PhaseChanged(after.phase, after.number, after.ends, after.winner))
    if same_day:
        out += _posts(before.posts, after.posts)
        out += _votes(before, after)
    elif after.phase == "day":
        out += _votes(Look(after.at, "day", after.number, after.ends), after)
    if same_day or after.phase == "day":
        out += _leader(before.leaders if same_day else (), after)
    out += [NightPm(pm) for pm in after.pms if pm.pm_id not in {p.pm_id for p in before.pms}]
    return out


def _posts(before: Sequence[SeenPost], after: Sequence[SeenPost]) -> list[News]:
    old = {p.post_id: p for p in before}
    out: list[News] = []
    for p in after:
        was = old.get(p.post_id)
        if was is None:
            continue  # a new post is told through what it holds (a vote), not as a post
        if p.missing and not was.missing:
            out.append(PostChanged(p.post_id, p.author, "vanished", p.held))
        elif was.missing and not p.missing:
            out.append(PostChanged(p.post_id, p.author, "back"))
        elif p.texts > was.texts:
            out.append(PostChanged(p.post_id, p.author, "edited"))
    return out


def _votes(before: Look, after: Look) -> list[News]:
    out: list[News] = []
    old = {(v.post_id, v.target): v for v in before.votes}
    new = {(v.post_id, v.target): v for v in after.votes}
    earlier = {v.voter: v.target for v in before.votes}
    for key, v in old.items():
        if key not in new:
            out.append(VoteDropped(v.voter, v.target, after.votes_for(v.target), v.post_id))
    for key, v in new.items():
        if key not in old:
            was = earlier.get(v.voter)
            out.append(VoteCounted(v.voter, v.target, after.votes_for(v.target), v.post_id,
                                   v.at, was if was != v.target else None))
    seen = {(r.post_id, r.rule) for r in before.rejected}
    out += [VoteRejected(r.voter, r.target, r.rule, r.reason, r.post_id)
            for r in after.rejected if (r.post_id, r.rule) not in seen]
    return out


def _leader(before: tuple[str, ...], after: Look) -> list[News]:
    now = after.leaders
    if now == before or not now:
        return []
    return [LeaderChanged(before, now, after.votes_for(now[0]))]


# --------------------------------------------------------------------------- kept in the store

def look_to_json(look: Look) -> dict[str, Any]:
    """What the next watch needs of the last look (the PMs' readings are not kept: only
    which PMs were seen)."""
    return {
        "at": look.at.isoformat(), "phase": look.phase, "number": look.number,
        "ends": look.ends.isoformat() if look.ends else None,
        "votes": [[v.post_id, v.voter, v.target, v.at.isoformat()] for v in look.votes],
        "counts": [list(c) for c in look.counts],
        "not_voted": list(look.not_voted),
        "rejected": [[r.post_id, r.voter, r.target, r.rule, r.reason] for r in look.rejected],
        "posts": [[p.post_id, p.author, p.texts, p.missing] for p in look.posts],
        "pms": [[p.pm_id, p.sender, p.sent_at.isoformat()] for p in look.pms],
        "silent": list(look.silent), "hanged": look.hanged, "winner": look.winner,
    }


def look_from_json(d: Mapping[str, Any]) -> Look:
    def when(s: str | None) -> datetime | None:
        return datetime.fromisoformat(s) if s else None

    return Look(
        at=datetime.fromisoformat(d["at"]), phase=d["phase"], number=int(d["number"]),
        ends=when(d.get("ends")),
        votes=tuple(SeenVote(int(p), v, t, datetime.fromisoformat(a))
                    for p, v, t, a in d.get("votes", [])),
        counts=tuple((t, int(n)) for t, n in d.get("counts", [])),
        not_voted=tuple(d.get("not_voted", [])),
        rejected=tuple(SeenRejection(int(p), v, t, r, why)
                       for p, v, t, r, why in d.get("rejected", [])),
        posts=tuple(SeenPost(int(p), a, int(n), bool(m)) for p, a, n, m in d.get("posts", [])),
        pms=tuple(SeenPm(int(p), s, datetime.fromisoformat(a)) for p, s, a in d.get("pms", [])),
        silent=tuple(d.get("silent", [])), hanged=d.get("hanged"), winner=d.get("winner"),
    )

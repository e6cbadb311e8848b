"""Replacements («замены»): a new player takes a roster slot from a post or a time on.

Everything is keyed by the slot's original nick: the replacement's posts, votes and night
requests count for the slot he took, votes for the slot carry over, and messages for the
slot go to whoever holds it now. Written once here; the day's count, the night's reading,
the game and the sending all ask this.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from referee.config.game import Replacement
from referee.core.nicks import normalise


class Slots:
    """The game's roster slots and who plays each when."""

    def __init__(self, replacements: Sequence[Replacement], players: Iterable[str] = ()) -> None:
        self.replacements = tuple(replacements)
        self._slot_of = {normalise(r.player): r.slot for r in self.replacements}
        self._players: dict[str, str] = {}
        for nick in players:
            self._players.setdefault(normalise(nick), nick)

    @staticmethod
    def started(r: Replacement, post_id: int | None, at: datetime) -> bool:
        """Whether replacement ``r`` is in force at the post ``post_id`` written at ``at``."""
        by_post = r.from_post is not None and post_id is not None and post_id >= r.from_post
        by_time = r.from_time is not None and at >= r.from_time
        return by_post or by_time

    def slot(self, nick: str) -> str:
        """The slot ``nick`` plays at any time of the game (his own nick when none)."""
        return self._slot_of.get(normalise(nick), nick)

    def slot_at(self, author: str, at: datetime, post_id: int | None = None) -> str:
        """The slot a post's author plays at that post: a replacement's posts count for the
        slot from the moment he took it; a player's own posts under his roster spelling."""
        key = normalise(author)
        for r in self.replacements:
            if normalise(r.player) == key and self.started(r, post_id, at):
                return r.slot
        return self._players.get(key, author)

    def holder(self, slot: str, post_id: int | None, at: datetime) -> str:
        """Who plays ``slot`` at the post ``post_id`` written at ``at``."""
        holder = slot
        for r in self.replacements:
            if r.slot == slot and self.started(r, post_id, at):
                holder = r.player
        return holder

    def holder_now(self, slot: str, now: datetime) -> str:
        """Who plays ``slot`` now (a replacement from a post is in force once announced)."""
        holder = slot
        for r in self.replacements:
            if normalise(r.slot) == normalise(slot) and (r.from_time is None
                                                         or r.from_time <= now):
                holder = r.player
        return holder

    def as_aliases(self, aliases: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
        """``aliases`` with each replacement as an alias of his slot (a replacement writes
        PMs under his own forum name)."""
        out = {k: tuple(v) for k, v in aliases.items()}
        for r in self.replacements:
            out[r.slot] = out.get(r.slot, ()) + (r.player,)
        return out

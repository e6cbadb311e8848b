"""Replacements in the day's count: a new player takes a slot and its votes (V5)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from referee.config import Replacement
from referee.day.reading import Note
from referee.nicks import Roster, normalise


class Slots:
    """Replacements: a new player takes a slot from a post or time on; votes by and for
    the slot carry over. Everything is keyed by the slot's original nick."""

    def __init__(self, roster: Roster, replacements: Sequence[Replacement]) -> None:
        self.roster = roster
        self.reps = list(replacements)
        self._slot_of: dict[str, str] = {}
        for r in self.reps:
            self._slot_of[normalise(r.player)] = r.slot

    def nick(self, typed: str) -> str | None:
        """The roster nick of a forum username (exact, alias or look-alike; never near)."""
        m = self.roster.match(typed)
        return m.nick if m.kind in ("exact", "alias", "folded") else None

    def slot(self, nick: str) -> str:
        return self._slot_of.get(normalise(nick), nick)

    @staticmethod
    def started(r: Replacement, post_id: int | None, at: datetime) -> bool:
        by_post = r.from_post is not None and post_id is not None and post_id >= r.from_post
        by_time = r.from_time is not None and at >= r.from_time
        return by_post or by_time

    def holder(self, slot: str, post_id: int | None, at: datetime) -> str:
        holder = slot
        for r in self.reps:
            if r.slot == slot and self.started(r, post_id, at):
                holder = r.player
        return holder

    def not_holder(self, nick: str, slot: str, post_id: int, at: datetime) -> Note:
        """V5: why ``nick`` cannot vote for ``slot`` at this post."""
        holder = self.holder(slot, post_id, at)
        mine = [r for r in self.reps if normalise(r.player) == normalise(nick)]
        if normalise(nick) == normalise(slot) or any(self.started(r, post_id, at) for r in mine):
            return Note("V5", f"{nick} заменён игроком {holder}")
        return Note("V5", f"{nick} ещё не вступил в игру (замена с более позднего момента)")

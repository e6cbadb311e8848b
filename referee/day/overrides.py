"""The host's word on a vote (RULES.md V3): ``accept``, ``reject`` and ``set … target``.

The decisions are recorded by the host and shown in the tally; :mod:`referee.day.count`
applies them in its ``host_decision`` check, and :func:`host_set` reads a post the way the
host says it votes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from referee.config import VoteRules
from referee.day.reading import Note, VoteReading, own_letters
from referee.errors import GameError
from referee.kernel import Post
from referee.nicks import Roster

OverrideAction = Literal["accept", "reject", "set"]


@dataclass(frozen=True, slots=True)
class HostOverride:
    """A host's decision on one post, recorded and shown in the tally (V3):
    ``accept POST`` (count it although V1/V3/V4-edit said no), ``reject POST reason``
    (counts as no vote), ``set POST target NICK`` (the vote is for NICK)."""

    action: OverrideAction
    post_id: int
    reason: str = ""
    target: str | None = None

    @classmethod
    def parse(cls, text: str) -> HostOverride:
        """``accept 85`` | ``reject 85 флуд`` | ``set 99 target Снежок``."""
        parts = text.strip().split(maxsplit=2)
        hint = "write: accept POST | reject POST reason | set POST target NICK"
        if len(parts) < 2 or parts[0].lower() not in ("accept", "reject", "set"):
            raise GameError(f"cannot read the override {text!r}", hint)
        action = parts[0].lower()
        try:
            post_id = int(parts[1].lstrip("#p"))
        except ValueError as e:
            raise GameError(f"override {text!r}: {parts[1]!r} is not a post id", hint) from e
        rest = parts[2].strip() if len(parts) > 2 else ""
        if action == "set":
            word, _, nick = rest.partition(" ")
            if word.lower() != "target" or not nick.strip():
                raise GameError(f"override {text!r}: no target nick", hint)
            return cls("set", post_id, target=nick.strip())
        if action == "reject":
            return cls("reject", post_id, reason=rest or "отклонён ведущим")
        return cls("accept", post_id, reason=rest)

    def __str__(self) -> str:
        if self.action == "set":
            return f"set {self.post_id} target {self.target}"
        return f"{self.action} {self.post_id}" + (f" {self.reason}" if self.reason else "")



def host_set(
    post: Post, reading: VoteReading | None, o: HostOverride, roster: Roster, rules: VoteRules
) -> VoteReading:
    """``set POST target NICK``: the host says whom the post votes for. V1 and V2 are then
    the host's word; V3 (a reason) is still checked unless the host also accepts."""
    m = roster.match(o.target or "")
    letters = reading.reason_letters if reading is not None else own_letters(post, rules)
    has_reason = letters >= rules.reason_min_letters
    problems: list[Note] = []
    if m.nick is None:
        problems.append(Note("V2", f"ведущий указал ник «{o.target}», он не найден среди игроков"))
    if not has_reason:
        problems.append(Note("V3", "без аргумента"))
    return VoteReading(
        post_id=post.post_id, voter=post.author, posted_at=post.posted_at,
        typed=reading.typed if reading is not None else "", target=m.nick, match_kind="host",
        has_reason=has_reason, reason_letters=letters,
        line=reading.line if reading is not None else "", problems=tuple(problems),
        flags=(Note("ведущий", f"цель голоса задана ведущим: {m.nick or o.target}"),),
    )

"""The host's word on a vote (docs/rules.md V3): ``accept``, ``reject`` and ``set … target``
(:class:`referee.rules.decisions.VoteDecision`).

The decisions are recorded by the host and shown in the tally; :mod:`referee.rules.day.count`
applies them in its ``host_decision`` check, and :func:`host_set` reads a post the way the
host says it votes.
"""

from __future__ import annotations

from referee.config.game import VoteRules
from referee.core.kernel import Post
from referee.core.nicks import Roster
from referee.rules.day.reading import Note, VoteReading, own_letters
from referee.rules.decisions import VoteDecision


def host_set(
    post: Post, reading: VoteReading | None, o: VoteDecision, roster: Roster, rules: VoteRules
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

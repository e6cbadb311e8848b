"""Who is hanged (docs/rules.md V6): the most votes, the tie rules, and early majority.

Pure. :func:`verdict` reads the day's counts in :func:`standings` order (most votes first,
then who reached the count first) and says who is hanged and why, in
Russian, ready for the game topic: a nick is never declined, so each sentence puts it where
its form does not change («На виселицу отправляется: Лиса»), and no rule code or setting id
appears (the host-only part names the rule: :data:`TIE_RULE_NAMES_RU`). Each value of the
``tie`` setting is one function in :data:`TIE_RULES`; a new tie rule is one more entry
there. With ``early_majority`` the day closes the moment one player has an absolute majority
of the living players (:func:`absolute_majority`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from referee.config.game import VoteRules
from referee.rules.day.result import Candidate, CountedVote, Move


@dataclass(frozen=True, slots=True)
class Verdict:
    """V6: who is hanged (``hanged_all`` has several nicks only with ``tie = "all"``,
    ``hanged`` is then the first), who leads, who is tied, and the explanation."""

    hanged: str | None
    hanged_all: tuple[str, ...]
    leader: str | None
    tied: tuple[str, ...]
    explanation: str


def absolute_majority(alive_count: int) -> int:
    """V6 (early_majority): more than half of the living players."""
    return alive_count // 2 + 1


def reached(moves: Sequence[Move], final: dict[str, int]) -> dict[str, tuple[datetime, int]]:
    """When each candidate's count last rose to its final value (V6 «первым набрал»).
    With ``changes = forbidden`` counts only grow, so this is the time of the last vote."""
    count: dict[str, int] = {}
    out: dict[str, tuple[datetime, int]] = {}
    for m in moves:
        if m.old is not None:
            count[m.old] -= 1
            if count[m.old] < final.get(m.old, 0):
                out.pop(m.old, None)
        count[m.target] = count.get(m.target, 0) + 1
        if count[m.target] >= final.get(m.target, 0) and m.target not in out:
            out[m.target] = (m.at, m.post_id)
    return out


@dataclass(frozen=True, slots=True)
class Standing:
    """One candidate's place in the count: ``votes``, reached (last risen to) at the post
    ``reached_post`` written at ``reached_at``."""

    target: str
    votes: int
    reached_at: datetime
    reached_post: int


def standings(moves: Sequence[Move]) -> tuple[Standing, ...]:
    """The count after ``moves``, in V6 order: most votes first; of as many, the one whose
    count became what it is first («кто первым набрал»). The order :func:`verdict` reads,
    and the one ``history`` shows after every vote."""
    final: dict[str, int] = {}
    for m in moves:
        if m.old is not None:
            final[m.old] -= 1
        final[m.target] = final.get(m.target, 0) + 1
    final = {nick: n for nick, n in final.items() if n > 0}
    when = reached(moves, final)
    return tuple(sorted((Standing(nick, n, *when[nick]) for nick, n in final.items()),
                        key=lambda s: (-s.votes, s.reached_at, s.reached_post)))


def verdict(
    counts: Sequence[Candidate], rules: VoteRules, closed: bool, early: CountedVote | None,
    alive_count: int,
) -> Verdict:
    """V6 for the day's counts. ``closed`` is false for a count mid-day: then nobody is
    hanged and the text says who leads; ``early`` is the vote that closed the day early."""
    if not counts:
        return no_votes(closed)
    if early is not None:
        return early_majority(counts, early, alive_count)
    top_votes = counts[0].votes
    tied = [c for c in counts if c.votes == top_votes]
    if len(tied) == 1:
        return most_votes(tied[0], closed)
    rule = TIE_RULES.get(rules.tie, tie_first_to_reach)
    return rule(tied, closed)


def no_votes(closed: bool) -> Verdict:
    """V6: no valid votes, nobody is hanged."""
    if closed:
        return Verdict(None, (), None, (),
                       "Засчитанных голосов нет: на виселицу никто не отправляется.")
    return Verdict(None, (), None, (), "Засчитанных голосов пока нет.")


def early_majority(counts: Sequence[Candidate], early: CountedVote, alive_count: int
                   ) -> Verdict:
    """V6 (early_majority): the player whose vote reached the absolute majority is hanged."""
    top = next(c for c in counts if c.voters and any(
        v.post_id == early.post_id for v in c.voters))
    text = (f"День закрыт досрочно: абсолютное большинство — {top.votes} из {alive_count} "
            f"живых (сообщение {early.post_id}). На виселицу отправляется: {top.target}.")
    return Verdict(top.target, (top.target,), top.target, (), text)


def most_votes(leader: Candidate, closed: bool) -> Verdict:
    """V6: the player with most votes is hanged."""
    name, votes = leader.target, leader.votes
    if closed:
        text = f"Больше всех голосов: {name} — {votes}. На виселицу отправляется: {name}."
        return Verdict(name, (name,), name, (), text)
    return Verdict(None, (), name, (), f"Лидер по голосам: {name} — {votes}.")


# ------------------------------------------------------------------ the tie rules

TieRule = Callable[[Sequence[Candidate], bool], Verdict]
"""(the tied candidates in count order, whether the day is closed) → the verdict."""


def _head(tied: Sequence[Candidate]) -> str:
    return f"Ничья, по {tied[0].votes}: {', '.join(c.target for c in tied)}."


def _verb(closed: bool) -> str:
    return "На виселицу отправляется" if closed else "Сейчас впереди"


def _one_of(tied: Sequence[Candidate], winner: Candidate, closed: bool, text: str) -> Verdict:
    names = tuple(c.target for c in tied)
    if closed:
        return Verdict(winner.target, (winner.target,), winner.target, names, text)
    return Verdict(None, (), winner.target, names, text)


def tie_first_to_reach(tied: Sequence[Candidate], closed: bool) -> Verdict:
    """V6 (tie = first_to_reach, the default): the one who first reached the final count."""
    winner = min(tied, key=lambda c: (c.reached_at, c.reached_post or 0))
    text = (f"{_head(tied)} Раньше других набрал(а) {winner.votes} "
            f"(сообщение {winner.reached_post}): {winner.target}. {_verb(closed)}: "
            f"{winner.target}.")
    return _one_of(tied, winner, closed, text)


def tie_earliest_last_vote(tied: Sequence[Candidate], closed: bool) -> Verdict:
    """V6 (tie = earliest_last_vote): the one whose last vote came first."""
    winner = min(tied, key=lambda c: max((v.at, v.post_id) for v in c.voters))
    last = max(winner.voters, key=lambda v: (v.at, v.post_id))
    text = (f"{_head(tied)} Последний голос раньше, чем остальные, получил(а) "
            f"(сообщение {last.post_id}): {winner.target}. {_verb(closed)}: {winner.target}.")
    return _one_of(tied, winner, closed, text)


def tie_nobody(tied: Sequence[Candidate], closed: bool) -> Verdict:
    """V6 (tie = nobody): a tie hangs nobody."""
    names = tuple(c.target for c in tied)
    if closed:
        text = f"{_head(tied)} При ничьей на виселицу никто не отправляется."
    else:
        text = f"{_head(tied)} При ничьей на виселицу никто не отправится."
    return Verdict(None, (), None, names, text)


def tie_all(tied: Sequence[Candidate], closed: bool) -> Verdict:
    """V6 (tie = all): every tied player is hanged."""
    names = tuple(c.target for c in tied)
    if closed:
        text = (f"{_head(tied)} При ничьей на виселицу отправляются все: "
                f"{', '.join(names)}.")
        return Verdict(names[0], names, names[0], names, text)
    text = f"{_head(tied)} При ничьей на виселицу отправятся все."
    return Verdict(None, (), names[0], names, text)


TIE_RULES: dict[str, TieRule] = {
    "first_to_reach": tie_first_to_reach,
    "earliest_last_vote": tie_earliest_last_vote,
    "nobody": tie_nobody,
    "all": tie_all,
}
"""The ``tie`` setting's values (docs/rules.md V6)."""

TIE_RULE_NAMES_RU: dict[str, str] = {
    "first_to_reach": "кто первым набрал",
    "earliest_last_vote": "чей последний голос раньше",
    "nobody": "никого не вешают",
    "all": "вешают всех",
}
"""How the host-only part names each ``tie`` value beside the rule code («V6, ничья: …»)."""

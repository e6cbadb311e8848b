"""Who is hanged (docs/rules.md V6): the most votes, the tie rules, and early majority.

Pure. :func:`verdict` reads the day's counts as :func:`referee.rules.day.count.tally` sorts them
(most votes first, then who reached the count first) and says who is hanged and why, in
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
from referee.rules.day.result import Candidate, CountedVote

Event = tuple[datetime, int, str | None, str]
"""A counted vote as the count moves: (at, post, previous target, new target)."""


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


def reached(events: Sequence[Event], final: dict[str, int]) -> dict[str, tuple[datetime, int]]:
    """When each candidate's count last rose to its final value (V6 «первым набрал»).
    With ``changes = forbidden`` counts only grow, so this is the time of the last vote."""
    count: dict[str, int] = {}
    out: dict[str, tuple[datetime, int]] = {}
    for at, pid, old, new in events:
        if old is not None:
            count[old] -= 1
            if count[old] < final.get(old, 0):
                out.pop(old, None)
        count[new] = count.get(new, 0) + 1
        if count[new] >= final.get(new, 0) and new not in out:
            out[new] = (at, pid)
    return out


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

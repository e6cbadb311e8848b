"""Reading one post as a vote (RULES.md V1–V3), before the day's context.

Pure: no I/O, no clock. :func:`find_vote` finds «мой голос» outside quotes and code (V1),
the red nick next to it and its roster match (V2), and counts the reason's letters (V3) on
the same walk of the post's own text (:mod:`referee.day.own_text`). Whether the vote then
counts (time, who is alive, V4–V6) is :func:`referee.day.count.tally`'s work.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import Literal

from referee.config import VoteRules
from referee.day.own_text import CODE, Line, has_word, may_hold_phrase, red_runs, walk
from referee.kernel import Post
from referee.nicks import MatchHow, NickMatch, Roster, fold, normalise

DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
"""Hyphen, hyphens, figure/en/em dash, horizontal bar, minus and their small/wide forms."""

_AFTER_PHRASE = re.compile(rf"[\s{re.escape(DASHES)}:]*")

ReadingKind = Literal[
    "exact", "alias", "lookalike", "case", "near", "ambiguous", "none", "no_red", "host"]


@dataclass(frozen=True, slots=True)
class Note:
    """One reason or remark, with the rule it comes from (``V3``, ``V4``, ``ведущий``…)."""

    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.text}"


@dataclass(frozen=True, slots=True)
class VoteReading:
    """What one post says as a vote (V1–V3), before the day's context (time, who is alive).

    ``typed`` is the red text as the player wrote it (the nick part), ``target`` the roster
    nick it matched or None. ``match_kind`` is the V2 match kind, or ``no_red`` for a post
    with «мой голос» but no red nick (a near-vote: rejected «нет красного ника»).
    ``problems`` say why it cannot count; ``flags`` are remarks on a vote that counts.
    """

    post_id: int
    voter: str
    posted_at: datetime
    typed: str
    target: str | None
    match_kind: ReadingKind
    has_reason: bool
    reason_letters: int
    line: str
    problems: tuple[Note, ...] = ()
    flags: tuple[Note, ...] = ()
    candidates: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        """True when V1–V3 are met (the tally still checks time, V4 and V5)."""
        return not self.problems

    @property
    def has_red(self) -> bool:
        return self.match_kind != "no_red"


def phrase_pattern(phrases: Iterable[str]) -> re.Pattern[str]:
    """«мой голос» in any case, е/ё alike, any run of spaces between words, whole words (V1)."""
    alts: list[str] = []
    for phrase in phrases:
        parts: list[str] = []
        for ch in phrase.strip():
            if ch.isspace():
                if parts and parts[-1] != r"\s+":
                    parts.append(r"\s+")
            elif ch in "её":
                parts.append("[её]")
            else:
                parts.append(re.escape(ch))
        if parts:
            alts.append("".join(parts))
    if not alts:
        alts.append(r"(?!x)x")
    return re.compile(r"(?<!\w)(?:" + "|".join(alts) + r")(?!\w)", re.IGNORECASE)


@lru_cache(maxsize=32)
def _phrase_re(phrases: tuple[str, ...]) -> re.Pattern[str]:
    return phrase_pattern(phrases)


@dataclass(frozen=True, slots=True)
class _Spot:
    """Where the vote sits: the phrase (line, start, end incl. dash) and the red nick.

    ``tight`` is false when other words stand between the phrase and the red nick
    (``gap`` holds them): see :func:`_locate`."""

    line: int
    start: int
    end: int
    nick_line: int | None
    nick_start: int = 0
    nick_end: int = 0
    tight: bool = True
    gap: str = ""
    separated: bool = False
    """Words stand between the phrase and the nick, but a dash or colon sets the nick off
    («Мой голос в этот раз – [red]Шерлок[/red]»): counted, flagged for the host."""


# What may stand between «мой голос» and the red nick: spaces, any dash, colon, arrow,
# quote mark or other sign, smilies (images leave no text), and the words «за» / «против»
# («мой голос за Шерлока» = «мой голос – Шерлок»: the vote is for hanging him).
_CONNECTOR = re.compile(r"[\W_]*(?:(?:за|против)(?!\w)[\W_]*)?", re.IGNORECASE)


_LEAD = re.compile(r"[\W_]*(?:за|против)(?!\w)[\W_]*", re.IGNORECASE)


# Before a line break only a dash, colon or arrow (and «за»/«против») leads to a nick on the
# next line: «Где мой голос?» or «Это мой голос.» ends a sentence, not a vote line.
_ENDS_LINE = re.compile(rf"[\s{re.escape(DASHES)}:>]*(?:(?:за|против)(?!\w)"
                        rf"[\s{re.escape(DASHES)}:>]*)?", re.IGNORECASE)


def _tight(gap: str) -> bool:
    return _CONNECTOR.fullmatch(gap) is not None


# «мой голос в этот раз – Ник», «мой голос сегодня: Ник»: a few words, then a dash or colon
# right before the nick. A nick with no sign before it after other words («мой голос пока
# при мне, но [red]Шерлок[/red]…») is not set off as the vote's target.
_SEPARATED = re.compile(
    rf"[^\n]{{0,40}}?(?:[{re.escape(DASHES)}:]\s*(?:(?:за|против)(?!\w)\s*)?"
    rf"|(?<!\w)(?:за|против)(?!\w)\s*)", re.IGNORECASE)
_NEGATION = re.compile(r"(?<!\w)(?:не|нет|ни|никому|никого)(?!\w)", re.IGNORECASE)


def _separated(gap: str) -> bool:
    """A short gap ending in a dash, colon, «за» or «против», with no negation in it
    («мой голос не за Шерлока» is no vote for him)."""
    return (len(gap.split()) <= 5 and _SEPARATED.fullmatch(gap) is not None
            and _NEGATION.search(gap) is None)


def _locate(lines: list[Line], pattern: re.Pattern[str]) -> list[_Spot]:
    """Every «мой голос» outside quotes and code, each with its red nick if it has one.

    The nick is looked for, in order: the red text after the phrase and its dash (the whole
    line may be red); the first red text later on the line; if nothing but a dash or «за»
    follows the phrase on its line, the first red text of the next line that has text;
    red text just before the phrase on the same line («Шерлок — мой голос»).

    V1 (the form «мой голос – ник жертвы»): the nick must stand next to the phrase, with
    only what :data:`_CONNECTOR` allows between them. A red nick further away («мой голос
    пока при мне, но [red]Шерлок[/red] подозрителен») is kept as a *loose* reading: it is
    shown to the host as rejected under V1 with the words in between, and the host may
    accept it. A next-to-the-phrase nick wins over a loose one.
    """
    spots: list[_Spot] = []
    for li, line in enumerate(lines):
        text = line.string()
        runs = red_runs(line)
        for m in pattern.finditer(text):
            if any(mark & CODE for mark in line.marks[m.start():m.end()]):
                continue
            after = _AFTER_PHRASE.match(text, m.end())
            end = after.end() if after else m.end()
            found: list[_Spot] = []
            for a, b in runs:
                if b <= m.end():
                    continue
                if a < m.end():
                    # The phrase itself is red (the whole vote line): the nick starts
                    # after its dash and «за».
                    s = _CONNECTOR.match(text, m.end()).end()  # type: ignore[union-attr]
                    if has_word(text[s:b]):
                        found.append(_Spot(li, m.start(), s, li, s, b))
                        break
                    continue
                # A red run after the phrase is the nick from its first character (a nick
                # may start with a sign: «-=Wolf=-»), a leading «за» left out.
                lead = _LEAD.match(text, a)
                s = lead.end() if lead else a
                if not has_word(text[s:b]):
                    continue
                gap = text[end:a]
                tight = _tight(gap)
                separated = not tight and _separated(gap)
                # A set-off gap belongs to the vote line, not to the argument (V3).
                found.append(_Spot(li, m.start(), s if tight or separated else end, li, s, b,
                                   tight or separated, " ".join(gap.split()), separated))
                break
            if _ENDS_LINE.fullmatch(text, end):
                for lj in range(li + 1, len(lines)):
                    nxt = lines[lj].string()
                    if not nxt.strip():
                        continue
                    runs_j = [r for r in red_runs(lines[lj]) if has_word(nxt[r[0]:r[1]])]
                    if runs_j:
                        a, b = runs_j[0]
                        tight = _tight(nxt[:a])
                        found.append(_Spot(li, m.start(), len(text), lj, a, b, tight,
                                           " ".join(nxt[:a].split())))
                    break
            before = [(a, b) for a, b in runs if b <= m.start() and has_word(text[a:b])]
            if before:
                a, b = before[-1]
                gap = text[b:m.start()]
                found.append(_Spot(li, m.start(), end, li, a, b, _tight(gap),
                                   " ".join(gap.split())))
            best = next((s for s in found if s.tight), found[0] if found else None)
            spots.append(best or _Spot(li, m.start(), end, None))
    return spots


def _reason_letters(lines: list[Line], spot: _Spot | None) -> int:
    """V3: letters of the author's own text with the vote phrase, its dash and the nick cut.

    Letters only (``str.isalpha``): digits, punctuation and smilies (images) give nothing,
    so «:D» is no reason.
    """
    total = 0
    for li, line in enumerate(lines):
        text = line.string()
        cut: list[tuple[int, int]] = []
        if spot is not None:
            if li == spot.line:
                cut.append((spot.start, spot.end))
            if spot.nick_line == li:
                cut.append((spot.nick_start, spot.nick_end))
        for i, ch in enumerate(text):
            if ch.isalpha() and not any(a <= i < b for a, b in cut):
                total += 1
    return total


def _match(raw: str, roster: Roster) -> tuple[NickMatch, int, Note | None]:
    """V2 via :meth:`Roster.match` on the red text ``raw``. Returns the match, how many
    characters of ``raw`` the nick takes, and a flag. Red text longer than a nick
    («Шерлок, он мафия») is read as the one nick it starts with, flagged; the rest is the
    player's own words and counts for the reason (V3)."""
    typed = " ".join(raw.split())
    m = roster.match(typed)
    if m.how != "none":
        return m, len(raw), None
    hits = roster.find_in(typed)
    nicks = {nick for _, nick in hits}
    if hits and hits[0][0] == 0 and len(nicks) == 1:
        nick = hits[0][1]
        key = fold(nick)
        used = next((k for k in range(1, len(raw) + 1) if fold(raw[:k]) == key), len(raw))
        kind: MatchHow = "exact" if normalise(raw[:used]) == normalise(nick) else "lookalike"
        note = Note("V2", f"красный текст «{typed}» длиннее ника, прочитан как {nick}")
        return NickMatch(" ".join(raw[:used].split()), nick, kind), used, note
    return m, len(raw), None


def find_vote(post: Post, roster: Roster, rules: VoteRules | None = None) -> VoteReading | None:
    """Read one post as a vote (RULES.md V1–V3).

    None when the post has no «мой голос» outside quotes and code (red text alone is not a
    vote). A post with the phrase but no red nick gives a reading with ``match_kind =
    "no_red"`` and the problem «V1: нет красного ника», so the host sees near-votes.

    The reason (V3) is counted on the same walk of the HTML as the vote, so exactly the
    phrase, its dash and the nick are cut; smilies are images and add no letters.
    """
    rules = rules or VoteRules()
    phrases = tuple(rules.phrases)
    if not may_hold_phrase(post.body_html, phrases):
        return None
    lines = walk(post.body_html, rules)
    spots = _locate(lines, _phrase_re(phrases))
    if not spots:
        return None
    voted = [s for s in spots if s.nick_line is not None]
    tight = [s for s in voted if s.tight]
    spot = tight[0] if tight else voted[0] if voted else spots[0]
    line_text = " ".join(lines[spot.line].string().split())
    match: NickMatch | None = None
    long_note: Note | None = None
    if spot.nick_line is not None:
        raw = lines[spot.nick_line].string()[spot.nick_start:spot.nick_end]
        match, used, long_note = _match(raw, roster)
        spot = replace(spot, nick_end=spot.nick_start + used)
    letters = _reason_letters(lines, spot)
    has_reason = letters >= rules.reason_min_letters
    base = dict(
        post_id=post.post_id, voter=post.author, posted_at=post.posted_at,
        has_reason=has_reason, reason_letters=letters, line=line_text,
    )
    if match is None:
        return VoteReading(
            typed="", target=None, match_kind="no_red",
            problems=(Note("V1", "нет красного ника"),), **base,  # type: ignore[arg-type]
        )
    typed = match.typed
    problems: list[Note] = []
    flags: list[Note] = [long_note] if long_note else []
    if match.how == "none":
        problems.append(Note("V2", f"ник «{typed}» не найден среди игроков"))
    elif match.how == "ambiguous":
        problems.append(
            Note("V2", f"ник «{typed}» подходит нескольким: {', '.join(match.candidates)}")
        )
    elif match.how in ("near", "case"):
        flags.append(Note("V2", match.explain()))
    if not spot.tight:
        problems.append(Note("V1", f"красный ник «{typed}» не рядом с «мой голос», между "
                                   f"ними: «{spot.gap}»"))
    elif spot.separated:
        flags.append(Note("V1", f"между «мой голос» и ником слова «{spot.gap}» — проверьте"))
    if not has_reason:
        problems.append(Note("V3", "без аргумента"))
    if len(tight) > 1:
        flags.append(Note("V4", f"в сообщении {len(tight)} голоса: засчитывается первый"))
    return VoteReading(
        typed=typed, target=match.nick, match_kind=match.how, problems=tuple(problems),
        flags=tuple(flags), candidates=match.candidates, **base,  # type: ignore[arg-type]
    )


def own_letters(post: Post, rules: VoteRules | None = None) -> int:
    """Letters of the post's own text (outside quotes), for a vote the host set by hand."""
    return _reason_letters(walk(post.body_html, rules or VoteRules()), None)

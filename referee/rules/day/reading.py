"""Reading one post as a vote (docs/rules.md V1–V3), before the day's context.

Pure: no I/O, no clock. :func:`find_vote` finds «мой голос» outside quotes and code (V1),
the red nick next to it and its roster match (V2), and counts the reason's letters (V3) on
the same walk of the post's own text (:mod:`referee.rules.day.own_text`). Whether the vote then
counts (time, who is alive, V4–V6) is :func:`referee.rules.day.count.tally`'s work.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import Literal

from referee.config.game import VoteRules
from referee.core.kernel import Post
from referee.core.morphology import lemmas
from referee.core.nicks import Roster, lookalike_class, normalise
from referee.rules.day.notes import CHECK, Note
from referee.rules.day.own_text import (
    CODE,
    LINK,
    RED,
    STRUCK,
    Line,
    has_word,
    may_hold_phrase,
    red_runs,
    walk,
)
from referee.rules.day.red_text import ALTERNATIVE, RedNick, read_red

DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
"""Hyphen, hyphens, figure/en/em dash, horizontal bar, minus and their small/wide forms."""

_AFTER_PHRASE = re.compile(rf"[\s{re.escape(DASHES)}:]*")

ReadingKind = Literal[
    "exact", "alias", "lookalike", "case", "near", "ambiguous", "none", "no_red", "host"]


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

    @property
    def verdict(self) -> Literal["counted", "rejected", "check"]:
        """Exactly one of: counted (V1–V3 met; ``flags`` may ask the host to look), rejected
        with its rule (``problems``), or «ведущему проверить» (a problem the host decides:
        two alternatives, several nicks…, see :data:`referee.rules.day.notes.CHECK`)."""
        if not self.problems:
            return "counted"
        if any(p.text.startswith(CHECK) for p in self.problems):
            return "check"
        return "rejected"


def phrase_pattern(phrases: Iterable[str]) -> re.Pattern[str]:
    """«мой голос» in any case, е/ё alike, any run of spaces between words, whole words (V1);
    a letter may be typed as its Latin look-alike («Moй гoлoc»: read, flagged)."""
    alts: list[str] = []
    for phrase in phrases:
        parts: list[str] = []
        for ch in phrase.strip():
            if ch.isspace():
                if parts and parts[-1] != r"\s+":
                    parts.append(r"\s+")
            else:
                parts.append(lookalike_class(ch))
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


# Words a player puts between «мой голос» and the nick that keep it a vote, by lemma:
# «мой голос отдаю / уходит / идёт / достаётся Шерлоку», «мой голос сегодня, пожалуй,
# отдаю Шерлоку». A verb of giving is needed where no dash, colon or «за» sets the nick off
# («мой голос сегодня Шерлок» is not read); any other word is not part of the vote line
# (V1, docs/rules.md). Lemmas as :func:`referee.core.morphology.lemmas` gives them: ё as е.
VOTE_GAP_VERBS = frozenset({
    "отдавать", "отдать", "уходить", "уйти", "идти", "пойти", "лететь", "улетать",
    "улететь", "полететь", "отправляться", "отправиться", "доставаться", "достаться",
    "получать", "получить", "давать", "дать", "отходить", "отойти", "переходить", "перейти",
})
VOTE_GAP_WORDS = VOTE_GAP_VERBS | frozenset({
    "сегодня", "сейчас", "пожалуй", "тогда", "наверное", "конечно", "однозначно", "снова",
    "опять", "уже", "этот", "раз", "день", "в", "на", "по-прежнему", "все-таки",
    "традиционно", "итак", "значит", "я", "свой", "мой", "же", "так", "вот", "окончательно",
    "твердо", "определенно", "естественно", "быть",
})
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def _separated(gap: str) -> bool:
    """A short gap with no negation in it («мой голос не за Шерлока» is no vote for him)
    that ends in a dash, colon, «за» or «против», or holds only words of a vote line
    with a verb of giving (:data:`VOTE_GAP_WORDS`: «мой голос отдаю Шерлоку»)."""
    if len(gap.split()) > 5 or _NEGATION.search(gap) is not None:
        return False
    if _SEPARATED.fullmatch(gap) is not None:
        return True
    words = _WORD.findall(gap)
    found = [lemmas(w) for w in words]
    return (any(f & VOTE_GAP_VERBS for f in found)
            and all(f & VOTE_GAP_WORDS for f in found))


def _own(line: Line, a: int, b: int) -> str:
    """line[a:b] without the text struck through (a vote taken back is not in the way)."""
    text = line.string()
    return "".join(ch for ch, mk in zip(text[a:b], line.marks[a:b], strict=True)
                   if not mk & STRUCK)


def _locate(lines: list[Line], pattern: re.Pattern[str]) -> list[_Spot]:
    """Every «мой голос» outside quotes, code and struck text, each with its red nick if
    it has one.

    The nick is looked for, in order: the red text after the phrase and its dash (the whole
    line may be red); the first red text later on the line; if nothing but a dash or «за»
    follows the phrase on its line, the first red text of the next line that has text;
    red text just before the phrase on the same line («Шерлок — мой голос»), also inside
    a red line that holds the phrase.

    V1 (the form «мой голос – ник жертвы»): the nick must stand next to the phrase, with
    only what :data:`_CONNECTOR` allows between them. A red nick further away («мой голос
    пока при мне, но [red]Шерлок[/red] подозрителен») is kept as a *loose* reading: it is
    shown to the host as rejected under V1 with the words in between, and the host may
    accept it. A next-to-the-phrase nick wins over a loose one.
    """
    spots: list[_Spot] = []
    for li, line in enumerate(lines):
        text = line.string()
        for m in pattern.finditer(text):
            if any(mark & (CODE | STRUCK) for mark in line.marks[m.start():m.end()]):
                continue
            after = _AFTER_PHRASE.match(text, m.end())
            end = after.end() if after else m.end()
            found = _after(line, li, m, end)
            if _ENDS_LINE.fullmatch(text, end):
                found += _next_line(lines, li, m.start(), len(text))
            found += _before(line, li, m, end)
            best = next((s for s in found if s.tight), found[0] if found else None)
            spots.append(best or _Spot(li, m.start(), end, None))
    return spots


def _after(line: Line, li: int, m: re.Match[str], end: int) -> list[_Spot]:
    """The red nick after the phrase on its line (see :func:`_locate`)."""
    text = line.string()
    for a, b in red_runs(line):
        if b <= m.end():
            continue
        if a < m.end():
            # The phrase itself is red (the whole vote line): the nick starts after its
            # dash and «за».
            s = _CONNECTOR.match(text, m.end()).end()  # type: ignore[union-attr]
            if has_word(text[s:b]):
                return [_Spot(li, m.start(), s, li, s, b)]
            continue
        # A red run after the phrase is the nick from its first character (a nick may
        # start with a sign: «-=Wolf=-»), a leading «за» left out.
        lead = _LEAD.match(text, a)
        s = lead.end() if lead else a
        if not has_word(text[s:b]):
            continue
        gap = _own(line, end, a)
        tight = _tight(gap)
        separated = not tight and _separated(gap)
        # A set-off gap belongs to the vote line, not to the argument (V3).
        return [_Spot(li, m.start(), s if tight or separated else end, li, s, b,
                      tight or separated, " ".join(gap.split()), separated)]
    return []


def _next_line(lines: list[Line], li: int, start: int, end: int) -> list[_Spot]:
    """«Мой голос:» ending its line: the first red text of the next line with text."""
    for lj in range(li + 1, len(lines)):
        nxt = lines[lj].string()
        if not nxt.strip():
            continue
        runs_j = [r for r in red_runs(lines[lj]) if has_word(nxt[r[0]:r[1]])]
        if runs_j:
            a, b = runs_j[0]
            gap = _own(lines[lj], 0, a)
            return [_Spot(li, start, end, lj, a, b, _tight(gap), " ".join(gap.split()))]
        return []
    return []


def _before(line: Line, li: int, m: re.Match[str], end: int) -> list[_Spot]:
    """«[red]Шерлок[/red] — мой голос», or a red line «Шерлок — мой голос»: the red text
    just before the phrase (its trailing dash left out)."""
    text = line.string()
    runs = red_runs(line)
    inside = [(a, m.start()) for a, b in runs if a < m.start() < b]
    before = [(a, b) for a, b in runs if b <= m.start()] + inside
    before = [(a, len(text[:b].rstrip(_TRAIL))) for a, b in before]
    before = [(a, b) for a, b in before if b > a and has_word(text[a:b])]
    if not before:
        return []
    a, b = before[-1]
    gap = _own(line, b, m.start())
    return [_Spot(li, m.start(), end, li, a, b, _tight(gap), " ".join(gap.split()))]


_TRAIL = f" \t\u00a0:>{DASHES}"


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


def find_vote(post: Post, roster: Roster, rules: VoteRules | None = None) -> VoteReading | None:
    """Read one post as a vote (docs/rules.md V1–V3).

    None when the post has no «мой голос» outside quotes, code and struck text (red text
    alone is not a vote). A post with the phrase but no red nick gives a reading with
    ``match_kind = "no_red"`` and the problem «V1: нет красного ника», so the host sees
    near-votes. The red text is read by :func:`referee.rules.day.red_text.read_red`; every
    reading ends as one :attr:`VoteReading.verdict`.

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
    red: RedNick | None = None
    run_end = spot.nick_end
    if spot.nick_line is not None:
        raw = lines[spot.nick_line].string()[spot.nick_start:spot.nick_end]
        red = read_red(raw, roster)
        if red.match is not None:
            spot = replace(spot, nick_start=spot.nick_start + red.start,
                           nick_end=spot.nick_start + red.end)
    letters = _reason_letters(lines, spot)
    has_reason = letters >= rules.reason_min_letters
    base = dict(
        post_id=post.post_id, voter=post.author, posted_at=post.posted_at,
        has_reason=has_reason, reason_letters=letters, line=line_text,
    )
    if red is None:
        return VoteReading(
            typed="", target=None, match_kind="no_red",
            problems=(Note("V1", "нет красного ника"),), **base,  # type: ignore[arg-type]
        )
    problems, flags, others = _notes(lines, spot, red, run_end, roster)
    if not has_reason:
        problems.append(Note("V3", "без аргумента"))
    if len(tight) > 1:
        flags.append(Note("V4", f"в сообщении {len(tight)} голоса: засчитывается первый"))
    match = red.match
    # The host's question first: the rejection line shows the first problem. A question
    # names no target: the host sets it (referee vote set), nothing is picked for him.
    problems.sort(key=lambda p: not p.text.startswith(CHECK))
    if match is None or (problems and problems[0].text.startswith(CHECK)):
        candidates = red.candidates or (match.candidates if match is not None else ())
        if match is not None and match.nick is not None:
            candidates = (match.nick, *others)
        return VoteReading(
            typed=_red_text(lines, spot), target=None, match_kind="ambiguous",
            problems=tuple(problems), flags=tuple(flags), candidates=candidates,
            **base,  # type: ignore[arg-type]
        )
    return VoteReading(
        typed=match.typed, target=match.nick, match_kind=match.how,
        problems=tuple(problems), flags=tuple(flags), candidates=match.candidates,
        **base,  # type: ignore[arg-type]
    )


def _red_text(lines: list[Line], spot: _Spot) -> str:
    assert spot.nick_line is not None
    return " ".join(lines[spot.nick_line].string()[spot.nick_start:spot.nick_end].split())


def _notes(lines: list[Line], spot: _Spot, red: RedNick, run_end: int,
           roster: Roster) -> tuple[list[Note], list[Note], tuple[str, ...]]:
    """V1/V2 problems and flags of a reading with red text: the red text's own, the
    phrase's look-alike letters, a link or mention, a struck-through old vote left out,
    two red nicks offered as alternatives (returned too), words between the phrase and the
    nick."""
    problems: list[Note] = [red.problem] if red.problem else []
    flags: list[Note] = list(red.flags)
    match = red.match
    others: tuple[str, ...] = ()
    assert spot.nick_line is not None
    nick_line = lines[spot.nick_line]
    if match is not None:
        typed = match.typed
        if match.how == "none":
            problems.append(Note("V2", f"ник «{typed}» не найден среди игроков"))
        elif match.how == "ambiguous":
            problems.append(Note("V2", f"{CHECK}: ник «{typed}» подходит нескольким: "
                                       f"{', '.join(match.candidates)}"))
        elif match.how in ("near", "case"):
            flags.append(Note("V2", match.explain()))
        if match.nick is not None and (other := _second_red(nick_line, spot, run_end,
                                                             roster, match.nick)):
            problems.append(Note("V2", f"{CHECK}: два красных ника: {match.nick} или {other}"))
            others = (other,)
    if any(mk & LINK for mk in nick_line.marks[spot.nick_start:spot.nick_end]):
        flags.append(Note("V2", "красный ник оформлен ссылкой или упоминанием — проверьте"))
    phrase = lines[spot.line].string()[spot.start:spot.end]
    if _latin_letters(phrase):
        flags.append(Note("V1", f"«{' '.join(phrase.split())}» набрано с латинскими "
                                f"буквами — проверьте"))
    struck = _struck_red(lines[spot.line]) + (
        _struck_red(nick_line) if spot.nick_line != spot.line else [])
    if struck:
        flags.append(Note("V4", "зачёркнутый голос не учтён: " + ", ".join(
            f"«{t}»" for t in struck)))
    if not spot.tight:
        problems.append(Note("V1", f"красный ник «{_red_text(lines, spot)}» не рядом с «мой "
                                   f"голос», между ними: «{spot.gap}»"))
    elif spot.separated:
        flags.append(Note("V1", f"между «мой голос» и ником слова «{spot.gap}» — проверьте"))
    return problems, flags, others


def _latin_letters(phrase: str) -> bool:
    return any("a" <= ch <= "z" for ch in phrase.casefold())


def _second_red(line: Line, spot: _Spot, run_end: int, roster: Roster,
                nick: str) -> str | None:
    """Another red nick next to the vote's, joined as an alternative («[red]Шерлок[/red]
    или [red]Лиса[/red]», «…[/red], [red]…»): the other nick, else None."""
    text = line.string()
    for a, b in red_runs(line):
        if a >= run_end:
            gap, other = _own(line, run_end, a), text[a:b]
        elif b <= spot.nick_start:
            gap, other = _own(line, b, spot.nick_start), text[a:b]
        else:
            continue
        if not ALTERNATIVE.fullmatch(normalise(gap)):
            continue
        m = roster.match(other)
        named = m.nick or next((h.nick for h in roster.find_named(other) if h.nick), None)
        if named is not None and named != nick:
            return named
    return None


def _struck_red(line: Line) -> list[str]:
    """The red words struck through on a line: an old vote the player took back."""
    text = line.string()
    out: list[str] = []
    i = 0
    while i < len(text):
        if line.marks[i] & (RED | STRUCK) == RED | STRUCK:
            j = i
            while j < len(text) and line.marks[j] & (RED | STRUCK) == RED | STRUCK:
                j += 1
            if has_word(text[i:j]):
                out.append(" ".join(text[i:j].split()))
            i = j
        else:
            i += 1
    return out


def own_letters(post: Post, rules: VoteRules | None = None) -> int:
    """Letters of the post's own text (outside quotes), for a vote the host set by hand."""
    return _reason_letters(walk(post.body_html, rules or VoteRules()), None)

"""Votes of the day («голоса»): reading a post (RULES.md V1–V3) and the day tally (V1–V6).

Pure: no I/O, no clock. :func:`find_vote` reads one post; :func:`tally` counts one day from
the day's posts, every stored revision of each (V4), the living players, the host's
overrides and the replacements. Every post that looked like a vote and did not count is
returned with the rule that rejected it, so the host can check each decision.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from typing import Literal

from selectolax.lexbor import LexborHTMLParser, LexborNode

from referee.colour import is_red, parse_declarations, style_is_red
from referee.config import DaySchedule, Replacement, VoteRules
from referee.errors import GameError
from referee.kernel import Post
from referee.nicks import MatchKind, NickMatch, Roster, fold, normalise

# ============================================================================ reading a post

DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
"""Hyphen, hyphens, figure/en/em dash, horizontal bar, minus and their small/wide forms."""

_AFTER_PHRASE = re.compile(rf"[\s{re.escape(DASHES)}:]*")

ReadingKind = Literal["exact", "alias", "folded", "near", "ambiguous", "none", "no_red", "host"]


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


# What no reader sees between two pieces of a post's text: elements whose content is not
# text (the walk skips them) and comments; then any tag («<span …>», «</p>», «<!…>»).
_NOT_TEXT = re.compile(
    r"<(script|style|noscript|iframe|object|video)\b.*?</\1\s*>|<!--.*?-->", re.S | re.I)
_TAG = re.compile(r"""<[A-Za-z/!?](?:[^>"']|"[^"]*"|'[^']*')*>""")
# Elements whose markup is shown as text («<xmp><b>…»): no tag can be dropped inside them.
_RAW_TEXT = re.compile(r"<(?:xmp|noembed|noframes|plaintext|title)\b", re.I)


@lru_cache(maxsize=32)
def _phrase_words(phrases: tuple[str, ...]) -> re.Pattern[str] | None:
    """The words of each phrase in order with anything between them: looser than
    :func:`phrase_pattern` (no word edges, no spacing rule), so it never misses a phrase
    that pattern finds."""
    alts = [
        ".*?".join("".join("[её]" if ch in "её" else re.escape(ch) for ch in word)
                   for word in phrase.split())
        for phrase in phrases if phrase.split()
    ]
    return re.compile("|".join(alts), re.S | re.I) if alts else None


def _may_hold_phrase(body_html: str, phrases: tuple[str, ...]) -> bool:
    """False only when the post cannot hold «мой голос» (V1): its text with every tag
    dropped lacks the phrase's words. Most posts are chat; this spares them the HTML parse
    and walk of :func:`find_vote`, which decides every post this lets through."""
    words = _phrase_words(phrases)
    if words is None:
        return False
    if _RAW_TEXT.search(body_html):
        return True
    text = html.unescape(_TAG.sub("", _NOT_TEXT.sub("", body_html)))
    if _HAS_INVISIBLE.search(text):  # rare; str.translate is slow on every post
        text = text.translate(_INVISIBLE)
    return words.search(text) is not None


# Per-character marks of the walked text.
_RED = 1
_CODE = 2

_BLOCK_TAGS = frozenset(
    {"div", "p", "li", "ul", "ol", "dl", "dt", "dd", "pre", "table", "tr", "td", "th", "h1",
     "h2", "h3", "h4", "h5", "h6", "cite", "hr", "blockquote"}
)
_SKIP_TAGS = frozenset({"script", "style", "noscript", "img", "iframe", "object", "video"})
_SKIP_CLASSES = frozenset({"signature", "notice", "quotetitle", "codetitle", "spoiltitle",
                           "inline-attachment"})
# An inline attachment ([attachment=0]) is a file: its box prints the file name, size and
# «Просмотров: N» (prosilver attachment.html), which are no reason for a vote (V3).
# Spoiler headers and buttons: text the board's template prints («Спойлер», «Показать»,
# «Spoiler: Voir»), not the author's words, so it is no reason (V3). A [spoiler=title]
# title is lost with it; an element with a script handler is template markup by nature
# (BBCode cannot write one).
_CHROME_TAGS = frozenset({"summary", "button", "input", "select", "textarea"})
_WS_CHARS = " \t\r\n\f\v\u00a0"
# Characters a reader cannot see (zero-width space/joiners, word joiner, BOM, soft hyphen):
# they come with copied text and must not split «мой голос» or a nick the host reads whole.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_HAS_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")


@dataclass(slots=True)
class _Line:
    text: list[str] = field(default_factory=list)
    marks: list[int] = field(default_factory=list)

    def add(self, text: str, mark: int) -> None:
        self.text.append(text)
        self.marks.extend([mark] * len(text))

    def string(self) -> str:
        return "".join(self.text)


class _Walker:
    """Own text of a post (quotes left out), with per-character red/code marks.

    Quotes (``blockquote``, any depth; subsilver2's ``div.quotecontent``) hold other
    people's words and votes: they only end a line. Code boxes (``div.codebox``,
    ``dl.codebox``, subsilver2's ``div.codecontent``) keep their text as the author's own
    (it counts for V3) but are never read for a vote: phpBB does not render BBCode inside
    code. The box titles subsilver2 prints («Ник писал(а):», «Код:») and spoiler headers
    and buttons (:data:`_CHROME_TAGS`, ``.spoiltitle``, script handlers) are forum chrome.
    A ``div.quotecontent`` whose content is hidden until clicked is not a quote but a
    board's custom [spoiler] BBCode built on the quote box (real phpBB 3.0 boards do
    this): a spoiler is the author's own text, so a vote inside it counts (V1 excludes
    quotes only). Colour comes from the nearest ancestor that sets one (CSS
    inheritance); a link has the style's own colour.
    """

    def __init__(self, rules: VoteRules) -> None:
        self.rules = rules
        self.lines: list[_Line] = [_Line()]

    def newline(self) -> None:
        if self.lines[-1].text:
            self.lines.append(_Line())

    def walk(self, node: LexborNode, red: bool, code: bool) -> None:
        for child in node.iter(include_text=True):
            tag = child.tag
            if tag == "-text":
                text = (child.text(deep=False) or "").replace("\r", " ").replace("\n", " ")
                text = text.translate(_INVISIBLE)
                if text:
                    self.lines[-1].add(text, (_RED if red else 0) | (_CODE if code else 0))
                continue
            if tag is None or tag.startswith("-") or tag in _SKIP_TAGS:
                continue
            if tag in _CHROME_TAGS or "onclick" in child.attributes:
                self.newline()
                continue
            if tag == "br":
                self.lines.append(_Line())
                continue
            classes = set((child.attributes.get("class") or "").split())
            if (tag == "blockquote" or classes & _SKIP_CLASSES
                    or ("quotecontent" in classes and not _spoiler_box(child))):
                self.newline()
                continue
            if "codebox" in classes:
                self.newline()
                self._code(child)
                self.newline()
                continue
            if "codecontent" in classes:
                self.newline()
                self.walk(child, False, True)
                self.newline()
                continue
            inner_red = self._colour(child, red)
            if tag in _BLOCK_TAGS:
                self.newline()
                self.walk(child, inner_red, code)
                self.newline()
            else:
                self.walk(child, inner_red, code)

    def _code(self, box: LexborNode) -> None:
        # Only the <code> text: the box header («Код: Выделить всё») is forum chrome.
        for code in box.css("code"):
            for i, part in enumerate((code.text() or "").split("\n")):
                if i:
                    self.lines.append(_Line())
                self.lines[-1].add(part, _CODE)

    def _colour(self, el: LexborNode, red: bool) -> bool:
        attrs = el.attributes
        style = attrs.get("style")
        own = style_is_red(style, self.rules) if style else None
        if own is not None:
            return own
        if el.tag == "font" and attrs.get("color"):
            return is_red(attrs.get("color") or "", self.rules)
        if el.tag == "a":
            return False  # prosilver colours links itself, so they are never red text
        return red


def _hidden(el: LexborNode) -> bool:
    return any(d.prop == "display" and d.value.lower() == "none"
               for d in parse_declarations(el.attributes.get("style") or ""))


def _spoiler_box(box: LexborNode) -> bool:
    """A ``div.quotecontent`` that hides its content until clicked: a custom [spoiler]
    BBCode (``<div class="quotecontent"><div style="display: none;">…``), not a quote."""
    if _hidden(box):
        return True
    first = next((c for c in box.iter() if c.tag and not c.tag.startswith("-")), None)
    return first is not None and _hidden(first)


def _walk(html: str, rules: VoteRules) -> list[_Line]:
    tree = LexborHTMLParser(f"<div id='__referee_votes'>{html}</div>")
    root = tree.css_first("#__referee_votes")
    walker = _Walker(rules)
    if root is not None:
        walker.walk(root, False, False)
    return [line for line in walker.lines if line.text]


def _red_runs(line: _Line) -> list[tuple[int, int]]:
    """Spans of red (non-code) text; red pieces split only by spaces join into one run, so
    «<red>Mr.</red> <red>Smith</red>» is one nick."""
    text = line.string()
    runs: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        if line.marks[i] == _RED:
            j = i
            end = i
            while j < n:
                if line.marks[j] == _RED:
                    j += 1
                    end = j
                elif text[j] in _WS_CHARS:
                    j += 1
                else:
                    break
            a, b = i, end
            while a < b and text[a] in _WS_CHARS:
                a += 1
            while b > a and text[b - 1] in _WS_CHARS:
                b -= 1
            if b > a:
                runs.append((a, b))
            i = max(end, i + 1)
        else:
            i += 1
    return runs


def _has_word(text: str) -> bool:
    return any(ch.isalnum() for ch in text)


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


def _locate(lines: list[_Line], pattern: re.Pattern[str]) -> list[_Spot]:
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
        runs = _red_runs(line)
        for m in pattern.finditer(text):
            if any(mark & _CODE for mark in line.marks[m.start():m.end()]):
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
                    if _has_word(text[s:b]):
                        found.append(_Spot(li, m.start(), s, li, s, b))
                        break
                    continue
                # A red run after the phrase is the nick from its first character (a nick
                # may start with a sign: «-=Wolf=-»), a leading «за» left out.
                lead = _LEAD.match(text, a)
                s = lead.end() if lead else a
                if not _has_word(text[s:b]):
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
                    runs_j = [r for r in _red_runs(lines[lj]) if _has_word(nxt[r[0]:r[1]])]
                    if runs_j:
                        a, b = runs_j[0]
                        tight = _tight(nxt[:a])
                        found.append(_Spot(li, m.start(), len(text), lj, a, b, tight,
                                           " ".join(nxt[:a].split())))
                    break
            before = [(a, b) for a, b in runs if b <= m.start() and _has_word(text[a:b])]
            if before:
                a, b = before[-1]
                gap = text[b:m.start()]
                found.append(_Spot(li, m.start(), end, li, a, b, _tight(gap),
                                   " ".join(gap.split())))
            best = next((s for s in found if s.tight), found[0] if found else None)
            spots.append(best or _Spot(li, m.start(), end, None))
    return spots


def _reason_letters(lines: list[_Line], spot: _Spot | None) -> int:
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
    if m.kind != "none":
        return m, len(raw), None
    hits = roster.find_in(typed)
    nicks = {nick for _, nick in hits}
    if hits and hits[0][0] == 0 and len(nicks) == 1:
        nick = hits[0][1]
        key = fold(nick)
        used = next((k for k in range(1, len(raw) + 1) if fold(raw[:k]) == key), len(raw))
        kind: MatchKind = "exact" if normalise(raw[:used]) == normalise(nick) else "folded"
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
    if not _may_hold_phrase(post.body_html, phrases):
        return None
    lines = _walk(post.body_html, rules)
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
    if match.kind == "none":
        problems.append(Note("V2", f"ник «{typed}» не найден среди игроков"))
    elif match.kind == "ambiguous":
        problems.append(
            Note("V2", f"ник «{typed}» подходит нескольким: {', '.join(match.candidates)}")
        )
    elif match.kind == "near":
        flags.append(Note("V2", f"«{typed}» прочитан как {match.nick} (похожий ник, проверьте)"))
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
        typed=typed, target=match.nick, match_kind=match.kind, problems=tuple(problems),
        flags=tuple(flags), candidates=match.candidates, **base,  # type: ignore[arg-type]
    )


def own_letters(post: Post, rules: VoteRules | None = None) -> int:
    """Letters of the post's own text (outside quotes), for a vote the host set by hand."""
    return _reason_letters(_walk(post.body_html, rules or VoteRules()), None)


# ============================================================================ the day tally

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


PostItem = Post | Sequence[Post]


class _Slots:
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


def _versions(item: PostItem) -> tuple[Post, ...]:
    if isinstance(item, Post):
        return (item,)
    revs = tuple(item)
    if not revs:
        raise GameError("a post was given with no stored revision", "pass at least one Post")
    return revs


def _key(reading: VoteReading | None) -> tuple[bool, str | None]:
    if reading is None or not reading.has_red:
        return (False, None)
    return (True, reading.target or normalise(reading.typed))


def _describe(reading: VoteReading | None) -> str:
    if reading is None:
        return "без голоса"
    if not reading.has_red:
        return "«мой голос» без красного ника"
    return f"голос за «{reading.typed}»"


@dataclass(slots=True)
class _VoterState:
    vote: CountedVote | None = None
    changes: int = 0
    spent_by: int | None = None  # a post that used up the day's vote without counting


def _reject(reading: VoteReading, author: str, at: datetime, notes: Sequence[Note]) -> Rejection:
    return Rejection(reading.post_id, author, at, reading.typed, reading.target, tuple(notes))


def _host_set(
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


def _change(st: _VoterState, vote: CountedVote, rules: VoteRules
            ) -> tuple[Note | None, CountedVote | None]:
    """V4 and the ``changes`` setting: does this valid vote replace the player's earlier one?
    Returns (why the new vote is ignored, the earlier vote it replaced)."""
    prev = st.vote
    if prev is None:
        if st.spent_by is not None:
            return Note("V4", f"голос дня уже потрачен сообщением {st.spent_by}"), None
        st.vote = vote
        return None, None
    if rules.changes == "forbidden":
        return Note("V4", f"голос уже отдан (сообщение {prev.post_id}, за {prev.target}): "
                          "менять голос нельзя"), None
    if prev.target == vote.target:
        return Note("V4", f"повторный голос за того же игрока (сообщение {prev.post_id})"), None
    if rules.changes == "limited" and st.changes >= rules.change_limit:
        return Note("V4", f"смена голоса сверх лимита ({rules.change_limit}): остаётся голос "
                          f"из сообщения {prev.post_id}"), None
    st.changes += 1
    st.vote = vote
    return None, prev


_Event = tuple[datetime, int, str | None, str]  # (at, post, previous target, new target)


def _reached(events: Sequence[_Event], final: dict[str, int]) -> dict[str, tuple[datetime, int]]:
    """When each candidate's count last rose to its final value (V6 «первым набрал»).
    With ``changes = forbidden`` counts only grow, so this is the time of the last vote."""
    count: dict[str, int] = {}
    reached: dict[str, tuple[datetime, int]] = {}
    for at, pid, old, new in events:
        if old is not None:
            count[old] -= 1
            if count[old] < final.get(old, 0):
                reached.pop(old, None)
        count[new] = count.get(new, 0) + 1
        if count[new] >= final.get(new, 0) and new not in reached:
            reached[new] = (at, pid)
    return reached


def _verdict(
    counts: Sequence[Candidate], rules: VoteRules, closed: bool, early: CountedVote | None,
    alive_count: int,
) -> tuple[str | None, tuple[str, ...], str | None, tuple[str, ...], str]:
    """V6: (hanged, hanged_all, leader, tied, explanation in Russian)."""
    if not counts:
        if closed:
            return None, (), None, (), "Засчитанных голосов нет — никто не казнён (V6)."
        return None, (), None, (), "Засчитанных голосов пока нет."
    if early is not None:
        top = next(c for c in counts if c.voters and any(
            v.post_id == early.post_id for v in c.voters))
        text = (f"День закрыт досрочно: у {top.target} {top.votes} из {alive_count} голосов "
                f"живых игроков — абсолютное большинство (V6, early_majority), "
                f"сообщение {early.post_id}.")
        return top.target, (top.target,), top.target, (), text
    top_votes = counts[0].votes
    tied = [c for c in counts if c.votes == top_votes]
    names = tuple(c.target for c in tied)
    verb = "на виселицу отправляется" if closed else "впереди"
    if len(tied) == 1:
        leader = tied[0].target
        if closed:
            text = (f"Больше всех голосов у {leader} ({top_votes}) — на виселицу отправляется "
                    f"{leader} (V6).")
        else:
            text = f"Лидирует {leader} ({top_votes})."
        return (leader if closed else None), ((leader,) if closed else ()), leader, (), text
    head = f"Ничья {top_votes}:{top_votes} ({', '.join(names)})"
    winner: Candidate | None
    if rules.tie == "nobody":
        text = f"{head}: по правилу tie = nobody никто не казнён."
        if not closed:
            text = f"{head}: при ничьей никто не будет казнён (tie = nobody)."
        return None, (), None, names, text
    if rules.tie == "all":
        text = f"{head}: по правилу tie = all на виселицу отправляются все: {', '.join(names)}."
        if not closed:
            text = f"{head}: при ничьей на виселицу отправятся все (tie = all)."
        return ((names[0] if closed else None), (names if closed else ()), names[0], names,
                text)
    if rules.tie == "earliest_last_vote":
        winner = min(tied, key=lambda c: max((v.at, v.post_id) for v in c.voters))
        last = max(winner.voters, key=lambda v: (v.at, v.post_id))
        text = (f"{head}: последний голос за {winner.target} отдан раньше, чем за остальных "
                f"(сообщение {last.post_id}) — {verb} {winner.target} (V6, earliest_last_vote).")
    else:
        winner = min(tied, key=lambda c: (c.reached_at, c.reached_post or 0))
        text = (f"{head}: {winner.target} первым набрал(а) {top_votes} "
                f"(сообщение {winner.reached_post}) — {verb} {winner.target} "
                f"(V6, кто первым набрал).")
    if closed:
        return winner.target, (winner.target,), winner.target, names, text
    return None, (), winner.target, names, text


def tally(
    posts: Iterable[PostItem],
    window: DaySchedule,
    *,
    alive: Iterable[str],
    roster: Roster,
    host: str,
    rules: VoteRules | None = None,
    overrides: Iterable[HostOverride] = (),
    replacements: Iterable[Replacement] = (),
    as_of: int | datetime | None = None,
) -> Tally:
    """Count one day's votes (RULES.md V1–V6).

    ``posts``: the day's posts, each a :class:`Post` or the list of its stored revisions,
    first-seen first (V4). Posts before ``window.start`` or at/after
    ``window.night_deadline`` are not looked at; posts at/after ``window.deadline`` are late
    (T2). ``alive``: the players alive on this day. ``roster``: every nick a vote may name
    (players, dead ones too, and replacement players), with aliases. ``as_of``: a post id
    or a time; the count as it stood right after it (then nobody is hanged unless the
    deadline has passed or ``early_majority`` closed the day).

    Each vote-like post, in time order: the host's posts never vote (V5); the voter must be
    a living player (V5) and the post inside the window (V1); the reading must have a red
    nick that matches (V1, V2) and a reason (V3); an edited vote follows ``edited_vote``
    (V4); the target must be alive (V5); then ``changes`` decides whether an earlier vote of
    the same player stands (V4). Host overrides: ``reject`` makes it no vote, ``accept``
    waives V1/V3/V4-edit (never V2 or V5), ``set`` names the target. The result follows V6.
    """
    rules = rules or VoteRules()
    slots = _Slots(roster, tuple(replacements))
    host_norm = normalise(host)
    alive_slots = list(dict.fromkeys(slots.slot(slots.nick(n) or n) for n in alive))
    alive_set = set(alive_slots)
    majority = len(alive_set) // 2 + 1

    items = sorted((_versions(p) for p in posts), key=lambda v: (v[0].posted_at, v[0].post_id))
    items = [
        v for v in items
        if v[0].posted_at >= window.start
        and (window.night_deadline is None or v[0].posted_at < window.night_deadline)
    ]
    as_of_time: datetime | None = None
    as_of_post: int | None = None
    if isinstance(as_of, int) and not isinstance(as_of, bool):
        ids = [v[0].post_id for v in items]
        if as_of not in ids:
            raise GameError(
                f"post {as_of} is not one of day {window.day}'s posts",
                "give a post id from the day's window, or a time",
            )
        items = items[: ids.index(as_of) + 1]
        as_of_post = as_of
        as_of_time = items[-1][0].posted_at
    elif isinstance(as_of, datetime):
        as_of_time = as_of
        items = [v for v in items if v[0].posted_at <= as_of]

    all_overrides = list(overrides)
    decisions = {o.post_id: o for o in all_overrides if o.action != "set"}
    targets_set = {o.post_id: o for o in all_overrides if o.action == "set"}
    seen_ids = {v[0].post_id for v in items}
    override_log = [f"{o}: сообщения {o.post_id} нет среди учтённых сообщений дня"
                    for o in all_overrides if o.post_id not in seen_ids]

    rejected: list[Rejection] = []
    flags: list[Flag] = []
    states: dict[str, _VoterState] = {}
    events: list[_Event] = []
    closed_early: CountedVote | None = None

    def tally_of(target: str) -> int:
        return sum(1 for st in states.values() if st.vote is not None and st.vote.target == target)

    for revs in items:
        post = revs[0]
        pid, at, author = post.post_id, post.posted_at, post.author
        readings = [find_vote(r, roster, rules) for r in revs]
        first, last = readings[0], readings[-1]
        reading = first
        edit_notes: list[Note] = []
        if len({_key(r) for r in readings}) > 1:
            # V4: the first-seen text counts; if it held no vote, the vote that appeared
            # by the edit is read (it is as good as an unseen edit, and flagged).
            reading = first if first is not None and first.has_red else next(
                (r for r in readings if r is not None and r.has_red), last)
            edit_notes.append(Note(
                "V4", f"сообщение отредактировано: сначала {_describe(first)}, потом "
                      f"{_describe(last)}; засчитывается {_describe(reading)}"))
        if post.edit is not None and reading is not None and reading.has_red:
            late = (post.edit.edited_at is not None and post.edit.edited_at >= window.deadline)
            edit_notes.append(Note(
                "V4", "голос отредактирован после публикации, первый текст не сохранён"
                      + (" (правка после дедлайна)" if late else "")))
        set_o = targets_set.get(pid)
        decision = decisions.get(pid)
        if set_o is not None:
            reading = _host_set(post, reading, set_o, roster, rules)
            override_log.append(f"{set_o}: голос {author} — за {reading.target or set_o.target}")
        if reading is None:
            if decision is not None:
                override_log.append(f"{decision}: в сообщении {pid} нет голоса, решать нечего")
            continue

        hard: list[Note] = []   # «accept» does not waive these
        soft: list[Note] = []   # «accept» waives these
        voter_slot: str | None = None
        if normalise(author) == host_norm:
            hard.append(Note("V5", "сообщение ведущего: ведущий не голосует"))
        else:
            nick = slots.nick(author)
            if nick is None:
                hard.append(Note("V5", f"{author} не участвует в игре"))
            else:
                voter_slot = slots.slot(nick)
                if normalise(slots.holder(voter_slot, pid, at)) != normalise(nick):
                    hard.append(slots.not_holder(nick, voter_slot, pid, at))
                elif voter_slot not in alive_set:
                    hard.append(Note("V5", f"{author} выбыл из игры"))
        if at >= window.deadline:
            soft.append(Note("V1", "после дедлайна"))
        if closed_early is not None:
            hard.append(Note("V6", f"день закрыт досрочно: большинство у {closed_early.target} "
                                   f"(сообщение {closed_early.post_id})"))
        if voter_slot is not None:  # for the host or a non-player V5 says it all
            for problem in reading.problems:
                (hard if problem.rule == "V2" else soft).append(problem)
        if edit_notes and rules.edited_vote != "count_flagged":
            soft.append(Note("V4", f"голос изменён правкой (edited_vote = {rules.edited_vote})"))
        target_slot: str | None = None
        if reading.target is not None:
            target_slot = slots.slot(reading.target)
            if target_slot not in alive_set:
                hard.append(Note("V5", f"голос за выбывшего игрока {reading.target}"))

        accepted_by = "V1–V5"
        if decision is not None and decision.action == "reject":
            override_log.append(f"{decision}: голос {author} не засчитан")
            rejected.append(_reject(reading, author, at,
                                    [Note("V3", f"отклонён ведущим: {decision.reason}")]))
            continue
        if decision is not None and reading.target is None:  # accept, but for whom?
            hard.append(Note("V1", "ник не распознан: ведущий может указать его "
                                   f"(set {pid} target НИК)"))
            override_log.append(f"{decision}: не применён — в сообщении нет ника игрока")
        elif decision is not None:  # accept
            waived = "; ".join(map(str, soft))
            override_log.append(f"{decision}: принят ведущим вопреки «{waived}»" if soft
                                else f"{decision}: голос и так проходит по правилам")
            soft = []
            accepted_by = "ведущий (accept)"
        elif set_o is not None:
            accepted_by = "ведущий (set target)"
        if hard or soft:
            rejected.append(_reject(reading, author, at, hard + soft + edit_notes))
            only_edit = not hard and all(n.rule == "V4" for n in soft)
            if voter_slot is not None and rules.edited_vote == "missed" and edit_notes \
                    and only_edit:
                st = states.setdefault(voter_slot, _VoterState())
                if st.vote is None and st.spent_by is None:
                    st.spent_by = pid
            continue
        assert voter_slot is not None and target_slot is not None

        notes = tuple(reading.flags) + tuple(edit_notes)
        if decision is not None:
            notes += (Note("ведущий", "принят ведущим"),)
        vote = CountedVote(
            voter=author, target=target_slot, post_id=pid, at=at, typed=reading.typed,
            match_kind=reading.match_kind, accepted_by=accepted_by, flags=notes,
        )
        st = states.setdefault(voter_slot, _VoterState())
        old_target = st.vote.target if st.vote is not None else None
        ignored, replaced = _change(st, vote, rules)
        if ignored is not None:
            rejected.append(_reject(reading, author, at, [ignored, *edit_notes]))
            continue
        flags.extend(Flag(pid, author, n.rule, n.text) for n in notes)
        if replaced is not None:
            rejected.append(Rejection(
                replaced.post_id, replaced.voter, replaced.at, replaced.typed, replaced.target,
                (Note("V4", f"голос заменён голосом из сообщения {pid} (changes = "
                            f"{rules.changes})"),)))
        events.append((at, pid, old_target, target_slot))
        if rules.early_majority and closed_early is None and tally_of(target_slot) >= majority:
            closed_early = vote

    end_post = items[-1][0].post_id if items else None
    end_time = as_of_time or window.deadline

    def display(slot: str) -> str:
        return slots.holder(slot, end_post, end_time)

    final: dict[str, int] = {}
    for st in states.values():
        if st.vote is not None:
            final[st.vote.target] = final.get(st.vote.target, 0) + 1
    reached = _reached(events, final)
    counts: list[Candidate] = []
    for slot, n in final.items():
        voters = sorted((st.vote for st in states.values()
                         if st.vote is not None and st.vote.target == slot),
                        key=lambda v: (v.at, v.post_id))
        when = reached.get(slot)
        counts.append(Candidate(
            display(slot), n, tuple(replace(v, target=display(slot)) for v in voters),
            when[0] if when else None, when[1] if when else None))
    counts.sort(key=lambda c: (-c.votes, c.reached_at or window.deadline,
                               c.reached_post or 0, c.target))

    closed = closed_early is not None or as_of_time is None or as_of_time >= window.deadline
    hanged, hanged_all, leader, tied, explanation = _verdict(
        counts, rules, closed, closed_early, len(alive_set))
    counted = {slot for slot, st in states.items() if st.vote is not None}
    return Tally(
        day=window.day, start=window.start, deadline=window.deadline, closed=closed,
        hanged=hanged, hanged_all=hanged_all, leader=leader, tied=tied,
        explanation=explanation, counts=tuple(counts),
        not_voted=tuple(dict.fromkeys(display(s) for s in alive_slots if s not in counted)),
        rejected=tuple(sorted(rejected, key=lambda r: (r.at, r.post_id))),
        flags=tuple(flags), overrides=tuple(override_log),
        alive=tuple(display(s) for s in alive_slots), tie_rule=rules.tie,
        as_of=as_of_time, as_of_post=as_of_post,
        closed_early_by=closed_early.post_id if closed_early else None,
    )

"""A PM as the intake reads it: its own lines (quotes left out), each with the roster's
nicks found and blanked (:meth:`Roster.find_named`, case forms too), the words of the
vocabulary found in them (:func:`referee.rules.intake.vocabulary.find_words`) and, among those,
the action words (:class:`Hit`) a request starts at."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from referee.core.kernel import PrivateMessage
from referee.core.markup import plain_text, unquoted_lines
from referee.core.nicks import NamedNick, Roster, normalise
from referee.rules.intake.vocabulary import ACTION_FAMILIES, Found, find_words
from referee.rules.intake.words import SENTENCE_END

_SPACE_CHAR = re.compile(r"[\s\u00a0\u200b\u200c\u200d\u2060\ufeff]")


@dataclass
class Line:
    """One line of the PM: ``norm`` is :func:`normalise` of it (what nicks are found in),
    ``masked`` the same with every roster nick blanked (so a nick like «Засада» is not read
    as an action word and «Mr. Smith» has no sentence end), ``to_raw`` maps back to what
    the player typed, for notes."""

    raw: str
    norm: str
    to_raw: list[int] | None
    named: list[NamedNick]
    masked: str
    words: list[Found]

    @property
    def spans(self) -> list[tuple[int, int, str]]:
        """The players named for sure: (start, end, nick)."""
        return [(n.start, n.end, n.nick) for n in self.named if n.nick is not None]

    def words_of(self, family: str, start: int = 0, end: int | None = None) -> list[Found]:
        """The vocabulary words of ``family`` between ``start`` and ``end``."""
        stop = len(self.masked) if end is None else end
        return [w for w in self.words if w.family == family and start <= w.start < stop]

    def typed(self, start: int, end: int) -> str:
        start, end = max(start, 0), min(end, len(self.norm))
        if end <= start:
            return ""
        if self.to_raw is None:
            return self.norm[start:end].strip()
        return self.raw[self.to_raw[start]: self.to_raw[end - 1] + 1].strip()

    def span_at(self, pos: int) -> tuple[int, int, str] | None:
        for n in self.named:
            if n.start == pos and n.nick is not None:
                return (n.start, n.end, n.nick)
        return None

    def named_at(self, pos: int) -> NamedNick | None:
        return next((n for n in self.named if n.start == pos), None)

    def sentence_end(self, pos: int) -> int:
        """The end of the sentence that ``pos`` is in (nick punctuation does not count)."""
        for i in range(pos, len(self.masked)):
            if self.masked[i] in SENTENCE_END:
                return i
        return len(self.masked)

    def sentence_start(self, pos: int) -> int:
        for i in range(min(pos, len(self.masked)) - 1, -1, -1):
            if self.masked[i] in SENTENCE_END:
                return i + 1
        return 0


def _normalise_mapped(line: str) -> tuple[str, str, list[int] | None]:
    """:func:`normalise` with a map back to the typed text. Falls back to no map in the rare
    case (odd Unicode) where a character-wise normalisation differs from the real one."""
    raw = unicodedata.normalize("NFKC", line)
    chars: list[str] = []
    idx: list[int] = []
    for i, ch in enumerate(raw):
        if _SPACE_CHAR.match(ch):
            if not chars or chars[-1] != " ":
                chars.append(" ")
                idx.append(i)
            continue
        for c in ch.casefold():
            chars.append("е" if c == "ё" else c)
            idx.append(i)
    s, e = 0, len(chars)
    while s < e and chars[s] == " ":
        s += 1
    while e > s and chars[e - 1] == " ":
        e -= 1
    norm = "".join(chars[s:e])
    expected = normalise(line)
    if norm != expected or normalise(norm) != norm:
        return raw, expected, None
    return raw, norm, idx[s:e]


def make_line(text: str, roster: Roster) -> Line:
    raw, norm, to_raw = _normalise_mapped(text)
    named = roster.find_named(norm) if normalise(norm) == norm else []
    masked = list(norm)
    for n in named:
        for i in range(n.start, min(n.end, len(masked))):
            masked[i] = "\x00"
    blanked = "".join(masked)
    return Line(raw, norm, to_raw, named, blanked, find_words(blanked))


def own_lines(pm: PrivateMessage) -> list[str]:
    """The PM's non-blank lines that are not quotes (a reply quoting the host is no request)."""
    text = pm.body_text or (plain_text(pm.body_html) if pm.body_html else "")
    return [ln for ln in unquoted_lines(text) if ln.strip()]


@dataclass
class Hit:
    """An action word of ``family`` at ``start:end`` of line ``line``; ``used`` once the
    reader has taken it into a request (or a change)."""

    line: int
    start: int
    end: int
    family: str
    word: str
    changed: bool = False  # part of a change (N1): noted on the request
    used: bool = False
    subject: bool = False  # a role named as the subject: counts only opening a sentence

    @property
    def pos(self) -> tuple[int, int]:
        return (self.line, self.start)


HIT_FAMILIES = frozenset(ACTION_FAMILIES) | {"change", "withdraw", "executor", "aim"}
"""The words a request (or a change, a take-back, an executor) starts at."""
_LINKING = " \t:-—–"


def find_hits(lines: Sequence[Line]) -> list[Hit]:
    """Every action word in the lines, nicks blanked (a nick «Засада» is not an ambush).
    Words of one family next to each other are one hit («Проверка: проверяю Kotik»,
    «Комиссар проверяет Kotik»); «исп.» takes its dot."""
    hits: list[Hit] = []
    for li, line in enumerate(lines):
        for w in line.words:
            if w.family not in HIT_FAMILIES:
                continue
            end = w.end
            if w.family == "executor" and line.masked[end: end + 1] == ".":
                end += 1
            prev = hits[-1] if hits and hits[-1].line == li else None
            # «Мафия стреляет в Kotik»: the role named and its verb are one shot.
            same = prev is not None and (prev.family == w.family or (
                prev.family == "strike" and w.family == "executor"))
            if prev and same and not line.masked[prev.end: w.start].strip(
                _LINKING
            ):
                prev.end = end
                prev.word = line.masked[prev.start: end]
                prev.subject = prev.subject and w.subject
                continue
            hits.append(Hit(li, w.start, end, w.family, line.masked[w.start: end],
                            subject=w.subject))
    return hits

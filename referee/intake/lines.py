"""A PM as the intake reads it: its own lines (quotes left out), each with the roster's
nicks found and blanked, and the action words (:class:`Hit`) found in them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from referee.intake.words import HIT_RE, SENTENCE_END
from referee.kernel import PrivateMessage
from referee.markup import plain_text, unquoted_lines
from referee.nicks import Roster, normalise

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
    spans: list[tuple[int, int, str]]
    masked: str

    def typed(self, start: int, end: int) -> str:
        start, end = max(start, 0), min(end, len(self.norm))
        if end <= start:
            return ""
        if self.to_raw is None:
            return self.norm[start:end].strip()
        return self.raw[self.to_raw[start]: self.to_raw[end - 1] + 1].strip()

    def span_at(self, pos: int) -> tuple[int, int, str] | None:
        for span in self.spans:
            if span[0] == pos:
                return span
        return None

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
    spans = roster.find_spans(norm) if normalise(norm) == norm else []
    masked = list(norm)
    for s, e, _ in spans:
        for i in range(s, min(e, len(masked))):
            masked[i] = "\x00"
    return Line(raw, norm, to_raw, spans, "".join(masked))


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

    @property
    def pos(self) -> tuple[int, int]:
        return (self.line, self.start)


def find_hits(lines: Sequence[Line]) -> list[Hit]:
    """Every action word in the lines, nicks blanked (a nick «Засада» is not an ambush)."""
    hits: list[Hit] = []
    for li, line in enumerate(lines):
        for m in HIT_RE.finditer(line.masked):
            fam = m.lastgroup or ""
            hits.append(Hit(li, m.start(), m.end(), fam, m.group(0)))
    return hits

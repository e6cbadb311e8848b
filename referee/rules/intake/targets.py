"""Which player a typed name is: the roster nick at a place in a PM's line, or why not.

A nick found in the free text (:meth:`Roster.find_named`: as typed, with look-alike letters,
or in another case, «Лису» → Лиса, flagged) counts; otherwise the next one to three words
are matched with :meth:`Roster.match` (a near match is accepted but flagged). Two different
players is ambiguous and nothing found is an unknown nick: never a guess (N14).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.core.nicks import Roster
from referee.rules.intake.lines import Hit, Line
from referee.rules.intake.words import (
    ANOTHER_TARGET_RE,
    FILLERS,
    SECOND_TARGET_WORDS,
    SELF_TARGET,
    SENTENCE_END,
    SEPARATOR_CHARS,
    SKIP_CHARS,
    TOKEN_RE,
    WORD_RE,
)


@dataclass(frozen=True)
class Got:
    """A player read from the text: ``typed`` as the player wrote it, ``end`` where it ends
    on line ``line``."""

    nick: str
    typed: str
    kind: str  # exact | alias | folded | near | inflected | self
    line: int
    end: int


@dataclass(frozen=True)
class Miss:
    """A name typed that is no player (or could be several: ``candidates``)."""

    kind: str  # unknown_nick | ambiguous_nick
    typed: str
    candidates: tuple[str, ...] = ()


_COMMA_RE = re.compile(r"\s*,\s*")
_ELLIPSIS = re.compile(r"(?:\.{2,}|…)\s*(?=[^\s.!?;…])")
RANK = {"exact": 0, "alias": 0, "folded": 1, "inflected": 2, "near": 3}
# How :meth:`Roster.find_named` found a nick → the kind of :class:`Got`.
_NAMED_KIND = {"exact": "exact", "alias": "alias", "lookalike": "folded", "case": "inflected"}


class Targets:
    """Finds the players named in one sender's PM lines (``actor`` is the sender, for
    «себя»)."""

    def __init__(self, lines: list[Line], roster: Roster, actor: str) -> None:
        self.lines = lines
        self.roster = roster
        self.actor = actor

    def skip(self, li: int, pos: int, extra_words: frozenset[str] = frozenset(),
             keep: frozenset[str] = frozenset()) -> int:
        """Past the punctuation and filler words at ``pos`` («к себе», «в», «пожалуй»),
        stopping at a word of ``keep`` («я» where it names the executor)."""
        line = self.lines[li]
        n = len(line.norm)
        while pos < n:
            if line.span_at(pos):
                return pos
            ch = line.masked[pos]
            if ch in SKIP_CHARS:
                pos += 1
                continue
            dots = _ELLIPSIS.match(line.masked, pos)
            if dots and dots.end() < n:
                pos = dots.end()  # «Забираю... эээ... Лунатика»: a pause, not an end
                continue
            m = WORD_RE.match(line.masked, pos)
            if m and m.group(0) not in keep and (
                m.group(0) in FILLERS or m.group(0) in extra_words
            ):
                pos = m.end()
                continue
            return pos
        return pos

    def resolve(
        self, li: int, pos: int, self_words: frozenset[str] = SELF_TARGET,
        *, next_line: bool = True,
    ) -> Got | Miss | None:
        """The player named at ``pos`` (after fillers), a miss, or ``None`` if the sentence
        ends first. A verb at the end of a line may have its nick on the next line."""
        line = self.lines[li]
        pos = self.skip(li, pos, keep=self_words)
        if pos >= len(line.norm):
            if next_line and li + 1 < len(self.lines):
                return self.resolve(li + 1, 0, self_words, next_line=False)
            return None
        if line.masked[pos] in SENTENCE_END:
            return None
        named = line.named_at(pos)
        if named is not None:
            typed = line.typed(named.start, named.end)
            if named.nick is None:
                return Miss("ambiguous_nick", typed, named.candidates)
            return Got(named.nick, typed, _NAMED_KIND.get(named.how, "exact"), li, named.end)
        w = WORD_RE.match(line.masked, pos)
        if w and w.group(0) in self_words:
            return Got(self.actor, line.typed(w.start(), w.end()), "self", li, w.end())
        return self._fallback(li, pos)

    def _fallback(self, li: int, pos: int) -> Got | Miss | None:
        """One to three words matched to the roster: look-alikes, a near match, a case
        ending. Two different players → ambiguous; nothing → unknown nick."""
        line = self.lines[li]
        words: list[tuple[int, int]] = []
        for m in TOKEN_RE.finditer(line.masked, pos):
            tok = m.group(0)
            if "\x00" in tok or tok in ("—", "–", "-", "и") or len(words) == 3:
                break
            if tok[0] in SENTENCE_END:
                break
            words.append((m.start(), m.end()))
            if tok[-1] in SENTENCE_END or tok[-1] in SEPARATOR_CHARS:
                break
        if not words:
            return None
        found: list[tuple[int, int, str, str]] = []  # rank, k, nick, kind
        ambiguous: set[str] = set()
        for k in range(1, len(words) + 1):
            text = line.norm[words[0][0]: words[k - 1][1]]
            m = self.roster.match(text)
            if m.nick is not None:
                found.append((RANK[m.kind], k, m.nick, m.kind))
                continue
            if m.kind == "ambiguous":
                ambiguous.update(m.candidates)
        first_typed = line.typed(words[0][0], words[0][1]).strip(SKIP_CHARS + SENTENCE_END)
        if found:
            best = min(f[0] for f in found)
            nicks = sorted({f[2] for f in found if f[0] == best})
            if len(nicks) > 1:
                return Miss("ambiguous_nick", first_typed, tuple(nicks))
            rank, k, nick, kind = min(f for f in found if f[0] == best)
            typed = line.typed(words[0][0], words[k - 1][1]).strip(SKIP_CHARS + SENTENCE_END)
            return Got(nick, typed, kind, li, words[k - 1][1])
        if ambiguous:
            return Miss("ambiguous_nick", first_typed, tuple(sorted(ambiguous)))
        return Miss("unknown_nick", first_typed)

    def another_target(self, first: Got) -> str | None:
        """«Проверяю Kotik и Лиса»: a second nick joined by «и»/«или»/«+» to a one-target
        action is not guessed between (N14)."""
        line = self.lines[first.line]
        m = ANOTHER_TARGET_RE.match(line.masked, first.end)
        if m is not None:
            named = line.named_at(m.end())
            if named is not None:
                return named.nick or named.typed
        # «Проверяю Kotik, Лиса»: a bare nick after a comma that ends the sentence.
        m = _COMMA_RE.match(line.masked, first.end)
        if m is None:
            return None
        span = line.span_at(m.end())
        if span is None:
            return None
        rest = line.masked[span[1]:].strip(" \t")
        return span[2] if not rest or rest[0] in SENTENCE_END else None

    def second_target(self, first: Got) -> Got | Miss | None:
        """N9: the necromancer's second player, after «и», «,» or «+»."""
        line = self.lines[first.line]
        pos = first.end
        explicit = False
        while pos < len(line.norm):
            if line.span_at(pos):
                break
            ch = line.masked[pos]
            if ch in SEPARATOR_CHARS:
                explicit = explicit or ch != ","
                pos += 1
                continue
            if ch in " \t":
                pos += 1
                continue
            m = WORD_RE.match(line.masked, pos)
            if m and m.group(0) in SECOND_TARGET_WORDS:
                explicit = True
                pos = m.end()
                continue
            break
        if pos == first.end:
            return None
        got = self.resolve(first.line, pos, next_line=False)
        if isinstance(got, Miss) and got.kind == "unknown_nick" and not explicit:
            return None  # a comma followed by chat, not by a second nick
        return got

    def nick_before(self, e: Hit) -> Got | Miss | bool:
        """«Тень_Ночи стреляет»: the nick just before the executor word."""
        line = self.lines[e.line]
        for s, end, nick in line.spans:
            if end <= e.start and line.masked[end: e.start].strip(SKIP_CHARS) == "":
                return Got(nick, line.typed(s, end), "exact", e.line, end)
        return False

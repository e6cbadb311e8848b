"""Matching a nick as a player typed it to the roster (RULES.md V2).

Order: exact (case- and space-insensitive), then with Latin/Cyrillic look-alike letters
folded (С/C, о/o, …, and ё/е), then a unique near match (edit distance within the setting,
for nicks long enough) which counts but is flagged. No match or an ambiguous match is
reported, never guessed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

MatchKind = Literal["exact", "alias", "folded", "near", "ambiguous", "none"]

# Cyrillic letters that look like Latin ones; both sides fold to the Latin letter.
_LOOKALIKE = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s",
        "ԁ": "d", "ԛ": "q", "ԝ": "w",
    }
)
_SPACES = re.compile(r"[\s\u00a0\u200b\u200c\u200d\u2060\ufeff]+")
_EDGE_PUNCT = " \t.,:;!?«»\"'()[]{}—–-"


def normalise(nick: str) -> str:
    """Case- and space-insensitive form, ё treated as е (RULES.md V2, exact step)."""
    text = unicodedata.normalize("NFKC", nick)
    text = _SPACES.sub(" ", text).strip().casefold().replace("ё", "е")
    return text


def fold(nick: str) -> str:
    """:func:`normalise` plus look-alike letters folded and spaces dropped."""
    return normalise(nick).translate(_LOOKALIKE).replace(" ", "")


def distance(a: str, b: str, limit: int | None = None) -> int:
    """Levenshtein distance; stops early once it exceeds ``limit``."""
    if a == b:
        return 0
    if len(a) < len(b):
        a, b = b, a
    if limit is not None and len(a) - len(b) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        best = i
        for j, cb in enumerate(b, 1):
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            cur.append(v)
            best = min(best, v)
        if limit is not None and best > limit:
            return limit + 1
        prev = cur
    return prev[-1]


@dataclass(frozen=True, slots=True)
class NickMatch:
    """Result of matching typed text to the roster. ``nick`` is set when it counts."""

    typed: str
    nick: str | None
    kind: MatchKind
    candidates: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        return self.kind in ("near", "ambiguous", "none")

    def explain(self) -> str:
        if self.kind == "exact":
            return f"«{self.typed}» = {self.nick}"
        if self.kind == "alias":
            return f"«{self.typed}» — другое написание ника {self.nick}"
        if self.kind == "folded":
            return f"«{self.typed}» = {self.nick} (похожие буквы)"
        if self.kind == "near":
            return f"«{self.typed}» прочитан как {self.nick} (похожий ник, проверьте)"
        if self.kind == "ambiguous":
            return f"«{self.typed}» — может быть любой из: {', '.join(self.candidates)}"
        return f"«{self.typed}» — нет такого игрока"


class Roster:
    """The nicks a typed name may refer to, with the host's aliases (``[aliases]``)."""

    def __init__(
        self,
        nicks: Iterable[str],
        aliases: Mapping[str, Iterable[str]] | None = None,
        near_distance: int = 1,
        near_min_length: int = 5,
    ) -> None:
        self.nicks: tuple[str, ...] = tuple(dict.fromkeys(nicks))
        self.near_distance = near_distance
        self.near_min_length = near_min_length
        self._exact: dict[str, set[str]] = {}
        self._folded: dict[str, set[str]] = {}
        self._alias: dict[str, set[str]] = {}
        for nick in self.nicks:
            self._exact.setdefault(normalise(nick), set()).add(nick)
            self._folded.setdefault(fold(nick), set()).add(nick)
        for nick, spellings in (aliases or {}).items():
            for s in spellings:
                self._alias.setdefault(normalise(s), set()).add(nick)
                self._alias.setdefault(fold(s), set()).add(nick)

    def match(self, typed: str) -> NickMatch:
        """Match typed text to one nick of the roster (RULES.md V2)."""
        whole = typed.strip()
        text = typed.strip(_EDGE_PUNCT) or whole
        # The text as typed first: edge punctuation may be the nick's own («-=Tiger=-»,
        # «[KGB]Agent»); else without it («Kotik.», «(Kotik)»).
        for candidate in dict.fromkeys((whole, text)):
            n = normalise(candidate)
            for kind, table, key in (
                ("exact", self._exact, n),
                ("alias", self._alias, n),
                ("folded", self._folded, fold(candidate)),
                ("alias", self._alias, fold(candidate)),
            ):
                found = table.get(key)
                if found:
                    if len(found) == 1:
                        return NickMatch(candidate, next(iter(found)), kind)  # type: ignore[arg-type]
                    return NickMatch(candidate, None, "ambiguous", tuple(sorted(found)))
        f = fold(text)
        if len(f) >= self.near_min_length and self.near_distance > 0:
            near = sorted(
                {
                    nick
                    for key, nicks in self._folded.items()
                    if len(key) >= self.near_min_length
                    and distance(f, key, self.near_distance) <= self.near_distance
                    for nick in nicks
                }
            )
            if len(near) == 1:
                return NickMatch(text, near[0], "near")
            if len(near) > 1:
                return NickMatch(text, None, "ambiguous", tuple(near))
        return NickMatch(text, None, "none")

    def find_in(self, text: str) -> list[tuple[int, str]]:
        """Every roster nick (or alias) that occurs in free text, as (offset, nick).

        Used by the night-request parser where the nick is not marked up. Longest names
        win where two overlap, so «Mr. Smith» is not also read as «Smith».
        """
        return [(start, nick) for start, _end, nick in self.find_spans(text)]

    def find_spans(self, text: str) -> list[tuple[int, int, str]]:
        """Like :meth:`find_in`, with the end of each match: (start, end, nick).

        Offsets index ``normalise(text)``. The night-request parser needs the end to read
        what follows a nick (a second target, an executor) and to keep the nick's own
        punctuation («Mr. Smith», «Nika-77») from being read as a sentence end.
        """
        hay = normalise(text)
        folded_hay = hay.translate(_LOOKALIKE)
        spots: list[tuple[int, int, str]] = []
        names: list[tuple[str, str]] = [(normalise(nick), nick) for nick in self.nicks]
        for nick, spellings in self._alias_items():
            names.extend((normalise(s), nick) for s in spellings)
        for name, nick in names:
            if not name:
                continue
            key = name.translate(_LOOKALIKE)
            start = 0
            while (i := folded_hay.find(key, start)) >= 0:
                end = i + len(key)
                if _word_edge(folded_hay, i, end):
                    spots.append((i, end, nick))
                start = i + 1
        spots.sort(key=lambda s: (s[0], -(s[1] - s[0])))
        out: list[tuple[int, int, str]] = []
        last_end = -1
        for i, end, nick in spots:
            if i >= last_end:
                out.append((i, end, nick))
                last_end = end
        return out

    def _alias_items(self) -> list[tuple[str, list[str]]]:
        rev: dict[str, list[str]] = {}
        for key, nicks in self._alias.items():
            for nick in nicks:
                rev.setdefault(nick, []).append(key)
        return list(rev.items())


def _word_edge(hay: str, i: int, end: int) -> bool:
    before = hay[i - 1] if i > 0 else " "
    after = hay[end] if end < len(hay) else " "
    return not before.isalnum() and not after.isalnum()

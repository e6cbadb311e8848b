"""Matching a nick as a player typed it to the roster (docs/rules.md V2; docs/rules.md V2).

Order (:meth:`Roster.match`): exact (case- and space-insensitive, ё as е), a host's alias,
the same with Latin/Cyrillic look-alike letters folded (С/C, о/o, …); then the same after a
leading preposition («за Шерлок», «у Kotik»); then, where the roster asks for it
(``case_forms=True``), the nick in another case («Лису», «Лисой», «у Кота» → the roster
nick, flagged: :mod:`referee.core.morphology`); then a unique near match (one typo, nicks long
enough; ``rapidfuzz``), which counts but is flagged. No match or an ambiguous match is
reported, never guessed. A nick that merely contains another nick («Котик», «Кот-Баюн» for
Кот) is not that nick.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

MatchHow = Literal["exact", "alias", "lookalike", "case", "near", "ambiguous", "none"]
MatchKind = MatchHow
"""The old name of :data:`MatchHow`."""

# Cyrillic letters that look like Latin ones; both sides fold to the Latin letter. One
# character to one, so offsets in a folded text are offsets in the text.
_LOOKALIKE = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s",
        "ԁ": "d", "ԛ": "q", "ԝ": "w",
    }
)
_SPACES = re.compile(r"[\s\u00a0\u200b\u200c\u200d\u2060\ufeff]+")
_EDGE_PUNCT = " \t.,:;!?«»\"'()[]{}—–-"
# A preposition players put before a nick: «у Кота», «за Лису», «с Котом», «против Кота».
# Not «без»: «без Кота» is said of the one left out.
LEAD_WORDS = frozenset(
    {"у", "за", "на", "в", "во", "к", "ко", "с", "со", "от", "о", "об", "обо", "про", "для",
     "против", "по", "до", "из", "над", "под", "перед", "при"}
)
_LEAD = re.compile(r"(\w+)\s+(\S.*)", re.S)
# Legacy names of the match kinds (NickMatch.kind) for callers written before `how`.
_LEGACY_KIND = {"lookalike": "folded", "case": "inflected"}


_LATIN_OF: dict[str, str] = {chr(c): str(lat) for c, lat in _LOOKALIKE.items()}


def lookalike_class(ch: str) -> str:
    """A regex character class for ``ch`` and its look-alike letter («о» → «[оo]», «е» →
    «[еёe]»), for finding a phrase typed with Latin letters (use with re.IGNORECASE)."""
    low = ch.casefold()
    alts = {low} | ({"е", "ё"} if low in "её" else set())
    alts |= {_LATIN_OF[a] for a in list(alts) if a in _LATIN_OF}
    if len(alts) == 1:
        return re.escape(ch)
    return "[" + "".join(sorted(re.escape(a) for a in alts)) + "]"


def normalise(nick: str) -> str:
    """Case- and space-insensitive form, ё treated as е (docs/rules.md V2, exact step)."""
    text = unicodedata.normalize("NFKC", nick)
    text = _SPACES.sub(" ", text).strip().casefold().replace("ё", "е")
    return text


def fold(nick: str) -> str:
    """:func:`normalise` plus look-alike letters folded and spaces dropped."""
    return normalise(nick).translate(_LOOKALIKE).replace(" ", "")


@dataclass(frozen=True, slots=True)
class NickMatch:
    """Result of matching typed text to the roster. ``nick`` is set when it counts.

    ``how``: exact | alias | lookalike (look-alike letters) | case (another case of the
    nick, «Лису») | near (one typo) | ambiguous (``candidates``) | none. ``lead`` is the
    preposition left out before the nick («у» of «у Кота»), else "".
    """

    typed: str
    nick: str | None
    how: MatchHow
    candidates: tuple[str, ...] = ()
    lead: str = ""

    @property
    def kind(self) -> str:
        """The old name of ``how`` («folded» for lookalike, «inflected» for case)."""
        return _LEGACY_KIND.get(self.how, self.how)

    @property
    def flagged(self) -> bool:
        """A reading the host should look at: another case, a typo, or no single nick."""
        return self.how in ("case", "near", "ambiguous", "none")

    def explain(self) -> str:
        if self.how == "exact":
            return f"«{self.typed}» = {self.nick}"
        if self.how == "alias":
            return f"«{self.typed}» — другое написание ника {self.nick}"
        if self.how == "lookalike":
            return f"«{self.typed}» = {self.nick} (похожие буквы)"
        if self.how == "case":
            return f"«{self.typed}» прочитан как {self.nick} (ник в другом падеже, проверьте)"
        if self.how == "near":
            return f"«{self.typed}» прочитан как {self.nick} (похожий ник, проверьте)"
        if self.how == "ambiguous":
            return f"«{self.typed}» — может быть любой из: {', '.join(self.candidates)}"
        return f"«{self.typed}» — нет такого игрока"


@dataclass(frozen=True, slots=True)
class NamedNick:
    """A roster nick named in free text: ``start``/``end`` index ``normalise(text)``.
    ``nick`` is None when the words may be several players (``candidates``)."""

    start: int
    end: int
    nick: str | None
    how: MatchHow
    typed: str
    candidates: tuple[str, ...] = ()


@lru_cache(maxsize=64)
def _case_entries(names: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """(case form, nick) for every (spelling, nick): cached per roster, since a game builds
    its roster anew for every command step (a profile showed 170 ms per rebuild)."""
    from referee.core.morphology import case_forms  # noqa: PLC0415 — loads pymorphy3 lazily

    out: list[tuple[str, str]] = []
    for spelling, nick in names:
        own = normalise(spelling)
        out.extend((form, nick) for form in sorted(case_forms(own)) if form != own)
    return tuple(out)


class Roster:
    """The nicks a typed name may refer to, with the host's aliases (``[aliases]``).

    ``case_forms``: also read a nick typed in another case («Лису» → Лиса), flagged. Off by
    default: the analyser costs ~0.2 s to load, and a forum username is never declined.
    """

    def __init__(
        self,
        nicks: Iterable[str],
        aliases: Mapping[str, Iterable[str]] | None = None,
        near_distance: int = 1,
        near_min_length: int = 5,
        *,
        case_forms: bool = False,
    ) -> None:
        self.nicks: tuple[str, ...] = tuple(dict.fromkeys(nicks))
        self.near_distance = near_distance
        self.near_min_length = near_min_length
        self.case_forms = case_forms
        self._exact: dict[str, set[str]] = {}
        self._folded: dict[str, set[str]] = {}
        self._alias: dict[str, set[str]] = {}
        self._spellings: list[tuple[str, str, MatchHow]] = []
        for nick in self.nicks:
            self._exact.setdefault(normalise(nick), set()).add(nick)
            self._folded.setdefault(fold(nick), set()).add(nick)
            self._spellings.append((normalise(nick), nick, "exact"))
        for nick, spellings in (aliases or {}).items():
            for s in spellings:
                self._alias.setdefault(normalise(s), set()).add(nick)
                self._alias.setdefault(fold(s), set()).add(nick)
                self._spellings.append((normalise(s), nick, "alias"))
        self._cases: dict[str, set[str]] | None = None
        self._case_names: list[tuple[str, str, MatchHow]] | None = None

    # ------------------------------------------------------------------ one typed name

    def match(self, typed: str) -> NickMatch:
        """Match typed text to one nick of the roster (docs/rules.md V2)."""
        whole = typed.strip()
        text = typed.strip(_EDGE_PUNCT) or whole
        # The text as typed first: edge punctuation may be the nick's own («-=Tiger=-»,
        # «[KGB]Agent»); else without it («Kotik.», «(Kotik)»).
        for candidate in dict.fromkeys((whole, text)):
            if found := self._direct(candidate):
                return found
        lead, rest = _split_lead(text)
        if lead and (found := self._direct(rest)):
            return replace(found, lead=lead)
        tries = [("", text)] + ([(lead, rest)] if lead else [])
        if self.case_forms:
            for pre, part in tries:
                if found := self._case(part):
                    return replace(found, lead=pre)
        for pre, part in tries:
            if found := self._near(part):
                return replace(found, lead=pre)
        return NickMatch(text, None, "none")

    def _direct(self, candidate: str) -> NickMatch | None:
        n, f = normalise(candidate), fold(candidate)
        for how, table, key in (
            ("exact", self._exact, n),
            ("alias", self._alias, n),
            ("lookalike", self._folded, f),
            ("alias", self._alias, f),
        ):
            found = table.get(key)
            if found:
                if len(found) == 1:
                    return NickMatch(candidate, next(iter(found)), how)  # type: ignore[arg-type]
                return NickMatch(candidate, None, "ambiguous", tuple(sorted(found)))
        return None

    def _case(self, candidate: str) -> NickMatch | None:
        found = self.case_table().get(fold(candidate))
        if not found:
            return None
        if len(found) == 1:
            return NickMatch(candidate, next(iter(found)), "case")
        return NickMatch(candidate, None, "ambiguous", tuple(sorted(found)))

    def _near(self, candidate: str) -> NickMatch | None:
        f = fold(candidate)
        if len(f) < self.near_min_length or self.near_distance <= 0:
            return None
        from rapidfuzz.distance import Levenshtein  # noqa: PLC0415 — only on a miss

        near = sorted(
            {
                nick
                for key, nicks in self._folded.items()
                if len(key) >= self.near_min_length
                and Levenshtein.distance(f, key, score_cutoff=self.near_distance)
                <= self.near_distance
                for nick in nicks
            }
        )
        if len(near) == 1:
            return NickMatch(candidate, near[0], "near")
        if len(near) > 1:
            return NickMatch(candidate, None, "ambiguous", tuple(near))
        return None

    def case_table(self) -> dict[str, set[str]]:
        """Folded case form → the nicks it may be (built once per roster; the forms are
        cached per set of nicks across rosters)."""
        if self._cases is None:
            self._cases = {}
            for form, nick in self._case_forms():
                self._cases.setdefault(fold(form), set()).add(nick)
        return self._cases

    def _case_forms(self) -> tuple[tuple[str, str], ...]:
        if not self.case_forms:
            return ()
        return _case_entries(tuple((s, nick) for s, nick, _how in self._spellings))

    # ------------------------------------------------------------------ free text

    def find_named(self, text: str) -> list[NamedNick]:
        """Every roster nick (or alias; or case form, with ``case_forms``) named in free
        text, in order. Offsets index ``normalise(text)``.

        Whole words only: a nick inside a longer word («Котик», «Кот-Баюн», «Кот_1» for
        Кот) is not named. Where two names overlap the longest wins, so «Mr. Smith» is not
        also read as «Smith»; where the same words may be two players («Лису» with Лиса and
        Лис on the roster) the hit is ambiguous (``nick`` None), never a pick.
        """
        hay = normalise(text)
        folded_hay = hay.translate(_LOOKALIKE)
        spots: dict[tuple[int, int], tuple[int, set[str], MatchHow]] = {}
        rank = {"exact": 0, "alias": 0, "lookalike": 1, "case": 2}
        for name, nick, how in self._spellings + self._case_names_list():
            if not name:
                continue
            key = name.translate(_LOOKALIKE)
            start = 0
            while (i := folded_hay.find(key, start)) >= 0:
                end = i + len(key)
                start = i + 1
                if not _word_edge(folded_hay, i, end):
                    continue
                real: MatchHow = how
                if how == "exact" and hay[i:end] != name:
                    real = "lookalike"
                r = rank[real]
                old = spots.get((i, end))
                if old is None or r < old[0]:
                    spots[(i, end)] = (r, {nick}, real)
                elif r == old[0]:
                    old[1].add(nick)
        out: list[NamedNick] = []
        last_end = -1
        for (i, end), (_r, nicks, how) in sorted(spots.items(), key=lambda s: (s[0][0],
                                                                                -s[0][1])):
            if i < last_end:
                continue
            last_end = end
            if len(nicks) == 1:
                out.append(NamedNick(i, end, next(iter(nicks)), how, hay[i:end]))
            else:
                out.append(NamedNick(i, end, None, "ambiguous", hay[i:end],
                                     tuple(sorted(nicks))))
        return out

    def _case_names_list(self) -> list[tuple[str, str, MatchHow]]:
        if self._case_names is None:
            self._case_names = [(form, nick, "case") for form, nick in self._case_forms()]
        return self._case_names

    def find_in(self, text: str) -> list[tuple[int, str]]:
        """Every roster nick named in free text, as (offset, nick) (:meth:`find_named`;
        ambiguous words left out)."""
        return [(start, nick) for start, _end, nick in self.find_spans(text)]

    def find_spans(self, text: str) -> list[tuple[int, int, str]]:
        """Like :meth:`find_in`, with the end of each match: (start, end, nick).

        Offsets index ``normalise(text)``. The night-request parser needs the end to read
        what follows a nick (a second target, an executor) and to keep the nick's own
        punctuation («Mr. Smith», «Nika-77») from being read as a sentence end.
        """
        return [(h.start, h.end, h.nick) for h in self.find_named(text) if h.nick is not None]


def _split_lead(text: str) -> tuple[str, str]:
    """(«у», «Кота») for «у Кота»; ("", text) when the text opens with no preposition."""
    m = _LEAD.fullmatch(text.strip())
    if m is None or normalise(m.group(1)) not in LEAD_WORDS:
        return "", text
    return normalise(m.group(1)), m.group(2)


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _word_edge(hay: str, i: int, end: int) -> bool:
    """The name at hay[i:end] is whole words: no letter, digit or «_» touches it, nor a
    hyphen joining it to one («Кот-Баюн» does not name Кот)."""
    before = hay[i - 1] if i > 0 else " "
    after = hay[end] if end < len(hay) else " "
    if _word_char(before) or _word_char(after):
        return False
    if before == "-" and i > 1 and _word_char(hay[i - 2]):
        return False
    return not (after == "-" and end + 1 < len(hay) and _word_char(hay[end + 1]))

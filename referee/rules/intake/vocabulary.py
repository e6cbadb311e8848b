"""The request vocabulary («Словарь заявок»): the words players write to the host, kept as
data a host can read (``vocabulary.toml``; the same tables are in docs/rules.md).

Each word of a table is matched by its lemma (the initial form pymorphy3 gives: «проверить»
finds «проверяю», «проверим», «проверь»), or, written with «=», only as typed (slang the
dictionary does not know, or a form whose lemma is too wide: «=стреляет» names the clan's
executor, while «стрелять» is any shot). Several words make a phrase, matched word by word.

:func:`find_words` finds every word of every table in a PM line; the sender's role then picks
the action a family of words stands for (:func:`referee.rules.intake.words.action_for`).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

from referee.core.morphology import lemmas

ACTION_FAMILIES = ("check", "heal", "strike", "beat", "take", "ambush", "blow", "protect")
"""The tables of action words, one per action of :mod:`referee.core.roles` (strike is the
mafia's shot and the maniac's and the ninja's kill)."""

WORD_FAMILIES = (
    "change", "withdraw", "executor", "aim", "skip", "correction", "hesitation", "opener",
)
"""The other tables: a change (N1), a take-back, the clan's executor (N5), an aim word
(«Цель:»), a skipped night, a correction, hesitation, words that open a sentence."""

# Where two entries start at the same word and are as long, the first family wins: a
# change or a take-back before the action it names, the executor («стреляет») before a shot.
_PRIORITY = ("change", "withdraw", "skip", "executor") + ACTION_FAMILIES + (
    "aim", "correction", "hesitation", "opener",
)
TOKEN_RE = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


@dataclass(frozen=True, slots=True)
class Entry:
    """One word or phrase of a table: ``words`` as written (folded: lower case, е for ё),
    ``exact`` when it is matched only as typed."""

    family: str
    words: tuple[str, ...]
    exact: bool
    subject: bool = False


@dataclass(frozen=True, slots=True)
class Found:
    """A vocabulary entry found at characters ``start:end`` of a line; ``subject`` when it
    is a role named as the subject («Комиссар проверяет …», «Док: Лиса»)."""

    start: int
    end: int
    family: str
    exact: bool
    subject: bool = False


def _fold(word: str) -> str:
    return word.casefold().replace("ё", "е")


@cache
def tables() -> Mapping[str, tuple[str, ...]]:
    """Family → its entries as written in ``vocabulary.toml`` (docs/rules.md mirrors them)."""
    raw = resources.files("referee.rules.intake").joinpath("vocabulary.toml").read_text("utf-8")
    data = tomllib.loads(raw)
    out: dict[str, tuple[str, ...]] = {}
    for fam in ACTION_FAMILIES:
        out[fam] = tuple(data["actions"][fam]["words"])
    for fam in WORD_FAMILIES:
        out[fam] = tuple(data["words"][fam]["words"])
    return out


@cache
def subjects() -> Mapping[str, tuple[str, ...]]:
    """Action family → the role names that stand for it as the subject (``subjects``)."""
    raw = resources.files("referee.rules.intake").joinpath("vocabulary.toml").read_text("utf-8")
    data = tomllib.loads(raw)
    return {fam: tuple(data["actions"][fam].get("subjects", ())) for fam in ACTION_FAMILIES}


@cache
def roles_of_table() -> Mapping[str, str]:
    """Action family → the roles that write it, as the table says (for docs/rules.md)."""
    raw = resources.files("referee.rules.intake").joinpath("vocabulary.toml").read_text("utf-8")
    data = tomllib.loads(raw)
    return {fam: data["actions"][fam]["roles"] for fam in ACTION_FAMILIES}


@cache
def _index() -> dict[tuple[bool, str], list[Entry]]:
    """(exact?, first word) → the entries that start with it, longest first."""
    index: dict[tuple[bool, str], list[Entry]] = {}
    every = [(fam, text, False) for fam, entries in tables().items() for text in entries]
    every += [(fam, text, True) for fam, entries in subjects().items() for text in entries]
    for fam, text, subject in every:
        exact = text.startswith("=")
        words = tuple(_fold(w) for w in TOKEN_RE.findall(text.removeprefix("=")))
        if words:
            index.setdefault((exact, words[0]), []).append(Entry(fam, words, exact, subject))
    for found in index.values():
        found.sort(key=lambda e: (-len(e.words), _PRIORITY.index(e.family)))
    return index


def _word_matches(entry_word: str, form: str, exact: bool) -> bool:
    if form == entry_word or _PARTICLE.sub("", form) == entry_word:
        return True
    return not exact and entry_word in _lemma_set(form)


_PARTICLE = re.compile(r"-(?:ка|то|таки)$")


@cache
def _lemma_set(form: str) -> frozenset[str]:
    """The folded lemmas of a typed word, and the word itself; a particle joined by a
    hyphen is left out («пробью-ка», «полечу-ка» are «пробью», «полечу»)."""
    bare = _PARTICLE.sub("", form)
    return frozenset({form, bare} | {_fold(lemma) for lemma in lemmas(bare)})


def _candidates(form: str) -> list[Entry]:
    index = _index()
    found = list(index.get((True, form), ()))
    bare = _PARTICLE.sub("", form)
    if bare != form:
        found.extend(index.get((True, bare), ()))
    for lemma in _lemma_set(form):
        found.extend(index.get((False, lemma), ()))
    return found


def find_words(text: str) -> list[Found]:
    """Every vocabulary entry in ``text`` (lower case, nicks blanked), left to right; where
    entries overlap, the longest one starting first wins (then the exact one, then the
    family order of :data:`_PRIORITY`). A phrase's words are separated by spaces only."""
    tokens = [(m.start(), m.end(), _fold(m.group(0))) for m in TOKEN_RE.finditer(text)]
    found: list[Found] = []
    i = 0
    while i < len(tokens):
        best: tuple[int, int, int, Entry] | None = None
        for entry in _candidates(tokens[i][2]):
            n = _phrase_length(entry, tokens, i, text)
            if n:
                key = (-n, 0 if entry.exact else 1, _PRIORITY.index(entry.family), entry)
                if best is None or key[:3] < best[:3]:
                    best = key
        if best is None:
            i += 1
            continue
        n, entry = -best[0], best[3]
        found.append(Found(tokens[i][0], tokens[i + n - 1][1], entry.family, entry.exact,
                           entry.subject))
        i += n
    return found


def _phrase_length(entry: Entry, tokens: list[tuple[int, int, str]], i: int, text: str
                   ) -> int:
    """How many tokens from ``i`` the entry covers (0: it does not match there)."""
    if i + len(entry.words) > len(tokens):
        return 0
    for k, word in enumerate(entry.words):
        start, _, form = tokens[i + k]
        if k and text[tokens[i + k - 1][1]: start].strip():
            return 0
        if not _word_matches(word, form, entry.exact):
            return 0
    return len(entry.words)


def is_verb(word: str) -> bool:
    """«стреляет» is a verb (the executor as the subject of the shot), «исполнитель» not."""
    from referee.core.morphology import analyzer  # noqa: PLC0415 — loaded on first use

    parses = analyzer().parse(_fold(word))
    return bool(parses) and parses[0].tag.POS in ("VERB", "INFN")


def is_third_person(word: str) -> bool:
    """«убивает», «стреляет»: a verb whose subject is a third person (a nick before it)."""
    from referee.core.morphology import analyzer  # noqa: PLC0415 — loaded on first use

    return any(p.tag.POS == "VERB" and p.tag.person == "3per"
               for p in analyzer().parse(_fold(word)))


def is_past(word: str) -> bool:
    """«проверил», «вылечила»: a verb that can only be the past tense tells what was done,
    it asks for nothing."""
    from referee.core.morphology import analyzer  # noqa: PLC0415 — loaded on first use

    parses = analyzer().parse(_fold(_PARTICLE.sub("", word)))
    verbs = [p for p in parses if p.tag.POS == "VERB"]
    return bool(verbs) and len(verbs) == len(parses) and all(
        p.tag.tense == "past" for p in verbs)


def in_table(family: str, text: str) -> bool:
    """Whether ``text`` (one word or a phrase) is, as a whole, an entry of ``family``."""
    hits = find_words(_fold(text))
    return len(hits) == 1 and hits[0].family == family and hits[0].start == 0 and (
        hits[0].end == len(text.strip())
    )

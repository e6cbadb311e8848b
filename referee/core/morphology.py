"""Russian morphology for the readers of votes and night PMs: lemmas and case forms.

Backed by ``pymorphy3`` (OpenCorpora dictionary, ``pymorphy3-dicts-ru``; unknown words get
their forms predicted from their endings, so invented nicks like «Шерлок» or «Жмых» inflect
too). The analyser takes ~0.15 s and ~15 MB to load, so it is created on first use only
(:func:`analyzer`): a tally whose votes name every nick as typed never loads it
(``benchmarks/bench_morphology.py`` measures this). Every answer is cached per word.

Pure: no I/O beyond the dictionary files the library reads once.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the import itself costs ~60 ms; see analyzer()
    from pymorphy3 import MorphAnalyzer
    from pymorphy3.analyzer import Parse

# The cases a nick is typed in after a verb or a preposition («проверяю Лису», «у Кота»,
# «с Котом», «о Коте»), plus the second genitive/locative and the vocative pymorphy knows.
CASES: tuple[str, ...] = ("nomn", "gent", "datv", "accs", "ablt", "loct", "gen2", "loc2")

# Parts of speech a nick may be a word of: a noun or a name, an adjective («Тихий»).
_NICK_POS = frozenset({"NOUN", "ADJF"})
_CYRILLIC_WORD = re.compile(r"[а-яё]+(?:-[а-яё]+)*")


@lru_cache(maxsize=1)
def analyzer() -> MorphAnalyzer:
    """The one pymorphy3 analyser of the process, created on first use (lazy: importing
    ``pymorphy3`` and loading its dictionary is the cost measured by
    ``benchmarks/bench_morphology.py``)."""
    import pymorphy3  # noqa: PLC0415 — lazy on purpose

    return pymorphy3.MorphAnalyzer(path=_dictionary(pymorphy3.MorphAnalyzer), lang="ru")


def _dictionary(analyser: type[MorphAnalyzer]) -> str | None:
    """The Russian dictionary's folder, named to pymorphy3 so that it does not look for it
    among every installed package's entry points (``importlib.metadata``: ~50 ms of a
    command's start, issue 30 item 3). None — let it search — when the host points it
    elsewhere (its environment variable) or the package is not where it should be."""
    import os  # noqa: PLC0415

    if analyser.DICT_PATH_ENV_VARIABLE in os.environ:
        return None
    try:
        import pymorphy3_dicts_ru  # noqa: PLC0415
    except ImportError:
        return None
    return str(pymorphy3_dicts_ru.get_path())


def _plain(word: str) -> str:
    return word.casefold().replace("ё", "е")


@lru_cache(maxsize=8192)
def _parses(word: str) -> tuple[Parse, ...]:
    return tuple(analyzer().parse(word.casefold()))


@lru_cache(maxsize=8192)
def _lemmas(word: str) -> frozenset[str]:
    if not _CYRILLIC_WORD.fullmatch(word.casefold()):
        return frozenset({_plain(word)})
    return frozenset(_plain(p.normal_form) for p in _parses(word))


def lemmas(word: str) -> set[str]:
    """Every dictionary form (лемма) the word may be a form of, lower case, ё as е:
    «лису» → {«лиса»}, «проверю» → {«проверить»}. A word that is not Cyrillic is its own
    lemma."""
    return set(_lemmas(word))


def is_form_of(word: str, lemma: str) -> bool:
    """True when ``word`` may be a form of ``lemma`` («стреляем», «стрелять»)."""
    return _plain(lemma) in _lemmas(word)


@lru_cache(maxsize=4096)
def _forms_by_case(word: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """(case, forms) of one word read as a singular nominative noun or adjective; empty
    when the word is no such form (digits, «Ночи»). A Latin word is declined through its
    letter-by-letter Cyrillic reading (:func:`_latin_forms`)."""
    if _LATIN_WORD.fullmatch(word.casefold()) and len(word) >= 3:
        latin = _latin_forms(word)
        return tuple((case, frozenset(f)) for case, f in sorted(latin.items()))
    if not _CYRILLIC_WORD.fullmatch(word.casefold()):
        return ()
    by_case: dict[str, set[str]] = {}
    parses = [p for p in _parses(word) if p.tag.POS in _NICK_POS and p.tag.case == "nomn"
              and p.tag.number != "plur"]
    # A nick names a person: where the word may be a living being («Лев» the name, the
    # beast), its lifeless readings (лев, the coin: «леву») are not declined.
    if any(p.tag.POS == "NOUN" and p.tag.animacy == "anim" for p in parses):
        parses = [p for p in parses if not (p.tag.POS == "NOUN" and p.tag.animacy == "inan")]
    for p in parses:
        tag = p.tag
        for form in p.lexeme:
            ft = form.tag
            if ft.number == "plur" or ft.case not in CASES or "Supr" in ft:
                continue
            if tag.POS == "ADJF" and ft.gender != tag.gender:
                continue
            case = {"gen2": "gent", "loc2": "loct"}.get(ft.case, ft.case)
            by_case.setdefault(case, set()).add(_plain(form.word))
    return tuple((case, frozenset(forms)) for case, forms in sorted(by_case.items()))


# A Latin nick is declined as players decline it («Kotik» → «Kotika», «Kotikom»): read
# letter by letter as Cyrillic, declined, and the new ending written back in Latin.
_TO_CYRILLIC = str.maketrans("abcdefghijklmnopqrstuvwxyz", "абкдефгхийклмнопкрстуввхыз")
_ENDING_TO_LATIN: dict[str, tuple[str, ...]] = {
    "а": ("a",), "у": ("u",), "е": ("e",), "о": ("o",), "м": ("m",), "ы": ("y", "i"),
    "и": ("i",), "ю": ("yu", "ju", "u"), "я": ("ya", "ja", "a"), "й": ("y", "i", "j"),
    "ь": ("",), "э": ("e",),
}
_LATIN_WORD = re.compile(r"[a-z]+")


def _latin_forms(word: str) -> dict[str, set[str]]:
    latin = word.casefold()
    by_case: dict[str, set[str]] = {}
    for case, forms in _forms_by_case(latin.translate(_TO_CYRILLIC)):
        cyr = latin.translate(_TO_CYRILLIC)
        for form in forms:
            p = 0
            while p < min(len(cyr), len(form)) and cyr[p] == form[p]:
                p += 1
            endings = [""]
            for ch in form[p:]:
                endings = [e + t for e in endings for t in _ENDING_TO_LATIN.get(ch, ())]
            by_case.setdefault(case, set()).update(latin[:p] + e for e in endings)
    return by_case


def word_case_forms(word: str) -> frozenset[str]:
    """The singular case forms of one word that may be a nick's word in the nominative
    («Лиса» → лиса, лисы, лисе, лису, лисой, лисою; «Тихий» → тихого, тихому, …), lower
    case, ё as е. Only parses where the word is a singular nominative noun or adjective
    count, in their own gender: «Лиса» is never read as the genitive of «лис», and no
    plural is made. A word that is no such form (Latin, digits, «Ночи») gives only
    itself."""
    out = {_plain(word)}
    for _case, forms in _forms_by_case(word):
        out |= forms
    return frozenset(out)


def case_forms(nick: str) -> frozenset[str]:
    """Every way the nick may be typed in another case, lower case, ё as е, words joined by
    one space. A nick of several words is put in one case as a whole, each word that
    inflects taking that case and the rest staying as typed: «Тёмный Рыцарь» → «темного
    рыцаря», «темным рыцарем», …; «Тень Ночи» → «тени ночи», «тенью ночи»."""
    words = nick.split()
    if not words:
        return frozenset()
    per_word = [dict(_forms_by_case(w)) for w in words]
    out = {" ".join(_plain(w) for w in words)}
    for case in CASES:
        options = [sorted(f.get(case, ())) or [_plain(w)] if f else [_plain(w)]
                   for w, f in zip(words, per_word, strict=True)]
        out.update(" ".join(combo) for combo in product(*options))
    return frozenset(out)

"""adapters.charset.signatures: the quick count gives the plain count's verdict, always.

The plain definition is kept here as it was first written (seven passes of ``findall``);
the module's faster one — patterns that start at the rarer character of a pair, Latin-1
and Cyrillic letters counted by encoding, the Cyrillic count taken only when a signature
count reaches its bar, ASCII text let through at once — must give the same score and the
same reason on every text: real pages read right and misread, and random mixtures of the
characters the signatures are made of.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.charset import signatures

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"

_SIGNS = ("\u0402-\u040f\u0452-\u045f\u201a-\u201e\u2020-\u2022\u2030\u2039\u203a"
          "\u20ac\u2116\u2122\u00a4\u00a6\u00a7\u00a9\u00ac\u00ad\u00ae\u00b0"
          "\u00b1\u00b5\u00b6\u00b7\u0490\u0491")
PLAIN_1251 = re.compile(f"[РС][{_SIGNS}]|[ВГДЕ][{_SIGNS}\u2013\u2014\u2026"
                        "\u00a0\u00ab\u00bb\u0401\u0451\u0404\u0454\u0406\u0456"
                        "\u0407\u0457\u0408\u0458\u0405\u0455]")
PLAIN_LATIN = re.compile("[\u00c2-\u00f4][\u0080-\u00bf\u02c6\u02dc\u2013-\u2122]")
PLAIN_KOI8 = re.compile("[А-Яа-я][\u2500-\u25a0\u2320\u2321\u2219\u221a\u2248\u2264\u2265]")
PLAIN_RUNS = re.compile("[\u00c0-\u00ff]{4,}")
PLAIN_MIXED = re.compile("[а-яё][А-ЯЁ]")
PLAIN_CYRILLIC = re.compile("[А-Яа-яЁё]")


def plain_signatures(text: str) -> tuple[int, str | None]:
    """The first definition, pass by pass."""
    cyrillic = len(PLAIN_CYRILLIC.findall(text))
    non_ascii = len(text) - len(text.encode("ascii", "ignore"))
    as_1251 = len(PLAIN_1251.findall(text))
    as_latin = len(PLAIN_LATIN.findall(text))
    as_koi8 = len(PLAIN_KOI8.findall(text))
    runs = len(PLAIN_RUNS.findall(text))
    mixed = len(PLAIN_MIXED.findall(text))
    why = None
    if as_1251 >= 3 and as_1251 * 10 >= cyrillic:
        why = "UTF-8, прочитанный как cp1251 (буква, знак, буква, знак…)"
    elif as_latin >= 3 and as_latin * 10 >= non_ascii:
        why = "UTF-8, прочитанный как Latin-1 (буква, знак, буква, знак…)"
    elif as_koi8 >= 3 and as_koi8 * 10 >= cyrillic:
        why = "UTF-8, прочитанный как KOI8-R (псевдографика внутри слов)"
    elif runs >= 3:
        why = "cp1251, прочитанный как Latin-1 (цепочки букв с диакритикой)"
    elif mixed >= 5 and mixed * 20 >= cyrillic:
        why = "не та кириллическая кодировка (заглавные внутри слов)"
    return as_1251 + as_latin + as_koi8 + runs + mixed, why


def _readings(raw: bytes) -> list[str]:
    right = raw.decode("utf-8")
    as_1251 = right.encode("cp1251", "replace")
    return [right, raw.decode("cp1251", "replace"), raw.decode("cp1252", "replace"),
            raw.decode("koi8-r"), raw.decode("latin-1"), as_1251.decode("koi8-r"),
            as_1251.decode("cp1252", "replace"), as_1251.decode("utf-8", "replace")]


REAL = sorted((FIXTURES / "phpbb33-ru").glob("topic_p*_host.html")) + sorted(
    (FIXTURES / "smf21-ru").glob("topic_p*_host.html"))


@pytest.mark.parametrize("path", REAL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_real_page_read_right_and_misread_gets_the_plain_verdict(path: Path) -> None:
    readings = _readings(path.read_bytes())
    for text in readings:
        assert signatures(text) == plain_signatures(text)
    assert signatures(readings[0])[1] is None           # the right reading is not refused
    assert all(signatures(t)[1] for t in readings[1:4])  # the usual wrong ones are


# The characters the signatures are made of, their neighbours, and a little of the rest.
ALPHABET = ("РСВГДЕЁёабвежзийклмнопрстуфхцчшщъыьэюяАБЖЗИЙКЛМНОПТУФХЦЧШЩЪЫЬЭЮЯ"
            "ЂЃЄЅІЇЈЉЊЋЌЍЎЏђѓєѕіїјљњћќѝўџҐґ‚„…†‡•‰‹›€№™¤¦§©¬\u00ad®°±µ¶·«»\u00a0–—"
            "ÀÂÃÄÅÆÇÈÉÐÑÒÓÔÕÖ×ØÞßàâãäåæçèéðñòóôõö÷øþÿ\u0080\u009f\u02c6\u02dc"
            "─│┌┐└┘├┤┬┴┼▀▄█▌▐░▒▓■⌠⌡∙√≈≤≥╭ abcXYZ09<>\"'\n")


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=200))
def test_any_mixture_gets_the_plain_verdict(text: str) -> None:
    assert signatures(text) == plain_signatures(text)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["РЁРµСЂР»РѕРє ", "Шерлок ", "ÐÑÐ»Ð ", "ìÏÊ ", "Ââåäè ",
                                 "вЂ” ", "Её «да» — ", "ПРИВЕТ мир ", "hello ", "мИр "]),
                max_size=60))
def test_any_mixture_of_words_gets_the_plain_verdict(words: list[str]) -> None:
    text = "".join(words)
    assert signatures(text) == plain_signatures(text)

"""Page bytes → text, never a wrong decoding (issue 14). Shared by every engine.

A board says its encoding twice: in the bytes (``<meta charset>``, or a BOM) and in the HTTP
``Content-Type`` header. They disagree more often than one would think — a proxy or a host
panel that stamps ``charset=windows-1251`` on a UTF-8 board, an old cp1251 board behind a
server that says UTF-8 — and a page decoded under the wrong one is mojibake that parses
fine, stores fine and counts wrong (a vote for «РЁРµСЂР»РѕРє» is a vote for nobody).

So a page is decoded under the declaration in its bytes first, the header second, and the
usual encodings of Russian boards last, and a candidate wins only when the bytes decode
under it *strictly* and the text *reads right*: no mojibake signature
(:func:`signatures`) and the engine's own check (``reads_right``: its markup in the board's
language). A page that reads right under none is :class:`Undecodable`; the HTTP client asks
for it again and then stops with a :class:`~referee.core.errors.NetworkError` that names it
(:meth:`adapters.base.HttpClient.get_text`).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable

ReadsRight = Callable[[str], bool]
"""An engine's check of a decoded page: its markup, in the board's language."""

FALLBACKS = ("utf-8", "cp1251")
"""Tried after the declared encodings: what Russian boards are written in."""

_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_META_CHARSET = re.compile(rb"<meta[^>]+?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)",
                           re.IGNORECASE)
_LANG = re.compile(r"<html[^>]*?\blang\s*=\s*[\"']?([A-Za-z-]+)", re.IGNORECASE)
CYRILLIC_LANGUAGES = ("ru", "uk", "be")
"""``<html lang>`` prefixes of the Cyrillic-written languages (Russian, Ukrainian, Belarusian)."""
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
         (codecs.BOM_UTF16_BE, "utf-16-be"))

# Mojibake signatures, each the trace one wrong decoding leaves (mostly on Russian text).
# A pattern of a pair starts with the pair's rarer character (where the other comes first
# in the text, it looks back at it): a scan that starts only at rare characters is several
# times faster, and as no first character of a pair can be a second one, pairs never
# overlap and the count is that of the plain pairs.
#
# UTF-8 read as cp1251: a Russian letter becomes «Р»/«С» and a sign or a Serbian letter,
# an accented Latin one «В»…«Е» and a sign;
_1251_SIGNS = ("\u0402-\u040f\u0452-\u045f\u201a-\u201e\u2020-\u2022\u2030\u2039\u203a"
               "\u20ac\u2116\u2122\u00a4\u00a6\u00a7\u00a9\u00ac\u00ad\u00ae\u00b0"
               "\u00b1\u00b5\u00b6\u00b7\u0490\u0491")
_AFTER_VGDE = (f"{_1251_SIGNS}\u2013\u2014\u2026\u00a0\u00ab\u00bb\u0401\u0451\u0404\u0454"
               "\u0406\u0456\u0407\u0457\u0408\u0458\u0405\u0455")
_UTF8_AS_1251 = re.compile(f"[{_AFTER_VGDE}](?<=[РС][{_1251_SIGNS}]|[ВГДЕ][{_AFTER_VGDE}])")
# UTF-8 read as Latin-1/cp1252: a lead byte letter and a continuation byte sign;
_UTF8_AS_LATIN = re.compile("[\u00c2-\u00f4][\u0080-\u00bf\u02c6\u02dc\u2013-\u2122]")
# UTF-8 read as KOI8-R: a letter becomes a Cyrillic letter and a box-drawing sign;
_KOI8_SIGNS = "\u2500-\u25a0\u2320\u2321\u2219\u221a\u2248\u2264\u2265"
_UTF8_AS_KOI8 = re.compile(f"[{_KOI8_SIGNS}](?<=[А-Яа-я][{_KOI8_SIGNS}])")
# cp1251 read as Latin-1/cp1252: Russian words become runs of accented letters (written
# «one, then three or more» so that the scan starts at such letters only);
_1251_AS_LATIN = re.compile("[\u00c0-\u00ff][\u00c0-\u00ff]{3,}")
# cp1251 and KOI8-R read as each other: capitals in the middle of lowercase words.
_WRONG_CYRILLIC = re.compile("[а-яё][А-ЯЁ]")

# Counted in C rather than by a scan: the Latin-1 letters both Latin signatures need (what
# is left of a Latin-1 encoding without the bytes below U+00C0), and the Cyrillic letters
# А-Я, а-я, Ё, ё (in windows-1251 exactly the bytes C0-FF, A8 and B8).
_BELOW_LATIN_LETTERS = bytes(range(0xC0))
_NOT_CYRILLIC = bytes(b for b in range(0xC0) if b not in (0xA8, 0xB8))


class Undecodable(ValueError):
    """No candidate encoding reads the page right; ``tried`` says what each one gave."""

    def __init__(self, tried: list[tuple[str, str]]) -> None:
        self.tried = tried
        super().__init__("; ".join(f"{codec}: {why}" for codec, why in tried))


def declared(content: bytes, content_type: str | None) -> tuple[str | None, str | None]:
    """(the encoding the bytes declare — BOM or ``<meta>`` —, the header's), as codec names."""
    own = next((name for bom, name in _BOMS if content.startswith(bom)), None)
    if own is None:
        meta = _META_CHARSET.search(content[:4096])
        own = codec_name(meta.group(1).decode("ascii", "replace")) if meta else None
    match = _HEADER_CHARSET.search(content_type or "")
    return own, (codec_name(match.group(1)) if match else None)


def codec_name(label: str) -> str | None:
    """Python's codec for a charset label; Latin-1 and ASCII are read as cp1252, their
    superset, like browsers do; None for unknown labels and non-text codecs."""
    try:
        info = codecs.lookup(label.strip())
    except LookupError:
        return None
    if not getattr(info, "_is_text_encoding", True):
        return None  # «uu», «base64», «rot13»… are codecs, not page encodings
    name = info.name
    return "cp1252" if name in {"latin-1", "iso8859-1", "ascii"} else name


def candidates(content: bytes, content_type: str | None) -> list[str]:
    """The encodings to try, in order: the bytes' own declaration, the header, fallbacks."""
    return list(dict.fromkeys(n for n in (*declared(content, content_type), *FALLBACKS) if n))


def signatures(text: str) -> tuple[int, str | None]:
    """How many mojibake signatures ``text`` bears, and why it is surely a wrong decoding
    (None: it may be right). A page may quote some mojibake of its own, so the verdict
    weighs the signatures against the text they would have spoilt."""
    if text.isascii():
        return 0, None  # every signature has a letter or a sign beyond ASCII
    as_1251 = len(_UTF8_AS_1251.findall(text))  # lists of the few matches: cheaper than
    as_koi8 = len(_UTF8_AS_KOI8.findall(text))  # counting them one by one in Python
    mixed = len(_WRONG_CYRILLIC.findall(text))
    as_latin = runs = 0
    if text.encode("latin-1", "ignore").translate(None, _BELOW_LATIN_LETTERS):
        as_latin = len(_UTF8_AS_LATIN.findall(text))
        runs = len(_1251_AS_LATIN.findall(text))
    score = as_1251 + as_latin + as_koi8 + runs + mixed
    # What the counts are weighed against is counted only when a count reaches its bar.
    cyrillic = _cyrillic_letters(text) if max(as_1251, as_koi8) >= 3 or mixed >= 5 else 0
    why = None
    if as_1251 >= 3 and as_1251 * 10 >= cyrillic:
        why = "UTF-8, прочитанный как cp1251 (буква, знак, буква, знак…)"
    elif as_latin >= 3 and as_latin * 10 >= len(text) - len(text.encode("ascii", "ignore")):
        why = "UTF-8, прочитанный как Latin-1 (буква, знак, буква, знак…)"
    elif as_koi8 >= 3 and as_koi8 * 10 >= cyrillic:
        why = "UTF-8, прочитанный как KOI8-R (псевдографика внутри слов)"
    elif runs >= 3:
        why = "cp1251, прочитанный как Latin-1 (цепочки букв с диакритикой)"
    elif mixed >= 5 and mixed * 20 >= cyrillic:
        why = "не та кириллическая кодировка (заглавные внутри слов)"
    return score, why


def _cyrillic_letters(text: str) -> int:
    return len(text.encode("cp1251", "ignore").translate(None, _NOT_CYRILLIC))


def decide(content: bytes, content_type: str | None = None, *,
           reads_right: ReadsRight | None = None) -> tuple[str, str]:
    """(text, codec): of the candidates under which the page decodes strictly, reads right
    and bears no sure mojibake, the one with the fewest mojibake signatures (the first
    declared on a tie); :class:`Undecodable` when there is none."""
    tried: list[tuple[str, str]] = []
    best: tuple[int, str, str] | None = None
    for name in candidates(content, content_type):
        try:
            text = content.decode(name).removeprefix("\ufeff")
        except (UnicodeDecodeError, LookupError) as e:
            tried.append((name, f"недопустимые байты ({getattr(e, 'reason', e)})"))
            continue
        score, why = signatures(text)
        if why is None and reads_right is not None and not reads_right(text):
            why = "не читается как страницы форума"
        if why is not None:
            tried.append((name, why))
        elif best is None or score < best[0]:
            best = (score, text, name)
            if score == 0:
                break  # nothing later can read better
    if best is None:
        raise Undecodable(tried)
    return best[1], best[2]


SALVAGE_MAX_BAD = 16
"""At most this many replacement characters in a salvaged page (issue 26): a few stray
bytes in one post, never a page in an encoding nobody can tell."""


def salvage(content: bytes, content_type: str | None = None, *,
            reads_right: ReadsRight | None = None) -> tuple[str, str, int] | None:
    """(text, codec, bytes replaced) for a page :func:`decide` refuses only because of a few
    bytes no encoding explains (a proxy or a broken mod spoiling one post): the candidate
    under which the rest reads right, with U+FFFD for those bytes; None when more than
    :data:`SALVAGE_MAX_BAD` are bad or the rest bears mojibake — then nothing is guessed.
    The caller flags the page for the host (issue 26)."""
    best: tuple[int, str, str] | None = None
    for name in candidates(content, content_type):
        try:
            text = content.decode(name, "replace").removeprefix("\ufeff")
        except LookupError:
            continue
        bad = text.count("\ufffd")  # a «�» the page itself holds counts too: the safe side
        if bad <= 0 or bad > SALVAGE_MAX_BAD or signatures(text)[1] is not None:
            continue
        if reads_right is not None and not reads_right(text):
            continue
        if best is None or bad < best[0]:
            best = (bad, text, name)
    return None if best is None else (best[1], best[2], best[0])


def decide_lenient(content: bytes, content_type: str | None = None, *,
                   reads_right: ReadsRight | None = None) -> tuple[str, str]:
    """(text, codec) for what is never stored (an answer to a form, a saved file's kind,
    an error page): the right decoding when there is one, else the first candidate with
    U+FFFD for bad bytes."""
    try:
        return decide(content, content_type, reads_right=reads_right)
    except Undecodable:
        first = candidates(content, content_type)[0]
        return content.decode(first, "replace").removeprefix("\ufeff"), first


def decode_lenient(content: bytes, content_type: str | None = None, *,
                   reads_right: ReadsRight | None = None) -> str:
    """:func:`decide_lenient`'s text."""
    return decide_lenient(content, content_type, reads_right=reads_right)[0]


def in_other_language(text: str) -> bool:
    """Whether a page declares (``<html lang>``) a language not written in Cyrillic: the
    words of an engine's Russian language pack are then not to be looked for on it."""
    lang = _LANG.search(text[:4096])
    return lang is not None and not lang.group(1).lower().startswith(CYRILLIC_LANGUAGES)


def reads_in_language(marks: tuple[str, ...], words: tuple[str, ...]) -> ReadsRight:
    """An engine's :data:`ReadsRight`: a page that shows one of ``marks`` (the part of the
    engine's pages printed with its language pack: a menu, a search form) reads right when
    one of the pack's ``words`` is on it, as under a wrong encoding the Russian words are
    the first to go. A page without the marks, or one that declares a language not written
    in Cyrillic, is not judged by its words."""
    def reads_right(text: str) -> bool:
        if not any(mark in text for mark in marks) or in_other_language(text):
            return True
        return any(word in text for word in words)

    return reads_right


__all__ = ["CYRILLIC_LANGUAGES", "FALLBACKS", "ReadsRight", "Undecodable", "candidates",
           "codec_name", "decide", "decide_lenient", "declared", "decode_lenient",
           "in_other_language", "reads_in_language", "salvage", "signatures"]

"""A post's own text, as docs/rules.md V1 and V3 read it: quotes left out, red and code marked.

Pure: no I/O. :func:`walk` turns a post's HTML into lines of the author's own words, each
character marked red (:data:`RED`) or code (:data:`CODE`), so that
:mod:`referee.rules.day.reading` can find «мой голос», its red nick and the reason on one walk.
:func:`may_hold_phrase` is the cheap test that spares chat posts that walk.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from referee.config.game import VoteRules
from referee.core.nicks import lookalike_class
from referee.rules.day.colour import is_red, parse_declarations, style_is_red

if TYPE_CHECKING:  # the parser loads with the first post read, not with the rules (issue 28)
    from selectolax.lexbor import LexborNode

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
    :func:`~referee.rules.day.reading.phrase_pattern` (no word edges, no spacing rule), so it
    never misses a phrase that pattern finds."""
    alts = [
        ".*?".join("".join(lookalike_class(ch) for ch in word) for word in phrase.split())
        for phrase in phrases if phrase.split()
    ]
    return re.compile("|".join(alts), re.S | re.I) if alts else None


def may_hold_phrase(body_html: str, phrases: tuple[str, ...]) -> bool:
    """False only when the post cannot hold «мой голос» (V1): its text with every tag
    dropped lacks the phrase's words. Most posts are chat; this spares them the HTML parse
    and walk of :func:`~referee.rules.day.reading.find_vote`, which decides every post this lets
    through."""
    words = _phrase_words(phrases)
    if words is None:
        return False
    if _RAW_TEXT.search(body_html):
        return True
    text = html.unescape(_TAG.sub("", _NOT_TEXT.sub("", body_html)))
    if _HAS_INVISIBLE.search(text):  # rare; str.translate is slow on every post
        text = text.translate(_INVISIBLE)
    return words.search(text) is not None


# Per-character marks of the walked text. LINK: inside a link or a mention (a board colours
# links itself, so a red nick in a link may show blue: read, flagged). STRUCK: struck
# through ([s], <del>, <strike>, line-through): a vote the player took back.
RED = 1
CODE = 2
LINK = 4
STRUCK = 8

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
WS_CHARS = " \t\r\n\f\v\u00a0"
# Characters a reader cannot see (zero-width space/joiners, word joiner, BOM, soft hyphen):
# they come with copied text and must not split «мой голос» or a nick the host reads whole.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_HAS_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")


@dataclass(slots=True)
class Line:
    """One line of the walked text: its pieces and a mark (:data:`RED`, :data:`CODE`) for
    every character."""

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
        self.lines: list[Line] = [Line()]

    def newline(self) -> None:
        if self.lines[-1].text:
            self.lines.append(Line())

    def walk(self, node: LexborNode, red: bool, code: bool, extra: int = 0) -> None:
        """``extra``: the :data:`LINK` and :data:`STRUCK` marks of the enclosing elements."""
        for child in node.iter(include_text=True):
            tag = child.tag
            if tag == "-text":
                text = (child.text(deep=False) or "").replace("\r", " ").replace("\n", " ")
                text = text.translate(_INVISIBLE)
                if text:
                    self.lines[-1].add(text, (RED if red else 0) | (CODE if code else 0)
                                       | extra)
                continue
            if tag is None or tag.startswith("-") or tag in _SKIP_TAGS:
                continue
            if tag in _CHROME_TAGS or "onclick" in child.attributes:
                self.newline()
                continue
            if tag == "br":
                self.lines.append(Line())
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
            inner = extra | (LINK if tag == "a" else 0) | (STRUCK if _struck(child) else 0)
            if tag in _BLOCK_TAGS:
                self.newline()
                self.walk(child, inner_red, code, inner)
                self.newline()
            else:
                self.walk(child, inner_red, code, inner)

    def _code(self, box: LexborNode) -> None:
        # Only the <code> text: the box header («Код: Выделить всё») is forum chrome.
        for code in box.css("code"):
            for i, part in enumerate((code.text() or "").split("\n")):
                if i:
                    self.lines.append(Line())
                self.lines[-1].add(part, CODE)

    def _colour(self, el: LexborNode, red: bool) -> bool:
        attrs = el.attributes
        style = attrs.get("style")
        own = style_is_red(style, self.rules) if style else None
        if own is not None:
            return own
        if el.tag == "font" and attrs.get("color"):
            return is_red(attrs.get("color") or "", self.rules)
        # A link inside red text: prosilver shows it in the link colour, yet the player
        # typed it red ([color=red][url]…[/url][/color], a mention): red, marked LINK.
        return red


_STRUCK_TAGS = frozenset({"s", "strike", "del"})


def _struck(el: LexborNode) -> bool:
    """Struck through: <s>, <strike>, <del> ([s] of XenForo, SMF, vBulletin, custom phpBB
    BBCodes) or a style with ``text-decoration: line-through``."""
    if el.tag in _STRUCK_TAGS:
        return True
    style = el.attributes.get("style")
    return bool(style) and any(
        d.prop in ("text-decoration", "text-decoration-line") and "line-through" in d.value
        for d in parse_declarations(style or ""))


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


def walk(html: str, rules: VoteRules) -> list[Line]:
    """The post's own text as lines with red/code marks (see :class:`_Walker`), empty lines
    left out."""
    from selectolax.lexbor import LexborHTMLParser  # noqa: PLC0415 — only when a post is read

    tree = LexborHTMLParser(f"<div id='__referee_votes'>{html}</div>")
    root = tree.css_first("#__referee_votes")
    walker = _Walker(rules)
    if root is not None:
        walker.walk(root, False, False)
    return [line for line in walker.lines if line.text]


_READ = RED | CODE | STRUCK


def red_runs(line: Line) -> list[tuple[int, int]]:
    """Spans of red text, not code and not struck through; red pieces split only by spaces
    join into one run, so «<red>Mr.</red> <red>Smith</red>» is one nick."""
    text = line.string()
    runs: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        if line.marks[i] & _READ == RED:
            j = i
            end = i
            while j < n:
                if line.marks[j] & _READ == RED:
                    j += 1
                    end = j
                elif text[j] in WS_CHARS:
                    j += 1
                else:
                    break
            a, b = i, end
            while a < b and text[a] in WS_CHARS:
                a += 1
            while b > a and text[b - 1] in WS_CHARS:
                b -= 1
            if b > a:
                runs.append((a, b))
            i = max(end, i + 1)
        else:
            i += 1
    return runs


def has_word(text: str) -> bool:
    return any(ch.isalnum() for ch in text)

"""Bad input for the robustness tests: real forum pages broken the ways the internet breaks
them, and random markup built from the pieces the parsers look for.

A page travels as bytes and is decoded the way the client decodes it
(:func:`adapters.phpbb.decode_page`), so byte noise and a wrong ``charset`` reach the
parsers exactly as they would from a misbehaving forum or proxy.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from zoneinfo import ZoneInfo

from hypothesis import strategies as st

from adapters.phpbb.page import decode_page

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
REAL = FIXTURES / "phpbb33-ru"
MOSCOW = ZoneInfo("Europe/Moscow")
SAVED_AT = datetime(2026, 11, 29, 17, 0, tzinfo=UTC)
PAGE_URL = "https://forum.test/viewtopic.php?t=3&start=20"

TOPIC_PAGES = tuple(sorted(p.name for p in REAL.glob("topic_*.html")))
PM_PAGES = tuple(sorted(p.name for p in REAL.glob("pm_[0-9]*.html")))
FOLDER_PAGES = ("pm_inbox.html", "pm_inbox_after_reading.html", "pm_sent.html")
OTHER_PAGES = tuple(sorted(
    p.name for p in REAL.glob("*.html")
    if p.name not in {*TOPIC_PAGES, *PM_PAGES, *FOLDER_PAGES}
))
LEGACY_PAGES = tuple(sorted(
    str(p.relative_to(FIXTURES)) for d in ("phpbb30", "phpbb32", "subsilver2")
    for p in (FIXTURES / d).glob("*.html")
))


@cache
def fixture_text(name: str) -> str:
    """A saved page as text (phpbb33-ru names, or ``folder/name`` for the legacy ones)."""
    path = REAL / name if "/" not in name else FIXTURES / name
    return decode_page(path.read_bytes(), "text/html; charset=UTF-8" if "/" not in name else None)


# ----------------------------------------------------------------------------- mutations

_TAG = re.compile(r"<[^<>]+>")
_ATTR = re.compile(r'([\w-]+)\s*=\s*"([^"]*)"')
_TEXT = re.compile(r">([^<]+)<")
_KEY_ATTR = re.compile(r'\b(id|datetime|href|name|value)\s*=\s*"([^"]*)"')
# Texts the parsers read: dates, «Страница N из M», «N сообщений», PM header labels.
_DATE = re.compile(r"\d{1,2} \w{3} \d{4}, \d\d:\d\d")
_KEY_TEXT = re.compile(r">([^<]*(?:\d\d:\d\d|\d+ \w+ \d{4}|Страница|сообщени|:)[^<]*)<")

TRICKY_VALUES = (
    "", "p", "p0", "p-1", "p99999999999999999999", "post", "post-", "post-x", "pm",
    "2026-13-45T99:00:00+00:00", "0001-01-01T00:00:00+00:00", "9999-12-31T23:59:59-12:00",
    "not a date", "./memberlist.php?mode=viewprofile&u=", "?u=abc", "?p=&start=-5",
    "./viewtopic.php?t=3&start=99999999999999999999", "color: red", "javascript:alert(1)",
    "https://evil.test/", "username", "content", "author", "pagination", "active",
)
"""Attribute values that sit on the parsers' decision points (ids, hrefs, datetimes)."""

TRICKY_TEXTS = (
    "", " ", "»", ":", "Сегодня, 25:99", "Вчера", "31 фев 2026, 10:00", "0001-01-01 00:00",
    "1 янв 0001, 00:00", "31 дек 9999, 23:59", "99999999999 минут назад",
    "99999999999 сообщений", "Страница 0 из 0", "Страница 5 из 99999999999999999999",
    "Отправлено:", "От:", "Получатель:",
    "Последний раз редактировалось X 1 янв 0001, 00:00, всего редактировалось "
    "99999999999999999999 раз.", "Kotik", "[/color][url=http://evil]x[/url]", "\u200b",
    "\x00", "\ufffd", "мой голос",
)
"""Text that the date, pagination, edit-notice and PM-header readers act on."""

TRICKY_DATES = (
    "", "0001-01-01 00:00", "1 янв 0001, 00:00", "31 дек 9999, 23:59", "9999-12-31T23:59:59",
    "31 фев 2026, 10:00", "Сегодня, 25:99", "Вчера", "Завтра, 5 мая", "99999999999 минут назад",
    "99999999999 часов назад", "менее минуты назад", "Sun Nov 22, 2026 2:26 pm +99:00",
    "Nov 22, 2026 2:26 pm EST", "22 ноя 2026", "ноя 2026", "14:26", "2026",
    "22 ноя 2026, 14:26 UTC+25", "Янв 1, '07, 13:37",
)
"""Dates a page might show: out of range, impossible, relative, partial, with odd zones."""

ENCODINGS = ("utf-8", "cp1251", "koi8-r", "latin-1", "utf-16", "utf-16-be", "cp1252")
CHARSETS = (None, "text/html", "text/html; charset=UTF-8", "text/html; charset=windows-1251",
            "text/html; charset=koi8-r", "text/html; charset=utf-16", "text/html; charset=bogus",
            "text/html; charset=\"\"")


def _nth(matches: list[re.Match[str]], index: int) -> re.Match[str] | None:
    return matches[index % len(matches)] if matches else None


class Broken:
    """A broken page and how it was broken: a failing example prints the recipe, not the
    40 kB page (a plain class, so hypothesis shows its ``repr``)."""

    __slots__ = ("html", "source", "steps")

    def __init__(self, source: str, steps: tuple[str, ...], html: str) -> None:
        self.source, self.steps, self.html = source, steps, html

    def __repr__(self) -> str:
        if self.source == "random":
            return f"Broken(random, {self.html!r})"
        return f"Broken({self.source!r}, steps={list(self.steps)!r})"


@st.composite
def mutation(draw: st.DrawFn, html: str) -> tuple[str, str]:
    """One structural change of ``html`` and its description: cut, a tag removed, an
    attribute or a text changed, every date replaced, or markup inserted."""
    kind = draw(st.sampled_from(
        ("cut", "drop_tag", "attr", "key_attr", "text", "key_text", "dates", "insert")))
    at = draw(st.integers(min_value=0, max_value=10**6))
    if kind == "cut":
        return html[: at % (len(html) + 1)], f"cut at {at % (len(html) + 1)}"
    if kind == "drop_tag":
        m = _nth(list(_TAG.finditer(html)), at)
        if m is None:
            return html, "no tag to drop"
        return html[: m.start()] + html[m.end():], f"dropped {m.group(0)[:60]!r}"
    if kind in ("attr", "key_attr"):
        m = _nth(list((_ATTR if kind == "attr" else _KEY_ATTR).finditer(html)), at)
        value = draw(st.sampled_from(TRICKY_VALUES) | st.text(max_size=12))
        if m is None:
            return html, "no attribute to change"
        return (html[: m.start(2)] + value + html[m.end(2):],
                f"{m.group(1)}={m.group(2)[:40]!r} -> {value!r}")
    if kind in ("text", "key_text"):
        m = _nth(list((_TEXT if kind == "text" else _KEY_TEXT).finditer(html)), at)
        value = draw(st.sampled_from(TRICKY_TEXTS) | st.text(max_size=20))
        if m is None:
            return html, "no text to change"
        return (html[: m.start(1)] + value + html[m.end(1):],
                f"text {m.group(1).strip()[:40]!r} -> {value!r}")
    if kind == "dates":
        # Every shown date at once: the one a parser reads is then surely among them.
        value = draw(st.sampled_from(TRICKY_DATES) | st.text(max_size=20))
        return _DATE.sub(lambda _: value.replace("\\", "/"), html), f"every date -> {value!r}"
    pos = at % (len(html) + 1)
    value = draw(st.sampled_from(MARKUP) | st.text(max_size=20))
    return html[:pos] + value + html[pos:], f"inserted {value!r} at {pos}"


@st.composite
def page_bytes(draw: st.DrawFn, html: str) -> tuple[bytes, str]:
    """``html`` as bytes in some encoding, with random bytes inserted or deleted."""
    encoding = draw(st.sampled_from(ENCODINGS))
    data = bytearray(html.encode(encoding, "replace"))
    noise: list[str] = []
    for _ in range(draw(st.integers(min_value=0, max_value=5))):
        at = draw(st.integers(min_value=0, max_value=len(data)))
        if draw(st.booleans()) and at < len(data):
            n = draw(st.integers(min_value=1, max_value=64))
            del data[at: at + n]
            noise.append(f"-{n}@{at}")
        else:
            extra = draw(st.binary(min_size=1, max_size=16))
            data[at:at] = extra
            noise.append(f"+{extra!r}@{at}")
    return bytes(data), f"encoded {encoding} " + " ".join(noise)


@st.composite
def broken_page(draw: st.DrawFn, names: tuple[str, ...]) -> Broken:
    """A real page, changed by one to four mutations, maybe re-encoded, noised and decoded
    with a wrong ``charset``, as the client would decode it."""
    name = draw(st.sampled_from(names))
    html = fixture_text(name)
    steps: list[str] = []
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        html, step = draw(mutation(html))
        steps.append(step)
    if draw(st.booleans()):
        data, step = draw(page_bytes(html))
        charset = draw(st.sampled_from(CHARSETS))
        html = decode_page(data, charset)
        steps.append(f"{step}, served as {charset!r}")
    return Broken(name, tuple(steps), html)


# ----------------------------------------------------------------------------- random markup

MARKUP = (
    '<div id="p12" class="post has-profile bg2">', '<div class="post pm" id="post-9">',
    '<div class="inner">', '<div class="postbody">', '<div id="post_content12">',
    '<p class="author">', "<strong>", "</strong>", " &raquo; ", "»",
    '<time datetime="2026-11-21T06:05:20+00:00">', '<time datetime="garbage">', "</time>",
    '<a href="./memberlist.php?mode=viewprofile&amp;u=71" class="username">',
    '<a href="./memberlist.php?mode=group&amp;g=5">', "</a>", '<span class="username">',
    '<span class="username-coloured" style="color: #AA0000;">', "</span>",
    '<div class="content">', "</div>", '<div class="notice">', '<div class="ignore">',
    '<dl class="postprofile"><dt>', "</dt></dl>", "<blockquote><div><cite>X писал(а):</cite>",
    "</blockquote>", '<span style="color:red">', '<h2 class="topic-title">',
    '<a href="./viewtopic.php?t=3">', '<div class="pagination">', '<li class="active">',
    "<span>2</span>", '<a class="button" href="./viewtopic.php?t=3&amp;start=20">2</a>',
    '<a href="./viewtopic.php?t=3&amp;start=0" rel="next">', "Страница 2 из 4",
    "70 сообщений", '<ul class="pmlist">', '<li class="row bg1 pm_unread">',
    '<a class="topictitle" href="./ucp.php?i=pm&amp;mode=view&amp;f=0&amp;p=18">',
    '<a class="topictitle" href="./ucp.php?i=pm&amp;action=delete&amp;p=1">',
    '<input type="checkbox" name="marked_msg_id[]" value="18">', '<div class="list-inner">',
    '<dd class="info"><span>', '<form id="viewfolder">', '<input name="cur_folder_id" value="-1">',
    '<form id="login" action="./ucp.php?mode=login">', '<input type="password" name="password">',
    "</form>", '<div id="message"><h2>Информация</h2><p>', "</p>",
    '<table class="tablebg"><tr><th>Ошибка</th></tr><tr><td class="row1"><p class="gen">',
    "</p></td></tr></table>", '<a name="p34"></a>', '<b class="postauthor">',
    '<td class="gensmall"><div><b>Добавлено:</b> ', '<div class="postbody">',
    '<span class="gensmall">', '<a href="#" onclick="jumpto(); return false;">',
    '<td class="nav">', "<br />", "<tr>", "</tr>", "<td>", "</td>", "<table>", "</table>",
    "Отправлено:", "От:", "Получатель:", "22 ноя 2026, 14:26", "Сегодня, 09:05",
    "5 минут назад", "Sun Nov 22, 2026 2:26 pm", "Последний раз редактировалось ",
    ", всего редактировалось 2 раз.", "удалено автором", "Запрошенной темы не существует.",
    "Вы не авторизованы", "banned", "<!--", "-->", "<script>", "</script>", "<![CDATA[", "&#0;",
)
"""Pieces of phpBB markup: the elements and texts the page parsers decide on."""

random_markup = st.lists(st.sampled_from(MARKUP) | st.text(max_size=15), max_size=60).map("".join)
"""Random HTML made of phpBB's pieces in any order (and random text between them)."""

random_page = st.one_of(st.text(max_size=300), random_markup).map(
    lambda html: Broken("random", (), html))

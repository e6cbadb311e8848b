"""What every XenForo page shares: its text, its kind, its times, its users, its errors.

Pure functions over selectolax/lexbor trees. The facts and where each was verified are in
``adapters/xenforo/README.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Literal, NoReturn
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters import charset
from adapters.html import first_text, int_or_none, iso_utc, squash
from adapters.xenforo.dates import read_date_text
from referee.core.errors import (
    AccessDenied,
    ForumError,
    LoginRequired,
    MalformedPage,
    TopicNotFound,
)

Generation = Literal[1, 2]

_MEMBER_ID = re.compile(r"members/(?:[^/?#]*\.)?(\d+)/?")
_DIGITS = re.compile(r"^\d+$")

HINT_URL = ("Проверьте адрес темы в referee.toml ([forum] url). Если форум не на XenForo или "
            "у него сильно изменённый стиль, сохраните страницу и передайте разработчикам.")
HINT_LOGIN = ("Проверьте логин ведущего ([forum] username), его пароль (REFEREE_PASSWORD) и что "
              "этой учётной записи открыт раздел с игрой.")


reads_as_xenforo = charset.reads_in_language(('data-xf-init="quick-search"', 'id="QuickSearch"'),
                                             ("Поиск", "Форумы", ">Search<", ">Forums<"))
"""Whether decoded page text reads as XenForo in the board's language: the header's quick
search (XF2 ``data-xf-init="quick-search"``, XF1 ``#QuickSearch``) comes with the pack's
«Поиск»/«Форумы» or «Search»/«Forums»."""


# --------------------------------------------------------------------------- the page

def root_mark(tree: LexborHTMLParser, name: str) -> str:
    """An attribute of the page's ``<html>``, where XenForo marks the page's generation,
    template, session and token ('' when it has none)."""
    html = tree.css_first("html")
    return (html.attributes.get(name) or "") if html is not None else ""


def generation(tree: LexborHTMLParser) -> Generation | None:
    """2 for ``<html id="XF">`` (XenForo 2), 1 for ``<html id="XenForo">`` (XenForo 1)."""
    mark = root_mark(tree, "id")
    if mark == "XF":
        return 2
    if mark == "XenForo":
        return 1
    return None


def is_logged_in(tree: LexborHTMLParser) -> bool:
    """XF2: ``html[data-logged-in="true"]``; XF1: the ``LoggedIn`` class on ``<html>``."""
    return (root_mark(tree, "data-logged-in").lower() == "true"
            or "LoggedIn" in root_mark(tree, "class").split())


def cookie_prefix(tree: LexborHTMLParser) -> str:
    """``html[data-cookie-prefix]`` (XF2; ``xf_`` by default, which XF1 uses too)."""
    return root_mark(tree, "data-cookie-prefix") or "xf_"


def absolute(tree: LexborHTMLParser, page_url: str, href: str) -> str:
    """``href`` as the browser resolves it: against ``<base href>`` (XF1 prints one and
    writes relative links) or the page's address."""
    base = tree.css_first("base[href]")
    root = (base.attributes.get("href") or page_url) if base is not None else page_url
    return urljoin(urljoin(page_url, root), href)


def csrf_token(tree: LexborHTMLParser) -> str | None:
    """The form token: ``html[data-csrf]`` (XF2) or the first ``_xfToken`` input."""
    token = root_mark(tree, "data-csrf")
    if token:
        return token
    node = tree.css_first('input[name="_xfToken"]')
    value = node.attributes.get("value") if node is not None else None
    return value or None


def login_form(tree: LexborHTMLParser) -> Node | None:
    """A form that asks for the password (the login page, or the one inside a "you must
    be logged in" error)."""
    for form in tree.css("form"):
        if form.css_first('input[type="password"]') is not None and (
                "login" in (form.attributes.get("action") or "")
                or form.css_first('input[name="login"]') is not None):
            return form
    return None


def error_text(tree: LexborHTMLParser) -> str:
    """The text of XenForo's error box (``div.blockMessage`` on XF2, ``div.errorOverlay``
    / ``div.errorPanel`` on XF1), or ''."""
    return first_text(tree, (".blockMessage--error", ".blockMessage", ".errorOverlay",
                             ".errorPanel", "div.error"))[:300]


def raise_for_page(tree: LexborHTMLParser, url: str, expected: str,
                   status: int = 200) -> NoReturn:
    """The error that explains why ``tree`` is not the ``expected`` page."""
    said = error_text(tree)
    if login_form(tree) is not None and not is_logged_in(tree):
        raise LoginRequired(
            f"Форум показал форму входа вместо страницы ({expected}): {url}.", HINT_LOGIN)
    if status == 404:
        raise TopicNotFound(
            f"Страницы нет на форуме (HTTP 404): {url}" + (f" — «{said}»" if said else "."),
            HINT_URL)
    if status == 403:
        raise AccessDenied(
            f"Форум не даёт учётной записи ведущего открыть {expected} (HTTP 403)"
            + (f": «{said}»" if said else "") + f" — {url}.",
            "Проверьте в браузере под той же учётной записью, что страница открывается.")
    if said:
        raise ForumError(f"Форум ответил сообщением вместо страницы: «{said}» ({url}).",
                         HINT_URL)
    raise MalformedPage(
        f"Страница {url} — не {expected} XenForo: на ней нет ничего, что XenForo выводит на "
        f"такой странице.", HINT_URL)


# --------------------------------------------------------------------------- times

def time_of(node: Node | None, tz: tzinfo, now: datetime) -> datetime | None:
    """The instant a XenForo date element means, exact where the page allows.

    XF 2.0–2.2 ``<time class="u-dt" data-time="UNIX">`` (``Templater::fnDateDynamic``);
    XF 2.3 ``data-timestamp="UNIX"`` with ``data-time`` the clock text; XF1
    ``<abbr class="DateTime" data-time="UNIX">``. Then the ISO ``datetime`` (the viewer's
    offset, still one instant); last the printed text, in ``tz``, the zone the page was
    rendered in (:func:`adapters.xenforo.dates.viewer_zone`)."""
    if node is None:
        return None
    attrs = node.attributes
    try:
        for key in ("data-timestamp", "data-time"):
            value = (attrs.get(key) or "").strip()
            if _DIGITS.match(value) and len(value) <= 11:
                return datetime.fromtimestamp(int(value), UTC)
        instant = iso_utc(attrs.get("datetime"))
        if instant is not None:
            return instant
    except (ValueError, OverflowError, OSError):
        pass  # an instant no post has: read the text instead
    # XF1 titles «Oct 30, 2014 at 10:48 PM», Russian «16.06.17 в 14:51»; XenForo's relative
    # texts «Вчера в 21:42», «Понедельник в 18:00» (adapters/xenforo/dates.py).
    clock = attrs.get("data-time") or ""
    pair = " ".join(part for part in (
        attrs.get("data-date-string") or attrs.get("data-datestring")
        or attrs.get("data-date") or "",
        attrs.get("data-time-string") or attrs.get("data-timestring")
        or ("" if _DIGITS.match(clock) else clock)) if part)
    for text in (attrs.get("title") or "", pair, squash(node.text())):
        when = read_date_text(text, tz, now)
        if when is not None:
            return when
    return None


def date_in(container: Node | None) -> Node | None:
    """The date element inside ``container``."""
    if container is None:
        return None
    return container.css_first("time.u-dt, time[data-time], time[data-timestamp], "
                               "abbr.DateTime, span.DateTime, time")


# --------------------------------------------------------------------------- users

@dataclass(frozen=True, slots=True)
class User:
    name: str
    user_id: int | None


def user_of(link: Node | None, fallback: str = "") -> User:
    """A ``a.username``: its text and ``data-user-id`` (XF2) or the ``members/slug.ID/``
    href (XF1); guests and deleted users print a bare ``span.username`` (no id)."""
    if link is None:
        return User(fallback, None)
    name = squash(link.text()) or fallback
    uid = int_or_none(link.attributes.get("data-user-id"))
    if uid:  # guests: data-user-id="0"
        return User(name, uid)
    match = _MEMBER_ID.search(link.attributes.get("href") or "")
    return User(name, int(match.group(1)) if match else None)


__all__ = [
    "HINT_LOGIN", "HINT_URL", "Generation", "User", "absolute", "cookie_prefix", "csrf_token",
    "date_in",
    "error_text", "generation", "is_logged_in", "login_form",
    "raise_for_page", "reads_as_xenforo", "root_mark", "time_of", "user_of",
]

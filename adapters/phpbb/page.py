"""What every phpBB page shares: its bytes decoded, the error panels and login forms that
stand in for a page (gotcha 10: a login-required page is HTTP 200), users, links and dates."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Literal, NoReturn
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters import charset
from referee.core.errors import (
    AccessDenied,
    ForumError,
    LoginRequired,
    MalformedPage,
    PmRemoved,
    TopicNotFound,
)

PageKind = Literal["topic", "login", "message", "pm_folder", "pm", "posting_form", "unknown"]

_POST_ID = re.compile(r"^p(\d+)$")
_PM_POST_ID = re.compile(r"^post-(\d+)$")
_USER_ID = re.compile(r"[?&;]u=(\d+)")
# Profile links rewritten by SEO mods (phpBB SEO: «member58.html», «…-u58/»): unverified
# shapes, tried only when the link has no ``u=``.
_SEO_USER_ID = re.compile(r"(?:/|^|\.)member(\d+)\.html?\b|-u(\d+)(?:/|\.html?\b)")
_TOPIC_ID = re.compile(r"[?&;]t=(\d+)")
_MSG_ID = re.compile(r"[?&;]p=(\d+)")
_START = re.compile(r"[?&;]start=(\d+)")
_PAGE_OF = re.compile(r"(?:Страница|Page)\s+(\d+)\s+(?:из|of)\s+(\d+)", re.IGNORECASE)
_TOTAL = re.compile(
    r"(?:(\d+)\s+(?:сообщени[еяй]|posts?|messages?)\b)"
    r"|(?:(?:Сообщений|Всего сообщений|Posts|Messages)\s*:\s*(\d+))",
    re.IGNORECASE,
)
_JS_PER_PAGE = re.compile(r"var per_page\s*=\s*'(\d+)'")
_EDIT_RU = re.compile(
    r"Последний раз редактировалось\s+(?P<rest>.+?),\s*всего редактировалось\s+(?P<n>\d+)\s*раз"
)
_EDIT_EN = re.compile(r"Last edited by\s+(?P<rest>.+?),\s*edited\s+(?P<n>\d+)\s+times?\s+in total")

_HINT_URL = ("Проверьте адрес темы в referee.toml. Если форум не на phpBB или у него "
             "сильно изменённый стиль, сохраните страницу и передайте разработчикам.")
_HINT_LOGIN = ("Проверьте логин ведущего ([forum] username в referee.toml), его пароль "
               "(REFEREE_PASSWORD) и что у этой учётной записи есть доступ к форуму с игрой.")


def _norm(text: str) -> str:
    # str.split() knows every Unicode space (nbsp included) and is several times faster
    # than a regex here, on the hot path of every post.
    return " ".join(text.split())



# ---------------------------------------------------------------------------------------
# Bytes → text
# ---------------------------------------------------------------------------------------

_LANG = re.compile(r"<html[^>]*?\blang\s*=\s*[\"']?([A-Za-z-]+)", re.IGNORECASE)
_CYRILLIC_LANGS = ("ru", "uk", "be")
_CYRILLIC_UI = re.compile("Форум|Поиск|Пошук|Часовой пояс|Вход|Вхід|Ответить|Профиль|"
                          "Сообщени|Повідомлен|Страница|Сторінка|Выход|Вихід")
"""Words of the Russian (and Ukrainian) language pack that every phpBB page shows."""


def reads_as_phpbb(text: str) -> bool:
    """Whether decoded page text reads as phpBB markup in the board's language: a page
    that declares a Cyrillic language (``<html lang="ru">``) must show words of its
    language pack — under a wrong encoding they are the first to go."""
    lang = _LANG.search(text[:4096])
    if lang is None or not lang.group(1).lower().startswith(_CYRILLIC_LANGS):
        return True
    return _CYRILLIC_UI.search(text) is not None


def decode_page(content: bytes, content_type: str | None = None) -> str:
    """Page bytes → text for what is never stored (form answers, a saved file's kind): the
    right decoding (:mod:`adapters.charset`) when there is one, else the declared one with
    U+FFFD for bad bytes. Pages whose posts are stored go through
    :meth:`adapters.base.HttpClient.get_text` or :func:`decode_stored_page`, which never
    guess."""
    return charset.decode_lenient(content, content_type, reads_right=reads_as_phpbb)


def decode_stored_page(content: bytes, content_type: str | None = None) -> str:
    """Page bytes → text, or :class:`adapters.charset.Undecodable` when no encoding reads
    the page right (its posts must not be stored as mojibake)."""
    return charset.decide(content, content_type, reads_right=reads_as_phpbb)[0]


# ---------------------------------------------------------------------------------------

def _login_form_node(tree: LexborHTMLParser) -> Node | None:
    form = tree.css_first("form#login")
    if form is not None and form.css_first("input[type=password]") is not None:
        return form
    for form in tree.css("form"):
        # subsilver2 and 3.0 quick-login forms carry no id; the password box gives them away.
        if form.css_first("input[type=password]") is not None:
            return form
    return None


def _message_panel(tree: LexborHTMLParser) -> tuple[str, str] | None:
    """(title, text) of phpBB's information/error panel, if the page is one."""
    panel = tree.css_first("div#message")
    if panel is not None:
        title_node = panel.css_first("h2")
        title = _norm(title_node.text()) if title_node is not None else ""
        paragraphs = [_norm(p.text()) for p in panel.css("p")]
        text = " ".join(p for p in paragraphs if p) or _norm(panel.text())
        return title, text
    # subsilver2 message_body.html: table.tablebg > th (title) + td.row1 > p.gen (text).
    for cell in tree.css("table.tablebg td.row1 > p.gen"):
        table = _ancestor(cell, "table")
        title_node = table.css_first("th") if table is not None else None
        if title_node is not None:
            return _norm(title_node.text()), _norm(cell.text())
    return None


def _ancestor(node: Node, tag: str) -> Node | None:
    current = node.parent
    while current is not None and current.tag != tag:
        current = current.parent
    return current


def _raise_for_page(tree: LexborHTMLParser, url: str, expected: str) -> NoReturn:
    """Raise the error that explains why ``tree`` is not the ``expected`` page."""
    if _login_form_node(tree) is not None:
        raise LoginRequired(
            f"Форум показал форму входа вместо страницы ({expected}): {url}.", _HINT_LOGIN
        )
    panel = _message_panel(tree)
    if panel is not None:
        _raise_for_message(panel[1] or panel[0], url)
    raise MalformedPage(
        f"Страница {url} — не {expected} phpBB: не найдено ничего, что phpBB выводит "
        f"на такой странице.",
        _HINT_URL,
    )


_PM_REMOVED = re.compile(
    r"удален\w*\s+(?:его\s+)?автором|автор удалил это сообщение|removed by (?:the|its) author"
    r"|has been removed by its author",
    re.IGNORECASE,
)


def _raise_for_message(text: str, url: str) -> NoReturn:
    low = text.lower()
    if _PM_REMOVED.search(low):
        raise PmRemoved(
            f"Личное сообщение удалено автором до прочтения, его текст недоступен ({url}).",
            "Попросите игрока прислать ход заново.",
        )
    if "тем" in low and "не существует" in low or "topic does not exist" in low \
            or "no longer exists" in low or "больше не существует" in low \
            or "форума не существует" in low or "forum you selected does not exist" in low:
        raise TopicNotFound(f"Форум ответил: «{text}» ({url}).", _HINT_URL)
    if ("закрыт доступ" in low or "доступ к конференции закрыт" in low or "banned" in low
            or "ban has been issued" in low):
        raise AccessDenied(
            f"Учётная запись ведущего заблокирована на форуме: «{text}» ({url}).",
            "Обратитесь к администратору форума.",
        )
    if ("не авторизованы" in low or "not authorised" in low or "not authorized" in low
            or "нет доступа" in low or "not able to read" in low):
        raise AccessDenied(
            f"Форум не даёт учётной записи ведущего читать эту страницу: «{text}» ({url}).",
            "Проверьте, что ведущий вошёл под своей учётной записью и у неё есть права "
            "на чтение форума с игрой.",
        )
    raise ForumError(f"Форум ответил сообщением вместо страницы: «{text}» ({url}).")


# ---------------------------------------------------------------------------------------
# Users, links, dates
# ---------------------------------------------------------------------------------------


def user_id_of(href: str) -> int | None:
    """The user id of a profile link (``u=``, gotcha 7), or None."""
    match = _USER_ID.search(href)
    if match:
        return int(match.group(1))
    seo = _SEO_USER_ID.search(href)
    return int(seo.group(1) or seo.group(2)) if seo else None


def _is_profile_link(node: Node) -> bool:
    href = node.attributes.get("href") or ""
    if "mode=viewprofile" in href:
        return True
    # get_username_string() gives every member's link one of these classes (3.1+); an SEO
    # mod may have rewritten the address.
    classes = (node.attributes.get("class") or "").split()
    return bool(href) and ("username" in classes or "username-coloured" in classes)


def _user_in(container: Node, *, last: bool = False) -> tuple[str, int | None]:
    """Nick and user id from a phpBB ``get_username_string('full')`` rendering.

    Profile link (``u=`` is the identity, gotcha 7), or ``span.username`` for guests and
    deleted users (no id), or bare text (3.0 guests).
    """
    # Fast path: phpBB prints the profile link as a direct child (strong > a.username).
    links = [a for a in container.iter() if a.tag == "a" and _is_profile_link(a)
             and _norm(a.text())]
    if not links:
        links = [a for a in container.css("a[href]") if _is_profile_link(a) and _norm(a.text())]
    if links:
        link = links[-1] if last else links[0]
        return _norm(link.text()), user_id_of(link.attributes.get("href") or "")
    span = container.css_first("span.username, span.username-coloured")
    if span is not None:
        return _norm(span.text()), None
    return _norm(container.text()), None


def users_among(nodes: list[Node]) -> list[tuple[str, int | None]]:
    """The users named by ``nodes`` (links, ``span.username``), in order: PM headers and
    folder rows."""
    found: list[tuple[str, int | None]] = []
    for node in nodes:
        if node.tag == "a":
            # Group recipients (3.0) link to memberlist.php?mode=group: a name, no user id.
            found.append((_norm(node.text()), user_id_of(node.attributes.get("href") or "")))
        elif node.tag == "span" and any(
            c in (node.attributes.get("class") or "") for c in ("username", "username-coloured")
        ):
            found.append((_norm(node.text()), None))
        elif node.tag not in ("-text", "br", "-comment"):
            found.extend(users_among(list(node.iter(include_text=False))))
    return [(name, uid) for name, uid in found if name]


def _abs_url(base: str, href: str, *, drop_sid: bool = False) -> str:
    url = urljoin(base, href)
    if drop_sid and "sid=" in url:
        # Navigation links: the session travels in the cookie; a sid would only make
        # equal pages look different.
        parts = urlsplit(url)
        query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "sid"]
        url = urlunsplit(parts._replace(query=urlencode(query)))
    return url


def _iso_utc(value: str) -> datetime | None:
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        if parsed.tzinfo is None:
            return None
        return parsed.astimezone(UTC)
    except (ValueError, OverflowError):  # «9999-12-31T23:59:59-12:00» is no clock
        return None


def _text_after(container: Node, marker: str) -> str:
    full = _norm(container.text())
    if marker and marker in full:
        return full.split(marker, 1)[1].strip()
    return full

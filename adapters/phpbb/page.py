"""What every phpBB page shares: its bytes decoded, the error panels and login forms that
stand in for a page (gotcha 10: a login-required page is HTTP 200), users, links and dates,
what every post layout shares once its parts are found (its date text read whatever a
style printed around it, the edit notice), and where a page sits among its
pages (topics and PM folders)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal, NoReturn
from urllib.parse import urljoin
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters import charset
from adapters.base import strip_sid
from adapters.form import find_form
from adapters.html import classes, int_or_none, squash
from adapters.paging import Place, page_size, read_index
from adapters.post_parts import edit_of
from referee.core.dates import parse_forum_date
from referee.core.errors import (
    AccessDenied,
    DateParseError,
    ForumError,
    LoginRequired,
    MalformedPage,
    PmRemoved,
    TopicNotFound,
)
from referee.core.kernel import EditNotice

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


# ---------------------------------------------------------------------------------------
# Bytes → text
# ---------------------------------------------------------------------------------------

reads_as_phpbb = charset.reads_in_language(
    ('lang="ru', 'lang="uk', 'lang="be'),
    ("Форум", "Поиск", "Пошук", "Часовой пояс", "Вход", "Вхід", "Ответить", "Профиль",
     "Сообщени", "Повідомлен", "Страница", "Сторінка", "Выход", "Вихід"))
"""Whether decoded page text reads as phpBB markup in the board's language: a page that
declares a Cyrillic language (``<html lang="ru">``, ``"ru-ru"`` in subsilver2) must show
words of its language pack (Russian or Ukrainian) that every phpBB page shows — under a
wrong encoding they are the first to go."""


def decode_page(content: bytes, content_type: str | None = None) -> str:
    """Page bytes → text for what is never stored (form answers, a saved file's kind): the
    right decoding (:mod:`adapters.charset`) when there is one, else the declared one with
    U+FFFD for bad bytes. Pages whose posts are stored go through
    :meth:`adapters.base.HttpClient.get_text`, which never guesses."""
    return charset.decode_lenient(content, content_type, reads_right=reads_as_phpbb)


# ---------------------------------------------------------------------------------------

def _login_form_node(tree: LexborHTMLParser) -> Node | None:
    # subsilver2 and 3.0 quick-login forms carry no id; the password box gives them away.
    return find_form(tree, "form#login", holding="input[type=password]") or find_form(
        tree, holding="input[type=password]")


def _message_panel(tree: LexborHTMLParser) -> tuple[str, str] | None:
    """(title, text) of phpBB's information/error panel, if the page is one."""
    panel = tree.css_first("div#message")
    if panel is not None:
        title = text_of(panel.css_first("h2"))
        paragraphs = [squash(p.text()) for p in panel.css("p")]
        text = " ".join(p for p in paragraphs if p) or squash(panel.text())
        return title, text
    # subsilver2 message_body.html: table.tablebg > th (title) + td.row1 > p.gen (text).
    for cell in tree.css("table.tablebg td.row1 > p.gen"):
        table = _ancestor(cell, "table")
        title_node = table.css_first("th") if table is not None else None
        if title_node is not None:
            return squash(title_node.text()), squash(cell.text())
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
    return bool(href) and not classes(node).isdisjoint(("username", "username-coloured"))


def _user_in(container: Node, *, last: bool = False) -> tuple[str, int | None]:
    """Nick and user id from a phpBB ``get_username_string('full')`` rendering.

    Profile link (``u=`` is the identity, gotcha 7), or ``span.username`` for guests and
    deleted users (no id), or bare text (3.0 guests).
    """
    links = [a for a in container.css("a[href]") if _is_profile_link(a) and squash(a.text())]
    if links:
        link = links[-1] if last else links[0]
        return squash(link.text()), user_id_of(link.attributes.get("href") or "")
    return text_of(container.css_first("span.username, span.username-coloured") or container), None


def users_among(nodes: list[Node]) -> list[tuple[str, int | None]]:
    """The users named by ``nodes`` (links, ``span.username``), in order: PM headers and
    folder rows."""
    found: list[tuple[str, int | None]] = []
    for node in nodes:
        if node.tag == "a":
            # Group recipients (3.0) link to memberlist.php?mode=group: a name, no user id.
            found.append((squash(node.text()), user_id_of(node.attributes.get("href") or "")))
        elif node.tag == "span" and "username" in (node.attributes.get("class") or ""):
            found.append((squash(node.text()), None))
        elif node.tag not in ("-text", "br", "-comment"):
            found.extend(users_among(list(node.iter(include_text=False))))
    return [(name, uid) for name, uid in found if name]


def account(tree: LexborHTMLParser) -> tuple[str, int | None]:
    """The name and id of the account the page was rendered for ("" and None for a guest):
    the header's ``li#username_logged_in`` (3.1+: the name in ``.username``, the id in its
    profile link), else 3.0's «Выход [ Nick ]» / «Logout [ Nick ]» (a name, no id)."""
    header = "li#username_logged_in "
    name = text_of(tree.css_first(f"{header}.username, {header}.username-coloured"))
    profile = tree.css_first(f'{header}a[href*="mode=viewprofile"]')
    uid = user_id_of(profile.attributes.get("href") or "") if profile is not None else None
    logout = tree.css_first('a[href*="mode=logout"]')
    if not name and logout is not None:
        match = re.search(r"\[\s*(.+?)\s*\]", squash(logout.text()))
        name = match.group(1) if match else ""
    return name, uid


def _abs_url(base: str, href: str) -> str:
    # Without the sid: the session travels in the cookie; a sid would only make equal
    # pages look different.
    return strip_sid(urljoin(base, href))


def text_of(node: Node | None) -> str:
    """The element's text as a reader sees it ("" for no element)."""
    return squash(node.text()) if node is not None else ""


def _text_after(container: Node, marker: str) -> str:
    full = squash(container.text())
    if marker and marker in full:
        return full.split(marker, 1)[1].strip()
    return full


# ---------------------------------------------------------------------------------------
# Posts: their dates and edit notices
# ---------------------------------------------------------------------------------------

# A post's number printed next to its date: Post Numbers («#5»), styles' permalinks
# («Сообщение #5», «№ 5»).
_POST_NUMBER = re.compile(r"(?:(?:Сообщение|Post|Message)\s*)?(?:#|№)\s*\d+", re.IGNORECASE)
_PIECES = re.compile(r"\s*[|•·»]\s*")
_TRIM = " \t-–—,:;»|•·[]()"


def date_candidates(text: str) -> list[str]:
    """The texts a post's date may be in ``text``: the text itself, then without a post
    number, then each piece between separators (the last piece first: the date closes the
    author line)."""
    bare = _POST_NUMBER.sub(" ", text)
    found = (squash(c).strip(_TRIM) for c in (text, bare, *reversed(_PIECES.split(bare))))
    return [candidate for candidate in dict.fromkeys(found) if candidate]


def read_date(texts: list[str], what: str, tz: ZoneInfo, now: datetime) -> datetime:
    """The first of ``texts`` (or of their :func:`date_candidates`) that reads as a date;
    MalformedPage naming ``what`` and the text when none does."""
    hint = ""
    for text in texts:
        for candidate in date_candidates(text):
            try:
                return parse_forum_date(candidate, tz=tz, now=now)
            except DateParseError as error:
                hint = hint or error.hint
    shown = next((t for t in texts if t.strip()), "")
    if not shown:
        raise MalformedPage(f"{what}: не найдена дата.", hint or None)
    raise MalformedPage(f"{what}: не удалось разобрать дату «{squash(shown)}».", hint or None)


def listed_time(text: str, tz: ZoneInfo, now: datetime) -> datetime | None:
    """A PM folder row's date, best effort (the message itself has the one that counts)."""
    try:
        return parse_forum_date(text, tz=tz, now=now) if text else None
    except DateParseError:
        return None


def row_pm_id(row: Node, href: str = "", *, any_link: bool = False) -> int | None:
    """A PM folder row's message id: ``href``'s ``p=``, the row's ``marked_msg_id[]``
    checkbox, or (``any_link``) any link of the row with ``p=``."""
    box = row.css_first('input[name="marked_msg_id[]"]')
    links = row.css("a[href]") if any_link else []
    found = (msg_id(href), int_or_none(box.attributes.get("value")) if box is not None else None,
             *(msg_id(link.attributes.get("href") or "") for link in links))
    return next((pm_id for pm_id in found if pm_id is not None), None)


def msg_id(address: str) -> int | None:
    """The post or message an address names (``p=``)."""
    match = _MSG_ID.search(address)
    return int(match.group(1)) if match else None


def first_edit(nodes: list[Node], tz: ZoneInfo, now: datetime) -> EditNotice | None:
    """The edit notice among a post's notices (:func:`edit_notice`), if any."""
    return next((e for n in nodes if (e := edit_notice(n, tz, now)) is not None), None)


def edit_notice(node: Node, tz: ZoneInfo, now: datetime) -> EditNotice | None:
    """«Последний раз редактировалось X 22 ноя 2026, 14:26, всего редактировалось 1 раз.»

    Also «Last edited by X on …, edited N times in total.» Edits are often silent
    (gotcha 5), so a missing notice proves nothing; the date is best effort.
    """
    text = squash(node.text())
    match = _EDIT_RU.search(text) or _EDIT_EN.search(text)
    if match is None:
        return None
    rest = match.group("rest")
    editor_node = node.css_first("a, span.username, span.username-coloured")
    named = text_of(editor_node)
    candidates = [(named, rest.split(named, 1)[1])] if named and named in rest else []
    if " on " in rest:
        editor, date_text = rest.rsplit(" on ", 1)
        candidates.append((editor, date_text))
    words = rest.split(" ")
    candidates.extend((" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words)))
    splits = ((editor, re.sub(r"^\s*on\s+", "", date_text).strip())
              for editor, date_text in candidates)
    return edit_of(splits, lambda text: parse_forum_date(text, tz=tz, now=now),
                   editor=named if editor_node is not None else rest, count=int(match["n"]))


# ---------------------------------------------------------------------------------------
# Where a page sits among its pages (topics and PM folders)
# ---------------------------------------------------------------------------------------

PAGINATION_BOXES = "div.pagination, li.pagination, td.nav"


def pagination(tree: LexborHTMLParser, html: str, url: str,
               boxes: list[Node] | None = None) -> Place:
    """Page number, page count, page size (None when the board printed none) and next
    link, from whatever the page printed: README.md, «Pagination»."""
    containers = list(tree.css(PAGINATION_BOXES) if boxes is None else boxes)
    # prosilver keeps everything inside div.pagination; only subsilver2 needs the (costly,
    # whole-page) search for its scattered jump links.
    scattered = not any(c.tag in ("div", "li") for c in containers)
    for jump in tree.css('a[onclick*="jumpto"]') if scattered else ():
        # subsilver2 spreads one pagination over a table row: td.nav «Страница 2 из 3»,
        # td.gensmall «[ Сообщений: 25 ]» and the links.
        row = _ancestor(jump, "tr")
        if row is not None and row.css_first("div.postbody, div.content") is None:
            containers.append(row)
        elif jump.parent is not None:
            containers.append(jump.parent)
    # 3.1+ shows the page as li.active span; 3.0 as a bare <strong> between the links.
    index = read_index(containers, here="li.active span, span > strong")
    per_page = _per_page(containers, html, index.links)
    current = index.current
    if current is None:
        start = _START.search(url)
        current = int(start.group(1)) // per_page + 1 if start and per_page else 1
    next_href = index.next_of(current)
    next_url = _abs_url(url, next_href) if next_href else None
    return Place(current, index.last(current), per_page, _items(containers), next_url)


def _items(containers: list[Node]) -> int | None:
    """The item count printed beside the index: «70 сообщений», «Сообщений: 36»."""
    for box in containers:
        # A separator between elements: a minified page has no whitespace between
        # «70 сообщений» and the links.
        match = _TOTAL.search(squash(box.text(separator=" ")))
        if match:
            return int(match.group(1) or match.group(2))
    return None


def _per_page(containers: list[Node], html: str, links: dict[int, str]) -> int | None:
    # The page-jump box (3.1+, more than 6 pages) sits inside div.pagination.
    for box in containers:
        marked = box.css_first("[data-per-page]")
        if marked is not None and (marked.attributes.get("data-per-page") or "").isdigit():
            return int(marked.attributes["data-per-page"] or 0) or None
    # Page N's link starts at (N-1)·size.
    size = page_size({number: int(start.group(1)) if (start := _START.search(href)) else 0
                      for number, href in links.items()})
    if size is None and (script := _JS_PER_PAGE.search(html)):
        size = int(script.group(1)) or None
    return size

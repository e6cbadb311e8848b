"""XenForo thread pages → :class:`referee.kernel.TopicPage`. Pure: HTML text in.

XenForo 2 (``article.message--post``) and XenForo 1 (``li.message``) markup; the facts and
where each was verified are in ``adapters/xenforo/README.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters.xenforo.address import parse_thread_url, route_of
from adapters.xenforo.body import normalise_body
from adapters.xenforo.page import (
    HINT_URL,
    User,
    csrf_token,
    date_in,
    generation,
    is_logged_in,
    norm,
    raise_for_page,
    time_of,
    user_of,
)
from referee.errors import ConfigError, MalformedPage
from referee.kernel import EditNotice, Post, TopicPage

DEFAULT_PER_PAGE = 20
"""XenForo's «Messages per page» default (XF1 and XF2); the pages themselves tell the
board's own value whenever there is more than one."""

_POST_ID = re.compile(r"^(?:js-)?post-(\d+)$")
_POSITION = re.compile(r"#\s*(\d[\d\s.,\u00a0\u202f]*)")
_PAGE_IN_ROUTE = re.compile(r"/page-(\d+)")
_PAGE_OF = re.compile(r"(\d+)\s*(?:of|из|/)\s*(\d+)", re.IGNORECASE)
_MODERATOR = ("модератор", "moderator")


@dataclass(frozen=True, slots=True)
class ThreadView:
    """One thread page as the client needs it: the kernel page and what the page says
    about the board (its canonical address, the session, the form token)."""

    page: TopicPage
    canonical: str | None
    logged_in: bool
    token: str | None


@dataclass(frozen=True, slots=True)
class _RawPost:
    post_id: int
    author: str
    author_id: int | None
    posted_at: datetime
    body: Node
    edit: EditNotice | None
    number: int | None
    """The post's place in the whole thread («#12»), when the page prints it."""


def _post_id(node: Node) -> int | None:
    for key in ("data-content", "id"):
        match = _POST_ID.match(node.attributes.get(key) or "")
        if match:
            return int(match.group(1))
    return None


def _number(node: Node | None) -> int | None:
    if node is None:
        return None
    for link in node.css("a, li, span"):
        match = _POSITION.search(link.text() or "")
        if match:
            digits = re.sub(r"\D", "", match.group(1))
            return int(digits) if digits else None
    return None


def _edit_notice(box: Node | None, author: str, tz: ZoneInfo, now: datetime) -> EditNotice | None:
    """«Последнее редактирование: <time>» (XF2 ``div.message-lastEdit``, XF1
    ``div.editDate``); «… модератором:» when a moderator edited it. XenForo prints no edit
    count: one notice is one known edit."""
    if box is None:
        return None
    text = norm(box.text()).lower()
    editor = "модератор" if any(m in text for m in _MODERATOR) else author
    return EditNotice(editor=editor, edited_at=time_of(date_in(box), tz, now), count=1)


def _when(node: Node | None, pid: int, url: str, tz: ZoneInfo, now: datetime) -> datetime:
    when = time_of(date_in(node), tz, now)
    if when is None:
        shown = norm(node.text()) if node is not None else ""
        raise MalformedPage(
            f"Сообщение {pid} на странице {url}: не удалось прочитать время «{shown[:60]}».",
            HINT_URL)
    return when


def _xf2_post(node: Node, pid: int, url: str, tz: ZoneInfo, now: datetime) -> _RawPost:
    fallback = node.attributes.get("data-author") or ""
    link = node.css_first(".message-name a.username, .message-userDetails a.username")
    user = user_of(link or node.css_first(".message-name .username"), fallback)
    if user.user_id is None:
        # The avatar link carries the id too (guests and deleted members have neither).
        avatar = user_of(node.css_first(".message-avatar a[data-user-id]"))
        user = User(user.name, avatar.user_id)
    if not user.name:
        raise MalformedPage(f"Сообщение {pid} на странице {url}: не найден автор.", HINT_URL)
    header = node.css_first("header.message-attribution, .message-attribution")
    body = node.css_first(".message-body .bbWrapper") or node.css_first(".message-body")
    if body is None:
        raise MalformedPage(
            f"Сообщение {pid} на странице {url}: нет текста сообщения (.bbWrapper).", HINT_URL)
    posted_at = _when(header, pid, url, tz, now)
    edit = _edit_notice(node.css_first("div.message-lastEdit"), user.name, tz, now)
    number = _number(node.css_first(".message-attribution-opposite"))
    return _RawPost(pid, user.name, user.user_id, posted_at, body, edit, number)


def _xf1_post(node: Node, pid: int, url: str, tz: ZoneInfo, now: datetime) -> _RawPost:
    fallback = node.attributes.get("data-author") or ""
    user = user_of(node.css_first(".messageUserInfo a.username, .userText a.username"),
                   fallback)
    if not user.name:
        raise MalformedPage(f"Сообщение {pid} на странице {url}: не найден автор.", HINT_URL)
    body = node.css_first("blockquote.messageText")
    if body is None:
        raise MalformedPage(
            f"Сообщение {pid} на странице {url}: нет текста сообщения (.messageText).",
            HINT_URL)
    meta = node.css_first(".messageMeta .datePermalink") or node.css_first(".messageMeta")
    posted_at = _when(meta, pid, url, tz, now)
    edit = _edit_notice(node.css_first("div.editDate"), user.name, tz, now)
    number = _number(node.css_first(".messageMeta .publicControls")
                     or node.css_first(".postNumber"))
    return _RawPost(pid, user.name, user.user_id, posted_at, body, edit, number)


def _posts(tree: LexborHTMLParser, url: str, tz: ZoneInfo, now: datetime) -> list[_RawPost]:
    found: list[_RawPost] = []
    for node in tree.css("article.message--post"):
        pid = _post_id(node)
        if pid is not None:
            found.append(_xf2_post(node, pid, url, tz, now))
    if found:
        return found
    for node in tree.css("li.message"):
        classes = (node.attributes.get("class") or "").split()
        pid = _post_id(node)
        # A deleted post shown to a moderator is a placeholder without its text.
        if pid is not None and "deleted" not in classes:
            found.append(_xf1_post(node, pid, url, tz, now))
    return found


# --------------------------------------------------------------------------- pagination

@dataclass(frozen=True, slots=True)
class Pages:
    page: int
    total: int


def pages_of(tree: LexborHTMLParser, url: str) -> Pages:
    """The page shown and the page count: XF2 ``.pageNav`` (``pageNav-page--current``,
    the last numbered page), its ``pageNavSimple`` «N of M»; XF1 ``div.PageNav[data-page]
    [data-last]``; else the ``page-N`` of the canonical address (one page: 1 of 1)."""
    nav = tree.css_first("div.PageNav[data-page]")
    if nav is not None:
        page = int(nav.attributes.get("data-page") or 1)
        return Pages(page, max(page, int(nav.attributes.get("data-last") or page)))
    current: int | None = None
    total = 1
    for box in tree.css(".pageNav"):
        here = box.css_first(".pageNav-page--current")
        if here is not None and norm(here.text()).isdigit():
            current = current or int(norm(here.text()))
        for item in box.css(".pageNav-page"):
            label = norm(item.text())
            if label.isdigit():
                total = max(total, int(label))
    if current is None:
        simple = tree.css_first(".pageNavSimple-el--current")
        match = _PAGE_OF.search(norm(simple.text())) if simple is not None else None
        if match:
            current, total = int(match.group(1)), max(total, int(match.group(2)))
    if current is None:
        current = _page_in(canonical_url(tree) or url)
    return Pages(current, max(total, current))


def _page_in(url: str) -> int:
    try:
        route = route_of(url)
    except ConfigError:
        return 1
    match = _PAGE_IN_ROUTE.search("/" + route)
    return int(match.group(1)) if match else 1


def canonical_url(tree: LexborHTMLParser) -> str | None:
    node = tree.css_first('link[rel="canonical"]') or tree.css_first('meta[property="og:url"]')
    if node is None:
        return None
    return node.attributes.get("href") or node.attributes.get("content") or None


def per_page_of(pages: Pages, posts: list[_RawPost]) -> int:
    """The board's posts a page: a page before the last is full; on a later page the first
    post's number tells it (post #41 opens page 3 of 20-post pages)."""
    if posts and pages.page > 1 and posts[0].number:
        before = posts[0].number - 1
        if before > 0 and before % (pages.page - 1) == 0:
            return before // (pages.page - 1)
    if posts and pages.page < pages.total:
        return len(posts)
    return DEFAULT_PER_PAGE


def _title(tree: LexborHTMLParser) -> str:
    node = tree.css_first("h1.p-title-value") or tree.css_first(".titleBar h1")
    if node is not None:
        return norm(node.text())
    title = tree.css_first("title")
    return norm(title.text()).rsplit("|", 1)[0].strip() if title is not None else ""


def _thread_id(tree: LexborHTMLParser, url: str) -> int | None:
    for source in (canonical_url(tree), url):
        if not source:
            continue
        try:
            _, thread = parse_thread_url(source)
        except ConfigError:
            continue
        if thread is not None:
            return thread.thread_id
    return None


def read_thread_page(html: str, *, url: str, tz: ZoneInfo, now: datetime) -> ThreadView:
    """One thread page: its posts in page order and where the page sits in the thread.

    ``tz`` is the zone the page was rendered in (used only where XenForo printed no machine
    time, XF1's older posts); ``now`` the fetch time («Сегодня в …»). Raises
    :class:`LoginRequired`, :class:`TopicNotFound`, :class:`AccessDenied`,
    :class:`MalformedPage` when the page is not a readable thread page."""
    tree = LexborHTMLParser(html)
    raw = _posts(tree, url, tz, now)
    if not raw:
        raise_for_page(tree, url, "страница темы")
    pages = pages_of(tree, url)
    topic_id = _thread_id(tree, url)
    posts = []
    for index, r in enumerate(raw, start=1):
        body_html, body_text = normalise_body(r.body)
        posts.append(Post(
            post_id=r.post_id, author=r.author, author_id=r.author_id, posted_at=r.posted_at,
            body_html=body_html, body_text=body_text, page=pages.page, position=index,
            topic_id=topic_id, edit=r.edit,
        ))
    last = raw[-1].number if pages.page >= pages.total else None
    page = TopicPage(
        topic_id=topic_id, title=_title(tree), page=pages.page, total_pages=pages.total,
        per_page=per_page_of(pages, raw), posts=tuple(posts), total_posts=last,
    )
    return ThreadView(page, canonical_url(tree), is_logged_in(tree), csrf_token(tree))


def parse_topic_page(html: str, *, url: str, tz: ZoneInfo, now: datetime) -> TopicPage:
    """:func:`read_thread_page`'s kernel page."""
    return read_thread_page(html, url=url, tz=tz, now=now).page


def is_thread_page(html: str) -> bool:
    tree = LexborHTMLParser(html)
    return generation(tree) is not None and bool(
        tree.css_first("article.message--post") or tree.css_first("li.message"))


__all__ = ["DEFAULT_PER_PAGE", "Pages", "ThreadView", "canonical_url", "is_thread_page",
           "pages_of", "parse_topic_page", "per_page_of", "read_thread_page"]

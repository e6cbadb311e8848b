"""XenForo thread pages → :class:`referee.core.kernel.TopicPage`. Pure: HTML text in.

The posts themselves are read by :mod:`.posts`; this module places the page in the thread
(pagination, the board's page size, the first post pinned above later pages) and names it.
The facts and where each was verified are in ``adapters/xenforo/README.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, tzinfo

from selectolax.lexbor import LexborHTMLParser

from adapters.address import or_none
from adapters.html import squash
from adapters.paging import Place, page_size, read_index
from adapters.post_parts import post, topic_page
from adapters.xenforo.body import normalise_body
from adapters.xenforo.dates import viewer_zone
from adapters.xenforo.page import (
    HINT_URL,
    csrf_token,
    generation,
    is_logged_in,
    raise_for_page,
)
from adapters.xenforo.posts import RawPost, looks_like_posts, read_posts
from adapters.xenforo.urls import parse_thread_url, route_of
from referee.core.errors import MalformedPage
from referee.core.kernel import TopicPage

DEFAULT_PER_PAGE = 20
"""XenForo's «Messages per page» default (XF1 and XF2); the pages themselves tell the
board's own value whenever there is more than one."""

_PAGE_IN_ROUTE = re.compile(r"/page-(\d+)")
_PAGE_OF = re.compile(r"(\d+)\s*(?:of|из|/)\s*(\d+)", re.IGNORECASE)
_PAGE_IN_TITLE = re.compile(r"\s*[-|–]\s*(?:Страница|Page)\s+\d+\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ThreadView:
    """One thread page as the client needs it: the kernel page and what the page says
    about the board (its canonical address, the session, the form token)."""

    page: TopicPage
    canonical: str | None
    logged_in: bool
    token: str | None


def own_posts(raw: list[RawPost], page: int) -> list[RawPost]:
    """The page's own posts. After the first page, the thread's first post shown again
    above the list is not one of them: XF 2.2+ pins it for question, suggestion and
    article threads (``thread_view`` ``isFirstPostPinned``) in a block of its own, add-ons
    print it in the list, where its «#1» before a later number gives it away (a style
    numbering posts per page would print «#1», «#2»…: those stay)."""
    if page <= 1:
        return raw
    own = []
    for index, r in enumerate(raw):
        after = raw[index + 1].number if index + 1 < len(raw) else None
        if r.listed and not (r.number == 1 and after != 2):
            own.append(r)
    return own or raw


# --------------------------------------------------------------------------- pagination

def pages_of(tree: LexborHTMLParser, url: str) -> Place:
    """The page shown and the page count: XF2 ``.pageNav`` (``pageNav-page--current``,
    the last numbered page), its ``pageNavSimple`` «N of M»; XF1 ``div.PageNav[data-page]
    [data-last]``; else the ``page-N`` of the canonical address (one page: 1 of 1)."""
    nav = tree.css_first("div.PageNav[data-page]")
    if nav is not None:
        page = _count(nav.attributes.get("data-page"), 1)
        return Place(page, max(page, _count(nav.attributes.get("data-last"), page)))
    # The last page is always listed; «…» stands for the pages skipped.
    index = read_index(tree.css(".pageNav, .pageNavSimple-el--current"), links=".pageNav-page",
                       here=".pageNav-page--current", page_of=_PAGE_OF,
                       number=lambda item: _count(squash(item.text()), 0) or None)
    current = index.current or _page_in(canonical_url(tree) or url)
    return Place(current, index.last(current))


def _count(value: str | None, default: int) -> int:
    text = (value or "").strip()
    return int(text) if text.isdigit() and 0 < len(text) <= 6 and int(text) > 0 else default


def _page_in(url: str) -> int:
    route = or_none(route_of, url)
    match = _PAGE_IN_ROUTE.search("/" + route) if route is not None else None
    return int(match.group(1)) if match else 1


def canonical_url(tree: LexborHTMLParser) -> str | None:
    node = tree.css_first('link[rel="canonical"]') or tree.css_first('meta[property="og:url"]')
    if node is None:
        return None
    return node.attributes.get("href") or node.attributes.get("content") or None


def per_page_of(pages: Place, posts: list[RawPost]) -> int:
    """The board's posts a page: a page before the last is full; on a later page the first
    post's number tells it (post #41 opens page 3 of 20-post pages)."""
    if posts and posts[0].number and (size := page_size({pages.page: posts[0].number - 1})):
        return size
    if posts and pages.page < pages.total:
        return len(posts)
    return DEFAULT_PER_PAGE


def _title(tree: LexborHTMLParser) -> str:
    """The thread's title without its prefix label (XF2 ``span.label`` +
    ``span.label-append``, XF1 ``span.prefix``), which XenForo prints inside the h1."""
    node = tree.css_first("h1.p-title-value") or tree.css_first(".titleBar h1")
    if node is not None:
        for label in node.css(".label, .label-append, .prefix"):
            label.decompose()
        return squash(node.text())
    title = tree.css_first("title")
    if title is None:
        return ""
    # «Мафия №119 - Страница 2 | Мафия-клуб» (XF2 title_page_x), «… | Page 54 | …» (XF1).
    text = squash(title.text()).rsplit("|", 1)[0].strip()
    return _PAGE_IN_TITLE.sub("", text).strip()


def _thread_id(tree: LexborHTMLParser, url: str) -> int | None:
    for source in (canonical_url(tree), url):
        found = or_none(parse_thread_url, source) if source else None
        if found is not None and found[1] is not None:
            return found[1].thread_id
    return None


def read_thread_page(html: str, *, url: str, tz: tzinfo, now: datetime) -> ThreadView:
    """One thread page: its posts in page order and where the page sits in the thread.

    ``tz`` is the board's zone ([forum] timezone); a date XenForo printed as text only is
    read in the zone the page says it was rendered in (:func:`.dates.viewer_zone`: the
    host's, or the board's default for a guest). ``now`` is the fetch time («Сегодня в …»).
    Raises :class:`LoginRequired`, :class:`TopicNotFound`, :class:`AccessDenied`,
    :class:`MalformedPage` (in Russian, naming what is missing) when the page is not a
    readable thread page."""
    tree = LexborHTMLParser(html)
    raw = read_posts(tree, url, viewer_zone(tree, tz), now)
    if not raw:
        if generation(tree) is not None and looks_like_posts(tree):
            raise MalformedPage(
                f"На странице {url} есть сообщения XenForo, но ни у одного нет номера "
                '(data-content="post-N" или id="post-N").', HINT_URL)
        raise_for_page(tree, url, "страница темы")
    pages = pages_of(tree, url)
    raw = own_posts(raw, pages.page)
    posts = [post(r.post_id, (r.author, r.author_id), r.posted_at, normalise_body(r.body),
                  r.edit) for r in raw]
    last = raw[-1].number if pages.page >= pages.total else None
    page = topic_page(pages, posts, topic_id=_thread_id(tree, url), title=_title(tree),
                      per_page=per_page_of(pages, raw), total_posts=last)
    return ThreadView(page, canonical_url(tree), is_logged_in(tree), csrf_token(tree))


def parse_topic_page(html: str, *, url: str, tz: tzinfo, now: datetime) -> TopicPage:
    """:func:`read_thread_page`'s kernel page."""
    return read_thread_page(html, url=url, tz=tz, now=now).page


__all__ = ["DEFAULT_PER_PAGE", "ThreadView", "canonical_url",
           "own_posts", "pages_of", "parse_topic_page", "per_page_of", "read_thread_page"]

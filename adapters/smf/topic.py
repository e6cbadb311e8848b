"""SMF 2.0 and 2.1 topic pages → :class:`referee.core.kernel.TopicPage`: the posts (authors, times,
reply numbers, edit notices), their bodies made engine-neutral (2.0's quote headers and
both versions' code boxes) and the page index. Pure: HTML in, values out. Facts and their
sources (2.1 Curve2 real pages, 2.0 Curve its templates): README.md («Topic pages»).
"""

from __future__ import annotations

import html
import re
from datetime import datetime
from urllib.parse import urljoin
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborNode as Node

from adapters.html import fragment, next_element, squash
from adapters.paging import Place, page_size, read_index
from adapters.post_parts import edit_of, post, topic_page
from adapters.smf.page import SmfPage
from adapters.smf.urls import SESSION, query_params, strip_session, topic_start
from referee.core.dates import parse_forum_date
from referee.core.errors import DateParseError, MalformedPage
from referee.core.kernel import EditNotice, Post, TopicPage
from referee.core.markup import plain_text

__all__ = ["normalise_body", "parse_topic_page", "place", "post_blocks", "poster_of",
           "read_edit_notice"]

_TEXT_ID = re.compile(r"^msg_(\d+)$")
_USER_ID = re.compile(r"[?;&]u=(\d+)")
_REPLY_NO = re.compile(r"#\s*(\d+)")
# SMF 2.0 wraps the time: «« Ответ #12 : 26 ноября 2026, 23:02 »» (the Russian pack's
# $txt['on'] is empty), the English «« Reply #12 on: … »», the first post «« on: … »».
_TIME_FRAME = re.compile(
    r"^[«\s]*(?:(?:Ответ|Reply)\s*#\s*\d+)?\s*(?:on\b)?\s*:?\s*|[\s»]*$", re.IGNORECASE)
_EXPAND = re.compile(r"expandPages\(this,\s*'([^']*)',\s*(\d+),\s*(\d+),\s*(\d+)\)")
_HINT = ("откройте страницу в браузере: если это тема SMF, сохраните её (Ctrl+S) и "
         "передайте разработчикам — её оформление (тема) незнакомо referee")


def parse_topic_page(html: str, *, url: str, tz: ZoneInfo, now: datetime) -> TopicPage:
    """One topic page. ``now`` anchors «Сегодня»/«Вчера» when the page shows no clock of
    its own; ``tz`` is the zone the board prints in (checked against the page's clock)."""
    page = SmfPage(html, url)
    posts_box = page.tree.css_first("#forumposts")
    if posts_box is None:
        page.raise_for_page("тему", "страница темы",
                            missing="списка сообщений (div#forumposts)")
    page.check_zone(tz)
    anchor = page.now(now)
    topic_id, title = _topic(page, url)
    links, _ = place(page.content().css_first("div.pagelinks"), url, _current_start(page, url))
    nodes = post_blocks(posts_box)
    if not nodes:
        # A topic page always shows at least one post: an empty reading would silently
        # lose every vote of the page.
        raise MalformedPage(
            f"на странице темы {strip_session(url)} не найдено ни одного сообщения: нет "
            "текстов сообщений (div.inner с id=\"msg_N\") рядом с автором (div.poster)",
            _HINT)
    posts = [_post(node, pid, tz, anchor) for pid, node in nodes]
    _check_order(posts, url)
    per_page = links.per_page or (len(posts) if links.total == 1 else None)
    total_posts = None
    if links.page >= links.total and per_page:
        total_posts = (links.page - 1) * per_page + len(posts)
    return topic_page(links, (p for p, _ in posts), topic_id=topic_id, title=title,
                      per_page=per_page or 0, total_posts=total_posts)


def post_blocks(box: Node) -> list[tuple[int, Node]]:
    """Each post's id and block, in page order: the block is the nearest element around
    the post's text ``div#msg_{ID}`` that also holds ``div.poster`` (2.1's
    ``div.windowbg#msg{ID}`` has an id, 2.0's ``div.windowbg2`` has none)."""
    found: list[tuple[int, Node]] = []
    seen: set[int] = set()
    for text in box.css("div[id^='msg_']"):
        match = _TEXT_ID.match(text.attributes.get("id") or "")
        if match is None or int(match.group(1)) in seen:
            continue
        block = text.parent
        while block is not None and block.tag != "form" and block.css_first(
                "div.poster") is None:
            block = block.parent
        if block is not None and block.tag != "form":  # the nearest holding div.poster
            seen.add(int(match.group(1)))
            found.append((int(match.group(1)), block))
    return found


def _topic(page: SmfPage, url: str) -> tuple[int | None, str]:
    canonical = page.tree.css_first("link[rel=canonical]")
    topic, _ = topic_start(canonical.attributes.get("href") or "" if canonical else "")
    if topic is None:
        topic, _ = topic_start(url)
    subject = page.tree.css_first("#top_subject")
    if subject is not None:
        title = squash(subject.text())
    else:
        head = page.tree.css_first("title")
        title = re.sub(r"\s+-\s+(?:Страница|Page)\s+\d+$", "", squash(head.text()) if head
                       else "")
    return topic, title


def _post(node: Node, pid: int, tz: ZoneInfo, now: datetime) -> tuple[Post, int | None]:
    """The post and its reply number (``#N``); its page, place and topic are set by
    :func:`adapters.post_parts.topic_page`."""
    author = poster_of(node, pid)
    stamp = _stamp(node)
    if stamp is None:
        raise MalformedPage(
            f"у сообщения {pid} на странице нет времени (div.postinfo a.smalltext в SMF 2.1, "
            "div.keyinfo div.smalltext в SMF 2.0)", _HINT)
    try:
        posted_at = _date(stamp.text(), tz, now, f"сообщения {pid}")
    except DateParseError as e:
        raise MalformedPage(e.message, e.hint) from None
    body = node.css_first(f"div#msg_{pid}")
    if body is None:  # pragma: no cover - the block was found through this element
        raise MalformedPage(f"у сообщения {pid} нет текста на странице (div#msg_{pid})", _HINT)
    body_html = normalise_body(body)
    return (post(pid, author, posted_at, (body_html, plain_text(body_html)),
                 read_edit_notice(node, pid, tz, now)), _reply_number(node, stamp))


def _stamp(node: Node) -> Node | None:
    """The element whose text is the post's time: 2.1 ``div.postinfo a.smalltext``, 2.0
    ``div.keyinfo div.smalltext`` (the «« Ответ #N : … »» line)."""
    return (node.css_first("div.postinfo a.smalltext")
            or node.css_first("div.keyinfo div.smalltext")
            or node.css_first("div.keyinfo .smalltext"))


def _reply_number(node: Node, stamp: Node) -> int | None:
    """2.1's ``span.page_number`` «#25», else 2.0's «Ответ #25» in the time line (also in
    2.1's time link title «Ответ #25 - Re: …»); None on the first post."""
    number = node.css_first("span.page_number")
    for text in (number.text() if number is not None else "", stamp.text(),
                 stamp.attributes.get("title") or ""):
        if found := _REPLY_NO.search(text):
            return int(found.group(1))
    return None


def poster_of(node: Node, pid: int) -> tuple[str, int | None]:
    """The author of a post or PM block: name and member id (None: a guest or a deleted
    member, whose name has no profile link)."""
    head = node.css_first("div.poster h4") or node.css_first("div.poster h3")
    if head is None or not squash(head.text()):
        raise MalformedPage(f"у сообщения {pid} на странице нет автора (div.poster h4)", _HINT)
    link = head.css_first("a[href*='action=profile']")
    if link is None:  # a guest or a deleted member: the name without a profile
        return squash(head.text()), None
    found = _USER_ID.search(link.attributes.get("href") or "")
    return squash(link.text()), int(found.group(1)) if found else None


def _date(text: str, tz: ZoneInfo, now: datetime, what: str) -> datetime:
    clean = _TIME_FRAME.sub("", squash(text))
    try:
        return parse_forum_date(clean, tz=tz, now=now)
    except DateParseError as e:
        raise DateParseError(f"время {what}: {e.message}", _DATE_HINT) from None


_DATE_HINT = ("в профиле ведущего на форуме (Профиль → Изменить профиль → Настройки "
              "внешнего вида → Формат времени) выберите формат по умолчанию")


_EDIT_LABEL = re.compile(
    r"^[«\s]*(?:Последнее редактирование|Последняя правка|Last Edit)?\s*:?\s*", re.IGNORECASE)


def read_edit_notice(node: Node, pid: int, tz: ZoneInfo, now: datetime) -> EditNotice | None:
    """«Последнее редактирование: 27 ноября 2026, 09:14 от Гроза» (2.1, with «Причина: …»
    after it) or «« Последнее редактирование: 12 Марта 2024, 21:42:05 от Гроза »» (2.0).

    SMF prints no edit count: an edited post counts as edited once (``count=1``), which
    is all SMF can tell; another text seen later is still kept as its own revision."""
    box = node.css_first(f"#modified_{pid}") or node.css_first(".modified")
    if box is None:
        return None
    text = squash(box.text())
    labels = [squash(s.text()) for s in box.css("span.lastedit")]
    if len(labels) > 1 and labels[1]:
        text = text.split(labels[1], 1)[0].strip()  # the reason is not part of the notice
    label = labels[0] if labels else ""
    rest = text[len(label):] if label and text.startswith(label) else text
    rest = _EDIT_LABEL.sub("", rest).rstrip(" »")
    if not rest:
        return None
    when_text, sep, editor = rest.partition(" от ")
    if not sep:
        when_text, sep, editor = rest.partition(" by ")
    return edit_of([(editor, when_text)] if when_text else [],
                   lambda text: parse_forum_date(text, tz=tz, now=now), editor=editor.strip())


def normalise_body(body: Node) -> str:
    """The post body as the shared vote reader expects it (engine guide, "the body a post
    carries"): 2.0's quote header is moved into its blockquote as a ``<cite>``; SMF's code
    box becomes ``div.codebox > code``; smileys keep ``alt``/``title`` but lose ``src``
    (the set is a per-reader setting: the same post must hash the same for a guest and the
    host); ``PHPSESSID`` is taken out of links."""
    _quote_headers_inside(body)
    for header in body.css("div.codeheader"):
        header.decompose()
    for code in body.css("code.bbc_code"):
        box = fragment(f'<div class="codebox"><code>{code.inner_html or ""}</code></div>',
                       "div.codebox")
        holder = code.parent
        # SMF 2.0 wraps the code in <pre style="margin: 0; padding: 0;"> for some browsers.
        if holder is not None and holder.tag == "pre" and not squash(
                holder.text().replace(code.text(), "", 1)):
            holder.replace_with(box)
        else:
            code.replace_with(box)
    for img in body.css("img.smiley"):
        if "src" in img.attrs:
            del img.attrs["src"]
    return SESSION.sub("", (body.inner_html or "").strip())


def _quote_headers_inside(body: Node) -> None:
    """SMF 2.0 (and 1.1) print a quote as ``div.quoteheader`` «Цитата: X от …», then the
    quoted text (``blockquote``; 1.1 ``div.quote``), then ``div.quotefooter``: the header is
    made the blockquote's ``<cite>`` so that it counts as quoted text."""
    # Innermost first: an outer quote is rebuilt from its (already fixed) inner HTML.
    for header in reversed(body.css("div.quoteheader")):
        quote = next_element(header)
        if quote is None or not (quote.tag == "blockquote" or (
                quote.tag == "div" and "quote" in (quote.attributes.get("class") or "").split())):
            continue
        words = html.escape(squash(header.text()), quote=False)
        fresh = fragment(f"<blockquote><cite>{words}</cite>{quote.inner_html or ''}"
                         "</blockquote>", "blockquote")
        footer = next_element(quote)
        if footer is not None and "quotefooter" in (footer.attributes.get("class") or ""):
            footer.decompose()
        quote.replace_with(fresh)
        header.decompose()


def place(box: Node | None, url: str, here: int | None) -> tuple[Place, dict[int, int]]:
    """Where a page sits (topics and PM folders alike), from its page index ``box`` and its
    first item's own offset ``here``, and each linked page's offset; addresses without the
    session. The page shown: 2.1 ``span.current_page`` «2»; 2.0 ``[<strong>2</strong>]``, a
    ``strong`` outside any link (the «Вниз» link holds a ``strong`` of its own)."""
    if box is None:
        return Place(1, 1), {}

    def address(href: str) -> str:
        return strip_session(urljoin(url, href))

    def offset(href: str) -> str:
        """A link's first item: ``topic=T.S``, ``start=S``."""
        return topic_start(href)[1] or query_params(href.partition("?")[2]).get("start") or ""

    index = read_index([box], links="a.nav_page, a.navPages", here="span.current_page, strong",
                       page_of=None, address=address, arrow="a:has(span.next_page)")
    starts = {n: int(offset(href)) for n, href in index.links.items() if offset(href).isdigit()}
    # The «...» gap: expandPages(this, url, first, last, per_page).
    expand = _EXPAND.search(box.html or "")
    size = int(expand.group(4)) if expand else 0
    per_page = page_size(starts) or size or None
    number = index.current
    if number is None:
        number = here // per_page + 1 if per_page and here is not None else 1
    if per_page is None and here:
        per_page = page_size({number: here})
    total = index.last(number)
    if expand and size:
        total = max(total, int(expand.group(3)) // size + 1)
    # SMF 2.0's compact index has no arrow: the next page is the one numbered after this.
    next_url = index.next_of(number) if number < total else None
    return Place(number, total, per_page, next_url=next_url), starts


def _current_start(page: SmfPage, url: str) -> int | None:
    """The first post's offset of this page, from its canonical address (or the URL)."""
    canonical = page.tree.css_first("link[rel=canonical]")
    for href in (canonical.attributes.get("href") if canonical is not None else None, url):
        _, start = topic_start(href or "")
        if start is not None and start.isdigit():
            return int(start)
    return None


def _check_order(posts: list[tuple[Post, int | None]], url: str) -> None:
    """A reader who set «Показывать последние сообщения первыми» sees pages newest first;
    a page read so would be stored backwards (SMF ``view_newest_first``, a profile
    option: source)."""
    numbers = [n for _, n in posts if n is not None]
    if len(numbers) >= 2 and numbers[0] > numbers[-1]:
        raise MalformedPage(
            f"страница {strip_session(url)} показывает сообщения от новых к старым",
            "в профиле ведущего на форуме выключите «Показывать последние сообщения "
            "первыми» (Профиль → Изменить профиль → Настройки внешнего вида)",
        )


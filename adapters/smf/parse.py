"""SMF 2.1 topic pages → :class:`referee.kernel.TopicPage`. Pure: HTML in, values out.

Markup read here (theme Curve2; verified on fixtures/smf21-ru ``topic_p{1,2,3}_{guest,host}``
unless marked), listed with its source in adapters/smf/README.md:

- a post is ``div#forumposts div[id=msg{ID}]`` (class ``windowbg``; ``approvebg`` for a post
  awaiting approval — SMF source); the author ``div.poster h4 a`` (``action=profile;u=N``;
  a guest's or deleted member's name has no link); the time is the text of
  ``div.postinfo a.smalltext``; ``span.page_number`` is ``#N``, the reply number (absent on
  the first post);
- the body is ``div.inner#msg_{ID}``; quotes are already ``<blockquote>`` with a ``<cite>``
  header; ``[code]`` is ``div.codeheader`` + ``code.bbc_code`` (SMF 2.1 ``Subs.php``, not in
  the saved pages), rewritten here to the project's ``div.codebox``;
- an edit shows ``span#modified_{ID}``: «Последнее редактирование: <time> от <nick>», and
  with a reason «&nbsp;Причина: …»; SMF shows no edit count;
- pages: ``div.pagelinks`` with ``span.current_page`` and ``a.nav_page`` links to
  ``topic=T.S``; the next arrow is an ``a.nav_page`` holding ``span.next_page``;
  ``span.expand_pages`` («...», SMF source) hides a run of pages and names the page size.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urljoin
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters.smf.page import SmfPage, int_or_none, squash
from adapters.smf.urls import query_params, strip_session, topic_start
from referee.dates import parse_forum_date
from referee.errors import DateParseError, MalformedPage
from referee.kernel import EditNotice, Post, TopicPage
from referee.markup import plain_text

__all__ = ["normalise_body", "parse_topic_page", "read_edit_notice"]

_MSG_ID = re.compile(r"^msg(\d+)$")
_USER_ID = re.compile(r"[?;&]u=(\d+)")
_REPLY_NO = re.compile(r"#\s*(\d+)")
_SESSION = re.compile(r"(?<=[?&;])PHPSESSID=[^&;#\"'\s]*(?:&amp;|[&;])?", re.IGNORECASE)
# SMF 2.0 themes wrap the time: «« Ответ #12 : 26 ноября 2026, 23:02 »».
_TIME_FRAME = re.compile(r"^[«\s]*(?:(?:Ответ|Reply)\s*#\s*\d+\s*(?::|on:)?)?\s*|[\s»]*$",
                         re.IGNORECASE)
_EXPAND = re.compile(r"expandPages\(this,\s*'([^']*)',\s*(\d+),\s*(\d+),\s*(\d+)\)")


def parse_topic_page(html: str, *, url: str, tz: ZoneInfo, now: datetime) -> TopicPage:
    """One topic page. ``now`` anchors «Сегодня»/«Вчера» when the page shows no clock of
    its own; ``tz`` is the zone the board prints in (checked against the page's clock)."""
    page = SmfPage(html, url)
    posts_box = page.tree.css_first("#forumposts")
    if posts_box is None:
        page.raise_for_page("тему", "страница темы")
    page.check_zone(tz)
    anchor = page.now(now)
    topic_id, title = _topic(page, url)
    links = _pagination(page, url)
    posts = [
        _post(node, pid, page_no=links.page, place=place, topic_id=topic_id, tz=tz, now=anchor)
        for place, (pid, node) in enumerate(_post_nodes(posts_box), start=1)
    ]
    _check_order(posts, url)
    per_page = links.per_page or (len(posts) if links.total == 1 else None)
    total_posts = None
    if links.page >= links.total and per_page:
        total_posts = (links.page - 1) * per_page + len(posts)
    return TopicPage(
        topic_id=topic_id, title=title, page=links.page, total_pages=links.total,
        per_page=per_page or 0, posts=tuple(p for p, _ in posts), total_posts=total_posts,
        next_url=links.next_url,
    )


def _post_nodes(box: Node) -> list[tuple[int, Node]]:
    found: list[tuple[int, Node]] = []
    for node in box.css("div[id^='msg']"):
        match = _MSG_ID.match(node.attributes.get("id") or "")
        if match and node.css_first("div.postarea") is not None:
            found.append((int(match.group(1)), node))
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


def _post(node: Node, pid: int, *, page_no: int, place: int, topic_id: int | None,
          tz: ZoneInfo, now: datetime) -> tuple[Post, int | None]:
    """The post and its reply number (``#N``)."""
    author, author_id = _author(node, pid)
    stamp = node.css_first("div.postinfo a.smalltext") or node.css_first(
        "div.keyinfo .smalltext")
    if stamp is None:
        raise MalformedPage(f"у сообщения {pid} нет времени на странице",
                            "страница не похожа на тему SMF 2.1; проверьте [forum] engine")
    posted_at = _date(stamp.text(), tz, now, f"сообщения {pid}")
    body = node.css_first(f"div#msg_{pid}") or node.css_first("div.post div.inner")
    if body is None:
        raise MalformedPage(f"у сообщения {pid} нет текста на странице",
                            "страница не похожа на тему SMF 2.1; проверьте [forum] engine")
    body_html = normalise_body(body)
    number = node.css_first("span.page_number")
    reply_no = _REPLY_NO.search(number.text()) if number is not None else None
    post = Post(
        post_id=pid, author=author, author_id=author_id, posted_at=posted_at,
        body_html=body_html, body_text=plain_text(body_html), page=page_no, position=place,
        topic_id=topic_id, edit=read_edit_notice(node, pid, tz, now),
    )
    return post, int(reply_no.group(1)) if reply_no else None


def _author(node: Node, pid: int) -> tuple[str, int | None]:
    head = node.css_first("div.poster h4")
    if head is None:
        raise MalformedPage(f"у сообщения {pid} нет автора на странице",
                            "страница не похожа на тему SMF 2.1; проверьте [forum] engine")
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
        raise DateParseError(f"время {what}: {e.message}", e.hint) from None


def read_edit_notice(node: Node, pid: int, tz: ZoneInfo, now: datetime) -> EditNotice | None:
    """«Последнее редактирование: 27 ноября 2026, 09:14 от Гроза» (and «Причина: …»).

    SMF prints no edit count: an edited post counts as edited once (``count=1``), which
    is all SMF can tell; another text seen later is still kept as its own revision."""
    box = node.css_first(f"#modified_{pid}") or node.css_first("span.modified")
    if box is None:
        return None
    text = squash(box.text())
    labels = [squash(s.text()) for s in box.css("span.lastedit")]
    if len(labels) > 1 and labels[1]:
        text = text.split(labels[1], 1)[0].strip()  # the reason is not part of the notice
    if not text:
        return None
    label = labels[0] if labels else ""
    rest = text[len(label):] if label and text.startswith(label) else text
    rest = rest.lstrip(" :")
    when_text, sep, editor = rest.partition(" от ")
    if not sep:
        when_text, sep, editor = rest.partition(" by ")
    try:
        edited_at = parse_forum_date(when_text, tz=tz, now=now) if when_text else None
    except DateParseError:
        edited_at = None  # the notice still says the post was edited
    return EditNotice(editor=editor.strip(), edited_at=edited_at, count=1)


def normalise_body(body: Node) -> str:
    """The post body as the shared vote reader expects it (engine guide, "the body a post
    carries"): SMF's code box becomes ``div.codebox > code``; smileys keep ``alt``/``title``
    but lose ``src`` (the set is a per-reader setting: the same post must hash the same for
    a guest and the host); ``PHPSESSID`` is taken out of links."""
    for header in body.css("div.codeheader"):
        header.decompose()
    for code in body.css("code.bbc_code"):
        box = LexborHTMLParser(f'<div class="codebox"><code>{code.inner_html or ""}</code>'
                               "</div>").css_first("div.codebox")
        if box is not None:
            code.replace_with(box)
    for img in body.css("img.smiley"):
        if "src" in img.attrs:
            del img.attrs["src"]
    return _SESSION.sub("", (body.inner_html or "").strip())


@dataclass(frozen=True, slots=True)
class _Links:
    page: int
    total: int
    per_page: int | None
    next_url: str | None


def _pagination(page: SmfPage, url: str) -> _Links:
    box = page.content().css_first("div.pagelinks")
    if box is None:
        return _Links(1, 1, None, None)
    current = box.css_first("span.current_page")
    number = int_or_none(squash(current.text())) if current is not None else None
    starts: dict[int, int] = {}
    next_url = None
    for link in box.css("a.nav_page, a.navPages"):
        href = strip_session(urljoin(url, link.attributes.get("href") or ""))
        _, start = topic_start(href)
        label = squash(link.text())
        if link.css_first("span.next_page") is not None:
            next_url = href
        elif label.isdigit() and start is not None and start.isdigit():
            starts[int(label)] = int(start)
    per_page = _per_page(starts, box.html or "")
    here = _current_start(page, url)
    if number is None:
        number = here // per_page + 1 if per_page and here is not None else 1
    if per_page is None and number > 1 and here:
        per_page = here // (number - 1)
    total = max([number, *starts])
    expand = _EXPAND.search(box.html or "")
    if expand and int(expand.group(4)):
        total = max(total, int(expand.group(3)) // int(expand.group(4)) + 1)
    return _Links(number, total, per_page, next_url if number < total else None)


def _current_start(page: SmfPage, url: str) -> int | None:
    """The first post's offset of this page, from its canonical address (or the URL)."""
    canonical = page.tree.css_first("link[rel=canonical]")
    for href in (canonical.attributes.get("href") if canonical is not None else None, url):
        _, start = topic_start(href or "")
        if start is not None and start.isdigit():
            return int(start)
    return None


def _per_page(starts: dict[int, int], box_html: str) -> int | None:
    for number, start in sorted(starts.items()):
        if number > 1 and start:
            return start // (number - 1)
    expand = _EXPAND.search(box_html)
    return int(expand.group(4)) if expand and int(expand.group(4)) else None


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


def smf_query(url: str) -> dict[str, str]:
    """The query of ``url`` in SMF's syntax (re-exported for the client)."""
    return query_params(url.split("?", 1)[1] if "?" in url else "")

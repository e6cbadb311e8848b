"""phpBB topic pages → :class:`referee.core.kernel.TopicPage`: prosilver 3.0–3.3 and the styles
built on it, subsilver2; the posts, their authors, dates and edit notices, the title, and
where the page sits in the topic (:func:`.page.pagination`). Posts that are not the topic's
posts on this page (soft-deleted, the first post repeated) are left out. README.md lists every
markup variation read here and where it was verified.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters.html import classes, int_or_none, iso_utc, squash
from adapters.paging import Place
from adapters.phpbb.body import body_of
from adapters.phpbb.page import (
    _HINT_URL,
    _POST_ID,
    _TOPIC_ID,
    PAGINATION_BOXES,
    _ancestor,
    _raise_for_page,
    _text_after,
    _user_in,
    first_edit,
    pagination,
    read_date,
    text_of,
    user_id_of,
)
from adapters.post_parts import post, topic_page
from referee.core.errors import MalformedPage
from referee.core.kernel import Post, TopicPage

# ---------------------------------------------------------------------------------------
# Finding the posts
# ---------------------------------------------------------------------------------------


def _prosilver_posts(
    tree: LexborHTMLParser, nodes: list[Node] | None = None
) -> list[tuple[int, Node]]:
    # Gotcha 1: other div.post blocks (PM history, posting review) have no p<digits> id.
    return _numbered((n for n in (tree.css("div.post") if nodes is None else nodes)
                      if n.tag == "div" and "post" in classes(n)),
                     "id")


def _numbered(nodes: Iterable[Node], attr: str) -> list[tuple[int, Node]]:
    """The nodes whose ``attr`` is a post's anchor (``p123``), with the post's number."""
    found = ((_POST_ID.match(n.attributes.get(attr) or ""), n) for n in nodes)
    return [(int(match.group(1)), n) for match, n in found if match]


def _id_posts(tree: LexborHTMLParser) -> list[tuple[int, Node]]:
    """Styles that keep phpBB's ``id="p123"`` (the anchor every «#p123» link needs) but
    not the ``div.post`` class: any element so named that holds a post's text."""
    found: list[tuple[int, Node]] = []
    for pid, node in _numbered(tree.css('[id^="p"]'), "id"):
        if node.css_first("div.content, .postbody") is not None and not any(
                _inside(node, outer) for _, outer in found):
            found.append((pid, node))
    return found


def _inside(node: Node, outer: Node) -> bool:
    current = node.parent
    while current is not None and current != outer:
        current = current.parent
    return current is not None


def _page_body_parts(tree: LexborHTMLParser) -> list[Node] | None:
    """prosilver (3.0–3.3): the posts are children of div#page-body, the pagination bars
    sit in its action-bar/topic-actions children. None when the page is not laid out so."""
    body = tree.css_first("div#page-body")
    if body is None:
        return None
    found: list[Node] = []
    posts = 0
    for child in body.iter():
        if child.tag != "div":
            continue
        names = classes(child)
        if "post" in names:
            found.append(child)
            posts += 1
        elif "action-bar" in names or "topic-actions" in names:
            found += child.css("div.pagination")
    return found if posts and len(found) > posts else None


# ---------------------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------------------


def parse_topic_page(html: str, *, url: str, tz: ZoneInfo, now: datetime) -> TopicPage:
    """One topic page: its posts in page order and where the page sits in the topic.

    ``tz`` is the timezone the page was rendered in (used only where phpBB printed no
    ``<time datetime>``); ``now`` is the fetch time, for «Сегодня»/«N минут назад».
    Raises :class:`LoginRequired`, :class:`TopicNotFound`, :class:`AccessDenied`,
    :class:`MalformedPage` when the page is not a readable topic page.
    """
    tree = LexborHTMLParser(html)
    # Every whole-page search costs about a quarter of building the tree
    # (benchmarks/bench_sync.py): prosilver's posts and pagination bars are read off the
    # children of div#page-body; other layouts take one combined search.
    found = _page_body_parts(tree)
    if found is None:
        found = tree.css("div.post, " + PAGINATION_BOXES)
    prosilver = _prosilver_posts(tree, found) or _id_posts(tree)
    boxes = [n for n in found if not (
        n.tag == "div" and "post" in classes(n))]
    slots: list[Post | None]
    if prosilver:
        slots = [_prosilver_post(pid, node, url, tz, now) for pid, node in prosilver]
    else:
        anchors = subsilver_anchors(tree)
        if not anchors:
            _raise_for_page(tree, url, "тема")
        slots = [subsilver_post(pid, anchor, url, tz, now) for pid, anchor in anchors]
    title, topic_id = topic_title_and_id(tree, url)
    pages = pagination(tree, html, url, boxes)
    # A one-page topic does not reveal the board's page size; what is on the page is a
    # lower bound and keeps arithmetic on it safe.
    per_page = pages.per_page or max(len(slots), 1)
    if _first_post_pinned(slots, pages):
        slots = slots[1:]
    return topic_page(pages, slots, topic_id=topic_id, title=title, per_page=per_page)


def _broken(pid: int, url: str, missing: str) -> MalformedPage:
    return MalformedPage(f"Сообщение p{pid} на странице {url}: {missing}.", _HINT_URL)


def hidden_post_error(pid: int, url: str) -> MalformedPage:
    return MalformedPage(
        f"Сообщение p{pid} на странице {url} скрыто: его автор в списке недругов учётной "
        f"записи ведущего, и phpBB не выводит ни автора, ни текст.",
        "Уберите всех из списка недругов ведущего (Личный раздел → Друзья и недруги).",
    )


def _first_post_pinned(slots: list[Post | None], pages: Place) -> bool:
    """Whether the first post shown is the topic's first post repeated above a later page:
    the page then holds one post more than its share of the topic, and that post is older
    than the next one."""
    if pages.page <= 1 or pages.per_page is None or len(slots) < 2:
        return False
    expected = pages.per_page
    if pages.items is not None:
        expected = min(expected, pages.items - (pages.page - 1) * pages.per_page)
    elif pages.page >= pages.total:
        return False  # the last page's share is unknown without the topic's post count
    if len(slots) != expected + 1:
        return False
    first, second = slots[0], slots[1]
    if first is None or second is None:
        return True
    return first.post_id < second.post_id and first.posted_at <= second.posted_at


# ---------------------------------------------------------------------------------------
# One prosilver post
# ---------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Parts:
    author_p: Node | None = None
    content: Node | None = None
    notices: list[Node] = field(default_factory=list)
    deleted: bool = False


def _post_parts(node: Node) -> _Parts:
    """p.author, div.content and the div.notice list of a prosilver post, read off the
    template's own structure (div.postbody [> div#post_contentN] > p.author, div.content,
    div.notice) instead of searching the whole post, whose content may be long. Falls back
    to a search when a style arranges things differently."""
    parts = _Parts()
    body = node.css_first("div.postbody")  # early in the post: the search stops soon
    if body is not None:
        holder = body
        for child in body.iter():
            if child.tag == "div" and (child.attributes.get("id") or "").startswith(
                    "post_content"):
                holder = child
                break
        for child in holder.iter():
            tag = child.tag
            if tag != "p" and tag != "div":
                continue
            names = classes(child)
            if tag == "p" and "author" in names:
                parts.author_p = parts.author_p or child
            elif tag == "div" and "content" in names:
                parts.content = parts.content or child
            elif tag == "div" and "notice" in names:
                parts.notices.append(child)
                parts.deleted = parts.deleted or "post_deleted_msg" in names
            elif tag == "p" and "post-notice" in names and "deleted" in names:
                parts.deleted = True
    if parts.author_p is None or parts.content is None:
        parts.author_p = node.css_first("p.author") or node.css_first(".author")
        parts.content = node.css_first("div.content")
        parts.notices = node.css("div.notice")
        parts.deleted = parts.deleted or any(
            "post_deleted_msg" in (n.attributes.get("class") or "") for n in parts.notices)
    return parts


def _author_strong(author_p: Node) -> Node | None:
    # 3.1+: p.author > span.responsive-hide > strong; 3.0: p.author > strong.
    for child in author_p.iter():
        if child.tag == "strong":
            return child
        if child.tag == "span":
            for inner in child.iter():
                if inner.tag == "strong":
                    return inner
    return author_p.css_first("strong")


def _prosilver_post(
    pid: int, node: Node, url: str, tz: ZoneInfo, now: datetime
) -> Post | None:
    """The post, or None when it is soft-deleted (a moderator's view)."""
    if "deleted" in classes(node):
        return None
    parts = _post_parts(node)
    author_p, content = parts.author_p, parts.content
    if parts.deleted:
        return None
    if content is None and author_p is None and node.css_first("div.ignore") is not None:
        # 3.0 renders a foe's post as div.ignore only (research §1.4).
        raise hidden_post_error(pid, url)
    author = _author(node, author_p)
    if not author[0]:
        raise _broken(pid, url, "не найден автор (p.author strong)")
    if content is None:
        raise _broken(pid, url, "нет текста сообщения (div.content)")
    if author_p is None:
        raise _broken(pid, url, "нет строки с датой (p.author)")
    posted_at = _author_line_time(author_p, node, content, author[0], pid, url, tz, now)
    return post(pid, author, posted_at, body_of(content), first_edit(parts.notices, tz, now))


def _author(node: Node, author_p: Node | None) -> tuple[str, int | None]:
    """The author's nick and id: the author line's ``strong``, else the profile column.
    A style may print the nick in the author line without the profile link (phpBBex's
    quick-reply nick inserts the name into the reply box); the id then comes from the
    profile column, when it names the same user."""
    name, uid = "", None
    strong = _author_strong(author_p) if author_p is not None else None
    if strong is not None:
        name, uid = _user_in(strong)
    if name and uid is not None:
        return name, uid
    profile = node.css_first("dl.postprofile dt") or node.css_first("dl.postprofile")
    if profile is None:
        return name, uid
    profile_name, profile_uid = _user_in(profile, last=True)
    if not name:
        return profile_name, profile_uid
    return name, profile_uid if profile_name == name else uid


def _author_line_time(author_p: Node, node: Node, content: Node, name: str, pid: int,
                      url: str, tz: ZoneInfo, now: datetime) -> datetime:
    # Gotcha 6: <time datetime> (3.2.9+) is UTC and exact to the second; prefer it.
    # <time> is a direct child of p.author in every 3.2.9+ template: no search needed.
    stamp = next((c for c in author_p.iter() if c.tag == "time"), None)
    if stamp is None or "datetime" not in stamp.attributes:
        stamp = author_p.css_first("time[datetime]")
    exact = _stamp([stamp] if stamp is not None else [])
    if exact is not None:
        return exact
    full = squash(author_p.text())
    # «[by] Nick » date»: the date is everything after the last «»»; a style without the
    # «»» prints it after the nick.
    texts = [full.rsplit("»", 1)[1]] if "»" in full else []
    texts.append(_text_after(author_p, name))
    try:
        return read_date(texts, f"Сообщение p{pid} на странице {url}", tz, now)
    except MalformedPage:
        # A style that moved the date out of the author line keeps <time> elsewhere.
        exact = _stamp(t for t in node.css("time[datetime]") if not _inside(t, content))
        if exact is None:
            raise
        return exact


def _stamp(stamps: Iterable[Node]) -> datetime | None:
    """The first of the ``<time>`` elements whose ``datetime`` names an instant."""
    instants = (iso_utc(t.attributes.get("datetime") or "") for t in stamps)
    return next((at for at in instants if at is not None), None)


# ---------------------------------------------------------------------------------------
# subsilver2 (phpBB 3.0 and its ports): one table.tablebg a post
# ---------------------------------------------------------------------------------------


def subsilver_anchors(tree: LexborHTMLParser) -> list[tuple[int, Node]]:
    return _numbered(tree.css('a[name^="p"]'), "name")


def subsilver_post(pid: int, anchor: Node, url: str, tz: ZoneInfo, now: datetime) -> Post:
    """subsilver2's post of three table rows (README.md, «Post container and id»); a foe's
    post is one ``td`` with the anchor and phpBB's notice, nothing else."""
    author_b = anchor.parent.css_first("b.postauthor") if anchor.parent is not None else None
    if author_b is None:
        raise hidden_post_error(pid, url)
    name = squash(author_b.text())
    head_row = _ancestor(anchor, "tr")
    date_cell = head_row.css_first("td.gensmall") if head_row is not None else None
    blocks = date_cell.css("div") if date_cell is not None else []
    if not name or not blocks:
        raise _broken(pid, url, "не найдены автор и дата (b.postauthor, «Добавлено:»)")
    # «<b>Добавлено:</b> 22 ноя 2026, 14:26&nbsp;» / «<b>Posted:</b> …»: the date follows
    # the last bold label in the right-floated block.
    labels = blocks[-1].css("b")
    text = _text_after(blocks[-1], squash(labels[-1].text()) if labels else "")
    posted_at = read_date([text], f"Сообщение p{pid} на странице {url}", tz, now)
    body_row = _next_row(head_row)
    content = body_row.css_first("div.postbody") if body_row is not None else None
    if body_row is None or content is None:
        raise _broken(pid, url, "нет текста сообщения (div.postbody)")
    profile_row = _next_row(body_row)
    link = profile_row.css_first('a[href*="mode=viewprofile"]') if profile_row is not None else None
    uid = user_id_of(link.attributes.get("href") or "") if link is not None else None
    return post(pid, (name, uid), posted_at, body_of(content),
                first_edit(body_row.css("span.gensmall"), tz, now))


def _next_row(row: Node | None) -> Node | None:
    current = row.next if row is not None else None
    while current is not None and current.tag != "tr":
        current = current.next
    return current


# ---------------------------------------------------------------------------------------
# The title and the topic id
# ---------------------------------------------------------------------------------------

_PAGE_PART = re.compile(r"^(?:Страница|Page)\s+\d+$", re.IGNORECASE)
_VIEW_TOPIC = re.compile(r"^(?:Просмотр темы|View topic)\s+-\s+", re.IGNORECASE)


def topic_title_and_id(tree: LexborHTMLParser, url: str) -> tuple[str, int | None]:
    """The title (README.md, «Topic title»). The id: the title link's ``t=``, the canonical
    link (3.1+), the page's own address, or the search box's hidden ``t``."""
    link = tree.css_first("h2.topic-title a") or tree.css_first("#pageheader h2 a") or next(
        (a for a in tree.css("h2 a") if "viewtopic" in (a.attributes.get("href") or "")), None)
    title = text_of(link) or text_of(tree.css_first("h2.topic-title")) or _head_title(tree)
    linked = (link, tree.css_first('link[rel="canonical"]'))
    for source in [*(n.attributes.get("href") or "" for n in linked if n is not None), url]:
        match = _TOPIC_ID.search(source)
        if match:
            return title, int(match.group(1))
    hidden = tree.css_first('input[name="t"]')
    return title, int_or_none(hidden.attributes.get("value")) if hidden is not None else None


def _head_title(tree: LexborHTMLParser) -> str:
    text = text_of(tree.css_first("head title") or tree.css_first("title"))
    if not text:
        return ""
    if " • " in text:  # 3.0: «{board} • Просмотр темы - {title}»
        return _VIEW_TOPIC.sub("", text.split(" • ", 1)[1]).strip()
    parts = [p for p in text.split(" - ") if not _PAGE_PART.match(p.strip())]
    if len(parts) > 1:
        parts = parts[:-1]  # the board's name closes every 3.1+ title
    return " - ".join(parts).strip()

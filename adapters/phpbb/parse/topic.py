"""phpBB topic pages → :class:`referee.kernel.TopicPage`: prosilver 3.0–3.3 and subsilver2,
the posts, their authors, dates and edit notices, and the pagination."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters.phpbb.parse.page import (
    _EDIT_EN,
    _EDIT_RU,
    _HINT_URL,
    _JS_PER_PAGE,
    _PAGE_OF,
    _POST_ID,
    _START,
    _TOPIC_ID,
    _TOTAL,
    _USER_ID,
    _abs_url,
    _ancestor,
    _iso_utc,
    _norm,
    _raise_for_page,
    _text_after,
    _user_in,
)
from referee.dates import parse_forum_date
from referee.errors import (
    DateParseError,
    MalformedPage,
)
from referee.kernel import (
    EditNotice,
    Post,
    TopicPage,
)
from referee.markup import plain_text_node

# ---------------------------------------------------------------------------------------
# Topic pages
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _RawPost:
    post_id: int
    author: str
    author_id: int | None
    posted_at: datetime
    content: Node
    edit: EditNotice | None


_PAGINATION_BOXES = "div.pagination, li.pagination, td.nav"


def _prosilver_posts(
    tree: LexborHTMLParser, nodes: list[Node] | None = None
) -> list[tuple[int, Node]]:
    # Gotcha 1: other div.post blocks (PM history, posting review) have no p<digits> id.
    found: list[tuple[int, Node]] = []
    for node in tree.css("div.post") if nodes is None else nodes:
        if node.tag != "div" or "post" not in (node.attributes.get("class") or "").split():
            continue
        match = _POST_ID.match(node.attributes.get("id") or "")
        if match:
            found.append((int(match.group(1)), node))
    return found


def _subsilver_anchors(tree: LexborHTMLParser) -> list[tuple[int, Node]]:
    found: list[tuple[int, Node]] = []
    for node in tree.css('a[name^="p"]'):
        match = _POST_ID.match(node.attributes.get("name") or "")
        if match:
            found.append((int(match.group(1)), node))
    return found


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
        classes = (child.attributes.get("class") or "").split()
        if "post" in classes:
            found.append(child)
            posts += 1
        elif "action-bar" in classes or "topic-actions" in classes:
            found += child.css("div.pagination")
    return found if posts and len(found) > posts else None


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
        found = tree.css("div.post, " + _PAGINATION_BOXES)
    prosilver = _prosilver_posts(tree, found)
    boxes = [n for n in found if not (
        n.tag == "div" and "post" in (n.attributes.get("class") or "").split())]
    raw: list[_RawPost]
    if prosilver:
        raw = [_prosilver_post(pid, node, url, tz, now) for pid, node in prosilver]
    else:
        anchors = _subsilver_anchors(tree)
        if not anchors:
            _raise_for_page(tree, url, "тема")
        raw = [_subsilver_post(pid, anchor, url, tz, now) for pid, anchor in anchors]

    title, topic_id = _topic_title_and_id(tree, url)
    pages = _pagination(tree, html, url, len(raw), boxes)
    posts = tuple(
        Post(
            post_id=r.post_id,
            author=r.author,
            author_id=r.author_id,
            posted_at=r.posted_at,
            body_html=r.content.inner_html or "",
            body_text=plain_text_node(r.content),
            page=pages.page,
            position=index,
            topic_id=topic_id,
            edit=r.edit,
        )
        for index, r in enumerate(raw, start=1)
    )
    return TopicPage(
        topic_id=topic_id,
        title=title,
        page=pages.page,
        total_pages=pages.total_pages,
        per_page=pages.per_page,
        posts=posts,
        total_posts=pages.total_items,
        next_url=pages.next_url,
    )


def _hidden_post_error(pid: int, url: str) -> MalformedPage:
    return MalformedPage(
        f"Сообщение p{pid} на странице {url} скрыто: его автор в списке недругов учётной "
        f"записи ведущего, и phpBB не выводит ни автора, ни текст.",
        "Уберите всех из списка недругов ведущего (Личный раздел → Друзья и недруги).",
    )


def _post_parts(node: Node) -> tuple[Node | None, Node | None, list[Node]]:
    """(p.author, div.content, div.notice list) of a prosilver post, read off the
    template's own structure (div.postbody [> div#post_contentN] > p.author, div.content,
    div.notice) instead of searching the whole post, whose content may be long. Falls back
    to a search when a style arranges things differently."""
    author_p = content = None
    notices: list[Node] = []
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
            classes = (child.attributes.get("class") or "").split()
            if tag == "p" and "author" in classes:
                author_p = author_p or child
            elif tag == "div" and "content" in classes:
                content = content or child
            elif tag == "div" and "notice" in classes:
                notices.append(child)
    if author_p is None or content is None:
        return node.css_first("p.author"), node.css_first("div.content"), node.css("div.notice")
    return author_p, content, notices


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


def _prosilver_post(pid: int, node: Node, url: str, tz: ZoneInfo, now: datetime) -> _RawPost:
    author_p, content, notices = _post_parts(node)
    if content is None and author_p is None and node.css_first("div.ignore") is not None:
        # 3.0 renders a foe's post as div.ignore only (research §1.4).
        raise _hidden_post_error(pid, url)
    name, uid = "", None
    strong = _author_strong(author_p) if author_p is not None else None
    if strong is not None:
        name, uid = _user_in(strong)
    if not name:
        profile = node.css_first("dl.postprofile dt")
        if profile is not None:
            name, uid = _user_in(profile, last=True)
    if not name:
        raise MalformedPage(
            f"Сообщение p{pid} на странице {url}: не найден автор (p.author strong).", _HINT_URL
        )
    if content is None:
        raise MalformedPage(
            f"Сообщение p{pid} на странице {url}: нет текста сообщения (div.content).", _HINT_URL
        )
    if author_p is None:
        raise MalformedPage(
            f"Сообщение p{pid} на странице {url}: нет строки с датой (p.author).", _HINT_URL
        )
    posted_at = _author_line_time(author_p, name, pid, url, tz, now)
    edit = None
    for notice in notices:
        if "post_deleted_msg" in (notice.attributes.get("class") or ""):
            continue
        edit = _edit_notice(notice, tz, now)
        if edit is not None:
            break
    return _RawPost(pid, name, uid, posted_at, content, edit)


def _author_line_time(
    author_p: Node, name: str, pid: int, url: str, tz: ZoneInfo, now: datetime
) -> datetime:
    # Gotcha 6: <time datetime> (3.2.9+) is UTC and exact to the second; prefer it.
    # <time> is a direct child of p.author in every 3.2.9+ template: no search needed.
    stamp = next((c for c in author_p.iter() if c.tag == "time"), None)
    if stamp is None or "datetime" not in stamp.attributes:
        stamp = author_p.css_first("time[datetime]")
    if stamp is not None:
        parsed = _iso_utc(stamp.attributes.get("datetime") or "")
        if parsed is not None:
            return parsed
    full = _norm(author_p.text())
    # «[by] Nick » date»: the date is everything after the last «»».
    text = full.rsplit("»", 1)[1].strip() if "»" in full else _text_after(author_p, name)
    try:
        return parse_forum_date(text, tz=tz, now=now)
    except DateParseError as error:
        raise MalformedPage(
            f"Сообщение p{pid} на странице {url}: не удалось разобрать дату «{text}».",
            error.hint,
        ) from None


def _subsilver_post(pid: int, anchor: Node, url: str, tz: ZoneInfo, now: datetime) -> _RawPost:
    cell = anchor.parent
    author_b = cell.css_first("b.postauthor") if cell is not None else None
    if cell is None or author_b is None:
        raise _hidden_post_error(pid, url)
    name = _norm(author_b.text())
    head_row = _ancestor(anchor, "tr")
    date_cell = head_row.css_first("td.gensmall") if head_row is not None else None
    blocks = date_cell.css("div") if date_cell is not None else []
    if not name or not blocks:
        raise MalformedPage(
            f"Сообщение p{pid} на странице {url}: не найдены автор и дата (b.postauthor, "
            f"«Добавлено:»).",
            _HINT_URL,
        )
    # «<b>Добавлено:</b> 22 ноя 2026, 14:26&nbsp;» / «<b>Posted:</b> …»: the date follows
    # the last bold label in the right-floated block.
    date_block = blocks[-1]
    labels = date_block.css("b")
    text = _text_after(date_block, _norm(labels[-1].text())) if labels else _norm(
        date_block.text())
    try:
        posted_at = parse_forum_date(text, tz=tz, now=now)
    except DateParseError as error:
        raise MalformedPage(
            f"Сообщение p{pid} на странице {url}: не удалось разобрать дату «{text}».",
            error.hint,
        ) from None
    body_row = _next_row(head_row)
    content = body_row.css_first("div.postbody") if body_row is not None else None
    if content is None:
        raise MalformedPage(
            f"Сообщение p{pid} на странице {url}: нет текста сообщения (div.postbody).",
            _HINT_URL,
        )
    edit = None
    for notice in body_row.css("span.gensmall"):
        edit = _edit_notice(notice, tz, now)
        if edit is not None:
            break
    uid = None
    profile_row = _next_row(body_row)
    if profile_row is not None:
        link = profile_row.css_first('a[href*="mode=viewprofile"]')
        if link is not None:
            match = _USER_ID.search(link.attributes.get("href") or "")
            uid = int(match.group(1)) if match else None
    return _RawPost(pid, name, uid, posted_at, content, edit)


def _next_row(row: Node | None) -> Node | None:
    current = row.next if row is not None else None
    while current is not None and current.tag != "tr":
        current = current.next
    return current


def _edit_notice(node: Node, tz: ZoneInfo, now: datetime) -> EditNotice | None:
    """«Последний раз редактировалось X 22 ноя 2026, 14:26, всего редактировалось 1 раз.»

    Also «Last edited by X on …, edited N times in total.» Edits are often silent
    (gotcha 5), so a missing notice proves nothing; the date is best effort.
    """
    text = _norm(node.text())
    match = _EDIT_RU.search(text) or _EDIT_EN.search(text)
    if match is None:
        return None
    rest = match.group("rest")
    editor_node = node.css_first("a, span.username, span.username-coloured")
    candidates: list[tuple[str, str]] = []
    if editor_node is not None:
        editor = _norm(editor_node.text())
        if editor and editor in rest:
            candidates.append((editor, rest.split(editor, 1)[1]))
    if " on " in rest:
        editor, date_text = rest.rsplit(" on ", 1)
        candidates.append((editor, date_text))
    words = rest.split(" ")
    candidates.extend((" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words)))
    for editor, date_text in candidates:
        date_text = re.sub(r"^\s*on\s+", "", date_text).strip()
        try:
            edited_at = parse_forum_date(date_text, tz=tz, now=now)
        except DateParseError:
            continue
        return EditNotice(editor=editor.strip(), edited_at=edited_at, count=int(match["n"]))
    editor = _norm(editor_node.text()) if editor_node is not None else rest
    return EditNotice(editor=editor, edited_at=None, count=int(match["n"]))


def _topic_title_and_id(tree: LexborHTMLParser, url: str) -> tuple[str, int | None]:
    link = tree.css_first("h2.topic-title a") or tree.css_first("#pageheader h2 a")
    if link is None:
        for candidate in tree.css("h2 a"):
            if "viewtopic.php" in (candidate.attributes.get("href") or ""):
                link = candidate
                break
    title = _norm(link.text()) if link is not None else ""
    if not title:
        heading = tree.css_first("h2.topic-title")
        title = _norm(heading.text()) if heading is not None else ""
    sources = [link.attributes.get("href") or "" if link is not None else ""]
    canonical = tree.css_first('link[rel="canonical"]')
    if canonical is not None:
        sources.append(canonical.attributes.get("href") or "")
    sources.append(url)
    for source in sources:
        match = _TOPIC_ID.search(source)
        if match:
            return title, int(match.group(1))
    hidden = tree.css_first('input[name="t"]')
    if hidden is not None and (hidden.attributes.get("value") or "").isdigit():
        return title, int(hidden.attributes["value"] or 0)
    return title, None


# ---------------------------------------------------------------------------------------
# Pagination (topics and PM folders)
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Pages:
    page: int
    total_pages: int
    per_page: int
    total_items: int | None
    next_url: str | None


def _pagination(tree: LexborHTMLParser, html: str, url: str, on_page: int,
                boxes: list[Node] | None = None) -> _Pages:
    """Page number, page count, page size and next link, from whatever phpBB printed.

    3.1+: ``li.active span`` and numbered ``a.button`` links; single page «Страница 1 из
    1»; 3.0: «Page 2 of 10» and ``<strong>`` for the current page; subsilver2: the same
    text in ``td.nav``. The page size comes from ``start=`` offsets of numbered links.
    """
    containers = list(tree.css(_PAGINATION_BOXES) if boxes is None else boxes)
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
    current: int | None = None
    total: int | None = None
    items: int | None = None
    links: dict[int, str] = {}
    next_href: str | None = None
    for box in containers:
        if not scattered and current is not None and items is not None:
            break  # prosilver prints the same bar above and below the posts
        text = _norm(box.text())
        if items is None:
            match = _TOTAL.search(text)
            if match:
                items = int(match.group(1) or match.group(2))
        page_of = _PAGE_OF.search(text)
        if page_of:
            current = current or int(page_of.group(1))
            total = max(total or 0, int(page_of.group(2)))
        active = box.css_first("li.active span")
        if active is not None and _norm(active.text()).isdigit():
            current = int(_norm(active.text()))
        for link in box.css("a"):
            label = _norm(link.text())
            href = link.attributes.get("href") or ""
            if label.isdigit() and href and href != "#":
                links.setdefault(int(label), href)
            if next_href is None and (link.attributes.get("rel") or "") == "next":
                next_href = href
        if current is None:
            for strong in box.css("strong"):
                label = _norm(strong.text())
                # 3.0 lists the current page as a bare <strong> between the links.
                if label.isdigit() and strong.parent is not None and strong.parent.tag == "span":
                    current = int(label)
                    break

    per_page = _per_page(containers, html, links)
    if current is None:
        start = _START.search(url)
        current = int(start.group(1)) // per_page + 1 if start and per_page else 1
    total_pages = max([total or 1, current, *links.keys()])
    if per_page is None:
        # A one-page topic does not reveal the board's page size; what is on the page is a
        # lower bound and keeps arithmetic on it safe.
        per_page = max(on_page, 1)
    if next_href is None:
        next_href = links.get(current + 1)
    next_url = _abs_url(url, next_href, drop_sid=True) if next_href else None
    return _Pages(current, total_pages, per_page, items, next_url)


def _per_page(containers: list[Node], html: str, links: dict[int, str]) -> int | None:
    # The page-jump box (3.1+, more than 6 pages) sits inside div.pagination.
    for box in containers:
        marked = box.css_first("[data-per-page]")
        if marked is not None and (marked.attributes.get("data-per-page") or "").isdigit():
            return int(marked.attributes["data-per-page"] or 0) or None
    for number, href in sorted(links.items()):
        start = _START.search(href)
        if number > 1 and start and int(start.group(1)) > 0:
            return int(start.group(1)) // (number - 1)
    script = _JS_PER_PAGE.search(html)
    if script:
        return int(script.group(1)) or None
    return None

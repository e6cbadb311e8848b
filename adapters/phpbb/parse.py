"""phpBB pages → referee value types. Pure functions: HTML text in, dataclasses out.

Supported markup (research/phpbb.md §1, §3): prosilver 3.3/3.2 (``<time datetime>`` from
3.2.9), prosilver 3.0/3.1 (date as text after «»», ``postprofile`` before or after
``postbody``), and subsilver2 (table layout, ``<a name="p123">``, ``b.postauthor``,
«Добавлено:»/«Posted:»), in the Russian and English language packs.

Each page is parsed once with selectolax/lexbor; everything else is CSS queries scoped to
one post and string work on short texts. Page kinds are recognised by their DOM, never by
HTTP status (gotcha 10: a login-required page is HTTP 200 with the login form).
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Literal, NoReturn
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from referee.dates import parse_forum_date
from referee.errors import (
    AccessDenied,
    DateParseError,
    ForumError,
    LoginRequired,
    MalformedPage,
    PmRemoved,
    TopicNotFound,
)
from referee.kernel import (
    EditNotice,
    PmFolderPage,
    PmListEntry,
    Post,
    PrivateMessage,
    TopicPage,
)
from referee.markup import plain_text_node

__all__ = [
    "LoginErrorKind",
    "LoginForm",
    "PageKind",
    "PostingForm",
    "decode_page",
    "is_logged_in",
    "login_error",
    "page_kind",
    "parse_login_form",
    "parse_pm",
    "parse_pm_folder",
    "parse_posting_form",
    "parse_topic_page",
    "posting_error",
    "posting_success",
]

PageKind = Literal["topic", "login", "message", "pm_folder", "pm", "posting_form", "unknown"]

_POST_ID = re.compile(r"^p(\d+)$")
_PM_POST_ID = re.compile(r"^post-(\d+)$")
_USER_ID = re.compile(r"[?&;]u=(\d+)")
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

_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_META_CHARSET = re.compile(rb"<meta[^>]+?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)


def decode_page(content: bytes, content_type: str | None = None) -> str:
    """Page bytes → text: BOM, then the HTTP ``charset``, then ``<meta>``, else UTF-8.

    Old Russian boards serve ``windows-1251`` (research §5.1). Like browsers, ISO-8859-1
    and ASCII labels are read as windows-1252, its superset.
    """
    if content.startswith(b"\xef\xbb\xbf"):
        return content[3:].decode("utf-8", "replace")
    candidates: list[str] = []
    if content_type:
        match = _HEADER_CHARSET.search(content_type)
        if match:
            candidates.append(match.group(1))
    meta = _META_CHARSET.search(content[:4096])
    if meta:
        candidates.append(meta.group(1).decode("ascii", "replace"))
    for label in candidates:
        codec = _codec(label)
        if codec:
            return content.decode(codec, "replace")
    return content.decode("utf-8", "replace")


def _codec(label: str) -> str | None:
    try:
        info = codecs.lookup(label.strip())
    except LookupError:
        return None
    if not getattr(info, "_is_text_encoding", True):
        return None  # «uu», «base64», «rot13»… are codecs, not page encodings
    name = info.name
    return "cp1252" if name in {"latin-1", "iso8859-1", "ascii"} else name


# ---------------------------------------------------------------------------------------
# Page kind
# ---------------------------------------------------------------------------------------


def page_kind(html: str) -> PageKind:
    """What phpBB page this is, judged by its DOM (gotcha 10), not by the HTTP status."""
    return _kind(LexborHTMLParser(html))


def _kind(tree: LexborHTMLParser) -> PageKind:
    if _prosilver_posts(tree) or _subsilver_anchors(tree):
        return "topic"
    if tree.css_first("div.post.pm") is not None:
        return "pm"
    if _posting_form_node(tree) is not None:
        return "posting_form"
    if tree.css_first("form#viewfolder") is not None or tree.css_first("ul.pmlist") is not None:
        return "pm_folder"
    if _login_form_node(tree) is not None:
        return "login"
    if _message_panel(tree) is not None:
        return "message"
    return "unknown"


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


def _user_in(container: Node, *, last: bool = False) -> tuple[str, int | None]:
    """Nick and user id from a phpBB ``get_username_string('full')`` rendering.

    Profile link (``u=`` is the identity, gotcha 7), or ``span.username`` for guests and
    deleted users (no id), or bare text (3.0 guests).
    """
    # Fast path: phpBB prints the profile link as a direct child (strong > a.username).
    links = [a for a in container.iter() if a.tag == "a"
             and "mode=viewprofile" in (a.attributes.get("href") or "") and _norm(a.text())]
    if not links:
        links = [
            a for a in container.css('a[href*="mode=viewprofile"]') if _norm(a.text())
        ]
    if links:
        link = links[-1] if last else links[0]
        match = _USER_ID.search(link.attributes.get("href") or "")
        return _norm(link.text()), int(match.group(1)) if match else None
    span = container.css_first("span.username, span.username-coloured")
    if span is not None:
        return _norm(span.text()), None
    return _norm(container.text()), None


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
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return None
    return parsed.astimezone(UTC)


def _text_after(container: Node, marker: str) -> str:
    full = _norm(container.text())
    if marker and marker in full:
        return full.split(marker, 1)[1].strip()
    return full


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


# ---------------------------------------------------------------------------------------
# Private messages
# ---------------------------------------------------------------------------------------

_FOLDERS = {"0": "inbox", "-1": "sentbox", "-2": "outbox", "-3": "drafts"}
_PM_ROLES = {
    **dict.fromkeys(("отправлено", "sent"), "sent"),
    **dict.fromkeys(("от", "from"), "from"),
    **dict.fromkeys(("получатель", "получатели", "кому", "to", "recipient", "recipients",
                     "скрытая копия", "bcc"), "to"),
}
_PM_ORDER = ("sent", "from", "to")  # ucp_pm_viewmessage.html prints the labels in this order


def parse_pm(
    html: str, *, url: str, tz: ZoneInfo, now: datetime, folder: str = "inbox"
) -> PrivateMessage:
    """The private message shown on a ``ucp.php?i=pm&mode=view&p=N`` page.

    Only ``div.post.pm`` is read, never the message history below it (``div#topicreview``
    rows hold other PMs and raw BBCode). PMs have no ``<time>``: the «Отправлено:» text is
    parsed in ``tz`` (research §3.1).
    """
    tree = LexborHTMLParser(html)
    post = tree.css_first("div.post.pm")
    if post is None:
        _raise_for_page(tree, url, "личное сообщение")
    match = _PM_POST_ID.match(post.attributes.get("id") or "")
    if match is None:
        match = _MSG_ID.search(url)
    if match is None:
        raise MalformedPage(f"Личное сообщение {url}: не найден его номер (div#post-N).",
                            _HINT_URL)
    pm_id = int(match.group(1))
    subject_node = post.css_first("h3")
    subject = _norm(subject_node.text()) if subject_node is not None else ""
    author_p = post.css_first("p.author")
    content = post.css_first("div.content")
    if author_p is None or content is None:
        raise MalformedPage(
            f"Личное сообщение {pm_id} ({url}): нет строки «Отправлено/От» (p.author) или "
            f"текста (div.content).",
            _HINT_URL,
        )
    sent_text, sender, sender_id, recipients = _pm_header(author_p)
    if not sender:
        raise MalformedPage(f"Личное сообщение {pm_id} ({url}): не найден отправитель («От:»).",
                            _HINT_URL)
    try:
        sent_at = parse_forum_date(sent_text, tz=tz, now=now)
    except DateParseError as error:
        raise MalformedPage(
            f"Личное сообщение {pm_id} ({url}): не удалось разобрать дату «{sent_text}».",
            error.hint,
        ) from None
    return PrivateMessage(
        pm_id=pm_id,
        sender=sender,
        sender_id=sender_id,
        recipients=tuple(recipients),
        sent_at=sent_at,
        subject=subject,
        body_html=content.inner_html or "",
        body_text=plain_text_node(content),
        folder=folder,
    )


def _pm_header(author_p: Node) -> tuple[str, str, int | None, list[str]]:
    """«<strong>Отправлено:</strong> date <br><strong>От:</strong> user <br><strong>
    Получатель:</strong> users» → (date text, sender, sender id, recipients).

    Labels are recognised in Russian and English; unknown labels fall back to phpBB's fixed
    order (sent, from, to, bcc).
    """
    segments: list[tuple[str, list[Node]]] = []
    for child in author_p.iter(include_text=True):
        if child.tag == "strong":
            segments.append((_norm(child.text()).rstrip(":").strip().lower(), []))
        elif segments:
            segments[-1][1].append(child)
    sent_text, sender, sender_id = "", "", None
    recipients: list[str] = []
    for index, (label, nodes) in enumerate(segments):
        role = _PM_ROLES.get(label) or _PM_ORDER[min(index, len(_PM_ORDER) - 1)]
        if role == "sent":
            sent_text = _norm(" ".join(
                (n.text(deep=False) or "") if n.tag == "-text" else n.text() for n in nodes
            ))
        elif role == "from":
            users = _users_among(nodes)
            if users:
                sender, sender_id = users[0]
        else:
            recipients.extend(name for name, _ in _users_among(nodes))
    return sent_text, sender, sender_id, recipients


def _users_among(nodes: list[Node]) -> list[tuple[str, int | None]]:
    found: list[tuple[str, int | None]] = []
    for node in nodes:
        if node.tag == "a":
            href = node.attributes.get("href") or ""
            match = _USER_ID.search(href)
            # Group recipients (3.0) link to memberlist.php?mode=group: a name, no user id.
            found.append((_norm(node.text()), int(match.group(1)) if match else None))
        elif node.tag == "span" and any(
            c in (node.attributes.get("class") or "") for c in ("username", "username-coloured")
        ):
            found.append((_norm(node.text()), None))
        elif node.tag not in ("-text", "br", "-comment"):
            found.extend(_users_among(list(node.iter(include_text=False))))
    return [(name, uid) for name, uid in found if name]


def parse_pm_folder(html: str, *, url: str, tz: ZoneInfo, now: datetime) -> PmFolderPage:
    """A PM folder listing (inbox/sentbox/outbox): one entry per message row.

    Rows of messages deleted by their author before reading are skipped: their only link
    is phpBB's «Удалить сообщение» action, and there is nothing left to read.
    """
    tree = LexborHTMLParser(html)
    rows = tree.css("ul.pmlist > li")
    if not rows and tree.css_first("form#viewfolder") is None:
        _raise_for_page(tree, url, "папка личных сообщений")
    own_name = _logged_in_name(tree)
    entries: list[PmListEntry] = []
    for row in rows:
        entry = _pm_row(row, url, tz, now, own_name)
        if entry is not None:
            entries.append(entry)
    pages = _pagination(tree, html, url, len(entries))
    return PmFolderPage(
        folder=_folder_name(tree, url),
        page=pages.page,
        total_pages=pages.total_pages,
        entries=tuple(entries),
    )


def _pm_row(
    row: Node, url: str, tz: ZoneInfo, now: datetime, own_name: str
) -> PmListEntry | None:
    title = row.css_first("a.topictitle")
    if title is None:
        return None
    href = title.attributes.get("href") or ""
    if "action=delete" in href or row.css_first("span.error") is not None:
        return None
    match = _MSG_ID.search(href)
    if match is None:
        box = row.css_first('input[name="marked_msg_id[]"]')
        value = box.attributes.get("value") if box is not None else None
        if not value or not value.isdigit():
            return None
        pm_id = int(value)
    else:
        pm_id = int(match.group(1))
    holder = row.css_first("dl")
    marks = " ".join(
        (node.attributes.get("class") or "") + " " + (node.attributes.get("style") or "")
        for node in (row, holder) if node is not None
    )
    unread = "pm_unread" in marks
    inner = row.css_first("div.list-inner") or row.css_first("dt")
    info = row.css_first("dd.info span")
    sender = ""
    recipients: tuple[str, ...] = ()
    sent_text = ""
    if info is not None and ":" in info.text():
        # Sent folders: «Кому <user>» and «<dd class="info">Отправлено: date</dd>».
        sent_text = _norm(info.text()).split(":", 1)[1].strip()
        recipients = tuple(name for name, _ in _users_among(_children(inner)) if name)
        sender = own_name
    elif inner is not None:
        users = [u for u in _users_among(_children(inner)) if u[0] != _norm(title.text())]
        if users:
            sender = users[0][0]
        full = _norm(inner.text())
        sent_text = full.rsplit("»", 1)[1].strip() if "»" in full else ""
    sent_at: datetime | None = None
    if sent_text:
        try:
            sent_at = parse_forum_date(sent_text, tz=tz, now=now)
        except DateParseError:
            sent_at = None
    return PmListEntry(
        pm_id=pm_id,
        subject=_norm(title.text()),
        sender=sender,
        sent_at=sent_at,
        url=_abs_url(url, href, drop_sid=True),
        unread=unread,
        recipients=recipients,
    )


def _children(node: Node | None) -> list[Node]:
    if node is None:
        return []
    return [child for child in node.iter(include_text=False) if child.tag != "a"
            or "topictitle" not in (child.attributes.get("class") or "")]


def _folder_name(tree: LexborHTMLParser, url: str) -> str:
    marker = tree.css_first('input[name="cur_folder_id"]')
    if marker is not None:
        value = (marker.attributes.get("value") or "").strip()
        return _FOLDERS.get(value, value or "inbox")
    query = dict(parse_qsl(urlsplit(url).query))
    value = query.get("folder") or query.get("f") or "inbox"
    return _FOLDERS.get(value, value)


# ---------------------------------------------------------------------------------------
# Login
# ---------------------------------------------------------------------------------------


class LoginErrorKind(StrEnum):
    """Why phpBB refused a login (research §3.2)."""

    WRONG_PASSWORD = "wrong_password"
    WRONG_USERNAME = "wrong_username"
    CAPTCHA_REQUIRED = "captcha_required"  # LOGIN_ERROR_ATTEMPTS: a human must log in
    INACTIVE = "inactive"
    BANNED = "banned"
    FORM_INVALID = "form_invalid"  # FORM_INVALID: token too fast/old or session changed
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class LoginForm:
    """What a client needs to POST phpBB's login form like a browser would.

    ``hidden`` maps each hidden field to the value PHP will see: when a name repeats (the
    3.3 page has two ``redirect`` fields) the last one wins, as in ``$_POST``.
    """

    action: str
    hidden: dict[str, str] = field(default_factory=dict)
    username_field: str = "username"
    password_field: str = "password"
    submit: tuple[str, str] | None = ("login", "")
    autologin_field: str | None = None
    has_captcha: bool = False


def parse_login_form(html: str, *, url: str) -> LoginForm:
    tree = LexborHTMLParser(html)
    form = _login_form_node(tree)
    if form is None:
        raise MalformedPage(f"На странице {url} нет формы входа phpBB (form#login).", _HINT_URL)
    username_field = "username"
    for box in form.css("input"):
        kind = (box.attributes.get("type") or "text").lower()
        if kind == "text" and box.attributes.get("name"):
            username_field = box.attributes["name"] or username_field
            break
    password = form.css_first("input[type=password]")
    autologin = form.css_first('input[type=checkbox][name="autologin"]')
    return LoginForm(
        action=_abs_url(url, form.attributes.get("action") or url),
        hidden=_hidden_fields(form),
        username_field=username_field,
        password_field=(password.attributes.get("name") if password is not None else None)
        or "password",
        submit=_submit(form, "login"),
        autologin_field="autologin" if autologin is not None else None,
        has_captcha=_has_captcha(form),
    )


def _hidden_fields(form: Node) -> dict[str, str]:
    fields: dict[str, str] = {}
    for box in form.css('input[type="hidden"]'):
        name = box.attributes.get("name")
        if name:
            fields[name] = box.attributes.get("value") or ""
    return fields


def _submit(form: Node, preferred: str) -> tuple[str, str] | None:
    buttons = [
        b for b in form.css('input[type="submit"], button[type="submit"]')
        if b.attributes.get("name")
    ]
    for button in buttons:
        if button.attributes.get("name") == preferred:
            return preferred, button.attributes.get("value") or ""
    if buttons:
        return buttons[0].attributes.get("name") or "", buttons[0].attributes.get("value") or ""
    return None


def _has_captcha(form: Node) -> bool:
    return form.css_first(
        'input[name="confirm_code"], input[name="qa_answer"], input[name="confirm_id"], '
        ".g-recaptcha, .cf-turnstile, textarea[name=\"g-recaptcha-response\"], "
        'iframe[src*="recaptcha"], script[src*="recaptcha"], script[src*="turnstile"]'
    ) is not None


_LOGIN_ERRORS: tuple[tuple[LoginErrorKind, tuple[str, ...]], ...] = (
    (LoginErrorKind.CAPTCHA_REQUIRED, ("превысили максимально допустимое количество попыток",
                                       "exceeded the maximum allowed number of login")),
    (LoginErrorKind.WRONG_PASSWORD, ("неверный пароль", "incorrect password")),
    (LoginErrorKind.WRONG_USERNAME, ("неверное имя пользователя", "incorrect username")),
    (LoginErrorKind.FORM_INVALID, ("ошибка отправки формы", "submitted form was invalid")),
    (LoginErrorKind.INACTIVE, ("неактивн", "не активировали", "inactive", "not activated",
                               "not yet activated")),
    (LoginErrorKind.BANNED, ("закрыт доступ", "доступ к конференции закрыт", "banned",
                             "ban has been issued")),
)


def login_error(html: str) -> LoginErrorKind | None:
    """Classify phpBB's refusal of a login; ``None`` when the page shows no login error."""
    tree = LexborHTMLParser(html)
    form = _login_form_node(tree)
    texts: list[str] = []
    if form is not None:
        texts = [_norm(n.text()) for n in form.css(".error")]
    if not any(texts):
        panel = _message_panel(tree)
        if panel is not None:
            texts = [panel[1]]
    text = " ".join(t for t in texts if t).lower()
    if not text:
        return None
    for kind, needles in _LOGIN_ERRORS:
        if any(needle in text for needle in needles):
            return kind
    if form is not None and _has_captcha(form):
        return LoginErrorKind.CAPTCHA_REQUIRED
    return LoginErrorKind.UNKNOWN


def is_logged_in(html: str) -> bool:
    """True when the page was rendered for a logged-in account (header menu / logout link)."""
    tree = LexborHTMLParser(html)
    return (tree.css_first("li#username_logged_in") is not None
            or tree.css_first('a[href*="mode=logout"]') is not None)


def _logged_in_name(tree: LexborHTMLParser) -> str:
    header = tree.css_first("li#username_logged_in")
    if header is not None:
        span = header.css_first(".username, .username-coloured")
        if span is not None:
            return _norm(span.text())
    logout = tree.css_first('a[href*="mode=logout"]')
    if logout is not None:
        # 3.0 «Выход [ Nick ]» / «Logout [ Nick ]».
        match = re.search(r"\[\s*(.+?)\s*\]", _norm(logout.text()))
        if match:
            return match.group(1)
    return ""


# ---------------------------------------------------------------------------------------
# Posting (reply and PM compose)
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PostingForm:
    """phpBB's reply or PM compose form, as a browser would submit it.

    ``hidden`` holds ``form_token``, ``creation_time``, ``topic_cur_post_id``, … (last
    value wins, like PHP); ``defaults`` the checked checkboxes and radios a browser would
    also send (``attach_sig=on``, ``icon=0``). Post ``subject`` (kept as prefilled),
    ``textarea`` = the message, and the ``submit`` pair.
    """

    action: str
    hidden: dict[str, str] = field(default_factory=dict)
    textarea: str = "message"
    subject: str | None = None
    submit: tuple[str, str] | None = ("post", "")
    defaults: dict[str, str] = field(default_factory=dict)
    has_captcha: bool = False


def _posting_form_node(tree: LexborHTMLParser) -> Node | None:
    form = tree.css_first("form#postform")
    if form is not None and form.css_first("textarea") is not None:
        return form
    return None


def parse_posting_form(html: str, *, url: str) -> PostingForm:
    tree = LexborHTMLParser(html)
    form = _posting_form_node(tree)
    if form is None:
        _raise_for_page(tree, url, "форма ответа")
    textarea = "message"
    areas = [a.attributes.get("name") or "" for a in form.css("textarea")]
    if "message" not in areas:
        textarea = next((n for n in areas if n and n not in ("username_list", "filecomment")),
                        "message")
    subject_box = form.css_first('input[name="subject"]')
    defaults: dict[str, str] = {}
    for box in form.css('input[type="checkbox"], input[type="radio"]'):
        name = box.attributes.get("name")
        if name and "checked" in box.attributes:
            defaults[name] = box.attributes.get("value") or "on"
    return PostingForm(
        action=_abs_url(url, form.attributes.get("action") or url),
        hidden=_hidden_fields(form),
        textarea=textarea,
        subject=(subject_box.attributes.get("value") or "") if subject_box is not None else None,
        submit=_submit(form, "post"),
        defaults=defaults,
        has_captcha=_has_captcha(form),
    )


def posting_error(html: str) -> str | None:
    """phpBB's reason for not storing a post, or ``None`` if the page shows none.

    Reads the form's error box (FORM_INVALID «Ошибка отправки формы», FLOOD_ERROR «Вы не
    можете так часто отправлять сообщения», …), the «new posts since you started» review
    that makes phpBB hand the form back unposted, and information panels (locked topic, …).
    """
    tree = LexborHTMLParser(html)
    form = _posting_form_node(tree)
    if form is not None:
        errors = [_norm(n.text()) for n in form.css("p.error, div.error, span.error")]
        errors = [e for e in errors if e]
        if errors:
            return " ".join(errors)
        review = form.css_first('div.postbody[id^="ppr"]')
        if review is not None:
            # posting_review.html: <h3>…</h3><p>{POST_REVIEW_EXPLAIN}</p> then the new posts.
            block = _ancestor(review, "div")
            while block is not None and "post" not in (block.attributes.get("class") or ""):
                block = _ancestor(block, "div")
            sibling = block.prev if block is not None else None
            while sibling is not None and sibling.tag != "p":
                sibling = sibling.prev
            if sibling is not None and _norm(sibling.text()):
                return _norm(sibling.text())
        return None
    if posting_success(html) is not None:
        return None
    panel = _message_panel(tree)
    if panel is not None:
        return panel[1] or panel[0]
    return None


def posting_success(html: str) -> int | None:
    """The id of the post (or PM) phpBB reports as stored, else ``None``.

    Recognises the «Сообщение было успешно отправлено» panel / meta refresh with its
    ``viewtopic.php?p=N`` link, and the topic page reached after following the redirect:
    there the newest post of the logged-in account is the one just stored (the redirect
    target's ``#pN`` fragment never reaches the server; prefer it from the final URL).
    """
    tree = LexborHTMLParser(html)
    for meta in tree.css("meta"):
        if (meta.attributes.get("http-equiv") or "").lower() == "refresh":
            match = _MSG_ID.search(meta.attributes.get("content") or "")
            if match:
                return int(match.group(1))
    panel = tree.css_first("div#message")
    if panel is not None:
        for link in panel.css("a"):
            href = link.attributes.get("href") or ""
            match = _MSG_ID.search(href)
            if match and ("viewtopic.php" in href or "i=pm" in href):
                return int(match.group(1))
        return None
    if _posting_form_node(tree) is not None:
        return None
    own = _logged_in_name(tree)
    if not own:
        return None
    mine = [pid for pid, node in _prosilver_posts(tree) if _post_author(node) == own]
    return max(mine) if mine else None


def _post_author(node: Node) -> str:
    author_p = node.css_first("p.author strong")
    return _user_in(author_p)[0] if author_p is not None else ""

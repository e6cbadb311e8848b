"""phpBB private messages: one opened PM and the folder listings, prosilver and subsilver2
(their markup: README.md, «Private messages»)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from urllib.parse import parse_qsl, urlsplit
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters.html import int_or_none, next_element, squash
from adapters.phpbb.body import body_of
from adapters.phpbb.page import (
    _HINT_URL,
    _PM_POST_ID,
    _abs_url,
    _ancestor,
    _raise_for_page,
    account,
    listed_time,
    msg_id,
    pagination,
    read_date,
    row_pm_id,
    text_of,
    users_among,
)
from adapters.phpbb.pm_export import ExportForm, export_form
from referee.core.errors import (
    MalformedPage,
)
from referee.core.kernel import (
    PmFolderPage,
    PmListEntry,
    PrivateMessage,
)

# ---------------------------------------------------------------------------------------
# Private messages
# ---------------------------------------------------------------------------------------

_FOLDERS = {"0": "inbox", "-1": "sentbox", "-2": "outbox", "-3": "drafts"}
_ROLES = (
    ("subject", ("тема", "заголов", "subject")),
    ("from", ("от", "from", "автор", "author")),
    ("sent", ("отправлен", "sent", "дата", "date")),
    ("to", ("кому", "получател", "to", "recipient")),
    ("bcc", ("скрыт", "bcc")),
)
# The labels' order in the templates, for a label in another language:
_PM_ORDER = ("sent", "from", "to")  # prosilver's ucp_pm_viewmessage.html
_TABLE_ORDER = ("subject", "from", "sent", "to", "bcc")  # subsilver2's message table

_Found = tuple[int, str, dict[str, list[Node]], Node]
"""A message as a layout shows it: its id, subject, header values by role, content."""


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
    found = _prosilver_pm(post, url) if post is not None else _subsilver_pm(tree, url)
    if found is None:
        _raise_for_page(tree, url, "личное сообщение")
    pm_id, subject, roles, content = found
    senders = users_among(roles.get("from", [])) or [(_joined(roles.get("from", [])), None)]
    if not senders[0][0]:
        raise MalformedPage(f"Личное сообщение {pm_id} ({url}): не найден отправитель («От:»).",
                            _HINT_URL)
    sent_text = _joined(roles.get("sent", []))
    sent_at = read_date([sent_text], f"Личное сообщение {pm_id} ({url})", tz, now)
    recipients = [name for role in ("to", "bcc") for name, _ in users_among(roles.get(role, []))]
    body_html, body_text = body_of(content)
    return PrivateMessage(
        pm_id=pm_id, sender=senders[0][0], sender_id=senders[0][1],
        recipients=tuple(recipients), sent_at=sent_at, subject=subject,
        body_html=body_html, body_text=body_text, folder=folder,
    )


def _prosilver_pm(post: Node, url: str) -> _Found:
    own = _PM_POST_ID.match(post.attributes.get("id") or "")
    pm_id = _pm_id((int(own.group(1)) if own else None, msg_id(url)), url, "div#post-N")
    author_p = post.css_first("p.author")
    content = post.css_first("div.content")
    if author_p is None or content is None:
        raise MalformedPage(
            f"Личное сообщение {pm_id} ({url}): нет строки «Отправлено/От» (p.author) или "
            f"текста (div.content).",
            _HINT_URL,
        )
    return pm_id, text_of(post.css_first("h3")), _pm_header(author_p), content


def _pm_id(found: Iterable[int | None], url: str, where: str) -> int:
    """The first number the page gives its message (its own mark, the address's ``p=``)."""
    pm_id = next((number for number in found if number is not None), None)
    if pm_id is None:
        raise MalformedPage(f"Личное сообщение {url}: не найден его номер ({where}).", _HINT_URL)
    return pm_id


def _pm_header(author_p: Node) -> dict[str, list[Node]]:
    """«<strong>Отправлено:</strong> date <br><strong>От:</strong> user <br><strong>
    Получатель:</strong> users» → the nodes after each label, by role (:func:`_role`)."""
    roles: dict[str, list[Node]] = {}
    segment: list[Node] | None = None
    for child in author_p.iter(include_text=True):
        if child.tag == "strong":
            segment = roles.setdefault(_role(child.text(), len(roles), _PM_ORDER), [])
        elif segment is not None:
            segment.append(child)
    return roles


def _role(label: str, index: int, order: tuple[str, ...]) -> str:
    """A header label's role, in Russian or English; a label in another language takes
    the role its place has in the template (``order``)."""
    label = squash(label).rstrip(":").strip().lower()
    return next((role for role, words in _ROLES
                 if any(label == w or label.startswith(w + " ") or
                        (len(w) > 3 and label.startswith(w)) for w in words)),
                order[min(index, len(order) - 1)])


def _joined(nodes: list[Node]) -> str:
    """The text of a header value's nodes, as a reader sees it."""
    return squash(" ".join(
        (n.text(deep=False) or "") if n.tag == "-text" else n.text() for n in nodes))


def parse_pm_folder(html: str, *, url: str, tz: ZoneInfo, now: datetime) -> PmFolderPage:
    """A PM folder listing (inbox/sentbox/outbox): one entry per message row.

    Rows of messages deleted by their author before reading are skipped: their only link
    is phpBB's «Удалить сообщение» action, and there is nothing left to read.
    """
    return read_pm_folder(html, url=url, tz=tz, now=now)[0]


def read_pm_folder(
    html: str, *, url: str, tz: ZoneInfo, now: datetime
) -> tuple[PmFolderPage, ExportForm | None]:
    """:func:`parse_pm_folder` and, from the same parse, the page's XML export form
    (None when the page offers none)."""
    tree = LexborHTMLParser(html)
    rows = tree.css("ul.pmlist > li")
    table = not rows and tree.css_first("form#viewfolder") is None
    if table:
        # subsilver2: a table of rows in form[name=viewfolder] (no id).
        rows = subsilver_folder_rows(tree)
        if not rows and tree.css_first('form[name="viewfolder"]') is None:
            _raise_for_page(tree, url, "папка личных сообщений")
    own_name = account(tree)[0]
    folder = _folder_name(tree, url)
    read_row = subsilver_pm_row if table else _pm_row
    where = (url, tz, now)
    entries = [entry for row in rows if (entry := read_row(
        row, where, own_name, folder in ("sentbox", "outbox"))) is not None]
    pages = pagination(tree, html, url)
    page = PmFolderPage(
        folder=folder,
        page=pages.page,
        total_pages=pages.total,
        entries=tuple(entries),
    )
    return page, export_form(tree, url, rows)


_Where = tuple[str, ZoneInfo, datetime]
"""The folder page's address, the time zone it is shown in and when it was read."""


def _pm_row(row: Node, where: _Where, own_name: str, sent_folder: bool) -> PmListEntry | None:
    title = row.css_first("a.topictitle")
    if title is None or "action=delete" in (title.attributes.get("href") or "") \
            or row.css_first("span.error") is not None:
        return None  # deleted by its author before it was read: nothing left to open
    unread = "pm_unread" in " ".join(
        (node.attributes.get("class") or "") + " " + (node.attributes.get("style") or "")
        for node in (row, row.css_first("dl")) if node is not None
    )
    inner = row.css_first("div.list-inner") or row.css_first("dt")
    info = row.css_first("dd.info span")
    users = users_among(_children(inner))
    if info is not None and ":" in info.text():
        # Sent folders: «Кому <user>» and «<dd class="info">Отправлено: date</dd>».
        return _entry(row, title, where, unread, (own_name, None),
                      tuple(name for name, _ in users),
                      squash(info.text()).split(":", 1)[1].strip())
    users = [u for u in users if u[0] != squash(title.text())]
    full = text_of(inner)
    return _entry(row, title, where, unread, users[0] if users else ("", None),
                  (), full.rsplit("»", 1)[1].strip() if "»" in full else "")


def _entry(row: Node, title: Node, where: _Where, unread: bool,
           sender: tuple[str, int | None], recipients: tuple[str, ...],
           sent_text: str) -> PmListEntry | None:
    """A folder row once a layout has read it; None for a row without a message id."""
    url, tz, now = where
    href = title.attributes.get("href") or ""
    pm_id = row_pm_id(row, href)
    if pm_id is None:
        return None
    return PmListEntry(
        pm_id=pm_id, subject=squash(title.text()), sender=sender[0],
        sent_at=listed_time(sent_text, tz, now), url=_abs_url(url, href),
        unread=unread, recipients=recipients, sender_id=sender[1],
    )


def _children(node: Node | None) -> list[Node]:
    children = node.iter(include_text=False) if node is not None else ()
    return [child for child in children if child.tag != "a"
            or "topictitle" not in (child.attributes.get("class") or "")]


def _folder_name(tree: LexborHTMLParser, url: str) -> str:
    marker = tree.css_first('input[name="cur_folder_id"]')
    if marker is not None:
        value = (marker.attributes.get("value") or "").strip()
        return _FOLDERS.get(value, value or "inbox")
    return folder_of(url)


def folder_of(address: str) -> str:
    """The PM folder an address names (``folder=``, ``f=``), by name for phpBB's own."""
    query = dict(parse_qsl(urlsplit(address.replace("&amp;", "&")).query))
    value = query.get("folder") or query.get("f") or "inbox"
    return _FOLDERS.get(value, value)


# ---------------------------------------------------------------------------------------
# subsilver2's PM table and folder rows
# ---------------------------------------------------------------------------------------

def pm_header_rows(tree: LexborHTMLParser) -> dict[str, list[Node]]:
    """The message table's value cells, by role (empty when the page has none)."""
    rows: dict[str, list[Node]] = {}
    for index, label_cell in enumerate(
            c for c in tree.css("td.genmed") if c.css_first("b") is not None):
        value = next_element(label_cell)
        if value is not None and value.tag == "td":
            rows.setdefault(_role(label_cell.text(), index, _TABLE_ORDER), [value])
    return rows if "from" in rows and "sent" in rows else {}


def _subsilver_pm(tree: LexborHTMLParser, url: str) -> _Found | None:
    """The message of a subsilver2 PM page, or None when the page is not one."""
    rows = pm_header_rows(tree)
    content = tree.css_first("div.postbody")
    if not rows or content is None:
        return None
    marked = tree.css_first('input[name="p"], input[name="marked_msg_id[]"]')
    value = marked.attributes.get("value") if marked is not None else None
    pm_id = _pm_id((msg_id(url), int_or_none(value)), url, "p=…")
    return pm_id, _joined(rows.get("subject", [])), rows, content


def subsilver_folder_rows(tree: LexborHTMLParser) -> list[Node]:
    """The message rows of a subsilver2 folder page (each holds a ``marked_msg_id[]``)."""
    rows = (_ancestor(box, "tr") for box in tree.css('input[name="marked_msg_id[]"]'))
    return [row for row in rows
            if row is not None and row.css_first("span.topictitle") is not None]


def subsilver_pm_row(row: Node, where: _Where, own_name: str,
                     sent_folder: bool) -> PmListEntry | None:
    title = next((a for a in row.css("span.topictitle a")
                  if "action=delete" not in (a.attributes.get("href") or "")), None)
    if title is None:
        return None  # deleted by its author before it was read: nothing left to open
    people = row.css_first("p.topicauthor")
    users = users_among([people] if people is not None else [])
    if not users and text_of(people):
        users = [(text_of(people), None)]
    details = [p for p in row.css("p.topicdetails") if p.css_first("input") is None]
    unread = any("unread" in (img.attributes.get("src") or "") or
                 "_new" in (img.attributes.get("src") or "") for img in row.css("img"))
    if sent_folder:
        sender, recipients = (own_name, None), tuple(name for name, _ in users)
    else:
        sender, recipients = users[0] if users else ("", None), ()
    return _entry(row, title, where, unread, sender, recipients,
                  text_of(details[0]) if details else "")

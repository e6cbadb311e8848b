"""phpBB private messages: one opened PM and the folder listings (prosilver and subsilver2).

subsilver2: the message (``ucp_pm_viewmessage.html``) is a table of label rows
(``td.genmed > b`` «Тема / От / Отправлено / Кому / Скрытая копия» and the value in
``td.gen``) above the text in ``div.postbody``; a folder (``ucp_pm_viewfolder.html``,
``form[name=viewfolder]``) lists one ``tr`` per message: ``span.topictitle a`` (``p=``),
``p.topicauthor`` (the sender, or the recipients in sent folders), ``p.topicdetails`` (the
date) and the ``marked_msg_id[]`` checkbox; an unread message's folder image is
``…unread…``.
"""

from __future__ import annotations

from datetime import datetime
from urllib.parse import parse_qsl, urlsplit
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters.html import squash
from adapters.phpbb.body import body_of
from adapters.phpbb.forms import _logged_in_name
from adapters.phpbb.page import (
    _HINT_URL,
    _MSG_ID,
    _PM_POST_ID,
    _abs_url,
    _ancestor,
    _raise_for_page,
    listed_time,
    pagination,
    read_date,
    row_pm_id,
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
        table = subsilver_pm(tree, url, tz, now, folder)
        if table is not None:
            return table
        _raise_for_page(tree, url, "личное сообщение")
    match = _PM_POST_ID.match(post.attributes.get("id") or "")
    if match is None:
        match = _MSG_ID.search(url)
    if match is None:
        raise MalformedPage(f"Личное сообщение {url}: не найден его номер (div#post-N).",
                            _HINT_URL)
    pm_id = int(match.group(1))
    subject_node = post.css_first("h3")
    subject = squash(subject_node.text()) if subject_node is not None else ""
    author_p = post.css_first("p.author")
    content = post.css_first("div.content")
    if author_p is None or content is None:
        raise MalformedPage(
            f"Личное сообщение {pm_id} ({url}): нет строки «Отправлено/От» (p.author) или "
            f"текста (div.content).",
            _HINT_URL,
        )
    sent_text, sender, sender_id, recipients = _pm_header(author_p)
    return _message(pm_id, (sender, sender_id), recipients, sent_text, subject, content,
                    url=url, tz=tz, now=now, folder=folder)


def _message(pm_id: int, sender: tuple[str, int | None], recipients: list[str],
             sent_text: str, subject: str, content: Node, *, url: str, tz: ZoneInfo,
             now: datetime, folder: str) -> PrivateMessage:
    """The message once a style's header is read: its sender checked, its date read."""
    if not sender[0]:
        raise MalformedPage(f"Личное сообщение {pm_id} ({url}): не найден отправитель («От:»).",
                            _HINT_URL)
    sent_at = read_date([sent_text], f"Личное сообщение {pm_id} ({url})", tz, now)
    body_html, body_text = body_of(content)
    return PrivateMessage(
        pm_id=pm_id, sender=sender[0], sender_id=sender[1], recipients=tuple(recipients),
        sent_at=sent_at, subject=subject, body_html=body_html, body_text=body_text,
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
            segments.append((squash(child.text()).rstrip(":").strip().lower(), []))
        elif segments:
            segments[-1][1].append(child)
    sent_text, sender, sender_id = "", "", None
    recipients: list[str] = []
    for index, (label, nodes) in enumerate(segments):
        role = _PM_ROLES.get(label) or _PM_ORDER[min(index, len(_PM_ORDER) - 1)]
        if role == "sent":
            sent_text = squash(" ".join(
                (n.text(deep=False) or "") if n.tag == "-text" else n.text() for n in nodes
            ))
        elif role == "from":
            users = users_among(nodes)
            if users:
                sender, sender_id = users[0]
        else:
            recipients.extend(name for name, _ in users_among(nodes))
    return sent_text, sender, sender_id, recipients


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
    own_name = _logged_in_name(tree)
    folder = _folder_name(tree, url)
    entries: list[PmListEntry] = []
    for row in rows:
        entry = (subsilver_pm_row(row, url, tz, now, own_name, folder in ("sentbox", "outbox"))
                 if table else _pm_row(row, url, tz, now, own_name))
        if entry is not None:
            entries.append(entry)
    pages = pagination(tree, html, url)
    page = PmFolderPage(
        folder=folder,
        page=pages.page,
        total_pages=pages.total,
        entries=tuple(entries),
    )
    return page, export_form(tree, url, rows)


def _pm_row(
    row: Node, url: str, tz: ZoneInfo, now: datetime, own_name: str
) -> PmListEntry | None:
    title = row.css_first("a.topictitle")
    if title is None:
        return None
    href = title.attributes.get("href") or ""
    if "action=delete" in href or row.css_first("span.error") is not None:
        return None
    pm_id = row_pm_id(row, href)
    if pm_id is None:
        return None
    holder = row.css_first("dl")
    marks = " ".join(
        (node.attributes.get("class") or "") + " " + (node.attributes.get("style") or "")
        for node in (row, holder) if node is not None
    )
    unread = "pm_unread" in marks
    inner = row.css_first("div.list-inner") or row.css_first("dt")
    info = row.css_first("dd.info span")
    sender = ""
    sender_id: int | None = None
    recipients: tuple[str, ...] = ()
    sent_text = ""
    if info is not None and ":" in info.text():
        # Sent folders: «Кому <user>» and «<dd class="info">Отправлено: date</dd>».
        sent_text = squash(info.text()).split(":", 1)[1].strip()
        recipients = tuple(name for name, _ in users_among(_children(inner)) if name)
        sender = own_name
    elif inner is not None:
        users = [u for u in users_among(_children(inner)) if u[0] != squash(title.text())]
        if users:
            sender, sender_id = users[0]
        full = squash(inner.text())
        sent_text = full.rsplit("»", 1)[1].strip() if "»" in full else ""
    sent_at = listed_time(sent_text, tz, now)
    return PmListEntry(
        pm_id=pm_id,
        subject=squash(title.text()),
        sender=sender,
        sent_at=sent_at,
        url=_abs_url(url, href, drop_sid=True),
        unread=unread,
        recipients=recipients,
        sender_id=sender_id,
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
# subsilver2's PM table and folder rows
# ---------------------------------------------------------------------------------------

_TABLE_LABELS = (
    ("subject", ("тема", "заголов", "subject")),
    ("from", ("от", "from", "автор", "author")),
    ("sent", ("отправлен", "sent", "дата", "date")),
    ("to", ("кому", "получател", "to", "recipient")),
    ("bcc", ("скрыт", "bcc")),
)
_TABLE_ORDER = ("subject", "from", "sent", "to", "bcc")  # the rows' order in the template


def pm_header_rows(tree: LexborHTMLParser) -> dict[str, Node]:
    """The message table's label rows, by role (empty when the page has none)."""
    rows: dict[str, Node] = {}
    for index, label_cell in enumerate(
            c for c in tree.css("td.genmed") if c.css_first("b") is not None):
        value = label_cell.next
        while value is not None and value.tag != "td":
            value = value.next
        if value is None:
            continue
        label = squash(label_cell.text()).rstrip(":").strip().lower()
        role = next((r for r, words in _TABLE_LABELS
                     if any(label == w or label.startswith(w + " ") or
                            (len(w) > 3 and label.startswith(w)) for w in words)),
                    _TABLE_ORDER[min(index, len(_TABLE_ORDER) - 1)])
        rows.setdefault(role, value)
    return rows if "from" in rows and "sent" in rows else {}


def subsilver_pm(tree: LexborHTMLParser, url: str, tz: ZoneInfo, now: datetime,
                 folder: str) -> PrivateMessage | None:
    """The message of a subsilver2 PM page, or None when the page is not one."""
    rows = pm_header_rows(tree)
    content = tree.css_first("div.postbody")
    if not rows or content is None:
        return None
    match = _MSG_ID.search(url)
    marked = tree.css_first('input[name="p"], input[name="marked_msg_id[]"]')
    value = (marked.attributes.get("value") or "") if marked is not None else ""
    if match is None and not value.isdigit():
        raise MalformedPage(f"Личное сообщение {url}: не найден его номер (p=…).", _HINT_URL)
    pm_id = int(match.group(1)) if match else int(value)
    senders = users_among(list(rows["from"].iter(include_text=False))) or [
        (squash(rows["from"].text()), None)]
    recipients = [name for role in ("to", "bcc") if role in rows
                  for name, _ in users_among(list(rows[role].iter(include_text=False)))]
    subject = squash(rows["subject"].text()) if "subject" in rows else ""
    return _message(pm_id, senders[0], recipients, squash(rows["sent"].text()), subject,
                    content, url=url, tz=tz, now=now, folder=folder)


def subsilver_folder_rows(tree: LexborHTMLParser) -> list[Node]:
    """The message rows of a subsilver2 folder page (each holds a ``marked_msg_id[]``)."""
    rows: list[Node] = []
    for box in tree.css('input[name="marked_msg_id[]"]'):
        row = _ancestor(box, "tr")
        if row is not None and row.css_first("span.topictitle") is not None:
            rows.append(row)
    return rows


def subsilver_pm_row(row: Node, url: str, tz: ZoneInfo, now: datetime, own_name: str,
                     sent_folder: bool) -> PmListEntry | None:
    title = next((a for a in row.css("span.topictitle a")
                  if "action=delete" not in (a.attributes.get("href") or "")), None)
    if title is None:
        return None  # deleted by its author before it was read: nothing left to open
    href = title.attributes.get("href") or ""
    pm_id = row_pm_id(row, href)
    if pm_id is None:
        return None
    people = row.css_first("p.topicauthor")
    users = users_among(list(people.iter(include_text=False))) if people is not None else []
    if not users and people is not None and squash(people.text()):
        users = [(squash(people.text()), None)]
    details = [p for p in row.css("p.topicdetails") if p.css_first("input") is None]
    sent_at = listed_time(squash(details[0].text()), tz, now) if details else None
    unread = any("unread" in (img.attributes.get("src") or "") or
                 "_new" in (img.attributes.get("src") or "") for img in row.css("img"))
    sender, sender_id = (own_name, None) if sent_folder else (users[0] if users else ("", None))
    return PmListEntry(
        pm_id=pm_id, subject=squash(title.text()), sender=sender, sent_at=sent_at,
        url=_abs_url(url, href, drop_sid=True), unread=unread,
        recipients=tuple(name for name, _ in users) if sent_folder else (),
        sender_id=sender_id,
    )

"""subsilver2 (phpBB 3.0, and its ports to 3.1–3.3): the table layout of topics and PMs.

Topic (``viewtopic_body.html``): one ``table.tablebg`` per post; the first row holds
``<a name="p123">`` and ``<b class="postauthor">`` (the bare name, coloured by a style
attribute) in its first cell and the date after the last bold label («<b>Добавлено:</b>
22 ноя 2026, 14:26», «Posted:») in a ``td.gensmall``; the next row holds the text in the
first ``div.postbody`` (the signature is a second one after «_________________») and the
edit notice in ``span.gensmall``; the row after it links the profile (``u=``). A foe's post
is one ``td`` with the anchor and phpBB's notice, nothing else.

PMs: the message (``ucp_pm_viewmessage.html``) is a table of label rows (``td.genmed >
b`` «Тема / От / Отправлено / Кому / Скрытая копия» and the value in ``td.gen``) above the
text in ``div.postbody``; a folder (``ucp_pm_viewfolder.html``, ``form[name=viewfolder]``)
lists one ``tr`` per message: ``span.topictitle a`` (``p=``), ``p.topicauthor`` (the sender,
or the recipients in sent folders), ``p.topicdetails`` (the date) and the
``marked_msg_id[]`` checkbox; an unread message's folder image is ``…unread…``.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters.phpbb.body import body_of
from adapters.phpbb.page import (
    _HINT_URL,
    _MSG_ID,
    _POST_ID,
    _abs_url,
    _ancestor,
    _norm,
    _text_after,
    user_id_of,
    users_among,
)
from adapters.phpbb.postparts import RawPost, edit_notice, hidden_post_error, read_date
from referee.core.dates import parse_forum_date
from referee.core.errors import DateParseError, MalformedPage
from referee.core.kernel import PmListEntry, PrivateMessage

# ---------------------------------------------------------------------------------------
# Topic posts
# ---------------------------------------------------------------------------------------


def subsilver_anchors(tree: LexborHTMLParser) -> list[tuple[int, Node]]:
    found: list[tuple[int, Node]] = []
    for node in tree.css('a[name^="p"]'):
        match = _POST_ID.match(node.attributes.get("name") or "")
        if match:
            found.append((int(match.group(1)), node))
    return found


def subsilver_post(pid: int, anchor: Node, url: str, tz: ZoneInfo, now: datetime) -> RawPost:
    cell = anchor.parent
    author_b = cell.css_first("b.postauthor") if cell is not None else None
    if cell is None or author_b is None:
        raise hidden_post_error(pid, url)
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
    posted_at = read_date([text], f"Сообщение p{pid} на странице {url}", tz, now)
    body_row = _next_row(head_row)
    content = body_row.css_first("div.postbody") if body_row is not None else None
    if body_row is None or content is None:
        raise MalformedPage(
            f"Сообщение p{pid} на странице {url}: нет текста сообщения (div.postbody).",
            _HINT_URL,
        )
    edit = None
    for notice in body_row.css("span.gensmall"):
        edit = edit_notice(notice, tz, now)
        if edit is not None:
            break
    uid = None
    profile_row = _next_row(body_row)
    if profile_row is not None:
        link = profile_row.css_first('a[href*="mode=viewprofile"]')
        if link is not None:
            uid = user_id_of(link.attributes.get("href") or "")
    return RawPost(pid, name, uid, posted_at, content, edit)


def _next_row(row: Node | None) -> Node | None:
    current = row.next if row is not None else None
    while current is not None and current.tag != "tr":
        current = current.next
    return current


# ---------------------------------------------------------------------------------------
# Private messages
# ---------------------------------------------------------------------------------------

_PM_LABELS = (
    ("subject", ("тема", "заголов", "subject")),
    ("from", ("от", "from", "автор", "author")),
    ("sent", ("отправлен", "sent", "дата", "date")),
    ("to", ("кому", "получател", "to", "recipient")),
    ("bcc", ("скрыт", "bcc")),
)
_PM_ORDER = ("subject", "from", "sent", "to", "bcc")  # the rows' order in the template


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
        label = _norm(label_cell.text()).rstrip(":").strip().lower()
        role = next((r for r, words in _PM_LABELS
                     if any(label == w or label.startswith(w + " ") or
                            (len(w) > 3 and label.startswith(w)) for w in words)),
                    _PM_ORDER[min(index, len(_PM_ORDER) - 1)])
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
        (_norm(rows["from"].text()), None)]
    sender, sender_id = senders[0]
    sent_text = _norm(rows["sent"].text())
    sent_at = read_date([sent_text], f"Личное сообщение {pm_id} ({url})", tz, now)
    recipients = [name for role in ("to", "bcc") if role in rows
                  for name, _ in users_among(list(rows[role].iter(include_text=False)))]
    subject = _norm(rows["subject"].text()) if "subject" in rows else ""
    body_html, body_text = body_of(content)
    if not sender:
        raise MalformedPage(f"Личное сообщение {pm_id} ({url}): не найден отправитель («От:»).",
                            _HINT_URL)
    return PrivateMessage(
        pm_id=pm_id, sender=sender, sender_id=sender_id, recipients=tuple(recipients),
        sent_at=sent_at, subject=subject, body_html=body_html, body_text=body_text,
        folder=folder,
    )


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
    match = _MSG_ID.search(href)
    box = row.css_first('input[name="marked_msg_id[]"]')
    value = (box.attributes.get("value") or "") if box is not None else ""
    if match is None and not value.isdigit():
        return None
    pm_id = int(match.group(1)) if match else int(value)
    people = row.css_first("p.topicauthor")
    users = users_among(list(people.iter(include_text=False))) if people is not None else []
    if not users and people is not None and _norm(people.text()):
        users = [(_norm(people.text()), None)]
    details = [p for p in row.css("p.topicdetails") if p.css_first("input") is None]
    sent_at: datetime | None = None
    if details:
        try:
            sent_at = parse_forum_date(_norm(details[0].text()), tz=tz, now=now)
        except DateParseError:
            sent_at = None
    unread = any("unread" in (img.attributes.get("src") or "") or
                 "_new" in (img.attributes.get("src") or "") for img in row.css("img"))
    sender, sender_id = (own_name, None) if sent_folder else (users[0] if users else ("", None))
    return PmListEntry(
        pm_id=pm_id, subject=_norm(title.text()), sender=sender, sent_at=sent_at,
        url=_abs_url(url, href, drop_sid=True), unread=unread,
        recipients=tuple(name for name, _ in users) if sent_folder else (),
        sender_id=sender_id,
    )

"""phpBB's PM folder export: the form on a folder page and the XML it answers with.

What phpBB 3.0–3.3 does (``includes/ucp/ucp_pm_viewfolder.php``, ``view_folder()``): the
folder view's form (``form#viewfolder``) posted with ``submit_export`` and
``export_option=XML`` — plus the form key ``ucp_pm_view`` (``creation_time``,
``form_token``; 3.3 checks it, and like every phpBB form key it is refused in the second
it was made) — answers, instead of the page, ``Content-Type: application/xml;
name="data.xml"`` with ``Content-disposition: attachment; filename=data.xml``::

    <?xml version="1.0"?>
    <phpbb>
        <privmsg>
            <recipient type="to" status="u">Полковник</recipient>   (sent folders only)
            <subject>…</subject>
            <sender>…</sender>
            <date>2026-11-21T15:05:12+03:00</date>
            <message>…the BBCode as typed…</message>
        </privmsg>
    </phpbb>

(phpBB writes the kind, ``to`` or ``bcc``, as ``type`` and user or group, ``u`` or
``g``, as ``status``.) One ``<privmsg>`` per message of the folder page the request names —
the same rows the page lists, in its order: ``get_pm_from()`` reads ``start``, ``sk``,
``sd`` and ``st`` for both. Nothing is marked read (only viewing a message does that). The
export carries no message id, so each row is paired with the listing row at its place and
checked against it (subject, sender, minute); the date is ``format_date(…, 'c')``, ISO
8601 with seconds in the reader's time zone. The texts are escaped for XML by phpBB
(``htmlspecialchars``), the tags written as they are: a byte XML forbids (a control
character someone pasted) is dropped before reading.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import UTC, datetime

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters.phpbb.bbcode import bbcode_to_html
from adapters.phpbb.forms import _hidden_fields, _logged_in_name
from adapters.phpbb.page import _MSG_ID, _USER_ID, _abs_url, _ancestor, _norm
from referee.core.errors import MalformedPage
from referee.core.kernel import PmListEntry, PrivateMessage
from referee.core.markup import plain_text

_XML_FORBIDDEN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_HINT = ("Форум не отдал экспорт папки ЛС в XML; referee открывает сообщения по одному "
         "(это отмечает их прочитанными).")


@dataclass(frozen=True, slots=True)
class ExportForm:
    """What posting a folder page's export needs: where, which fields (the form's hidden
    ones with the form key, ``export_option=XML``, the button), and which message sits in
    each listing row (``None``: a row without an id)."""

    action: str
    fields: dict[str, str]
    row_ids: tuple[int | None, ...]
    account: str
    """The logged-in name: the recipient of every inbox message (the export names
    recipients only for sent folders)."""
    account_id: int | None = None
    """The logged-in user's id (his profile link in the header): the sender of every PM
    of the sent folders."""


@dataclass(frozen=True, slots=True)
class ExportedPm:
    subject: str
    sender: str
    sent_at: datetime | None
    recipients: tuple[str, ...]
    bbcode: str


def export_form(tree: LexborHTMLParser, url: str, rows: list[Node]) -> ExportForm | None:
    """The folder page's export form, or None when the page offers no XML export (a style
    or a board that removed it, phpBB 2)."""
    select = tree.css_first('select[name="export_option"]')
    if select is None or select.css_first('option[value="XML"]') is None:
        return None
    form = _ancestor(select, "form")
    if form is None:
        return None
    button = form.css_first('input[name="submit_export"], button[name="submit_export"]')
    if button is None:
        return None
    fields = _hidden_fields(form)
    fields["export_option"] = "XML"
    fields["submit_export"] = button.attributes.get("value") or "1"
    return ExportForm(
        action=_abs_url(url, form.attributes.get("action") or url, drop_sid=True),
        fields=fields, row_ids=tuple(_row_id(row) for row in rows),
        account=_logged_in_name(tree), account_id=_logged_in_id(tree),
    )


def _logged_in_id(tree: LexborHTMLParser) -> int | None:
    link = tree.css_first('li#username_logged_in a[href*="mode=viewprofile"]')
    match = _USER_ID.search(link.attributes.get("href") or "") if link is not None else None
    return int(match.group(1)) if match else None


def _row_id(row: Node) -> int | None:
    box = row.css_first('input[name="marked_msg_id[]"]')
    value = (box.attributes.get("value") or "") if box is not None else ""
    if value.isdigit():
        return int(value)
    for link in row.css("a[href]"):
        match = _MSG_ID.search(link.attributes.get("href") or "")
        if match:
            return int(match.group(1))
    return None


def parse_pm_export(content: bytes) -> list[ExportedPm]:
    """The ``<privmsg>`` rows of phpBB's XML export, in the page's order. Anything else (an
    HTML page: a refused form key, a login form, an error) raises :class:`MalformedPage`."""
    head = content[:512].lstrip().lower()
    if not head.startswith((b"<?xml", b"<phpbb")) or b"<!doctype" in head \
            or b"<!entity" in content.lower():
        raise MalformedPage("форум не ответил выгрузкой папки ЛС в XML",
                            _HINT)
    text = content.decode("utf-8", "replace")
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        try:
            root = ET.fromstring(_XML_FORBIDDEN.sub("", text))
        except ET.ParseError as error:
            raise MalformedPage(f"выгрузка папки ЛС в XML испорчена ({error})",
                                _HINT) from None
    if root.tag != "phpbb":
        raise MalformedPage("выгрузка — не phpBB (нет корня <phpbb>)", _HINT)
    return [_exported(row) for row in root.iter("privmsg")]


def _exported(row: ET.Element) -> ExportedPm:
    def field(tag: str) -> str:
        node = row.find(tag)
        return (node.text or "") if node is not None else ""

    sent_at: datetime | None
    try:
        sent_at = datetime.fromisoformat(field("date").strip()).astimezone(UTC)
    except (ValueError, OverflowError):  # «9999-12-31T23:59:59-12:00» is no clock
        sent_at = None
    recipients = tuple(_norm(r.text or "") for r in row.iter("recipient") if (r.text or "").strip())
    return ExportedPm(subject=_norm(field("subject")), sender=_norm(field("sender")),
                      sent_at=sent_at, recipients=recipients, bbcode=field("message"))


def same_message(row: ExportedPm, entry: PmListEntry) -> bool:
    """Whether an export row is the listing row it was paired with: subject, sender and
    the minute the listing shows (the listing has no seconds)."""
    if row.subject != _norm(entry.subject):
        return False
    if entry.sender and row.sender and row.sender != entry.sender:
        return False
    if row.sent_at is None:
        return False  # a PM without its time is no use to the rules (T2): open it instead
    if entry.sent_at is not None:
        return row.sent_at.replace(second=0, microsecond=0) == \
            entry.sent_at.astimezone(UTC).replace(second=0, microsecond=0)
    return True


def pm_from_export(row: ExportedPm, entry: PmListEntry, *, folder: str,
                   form: ExportForm) -> PrivateMessage:
    """The stored form of an exported PM (one :func:`same_message` accepted): the body
    rendered from its BBCode the way the view shows it (:mod:`.bbcode`), the second it was
    sent."""
    body_html = bbcode_to_html(row.bbcode)
    sent_folder = folder in ("sentbox", "outbox")
    recipients = row.recipients or (
        (form.account,) if form.account and not sent_folder else entry.recipients)
    return PrivateMessage(
        pm_id=entry.pm_id,
        sender=row.sender or entry.sender,
        sender_id=form.account_id if sent_folder else entry.sender_id,
        recipients=recipients,
        sent_at=row.sent_at or entry.sent_at or datetime.min.replace(tzinfo=UTC),
        subject=row.subject,
        body_html=body_html,
        body_text=plain_text(body_html),
        folder=folder,
    )


__all__ = ["ExportForm", "ExportedPm", "export_form", "parse_pm_export", "pm_from_export",
           "same_message"]

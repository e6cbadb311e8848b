"""phpBB's PM folder export: the form on a folder page, the XML it answers with (no read
marks), its rows paired with the listing's, and :class:`PmExport`, the part of the live
board that asks for it — once a page, or once a folder where the board exports past the
page. What phpBB does, and what is asked when it cannot export: README.md, «The folder
export»."""

from __future__ import annotations

import logging
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

import httpx
from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters.base import HttpClient
from adapters.form import read_form
from adapters.html import iso_utc, squash
from adapters.phpbb.bbcode import bbcode_to_html
from adapters.phpbb.page import _abs_url, _ancestor, account, row_pm_id
from referee.core.errors import ForumError, MalformedPage, NetworkError
from referee.core.kernel import PmBatch, PmFolderPage, PmListEntry, PrivateMessage
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
    button = None if form is None else form.css_first(
        'input[name="submit_export"], button[name="submit_export"]')
    if form is None or button is None:
        return None
    fields = read_form(form, url).hidden
    fields["export_option"] = "XML"
    fields["submit_export"] = button.attributes.get("value") or "1"
    name, uid = account(tree)
    return ExportForm(
        action=_abs_url(url, form.attributes.get("action") or url),
        fields=fields, row_ids=tuple(row_pm_id(row, any_link=True) for row in rows),
        account=name, account_id=uid,
    )


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
    sent_at = iso_utc(row.findtext("date"))  # «9999-12-31T23:59:59-12:00» is no clock: None
    recipients = tuple(squash(r.text or "") for r in row.iter("recipient")
                       if (r.text or "").strip())
    return ExportedPm(subject=squash(row.findtext("subject") or ""),
                      sender=squash(row.findtext("sender") or ""), sent_at=sent_at,
                      recipients=recipients, bbcode=row.findtext("message") or "")


def same_message(row: ExportedPm, entry: PmListEntry) -> bool:
    """Whether an export row is the listing row it was paired with: subject, sender and
    the minute the listing shows (the listing has no seconds)."""
    if row.subject != squash(entry.subject):
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


log = logging.getLogger("referee.phpbb")

FORM_KEY_WAIT = 1.05
"""Seconds between receiving a form key and posting it: phpBB refuses a form key in the
second it was made (``check_form_key``: the age must be above 0)."""


@dataclass(frozen=True, slots=True)
class _FormKey:
    """A ``ucp_pm_view`` form key (``creation_time`` + ``form_token``): good for every
    folder page of the session it was made in, so one is reused for the whole sync and
    only the first export waits for it to age."""

    fields: dict[str, str]
    received: float
    logins: int


class PmExport:
    """:class:`referee.core.kernel.PmFolderExport` for phpBB (mixed into the live forum)."""

    http: HttpClient
    logins: int
    pm_folder_url: Callable[..., str]

    def start_export(self) -> None:
        """The run's export state: each listed page's form, the form key, per folder an
        export that went past its page (with the folder place of its first row), and why
        this run stopped exporting (empty while it works)."""
        self._exports: dict[tuple[str, int], ExportForm] = {}
        self._form_key: _FormKey | None = None
        self._folder_rows: dict[str, tuple[int, list[ExportedPm]]] = {}
        self.export_off = ""

    def _remember_export(self, folder: str, page: int, url: str,
                         form: ExportForm | None) -> None:
        """Keep what the listing just fetched from ``url`` offers for exporting the same
        page."""
        if page == 1:
            self._folder_rows.pop(folder, None)  # a new listing: no answer of the last one
        if form is None:
            self._exports.pop((folder, page), None)
            return
        # The page is named in the form itself: phpBB 3.0's form address has no start=,
        # and PHP reads a posted field before the address's.
        start = parse_qs(urlsplit(url).query).get("start", ["0"])[0]
        form.fields.update(start=start, sk="t", sd="d", st="0")
        self._exports[(folder, page)] = form
        key = {k: v for k, v in form.fields.items() if k in ("creation_time", "form_token")}
        if key and (self._form_key is None or self._form_key.logins != self.logins):
            self._form_key = _FormKey(key, self.http.clock(), self.logins)

    def export_pm_folder_page(
        self, page: PmFolderPage, wanted: Sequence[PmListEntry]
    ) -> PmBatch:
        """The PMs ``wanted`` of ``page`` (listed just now): from the folder's export
        already at hand when it reaches this page, else from one export request."""
        if not wanted:
            return PmBatch()
        form = self._exports.get((page.folder, page.page))
        if self.export_off:
            return PmBatch(missing=tuple(wanted), unavailable=self.export_off)
        if form is None:
            return self._give_up(wanted, "на странице папки нет выгрузки в XML")
        start = int(form.fields.get("start") or 0)
        # This page's rows from an earlier answer of this listing, when it reached them.
        rows = _page_rows(*self._folder_rows.get(page.folder, (0, [])), start, page, form)
        if rows is None:
            try:
                exported = parse_pm_export(self._post_export(page, form))
            except NetworkError:
                raise  # the forum is unreachable: the sync stops as on any page, and retries
            except ForumError as error:
                return self._give_up(wanted, error.message)
            rows = self._lined_up(page, form, start, exported)
        if rows is None:
            # The folder changed between the listing and the export: the rows cannot be
            # paired by place. This page's PMs are opened; the next page tries again.
            log.info("export of %s page %s does not line up with its %s listed rows",
                     page.folder, page.page, len(form.row_ids))
            return PmBatch(missing=tuple(wanted))
        by_id = dict(zip(form.row_ids, rows, strict=True))  # a listed PM's export row
        found, missing = [], []
        for entry in wanted:
            row = by_id.get(entry.pm_id)
            if row is not None and same_message(row, entry):
                found.append(pm_from_export(row, entry, folder=page.folder, form=form))
            else:
                missing.append(entry)
        return PmBatch(pms=tuple(found), missing=tuple(missing))

    def _lined_up(self, page: PmFolderPage, form: ExportForm, start: int,
                  exported: list[ExportedPm]) -> list[ExportedPm] | None:
        """The rows of ``page`` in an export answer. phpBB exports the page it is asked
        for; a board whose export goes on past it (from this page, or from the folder's
        top) answers the folder's later pages too: that answer is kept for them."""
        size = len(form.row_ids)
        if len(exported) <= size:
            return exported if len(exported) == size else None
        for first in (start, 0):  # the folder place of the answer's first row
            rows = _page_rows(first, exported, start, page, form)
            if rows is not None:
                self._folder_rows[page.folder] = (first, exported)
                return rows
        return None

    def _post_export(self, page: PmFolderPage, form: ExportForm) -> bytes:
        fields = dict(form.fields)
        key = self._form_key
        if key is not None and key.logins == self.logins:
            fields.update(key.fields)
            since = self.http.clock() - key.received
            if since < FORM_KEY_WAIT:
                self.http.sleep(FORM_KEY_WAIT - since)
        referer = self.pm_folder_url(page.folder, page.page)
        for _ in range(2):
            # Exporting changes nothing on the board, so an answer cut short (XML that does
            # not reach its «</phpbb>») is asked for once more.
            r: httpx.Response = self.http.request("POST", form.action, data=fields,
                                                  headers={"Referer": referer})
            if r.status_code >= 400:
                raise ForumError(
                    f"форум ответил HTTP {r.status_code} на выгрузку папки")
            if "xml" not in r.headers.get("content-type", "") \
                    or r.content.rstrip().endswith(b"</phpbb>"):
                break
        return r.content

    def _give_up(self, wanted: Sequence[PmListEntry], why: str) -> PmBatch:
        self.export_off = why
        log.info("PM folder export unavailable: %s", why)
        return PmBatch(missing=tuple(wanted), unavailable=why)


def _page_rows(first: int, exported: list[ExportedPm], start: int, page: PmFolderPage,
               form: ExportForm) -> list[ExportedPm] | None:
    """The rows of ``page`` (its first at the folder place ``start``) in an export whose
    first row is at the folder place ``first``, when they stand where the listing shows
    its messages (by subject)."""
    rows = exported[start - first:start - first + len(form.row_ids)] if start >= first else []
    if not rows or len(rows) != len(form.row_ids):
        return None
    by_id = dict(zip(form.row_ids, rows, strict=True))
    if all(by_id[e.pm_id].subject == squash(e.subject)
           for e in page.entries if e.pm_id in by_id):
        return rows
    return None


__all__ = ["FORM_KEY_WAIT", "ExportForm", "ExportedPm", "PmExport", "export_form",
           "parse_pm_export", "pm_from_export", "same_message"]

"""New PMs by folder export: one request per folder page, read marks untouched.

phpBB's folder view exports the messages of the page it lists as XML
(:mod:`adapters.phpbb.export` has the facts and the source). :class:`PmExport` is the
part of :class:`~adapters.phpbb.client.PhpbbForum` that posts that form for a page the
forum object has just listed and pairs the answer's rows with the listing's rows. When the
board cannot export — no XML option on the page, a refused form, an answer that is not
phpBB's XML — the entries come back as ``missing`` with the reason, and the caller opens
them one by one (:meth:`PhpbbForum.fetch_pm`, which marks them read).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import httpx

from adapters.base import HttpClient
from adapters.phpbb import parse
from referee.core.errors import ForumError, NetworkError
from referee.core.kernel import PmBatch, PmFolderPage, PmListEntry

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
    _exports: dict[tuple[str, int], parse.ExportForm]
    _form_key: _FormKey | None
    export_off: str
    """Why this run stopped exporting (empty while it works)."""
    pm_folder_url: Callable[..., str]

    def _remember_export(self, folder: str, page: int, url: str,
                         form: parse.ExportForm | None) -> None:
        """Keep what the listing just fetched from ``url`` offers for exporting the same
        page."""
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
        """The PMs ``wanted`` of ``page`` (listed just now) from one export request."""
        if not wanted:
            return PmBatch()
        form = self._exports.get((page.folder, page.page))
        if self.export_off:
            return PmBatch(missing=tuple(wanted), unavailable=self.export_off)
        if form is None:
            return self._give_up(wanted, "на странице папки нет выгрузки в XML")
        try:
            rows = parse.parse_pm_export(self._post_export(page, form))
        except NetworkError:
            raise  # the forum is unreachable: the sync stops as on any page, and retries
        except ForumError as error:
            return self._give_up(wanted, error.message)
        if len(rows) != len(form.row_ids):
            # The folder changed between the listing and the export: the rows cannot be
            # paired by place. This page's PMs are opened; the next page tries again.
            log.info("export of %s page %s: %s rows for %s listed", page.folder, page.page,
                     len(rows), len(form.row_ids))
            return PmBatch(missing=tuple(wanted))
        at = {pm_id: i for i, pm_id in enumerate(form.row_ids) if pm_id is not None}
        found, missing = [], []
        for entry in wanted:
            i = at.get(entry.pm_id)
            if i is not None and parse.same_message(rows[i], entry):
                found.append(parse.pm_from_export(rows[i], entry, folder=page.folder,
                                                  form=form))
            else:
                missing.append(entry)
        return PmBatch(pms=tuple(found), missing=tuple(missing))

    def _post_export(self, page: PmFolderPage, form: parse.ExportForm) -> bytes:
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


__all__ = ["FORM_KEY_WAIT", "PmExport"]

"""phpBB 3.3's PM folder export, written the way ``ucp_pm_viewfolder.php`` writes it.

Used by the benchmark board and the tests' fake boards to answer ``submit_export`` with
``export_option=XML`` (the facts are in :mod:`adapters.phpbb.pm_export`). Byte for byte
what phpBB echoes: the declaration, tabs, one ``<privmsg>`` per row with the sent folders'
``<recipient type="to|bcc" status="u|g">`` first (phpBB's own swapped names), then
``subject``, ``sender``, ``date`` (``format_date(…, 'c')``: ISO 8601 in the reader's zone)
and ``message`` (the BBCode as typed); every text escaped as phpBB stores it
(``htmlspecialchars``); no newline after ``</phpbb>``.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

MOSCOW = ZoneInfo("Europe/Moscow")
HEADERS = {
    "Cache-Control": "private, no-cache",
    "Content-Type": 'application/xml; name="data.xml"',
    "Content-disposition": "attachment; filename=data.xml",
}
"""The headers phpBB sends with the export (no charset: the XML default, UTF-8)."""


@dataclass(frozen=True, slots=True)
class ExportRow:
    subject: str
    sender: str
    sent_at: datetime
    bbcode: str
    to: tuple[str, ...] = ()
    """Recipients: only for the sent folders (phpBB leaves ``to`` empty in the inbox)."""


def export_xml(rows: list[ExportRow], tz: ZoneInfo = MOSCOW) -> bytes:
    out = ['<?xml version="1.0"?>\n', "<phpbb>\n"]
    for row in rows:
        out.append("\t<privmsg>\n")
        for name in row.to:
            out.append(f'\t\t<recipient type="to" status="u">{_esc(name)}</recipient>\n')
        out.append(f"\t\t<subject>{_esc(row.subject)}</subject>\n")
        out.append(f"\t\t<sender>{_esc(row.sender)}</sender>\n")
        out.append(f"\t\t<date>{row.sent_at.astimezone(tz).isoformat()}</date>\n")
        out.append(f"\t\t<message>{_esc(row.bbcode)}</message>\n")
        out.append("\t</privmsg>\n")
    out.append("</phpbb>")
    return "".join(out).encode("utf-8")


def _esc(text: str) -> str:
    # htmlspecialchars with ENT_COMPAT: & < > and the double quote.
    return html.escape(text, quote=False).replace('"', "&quot;")

"""The folder export of the fake phpBB board: what ``ucp_pm_viewfolder.php`` answers to
the folder page's form posted with ``submit_export`` and ``export_option=XML``.

The rows are those of the listing page the export names, in its order. A game-2 PM's row
is its real data from ``fixtures/phpbb33-ru/manifest.json`` (subject, sender, the second it
was sent, the BBCode as typed); a renumbered copy of PM 8 (:func:`fake_board.inbox_page`)
is PM 8's; the other game's PMs the fixture inbox lists have only their subject, sender and
minute on record, so their text here is a stand-in (no test reads it).
"""

from __future__ import annotations

import json
import re
import sys
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "phpbb33-ru"

sys.path.insert(0, str(ROOT / "benchmarks"))
from phpbb_export import HEADERS, ExportRow, export_xml  # noqa: E402

from referee.core.dates import parse_forum_date  # noqa: E402

MOSCOW = ZoneInfo("Europe/Moscow")
MANIFEST = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))
GAME_PMS = {p["msg_id"]: p for p in MANIFEST["private_messages"]}
FORM_INVALID = (
    '<!DOCTYPE html><html lang="ru"><head><meta charset="utf-8"></head><body id="phpbb">'
    '<div id="message" class="panel"><div class="inner"><h2 class="message-title">'
    "Информация</h2><p>Представленная форма была неверной. Попробуйте ещё раз.</p></div>"
    "</div></body></html>"
).encode()
"""phpBB's ``trigger_error('FORM_INVALID')`` page (a refused form key), in the Russian
pack's words."""

_ROW = re.compile(
    r'<li class="row bg\d">.*?p=(\d+)" class="topictitle">([^<]*)</a>.*?'
    r'(?:class="username(?:-coloured)?">([^<]*)</a> &raquo; ([^\n<]+)'
    r'|Кому <a [^>]*>([^<]*)</a>.*?Отправлено: ([^<]+)</span>)', re.S)


def listing_rows(page: bytes) -> list[ExportRow]:
    """The export rows for a listing page: one per row, in the page's order."""
    rows = []
    for m in _ROW.finditer(page.decode("utf-8")):
        pm_id, subject = int(m.group(1)), _unescape(m.group(2))
        # inbox_page() renumbers PM 8's row for the ids the fixture inbox does not list.
        known = next((p for p in (GAME_PMS.get(pm_id), GAME_PMS[8])
                      if p is not None and p["subject"] == subject), None)
        if known is not None:
            sent = datetime.fromtimestamp(known["time"]["epoch"], UTC)
            to = (known["to"],) if m.group(5) else ()
            rows.append(ExportRow(known["subject"], known["from"], sent, known["bbcode"], to))
            continue
        shown = (m.group(4) or m.group(6)).strip()
        sent = parse_forum_date(shown, tz=MOSCOW, now=datetime(2026, 12, 1, tzinfo=UTC))
        rows.append(ExportRow(subject, _unescape(m.group(3) or "Ведущий"),
                              sent, "(текст другой игры не сохранён)"))
    return rows


def _unescape(text: str) -> str:
    return text.replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">") \
        .replace("&amp;", "&")


def answer(page: bytes) -> tuple[bytes, dict[str, str]]:
    """The export of ``page`` with phpBB's headers."""
    return export_xml(listing_rows(page)), dict(HEADERS)


__all__ = ["FORM_INVALID", "GAME_PMS", "answer", "listing_rows"]

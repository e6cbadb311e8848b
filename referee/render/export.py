"""``referee export``: the replay file as JSON and every vote event as CSV (a spreadsheet's
table, headers in Russian, times in the forum's zone and in UTC).

The CSV is what a Russian Excel and LibreOffice open right with a double click: cells
separated by «;» (there the comma is the decimal sign, and a comma-separated file lands in
one column), CRLF lines, and the file written in UTF-8 with a byte-order mark
(:data:`CSV_ENCODING`; without it Excel reads the bytes as cp1251 and shows mojibake).

A cell a spreadsheet would read as a formula (a nick starting with ``=``) gets a leading
apostrophe (:func:`referee.render.cells.csv_cell`).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from typing import Any

from referee.host.export import VoteEvent
from referee.render.cells import csv_cell, iso
from referee.render.context import Context
from referee.render.tally import post_link

CSV_HEADERS = ("день", "время", "время UTC", "сообщение", "игрок", "написано", "за кого",
               "засчитан", "правило", "пояснение", "ссылка")


CSV_DELIMITER = ";"
CSV_ENCODING = "utf-8-sig"


def replay_json(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def votes_csv(events: Iterable[VoteEvent], ctx: Context | None = None) -> str:
    """The vote events as CSV text, each with its post's address."""
    ctx = ctx or Context()
    zone, topic_url = ctx.tz, ctx.topic_url
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=CSV_DELIMITER, lineterminator="\r\n")
    w.writerow(CSV_HEADERS)
    for e in events:
        w.writerow((
            e.day, e.at.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S"), iso(e.at), e.post_id,
            csv_cell(e.voter), csv_cell(e.typed), csv_cell(e.target or ""),
            "да" if e.counted else "нет", csv_cell(e.rule), csv_cell(e.reason),
            post_link(e.post_id, topic_url),
        ))
    return buf.getvalue()

"""``referee export``: the replay file as JSON and every vote event as CSV (a spreadsheet's
table, headers in Russian, times in the forum's zone and in UTC).

A cell a spreadsheet would read as a formula (a nick starting with ``=``) gets a leading
apostrophe (:func:`referee.render.cells.csv_cell`).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from typing import Any

from referee.export import VoteEvent
from referee.render.cells import csv_cell, iso
from referee.render.context import Context
from referee.render.tally import post_link

CSV_HEADERS = ("день", "время", "время UTC", "сообщение", "игрок", "написано", "за кого",
               "засчитан", "правило", "пояснение", "ссылка")


def replay_json(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def votes_csv(events: Iterable[VoteEvent], ctx: Context | None = None) -> str:
    """The vote events as CSV text, each with its post's address."""
    ctx = ctx or Context()
    zone, topic_url = ctx.tz, ctx.topic_url
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEADERS)
    for e in events:
        w.writerow((
            e.day, e.at.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S"), iso(e.at), e.post_id,
            csv_cell(e.voter), csv_cell(e.typed), csv_cell(e.target or ""),
            "да" if e.counted else "нет", csv_cell(e.rule), csv_cell(e.reason),
            post_link(e.post_id, topic_url),
        ))
    return buf.getvalue()

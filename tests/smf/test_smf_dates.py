"""The date forms SMF 2.1 prints (``timeformat()``: the board's ``%d %B %Y, %H:%M`` in the
Russian installer, the English default ``%B %d, %Y, %I:%M:%S %p``, and todayMod's
«Сегодня в» / «Вчера в»), read by referee.core.dates in the board's zone against the board's
own clock."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from referee.core.dates import parse_forum_date

MSK = ZoneInfo("Europe/Moscow")
# 02.12.2026 00:30 in Moscow: «Вчера» is 1 December there, though it is still 1 December
# in UTC.
BOARD_NOW = datetime(2026, 12, 1, 21, 30, tzinfo=UTC)


@pytest.mark.parametrize(("text", "moscow"), [
    ("26 ноября 2026, 23:02", "2026-11-26 23:02"),      # the real pages (Russian installer)
    ("01 декабря 2026, 00:05", "2026-12-01 00:05"),
    ("Сегодня в 00:10", "2026-12-02 00:10"),             # todayMod, the real reply page
    ("Вчера в 23:59", "2026-12-01 23:59"),
    ("26 Ноябрь 2026, 23:02", "2026-11-26 23:02"),       # a pack with nominative months
    ("November 26, 2026, 11:02:00 PM", "2026-11-26 23:02"),  # SMF's English default
    ("Today at 09:14", "2026-12-02 09:14"),
    ("Yesterday at 01:02:03 AM", "2026-12-01 01:02:03"),
])
def test_smf_date_forms(text: str, moscow: str) -> None:
    got = parse_forum_date(text, tz=MSK, now=BOARD_NOW)
    assert got == datetime.fromisoformat(moscow).replace(tzinfo=MSK).astimezone(UTC)

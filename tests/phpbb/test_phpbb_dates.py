"""Forum date texts → UTC (docs/rules.md T2). The page was fetched on Sunday 29 Nov 2026, 14:40
Moscow time (11:40 UTC); every text is as phpBB prints it in that timezone."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from referee.core.dates import parse_forum_date
from referee.core.errors import DateParseError

MOSCOW = ZoneInfo("Europe/Moscow")
FETCHED = datetime(2026, 11, 29, 14, 40, tzinfo=MOSCOW)

CASES = [
    # text on the page                  → instant in UTC
    ("Вс ноя 29, 2026 14:35",             "2026-11-29 11:35"),
    ("29 ноя 2026, 14:35",                "2026-11-29 11:35"),
    ("Сегодня, 14:35",                    "2026-11-29 11:35"),
    ("Вчера, 23:59",                      "2026-11-28 20:59"),
    ("Завтра, 00:10",                     "2026-11-29 21:10"),
    ("Завтра",                            "2026-11-29 21:00"),
    ("5 минут назад",                     "2026-11-29 11:35"),
    ("1 минуту назад",                    "2026-11-29 11:39"),
    ("менее минуты назад",                "2026-11-29 11:40"),
    ("1 час назад",                       "2026-11-29 10:40"),
    ("Sun Nov 29, 2026 2:35 pm",          "2026-11-29 11:35"),
    ("Январь 1, 2007, 1:37 pm",           "2007-01-01 10:37"),
    ("Янв 1, '07, 13:37",                 "2007-01-01 10:37"),
    ("10.03.2024 21:15",                  "2024-03-10 18:15"),
    ("1 января 2007 г., 13:37",           "2007-01-01 10:37"),
    ("Today, 2:35 pm",                    "2026-11-29 11:35"),
    ("Yesterday, 11:59 pm",               "2026-11-28 20:59"),
    ("Пн янв 10, 2005 5:57 pm",           "2005-01-10 14:57"),
    ("01 май 2007, 13:37",                "2007-05-01 09:37"),
    ("5 мая 2026, 9:00",                  "2026-05-05 06:00"),
    ("Сб сен 05, 2026 10:00 am",          "2026-09-05 07:00"),
    ("22 ноя 2026,\u00a014:26",           "2026-11-22 11:26"),
    ("2024-11-12T10:43:23+00:00",         "2024-11-12 10:43:23"),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_forum_date_is_read_in_the_forum_timezone(text, expected):
    want = datetime.fromisoformat(expected + "+00:00")
    got = parse_forum_date(text, tz=MOSCOW, now=FETCHED)
    assert got == want
    assert got.utcoffset() is not None and got.utcoffset().total_seconds() == 0


def test_same_text_in_another_timezone_is_another_instant():
    berlin = ZoneInfo("Europe/Berlin")
    assert parse_forum_date("29 ноя 2026, 14:35", tz=berlin, now=FETCHED) == datetime.fromisoformat(
        "2026-11-29 13:35+00:00")


def test_today_follows_the_forum_midnight_not_utc():
    # 01:30 in Moscow on 30 Nov is still 29 Nov in UTC; «Сегодня» is Moscow's 30 Nov.
    after_midnight = datetime(2026, 11, 30, 1, 30, tzinfo=MOSCOW)
    assert parse_forum_date("Сегодня, 00:15", tz=MOSCOW, now=after_midnight) == \
        datetime.fromisoformat("2026-11-29 21:15+00:00")


@pytest.mark.parametrize(
    "text",
    ["", "вчера вечером", "Вс", "14:35", "29 ноя, 14:35", "32 ноя 2026, 14:35",
     "Сегодня, 5 мая", "bogus 2026"],
)
def test_unreadable_dates_raise_instead_of_guessing(text):
    with pytest.raises(DateParseError):
        parse_forum_date(text, tz=MOSCOW, now=FETCHED)


def test_date_errors_are_value_errors_too():
    assert issubclass(DateParseError, ValueError)

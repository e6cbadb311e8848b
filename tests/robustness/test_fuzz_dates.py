"""Whatever date text a page shows, it becomes a UTC instant or a DateParseError that says
which text could not be read (docs/rules.md T2) — never an overflow or a bare ValueError."""

from __future__ import annotations

import warnings
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from robust_helpers import TRICKY_DATES

from referee.core.dates import parse_forum_date
from referee.core.errors import DateParseError

ZONES = tuple(ZoneInfo(z) for z in (
    "Europe/Moscow", "UTC", "Pacific/Kiritimati", "America/Adak", "Asia/Kamchatka"))
TOKENS = (
    "29", "ноя", "ноября", "2026", ",", "14:35", "2:35", "Вс", "Sun", "Nov", "pm", "am",
    "Сегодня", "Вчера", "Завтра", "today", "5", "минут", "часов", "назад", "ago", "0001",
    "9999", "10000", "99", "31", "фев", ".", "-", "/", ":", "г.", "года", "в", "T", "Z",
    "+03:00", "+99:00", "-23:59", "UTC", "MSK", "EST", "'07", "99999999999999999999", "0",
    "00:00:00.999999", "24:00", "-1", "мая", "менее минуты назад", "\u00a0", "\u202f",
)
date_text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(TRICKY_DATES),
    st.lists(st.sampled_from(TOKENS), min_size=1, max_size=7).map(" ".join),
)
fetch_time = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC))


@settings(max_examples=200, deadline=None)
@given(text=date_text, tz=st.sampled_from(ZONES), now=fetch_time)
def test_any_date_text_is_an_instant_or_a_clear_error_T2(
    text: str, tz: ZoneInfo, now: datetime
) -> None:
    try:
        instant = parse_forum_date(text, tz=tz, now=now)
    except DateParseError as error:
        assert "дат" in error.message or "врем" in error.message  # names what failed
        return
    assert instant.tzinfo is not None and instant.utcoffset() == timedelta(0)


@pytest.mark.parametrize(("text", "zone"), [
    ("0001-01-01 00:00", "Europe/Moscow"),         # before year 1 once moved to UTC
    ("31 дек 9999, 23:59", "America/Adak"),        # after year 9999 once moved to UTC
    ("99999999999 минут назад", "Europe/Moscow"),  # more than a timedelta holds
    ("99999999999 часов назад", "Europe/Moscow"),
    ("Sun Nov 22, 2026 2:26 pm +99:00", "UTC"),    # an offset no clock has
])
def test_dates_out_of_range_are_refused_as_unreadable_T2(text: str, zone: str) -> None:
    with pytest.raises(DateParseError, match="Не удалось разобрать дату"):
        parse_forum_date(text, tz=ZoneInfo(zone), now=datetime(2026, 11, 29, tzinfo=UTC))


def test_a_zone_abbreviation_after_the_date_is_read_in_the_forum_zone_quietly_T2() -> None:
    # A board date format with PHP's «T»: the page is in the viewer's zone, MSK here.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        instant = parse_forum_date("22 ноя 2026, 14:26 MSK", tz=ZoneInfo("Europe/Moscow"),
                                   now=datetime(2026, 11, 29, tzinfo=UTC))
    assert instant == datetime(2026, 11, 22, 11, 26, tzinfo=UTC)

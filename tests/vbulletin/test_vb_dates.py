"""vBulletin's dates: the footer's fixed offset, the numeric order a board writes, and the
generic fix in referee/core/dates.py for dates that start with their year («2016-02-01, 02:21»)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from adapters.vbulletin.dates import date_order, footer_zone, normalise_numeric, vb_date
from referee.core.dates import parse_forum_date

NOW = datetime(2026, 11, 26, 17, 0, tzinfo=UTC)
MSK = timezone(timedelta(hours=3))


@pytest.mark.parametrize(("footer", "hours"), [
    ("All times are GMT. The time now is <span class=\"time\">05:23 AM</span>.", 0.0),
    ("All times are GMT -5. The time now is <span class=\"time\">00:08</span>.", -5.0),
    ("All times are GMT-5. This page was generated at 12:11 AM.", -5.0),
    ("Часовой пояс GMT +3, время: <span class=\"time\">20:00</span>.", 3.0),
    ("All times are GMT +5.5. The time now is 10:00.", 5.5),
])
def test_the_footer_names_the_offset(footer: str, hours: float) -> None:
    assert footer_zone(f"<html><body>…</body><div>{footer}</div></html>") == timezone(
        timedelta(hours=hours))


def test_no_footer_no_zone() -> None:
    assert footer_zone("<html><body>Мой голос: Лиса</body></html>") is None


def test_the_numeric_order_a_page_shows() -> None:
    assert date_order(["06-15-2016, 03:03 PM"]) == "mdy"
    assert date_order(["15.06.2016, 15:03"]) == "dmy"
    assert date_order(["01.02.2016, 15:03"]) is None
    assert date_order(["01.02.2016"], "mdy") == "mdy"
    assert normalise_numeric("06-05-2016, 03:03 PM", "mdy") == "2016-06-05, 03:03 PM"
    assert normalise_numeric("06.05.2016, 15:03", None) == "2016-05-06, 15:03"


@pytest.mark.parametrize(("text", "want"), [
    ("26.11.2026, 18:00", "2026-11-26T15:00:00"),
    ("Сегодня, 12:34", "2026-11-26T09:34:00"),
    ("Вчера, 12:34", "2026-11-25T09:34:00"),
    ("26.11.2026 в 18:00", "2026-11-26T15:00:00"),
    ("2016-02-01 at 03:31", "2016-02-01T00:31:00"),
])
def test_vbulletin_dates_in_the_boards_zone(text: str, want: str) -> None:
    got = vb_date(text, tz=MSK, now=NOW, order=None)
    assert got == datetime.fromisoformat(want).replace(tzinfo=UTC)


@pytest.mark.parametrize("text", ["2016-02-01, 02:21", "2016-02-01", "2016.02.01 02:21"])
def test_a_date_that_starts_with_its_year_is_year_month_day(text: str) -> None:
    # dateutil's dayfirst alone read these as 2 January.
    got = parse_forum_date(text, tz=ZoneInfo("UTC"), now=NOW)
    assert (got.month, got.day) == (2, 1)

"""XenForo's dates: the zone a page's printed dates are in (the viewer's midnight that the
page's own script prints), and the relative date texts XenForo prints («Только что»,
«Понедельник в 18:00»; the rest is :func:`referee.core.dates.parse_forum_date`'s). Text is read
only where XenForo printed no machine time. Facts and their sources: README.md («Thread
pages»: the viewer's midnight, XenForo's date texts).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo

from selectolax.lexbor import LexborHTMLParser

from adapters.html import squash
from referee.core.dates import parse_forum_date
from referee.core.errors import DateParseError

_DAY_START = re.compile(
    r"\b(?:serverTimeInfo|time)\s*:\s*\{\s*now\s*:\s*(\d{9,11})\s*,\s*today\s*:\s*(\d{9,11})")
_WEEKDAYS = {
    "понедельник": 0, "вторник": 1, "среда": 2, "четверг": 3, "пятница": 4, "суббота": 5,
    "воскресенье": 6, "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4,
    "saturday": 5, "sunday": 6,
}
_WEEKDAY_AT = re.compile(
    r"^(?P<day>[^\W\d_]+)\s*(?:,|\bв\b|\bat\b)?\s*(?P<clock>\d{1,2}:\d{2}(?:\s*[AaPp][Mm])?)$")
_MOMENTS = {"только что": 0, "a moment ago": 0, "минуту назад": 1, "минута назад": 1,
            "a minute ago": 1}


def viewer_zone(tree: LexborHTMLParser, configured: tzinfo) -> tzinfo:
    """The zone the page's printed dates are in: ``configured`` when its offset at the
    viewer's midnight agrees with the page's, else the page's own offset.

    Only ``<script>`` text is searched: a post can hold any text, never a script, so a
    player cannot move the host's clock."""
    day_start = None
    for script in tree.css("script"):
        day_start = _DAY_START.search(script.text() or "")
        if day_start:
            break
    if day_start is None:
        return configured
    now, today = int(day_start.group(1)), int(day_start.group(2))
    offset = (-today) % 86400
    if offset > 14 * 3600:
        offset -= 86400
    if not 0 <= now - today < 2 * 86400 or offset % 900:
        return configured  # not a midnight in any real zone: ignore it
    midnight = datetime.fromtimestamp(today, UTC)
    if midnight.astimezone(configured).utcoffset() == timedelta(seconds=offset):
        return configured
    return timezone(timedelta(seconds=offset))


def read_date_text(text: str, zone: tzinfo, now: datetime) -> datetime | None:
    """The instant a XenForo date text means in ``zone`` (aware UTC), or None."""
    clean = squash(text)
    if not clean:
        return None
    try:
        return parse_forum_date(clean, tz=zone, now=now)
    except DateParseError:
        pass
    lowered = clean.lower().rstrip(".")
    if lowered in _MOMENTS:
        # At most that long before the fetch: the latest possible instant, as for
        # «N минут назад».
        return (now - timedelta(minutes=_MOMENTS[lowered])).astimezone(UTC)
    return _weekday_at(clean, zone, now)


def _weekday_at(text: str, zone: tzinfo, now: datetime) -> datetime | None:
    # XenForo prints a weekday for the five days before yesterday; «today» and «yesterday»
    # have words of their own, so the weekday is 2 to 6 days back.
    match = _WEEKDAY_AT.match(text)
    weekday = _WEEKDAYS.get(match.group("day").lower()) if match else None
    if match is None or weekday is None:
        return None
    today = now.astimezone(zone).date()
    for back in range(2, 7):
        day = today - timedelta(days=back)
        if day.weekday() == weekday:
            try:
                return parse_forum_date(f"{day:%d.%m.%Y} {match.group('clock')}", tz=zone,
                                        now=now)
            except DateParseError:
                return None  # no clock a day has
    return None  # today's or yesterday's weekday: XenForo would have printed a word


__all__ = ["read_date_text", "viewer_zone"]

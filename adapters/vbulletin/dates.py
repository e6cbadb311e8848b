"""vBulletin's dates: the board's fixed offset from the page footer («All times are GMT +3»,
«Часовой пояс GMT +3»; else the host's ``[forum] timezone``), and numeric dates read in the
order the board's ``dateformat`` writes them (``m-d-Y``, ``d.m.Y``, ``Y-m-d``: a day above
12 settles it, else a dot means day first). Facts and sources: README.md, «Dates and the
board's zone»."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone, tzinfo
from typing import Literal

from referee.core.dates import parse_forum_date

Order = Literal["dmy", "mdy"]

_FOOTER_ZONE = re.compile(
    r"(?:All times are|Часовой пояс)\s*(?:GMT|UTC)\s*"
    r"(?P<sign>[+\-−–])?\s*(?P<hours>\d{1,2})?(?:[.,:](?P<frac>\d{1,2}))?",
    re.IGNORECASE,
)
_NUMERIC = re.compile(r"(?<![\d.:/-])(\d{1,4})([./-])(\d{1,2})\2(\d{1,4})(?![\d:/-])")


def footer_zone(html: str) -> tzinfo | None:
    """The fixed offset the footer prints («All times are GMT +3»), None without one.

    Only the page's last 20 000 characters are searched: the footer is at the end, and a
    player's post quoting such a line must not decide the zone."""
    tail = html[-20000:]
    matches = list(_FOOTER_ZONE.finditer(tail))
    if not matches:
        return None
    found = matches[-1]
    hours = int(found.group("hours") or 0)
    frac = found.group("frac") or ""
    # vB offsets are hours with a decimal part (+5.5, +5.75); «+5:30» is minutes.
    if ":" in found.group(0) and frac:
        minutes = int(frac)
    else:
        minutes = round(float(f"0.{frac}") * 60) if frac else 0
    offset = timedelta(hours=hours, minutes=minutes)
    if found.group("sign") in ("-", "−", "–"):
        offset = -offset
    if abs(offset) >= timedelta(hours=24):
        return None
    return timezone(offset)


def date_order(texts: list[str], known: Order | None = None) -> Order | None:
    """The numeric order a page's dates show: a first part above 12 is a day, a second part
    above 12 is a day too (month first). None when the page does not tell."""
    for text in texts:
        for match in _NUMERIC.finditer(text):
            first, _, second, last = match.groups()
            if len(first) == 4:
                continue
            if int(first) > 12 >= int(second):
                return "dmy"
            if int(second) > 12 >= int(first):
                return "mdy"
    return known


def _year(text: str) -> int:
    year = int(text)
    return year + 2000 if year < 100 else year


def normalise_numeric(text: str, order: Order | None) -> str:
    """``text`` with a numeric date rewritten as ``Y-m-d``, so that no reader guesses."""
    def repl(match: re.Match[str]) -> str:
        first, sep, second, last = match.groups()
        if len(first) == 4:
            return f"{first}-{int(second):02d}-{int(last):02d}"
        month_first = order == "mdy" if order is not None else sep in "-/"
        day, month = (second, first) if month_first else (first, second)
        return f"{_year(last):04d}-{int(month):02d}-{int(day):02d}"

    return _NUMERIC.sub(repl, text)


_AT = re.compile(r"\s+(?:at|в)\s+(?=\d)", re.IGNORECASE)


def vb_date(text: str, *, tz: tzinfo, now: datetime, order: Order | None) -> datetime:
    """A date as vBulletin prints it («26.11.2026, 18:00», «Сегодня, 12:34»,
    «06-15-2016, 03:03 PM», «2016-02-01 at 03:31») → aware UTC. Raises
    :class:`~referee.core.errors.DateParseError`."""
    clean = " ".join(text.replace("\u00a0", " ").split())
    clean = _AT.sub(" ", normalise_numeric(clean, order)).strip(" .,")
    return parse_forum_date(clean, tz=tz, now=now)


__all__ = ["Order", "date_order", "footer_zone", "normalise_numeric", "vb_date"]

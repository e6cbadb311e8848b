"""Moscow time, as the test games write it: the boards print it, the schedules are in it."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

MSK = ZoneInfo("Europe/Moscow")


def msk(text: str) -> datetime:
    """``msk("2026-11-20 22:00")``: that moment on a Moscow clock."""
    return datetime.fromisoformat(text).replace(tzinfo=MSK)


def msk_short(when: str, year: int = 2026) -> datetime:
    """«20.11 18:00» or «20.11 18:00:05», Moscow → aware UTC (the rules tests' schedules)."""
    fmt = "%d.%m.%Y %H:%M:%S" if when.count(":") == 2 else "%d.%m.%Y %H:%M"
    day, time = when.split(" ")
    return datetime.strptime(f"{day}.{year} {time}", fmt).replace(tzinfo=MSK).astimezone(UTC)


def november(text: str) -> datetime:
    """``november("20 22:00")``: 20.11.2026 22:00 МСК (the watch plan's schedule)."""
    day, hm = text.split()
    return datetime.fromisoformat(f"2026-11-{day} {hm}").replace(tzinfo=MSK)

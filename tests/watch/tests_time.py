"""Moscow times of the test schedule: ``at("20 22:00")`` is 20.11.2026 22:00 МСК."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

MSK = ZoneInfo("Europe/Moscow")


def at(text: str) -> datetime:
    day, hm = text.split()
    return datetime.fromisoformat(f"2026-11-{day} {hm}").replace(tzinfo=MSK)

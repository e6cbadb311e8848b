"""A fake clock for the SMF tests (its own module: several test folders have a conftest)."""

from __future__ import annotations

from datetime import datetime, timedelta


class FakeTime:
    """Monotonic seconds and the wall clock, moved only by ``sleep``."""

    def __init__(self, start: datetime) -> None:
        self.t = 1000.0
        self.start = start
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.t += max(0.0, seconds)

    def wall(self) -> datetime:
        return self.start + timedelta(seconds=self.t - 1000.0)

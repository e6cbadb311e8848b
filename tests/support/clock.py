"""The fake clocks of the tests: time moves only when the code under test sleeps or the test
moves it, so no test ever waits for real."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from support.moscow import msk


class FakeTime:
    """Monotonic seconds + sleep (an HTTP client's rate limit and retries)."""

    def __init__(self, start: float = 1000.0) -> None:
        self.t = start
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 3))
        self.t += seconds


class WallTime:
    """Monotonic seconds and the wall clock that goes with them, moved only by ``sleep``
    (the SMF board and client share one: a login «within 2 seconds» is seen by both)."""

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


class FakeClock:
    """The watch's clock: time moves only when the watch sleeps. ``at`` runs a change
    once the clock has reached a moment (the config edited, the laptop closed…)."""

    def __init__(self, start: datetime) -> None:
        self.t = start
        self.sleeps: list[float] = []
        self.hooks: list[tuple[datetime, object]] = []

    def now(self) -> datetime:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.t += timedelta(seconds=seconds)
        for when, change in list(self.hooks):
            if self.t >= when:
                self.hooks.remove((when, change))
                change()  # type: ignore[operator]

    def at(self, when: datetime, change: object) -> None:
        self.hooks.append((when, change))


class BoardClock:
    """The board's and the referee's «now» (a callable), set by the test in Moscow time;
    ``utc`` answers it in UTC, as a board's server clock would."""

    def __init__(self, start: str, *, utc: bool = False) -> None:
        self.now = msk(start)
        self.utc = utc

    def __call__(self) -> datetime:
        return self.now.astimezone(UTC) if self.utc else self.now

    def set(self, text: str) -> None:
        self.now = msk(text)

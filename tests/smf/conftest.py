"""Fixtures of the SMF live tests: a fake clock shared by the board and the client (no
test waits for real), the live board on 127.0.0.1, and forums and stores over it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
from support.clock import WallTime
from support.moscow import msk as moscow
from support.smf.live import LiveBoard, day_posts
from support.smf.site import HOST_NAME, HOST_PASSWORD

from adapters.base import ForumSettings, HttpClient, Secret
from adapters.smf.client import SmfForum
from referee.config.game import Config, ForumConfig, Player
from referee.store import Store


@pytest.fixture
def clock() -> WallTime:
    return WallTime(moscow("2026-11-27 12:00"))


@pytest.fixture
def live(clock: WallTime) -> Iterator[LiveBoard]:
    board = LiveBoard(clock.clock, clock.wall, day_posts(60, moscow("2026-11-26 18:00")))
    with board.running():
        yield board


@pytest.fixture
def make_forum(live: LiveBoard, clock: WallTime, tmp_path: Path) -> Callable[..., SmfForum]:
    def make(**kw: Any) -> SmfForum:
        settings = ForumSettings(
            url=f"{live.base}index.php?topic=2.0", timezone=kw.pop("timezone", "Europe/Moscow"),
            username=kw.pop("username", HOST_NAME), engine="smf",
            cookie_file=kw.pop("cookie_file", None))
        http = HttpClient(live.base, rate_limit=None, retries=1, sleep=clock.sleep,
                          clock=clock.clock, cookie_file=settings.cookie_file)
        password = kw.pop("password", HOST_PASSWORD)
        return SmfForum(settings, http=http, password=lambda user: Secret(password),
                        now=lambda: clock.wall().astimezone(UTC), **kw)

    return make


@pytest.fixture
def config(live: LiveBoard, tmp_path: Path) -> Config:
    return Config(path=tmp_path / "referee.toml", host=HOST_NAME,
                  forum=ForumConfig(ForumSettings(url=f"{live.base}index.php?topic=2.0",
                                                  timezone="Europe/Moscow", username=HOST_NAME)),
                  players=(Player("Шерлок"), Player("Kotik")))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store.open(tmp_path / "game.db")
    yield s
    s.close()

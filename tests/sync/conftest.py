from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import respx
from support.clock import FakeTime
from support.phpbb.respx_board import FakeBoard
from sync_helpers import PASSWORD, TOPIC_URL

from adapters.base import HttpClient, Secret
from adapters.phpbb.client import PhpbbForum
from referee.config.game import Config, ForumConfig, Player
from referee.core.forum_settings import ForumSettings
from referee.store import Store


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime()


@pytest.fixture
def board(clock: FakeTime) -> Iterator[FakeBoard]:
    b = FakeBoard(time=clock)
    with respx.mock(assert_all_called=False) as router:
        b.install(router)
        yield b


def make_forum_config(**kw: Any) -> ForumConfig:
    kw.setdefault("url", TOPIC_URL)
    kw.setdefault("timezone", "Europe/Moscow")
    kw.setdefault("username", "Ведущий")
    return ForumConfig(ForumSettings(**kw))


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return Config(path=tmp_path / "referee.toml", host="Ведущий", forum=make_forum_config(),
                  players=(Player("Лиса", "mafia", "mafia"), Player("Шерлок", "thug")))


@pytest.fixture
def make_forum(
    clock: FakeTime, tmp_path: Path, config: Config
) -> Callable[..., PhpbbForum]:
    def make(forum: ForumConfig | None = None, **kw: Any) -> PhpbbForum:
        forum = forum or config.forum
        http = HttpClient(
            "https://forum.test/", rate_limit=forum.board.rate_limit,
            retries=forum.board.retries,
            cookie_file=kw.pop("cookie_file", tmp_path / "referee.cookies"),
            sleep=clock.sleep, clock=clock.clock, random_=lambda: 0.0,
        )
        kw.setdefault("password", lambda user: Secret(PASSWORD))
        return PhpbbForum(forum.settings(), http=http, **kw)

    return make


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store.open(tmp_path / "referee.db")
    yield s
    s.close()

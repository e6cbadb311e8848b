from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import respx
from publish_board import BOARD, HOST_ID, PASSWORD, PREFIX, TOPIC_URL, FakeTime, PostingBoard

from adapters.base import HttpClient, Secret
from adapters.phpbb.client import PhpbbForum
from adapters.phpbb.posting import PhpbbPoster
from referee.config import ForumConfig
from referee.store import Store


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime()


@pytest.fixture
def board(clock: FakeTime) -> Iterator[PostingBoard]:
    b = PostingBoard(time=clock)
    with respx.mock(assert_all_called=False) as router:
        b.install(router)
        yield b


def forum_config(**kw: Any) -> ForumConfig:
    kw.setdefault("url", TOPIC_URL)
    kw.setdefault("timezone", "Europe/Moscow")
    kw.setdefault("username", "Ведущий")
    kw.setdefault("rate_limit", 0)
    return ForumConfig(**kw)


def make_poster_for(forum: ForumConfig, clock: FakeTime, *, logged_in: bool = True,
                    cookie_file: Path | None = None) -> PhpbbPoster:
    """A poster on the fake board; ``logged_in`` starts with the host's session cookies
    (as after an earlier ``referee sync``)."""
    http = HttpClient(BOARD, rate_limit=forum.rate_limit, retries=forum.retries,
                      cookie_file=cookie_file, sleep=clock.sleep, clock=clock.clock,
                      random_=lambda: 0.0)
    if logged_in:
        http.cookies.set(f"{PREFIX}_u", HOST_ID, domain="forum.test", path="/")
        http.cookies.set(f"{PREFIX}_sid", "1" * 32, domain="forum.test", path="/")
    return PhpbbPoster(PhpbbForum(forum, http=http, password=lambda user: Secret(PASSWORD)))


@pytest.fixture
def make_poster(clock: FakeTime, board: PostingBoard) -> Callable[..., PhpbbPoster]:
    def make(**kw: Any) -> PhpbbPoster:
        return make_poster_for(forum_config(), clock, **kw)

    return make


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store.open(tmp_path / "game.db")
    yield s
    s.close()

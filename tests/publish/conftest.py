from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import respx
from support.clock import FakeTime
from support.phpbb.posting_board import PostingBoard, forum_config, make_poster_for

from adapters.phpbb.posting import PhpbbPoster
from referee.store import Store


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime(5000.0)


@pytest.fixture
def board(clock: FakeTime) -> Iterator[PostingBoard]:
    b = PostingBoard(time=clock)
    with respx.mock(assert_all_called=False) as router:
        b.install(router)
        yield b


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

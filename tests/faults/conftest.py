"""Fixtures of the fault tests: a live misbehaving board on 127.0.0.1 and sync runners."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fault_helpers import Runner, forum_config
from support.phpbb.board import Board


@pytest.fixture
def board() -> Iterator[Board]:
    with Board().running() as b:
        yield b


@pytest.fixture
def run(board: Board, tmp_path: Path) -> Runner:
    return Runner(board, tmp_path / "game.db")


@pytest.fixture
def make_runner(board: Board, tmp_path: Path) -> Callable[..., Runner]:
    def make(**forum_kw: Any) -> Runner:
        return Runner(board, tmp_path / "game.db", forum=forum_config(board, **forum_kw))

    return make

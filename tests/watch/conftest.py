"""Fixtures of the watch tests: the scripted game on a live board on 127.0.0.1, its
config, and a watch over it with a fake clock (nothing waits)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.clock import FakeClock
from support.moscow import msk
from support.phpbb.game_board import PASSWORD, GameBoard, write_config

import adapters.phpbb.client as client
import adapters.phpbb.posting as posting


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(msk("2026-11-20 11:00"))


@pytest.fixture
def board(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[GameBoard]:
    monkeypatch.setenv("REFEREE_PASSWORD", PASSWORD)
    monkeypatch.delenv("REFEREE_TELEGRAM_TOKEN", raising=False)
    # phpBB's form-token waits (a real second per form) are no part of what is tested.
    monkeypatch.setattr(client, "LOGIN_WAIT", 0.0)
    monkeypatch.setattr(posting, "POST_WAIT", 0.0)
    monkeypatch.setattr(posting, "LASTCLICK_WAIT", 0.0)
    with GameBoard(clock=clock).running() as b:
        yield b


@pytest.fixture
def config(tmp_path: Path, board: GameBoard) -> Path:
    return write_config(tmp_path, board)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "game.db"

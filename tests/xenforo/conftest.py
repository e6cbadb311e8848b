"""Fixtures of the XenForo engine tests: a XenForo 2 board on 127.0.0.1 with game 119."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support.clock import BoardClock
from support.xenforo.board import XfBoard
from xf_game import PASSWORD, Game119, config_text, make_board

from referee.game import Game


@pytest.fixture
def clock() -> BoardClock:
    return BoardClock("2026-11-22 09:00")


@pytest.fixture(autouse=True)
def host_password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_PASSWORD", PASSWORD)


@pytest.fixture
def board(clock: BoardClock) -> Iterator[XfBoard]:
    b = make_board(now=clock)
    with b.running():
        yield b


@pytest.fixture
def game119(board: XfBoard) -> Game119:
    g = Game119(board)
    g.day1()
    g.night1()
    return g


@pytest.fixture
def open_game(board: XfBoard, clock: BoardClock, tmp_path: Path) -> Callable[..., Game]:
    def make(text: str | None = None) -> Game:
        cfg = tmp_path / "referee.toml"
        cfg.write_text(text or config_text(board), encoding="utf-8")
        return Game.open(cfg, tmp_path / "game.db", clock=clock)

    return make

"""Sending as the host on XenForo 2: a reply in the game thread and a new conversation;
what the poster does with XenForo's refusals. (Confirmation, --dry-run and sending once are
referee.host.publish's, exercised through the CLI in test_xenforo_game.)"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support.xenforo.board import XfBoard
from xf_game import HOST, Game119

from adapters.registry import open_poster
from adapters.xenforo.pms import pm_key
from adapters.xenforo.posting import PostingError, XenforoPoster
from referee.game import Game
from referee.store.sync import open_adapter, sync_pms


@pytest.fixture
def poster(board: XfBoard, game119: Game119,
           open_game: Callable[..., Game]) -> tuple[XenforoPoster, list[float]]:
    game = open_game()
    sender = open_poster(game.config.forum.settings())
    assert isinstance(sender, XenforoPoster)
    waits: list[float] = []
    sender.http.sleep = waits.append
    return sender, waits


def test_a_reply_logs_in_and_returns_the_new_post(
        board: XfBoard, game119: Game119, poster: tuple[XenforoPoster, list[float]]) -> None:
    sender, _ = poster
    post_id = sender.reply("[b]Итоги дня 1[/b]\nПовешена [color=red]Лиса[/color].")
    last = game119.game.posts[-1]
    assert post_id == last.post_id and last.author == HOST
    assert '<span style="color: red">Лиса</span>' in last.html
    assert [r for _, r, _ in board.requests()] == [
        "threads/mafija-119.69072/reply",          # 403: a guest
        "login/login",
        "threads/mafija-119.69072/reply",
        "threads/mafija-119.69072/add-reply",
    ]


def test_flood_control_is_waited_out_once(
        board: XfBoard, game119: Game119, poster: tuple[XenforoPoster, list[float]]) -> None:
    sender, waits = poster
    board.flood_once = True
    assert sender.reply("Итоги") == game119.game.posts[-1].post_id
    assert waits == [3.0]  # «не менее 2 секунд», plus a second


def test_a_refused_token_gets_one_fresh_form(
        board: XfBoard, game119: Game119, poster: tuple[XenforoPoster, list[float]]) -> None:
    sender, _ = poster
    board.reject_token_once = True
    assert sender.reply("Итоги") == game119.game.posts[-1].post_id
    posts = [r for m, r, _ in board.requests() if m == "POST" and r.endswith("add-reply")]
    assert len(posts) == 2


def test_a_broken_connection_may_have_sent_it(
        board: XfBoard, game119: Game119, poster: tuple[XenforoPoster, list[float]]) -> None:
    sender, _ = poster
    board.drop_next_post = True
    with pytest.raises(PostingError) as caught:
        sender.reply("Итоги")
    assert caught.value.maybe_sent
    assert game119.game.posts[-1].author == HOST  # it was stored: the host must look first


def test_a_private_result_starts_a_conversation_the_pm_sync_then_knows(
        board: XfBoard, game119: Game119, open_game: Callable[..., Game],
        poster: tuple[XenforoPoster, list[float]]) -> None:
    sender, _ = poster
    key = sender.send_pm("Комиссар Рекс", "Бармен — [color=red]мафия[/color].",
                         "Результат проверки, ночь 1")
    (started,) = [c for c in board.conversations.values() if c.title.startswith("Результат")]
    assert key == pm_key(started.conversation_id, 1)
    assert [n for n, _ in started.people] == [HOST, "Комиссар Рекс"]
    game = open_game()
    with open_adapter(game.config, db_path=game.store.path) as adapter:
        sync_pms(game.config, game.store, adapter)
    own = {p.pm_id: p for p in game.store.pms()}[key]
    assert (own.sender, own.recipients, own.folder) == (HOST, ("Комиссар Рекс",), "sentbox")


def test_an_unknown_recipient_is_refused_in_the_boards_words(
        board: XfBoard, game119: Game119, poster: tuple[XenforoPoster, list[float]]) -> None:
    sender, _ = poster
    with pytest.raises(PostingError, match="получатели не найдены") as caught:
        sender.send_pm("Незнакомец", "Текст", "Тема")
    assert not caught.value.maybe_sent

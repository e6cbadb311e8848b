"""Reading a live XenForo 2 board (on 127.0.0.1): thread pages, login, conversations, and
what each sync costs."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support.clock import BoardClock
from support.moscow import msk
from support.xenforo.board import XfBoard
from support.xenforo.conversations import XfConversation, XfMessage
from xf_game import HOST, PEOPLE, Game119, config_text

from referee.core.errors import LoginFailed, TopicNotFound
from referee.game import Game
from referee.store.sync import open_adapter, sync_pms, sync_topic


def test_first_sync_reads_every_page_and_the_conversations(
        board: XfBoard, game119: Game119, open_game: Callable[..., Game]) -> None:
    game = open_game()
    lines = game.sync(progress=None)
    assert lines[0].startswith(
        "тема 69072: прочитаны стр. 1–2 из 2; новых сообщений: 22, запросов к форуму: 2")
    assert board.requests() == [
        ("GET", "threads/mafija-119.69072/", 200),
        ("GET", "threads/mafija-119.69072/page-2", 200),
        ("GET", "conversations/", 403),          # a guest: the login form
        ("POST", "login/login", 303),
        ("GET", "conversations/", 200),
        ("GET", "conversations/hod.303/", 200),
        ("GET", "conversations/hod.302/", 200),
        ("GET", "conversations/hod.301/", 200),
        ("GET", "conversations/hod.304/", 200),
    ]
    # The board's own page size (15, not XenForo's default 20) is read from the page.
    assert game.store.topic_per_page(69072) == 15


def test_a_sync_with_nothing_new_costs_one_request_per_source(
        board: XfBoard, game119: Game119, open_game: Callable[..., Game]) -> None:
    game = open_game()
    game.sync(progress=None)
    board.log.clear()
    lines = game.sync(progress=None)
    # Issue 14: the open day's earlier page is read again too, for edits and deletions.
    assert ("перечитаны стр. 1 (правки и удаления); новых сообщений: 0, запросов к форуму: 2"
            in lines[0])
    assert "запросов к форуму: 1" in lines[-1]
    assert board.requests() == [("GET", "threads/mafija-119.69072/", 200),
                                ("GET", "threads/mafija-119.69072/page-2", 200),
                                ("GET", "conversations/", 200)]


def test_new_messages_open_only_their_conversations(
        board: XfBoard, game119: Game119, open_game: Callable[..., Game],
        clock: BoardClock) -> None:
    game = open_game()
    game.sync(progress=None)
    game119.day2()
    game119.night2()
    clock.set("2026-11-24 09:00")
    board.log.clear()
    game.sync(progress=None)
    opened = [r for _, r, _ in board.requests() if r.startswith("conversations/hod")]
    assert opened == ["conversations/hod.302/", "conversations/hod.301/"]
    third = {p.pm_id: p for p in game.store.pms()}[30100003]
    assert (third.pm_id, third.sender, third.body_text) == (
        30100003, "Тень", "Стреляем в Доктор Хаус, исполнитель Тень.")
    assert set(third.recipients) == {"Бармен", HOST}


def test_pms_map_one_to_one_onto_conversation_messages(
        board: XfBoard, game119: Game119, open_game: Callable[..., Game]) -> None:
    game = open_game()
    game.sync(progress=None)
    pms = {p.pm_id: p for p in game.store.pms()}
    mafia = pms[30100001]
    assert (mafia.sender, mafia.sender_id, mafia.subject, mafia.folder) == (
        "Бармен", PEOPLE["Бармен"], "Ночь 1 — мафия", "inbox")
    assert set(mafia.recipients) == {HOST, "Тень"}
    assert mafia.sent_at == msk("2026-11-22 00:30")
    own = pms[30100002]  # the host's own answer in the same conversation
    assert (own.sender, own.folder) == (HOST, "sentbox")


def test_a_long_conversation_is_read_page_by_page_once(
        board: XfBoard, game119: Game119, open_game: Callable[..., Game]) -> None:
    long = XfConversation(400, "dolgaya", "Долгая", [("Ёжик", PEOPLE["Ёжик"]),
                                                     (HOST, PEOPLE[HOST])])
    long.messages += [XfMessage(8000 + i, "Ёжик", PEOPLE["Ёжик"],
                                msk(f"2026-11-21 {10 + i // 6}:{(i % 6) * 10:02d}"), f"Реплика {i}")
                      for i in range(20)]
    board.conversations[400] = long
    game = open_game()
    with open_adapter(game.config, db_path=game.store.path) as adapter:
        report = sync_pms(game.config, game.store, adapter)  # no thread page read first
    assert report.new_pms == 25
    pages = [r for _, r, _ in board.requests() if r.startswith("conversations/dolgaya")]
    # XenForo's default (20) guessed page 1; page 1 showed 15 of 20: page 2 holds 16–20.
    assert pages == ["conversations/dolgaya.400/", "conversations/dolgaya.400/page-2"]
    texts = {p.pm_id: p.body_text for p in game.store.pms()}
    assert [texts[40000000 + n] for n in (1, 15, 16, 20)] == [
        "Реплика 0", "Реплика 14", "Реплика 15", "Реплика 19"]


def test_a_renamed_thread_is_followed_by_its_canonical_address(
        board: XfBoard, game119: Game119, open_game: Callable[..., Game]) -> None:
    game = open_game(config_text(board).replace("mafija-119.69072", "staroe-nazvanie.69072"))
    with open_adapter(game.config, db_path=game.store.path) as adapter:
        sync_topic(game.config, game.store, adapter, progress=None)
    assert [(m, r) for m, r, _ in board.requests()] == [
        ("GET", "threads/staroe-nazvanie.69072/"),       # 301 to the current slug
        ("GET", "threads/mafija-119.69072/"),
        ("GET", "threads/mafija-119.69072/page-2"),     # asked by the current slug at once
    ]


def test_a_page_gone_by_deletions_redirects_to_the_last(
        board: XfBoard, game119: Game119, open_game: Callable[..., Game]) -> None:
    game = open_game()
    game.sync(progress=None)
    del game119.game.posts[3:12]  # page 2 is gone: 13 posts left on one page
    board.log.clear()
    with open_adapter(game.config, db_path=game.store.path) as adapter:
        report = sync_topic(game.config, game.store, adapter, progress=None)
    assert (report.last_page, report.total_pages, report.missing_posts) == (1, 1, 9)
    assert ("GET", "threads/mafija-119.69072/page-2", 301) in board.requests()


def test_a_members_only_thread_logs_in_first(
        board: XfBoard, game119: Game119, open_game: Callable[..., Game]) -> None:
    board.guests_see_threads = False
    game = open_game()
    with open_adapter(game.config, db_path=game.store.path) as adapter:
        report = sync_topic(game.config, game.store, adapter, progress=None)
    assert report.new_posts == 22
    assert [r for _, r, s in board.requests()][:3] == [
        "threads/mafija-119.69072/", "login/login", "threads/mafija-119.69072/"]


def test_a_wrong_password_is_said_in_words(
        board: XfBoard, game119: Game119, open_game: Callable[..., Game],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_PASSWORD", "не тот")
    game = open_game()
    with open_adapter(game.config, db_path=game.store.path) as adapter, \
            pytest.raises(LoginFailed, match="не принял пароль"):
        sync_pms(game.config, game.store, adapter)
    assert "не тот" not in repr(board.log)


@pytest.mark.parametrize(("prefix", "version", "pin_first"), [
    ("/index.php?", "2.3", False), ("/forum/", "2.1", False), ("/forum/", "xf20", False),
    ("/forum/", "uix", False), ("/forum/", "2.2", True), ("/forum/", "uix", True)])
def test_boards_of_every_version_and_style_read_alike(
        board: XfBoard, game119: Game119, open_game: Callable[..., Game], prefix: str,
        version: str, pin_first: bool) -> None:
    board.prefix, board.version, board.pin_first = prefix, version, pin_first
    game = open_game()
    game.sync(progress=None)
    assert len(game.store.posts()) == 22 and len(game.store.pms()) == 5
    assert game.tally_day(1).tally.hanged == "Лиса"
    # Day 1 counted, nothing new: one request per source, the first post shown again on
    # page 2 or not; nothing reads as edited, moved or removed.
    board.log.clear()
    lines = game.sync(progress=None)
    assert "новых сообщений: 0" in lines[0] and len(game.store.posts()) == 22
    assert lines[0] == "тема 69072: прочитаны стр. 2 из 2; новых сообщений: 0, запросов к форуму: 1"
    assert [r for _, r, _ in board.requests()] == [
        "threads/mafija-119.69072/page-2", "conversations/"]
    assert [(p.post_id, p.page) for p in game.store.posts()][:1] == [(
        board.threads[69072].posts[0].post_id, 1)]


def test_a_missing_thread_is_said_in_words(
        board: XfBoard, game119: Game119, open_game: Callable[..., Game]) -> None:
    game = open_game(config_text(board).replace("mafija-119.69072", "mafija-119.69999"))
    with open_adapter(game.config, db_path=game.store.path) as adapter, \
            pytest.raises(TopicNotFound, match="HTTP 404"):
        sync_topic(game.config, game.store, adapter)

"""The MyBB.ru client against a board on 127.0.0.1: pages of 100 through ``post.get``,
resuming, a topic that shrank, errors in the board's words, the session cookie, and the HTML
pages when the API is closed."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from support.mybbru.board import HASH, BoardPost, MybbBoard, serve

from adapters.base import ForumSettings, Secret
from adapters.mybbru.api import ApiRefused
from adapters.mybbru.client import MybbForum, whole_answer
from adapters.mybbru.urls import parse_topic_url
from referee.core.errors import ConfigError, ForumError, LoginRequired, TopicNotFound
from referee.core.kernel import FIRST_PAGE, PageCursor, TopicPage

START = 1795186800  # 2026-11-20 18:00 Moscow


def topic(n: int, first: int = 1000) -> list[BoardPost]:
    authors = [(11, "Шерлок"), (12, "Лиса"), (13, "Kotik")]
    return [BoardPost(first + i, *authors[i % 3], START + 60 * i,
                      f'<p>Сообщение {i}: <span style="color: red">Лиса</span></p>')
            for i in range(n)]


@pytest.fixture
def board() -> Iterator[tuple[MybbBoard, str]]:
    b = MybbBoard(posts=topic(230))
    with serve(b) as root:
        yield b, root


def forum(root: str, *, username: str | None = "Ведущий_Макс", tmp: Path | None = None,
          password: str = "пароль-Макса") -> MybbForum:
    settings = ForumSettings(url=f"{root}viewtopic.php?id=317&p=2#p1050", rate_limit=1000,
                             username=username, timezone="Europe/Moscow",
                             cookie_file=tmp / "game.cookies" if tmp else None)
    return MybbForum(settings, password=lambda user: Secret(password))


def read(f: MybbForum, cursor: PageCursor = FIRST_PAGE) -> list[TopicPage]:
    return list(f.fetch_topic_pages(cursor))


def test_a_first_read_is_topic_get_and_pages_of_100(board: tuple[MybbBoard, str]) -> None:
    b, root = board
    with forum(root) as f:
        pages = read(f)
        assert [(p.page, len(p.posts), p.total_pages) for p in pages] == [
            (1, 100, 3), (2, 100, 3), (3, 30, 3)]
        assert pages[-1].total_posts == 230 and pages[0].title == "Мафия: партия 7"
        assert [s.api for s in b.seen] == ["topic.get", "post.get", "post.get", "post.get"]
        assert [s.query["skip"] for s in b.seen[1:]] == ["0", "100", "200"]
        assert all(s.query["limit"] == "100" and s.query["sort_by"] == "id" for s in b.seen[1:])
        second = pages[1].posts[0]
        assert (second.post_id, second.page, second.position, second.author_id) == (1100, 2, 1,
                                                                                    12)
        assert f.topic_page_url(2) == f"{root}viewtopic.php?pid=1100#p1100"
        assert f.topic_page_url(1) == f"{root}viewtopic.php?id=317"


def test_resuming_on_the_last_page_is_one_request(board: tuple[MybbBoard, str]) -> None:
    b, root = board
    with forum(root) as f:
        assert [p.page for p in read(f, PageCursor(3, 100))] == [3]
    assert len(b.seen) == 1 and b.seen[0].query["skip"] == "200"


def test_a_full_last_page_asks_the_next_to_know_the_end(board: tuple[MybbBoard, str]) -> None:
    b, root = board
    b.posts = topic(200)
    with forum(root) as f:
        pages = read(f, PageCursor(2, 100))
    assert [(p.page, p.total_pages, p.total_posts) for p in pages] == [(2, 2, 200)]
    assert [s.query["skip"] for s in b.seen] == ["100", "200"]


def test_a_cursor_kept_with_another_page_size_starts_on_its_first_post(
        board: tuple[MybbBoard, str]) -> None:
    b, root = board
    with forum(root) as f:
        pages = read(f, PageCursor(6, 25))  # posts 126… are on page 2 of 100
    assert [p.page for p in pages] == [2, 3]


def test_a_topic_that_shrank_is_read_from_its_new_last_page(
        board: tuple[MybbBoard, str]) -> None:
    b, root = board
    b.posts = topic(190)
    with forum(root) as f:
        pages = read(f, PageCursor(3, 100))
    assert [(p.page, len(p.posts)) for p in pages] == [(2, 90)]


def test_an_api_error_is_said_in_the_boards_words(board: tuple[MybbBoard, str]) -> None:
    b, root = board
    b.refuse["post.get"] = "Тема закрыта модератором для чтения."
    with forum(root, username=None) as f, pytest.raises(ApiRefused) as e:
        read(f, PageCursor(1, 100))
    assert "Тема закрыта модератором для чтения." in str(e.value)
    assert [s.api for s in b.seen] == ["post.get", "board.get"]  # the API itself is open


def test_numbers_may_come_as_numbers_too(board: tuple[MybbBoard, str]) -> None:
    from adapters.mybbru.api import posts_of

    posts = posts_of([{"id": 7, "topic_id": 317, "user_id": 1, "username": "Гость",
                       "posted": START, "message": "<p>hi</p>"}], page=1, topic_id=317)
    assert posts[0].post_id == 7 and posts[0].author_id is None  # PunBB's guest is user 1


def test_an_edited_post_carries_the_apis_edit_marks(board: tuple[MybbBoard, str]) -> None:
    b, root = board
    b.posts[-1].edited, b.posts[-1].edited_by = START + 9000, "Модератор"
    with forum(root) as f:
        last = read(f, PageCursor(3, 100))[-1].posts[-1]
    assert last.edit is not None and last.edit.editor == "Модератор"
    assert int(last.edit.edited_at.timestamp()) == START + 9000  # type: ignore[union-attr]


def test_a_missing_topic_is_topic_not_found(board: tuple[MybbBoard, str]) -> None:
    b, root = board
    b.topic_id = 999
    with forum(root, username=None) as f, pytest.raises(TopicNotFound) as e:
        read(f)
    assert "тема 317 не найдена" in str(e.value)


def test_a_topic_hidden_from_guests_is_read_after_board_auth(
        board: tuple[MybbBoard, str], tmp_path: Path) -> None:
    b, root = board
    b.hidden = True
    with forum(root, tmp=tmp_path) as f:
        assert len(read(f)) == 3
    assert [s.api for s in b.seen][:3] == ["topic.get", "board.auth", "topic.get"]
    assert f"mybb_ru={HASH}" in b.seen[-1].cookie
    cookies = tmp_path / "game.cookies"
    assert stat.S_IMODE(cookies.stat().st_mode) == 0o600
    assert [c["name"] for c in json.loads(cookies.read_text())] == ["mybb_ru"]
    before = len(b.seen)
    with forum(root, tmp=tmp_path) as f:  # the next run keeps the session
        read(f, PageCursor(3, 100))
    assert [s.api for s in b.seen[before:]] == ["post.get"]


def test_the_session_never_goes_to_another_host(board: tuple[MybbBoard, str]) -> None:
    b, root = board
    other = MybbBoard()
    with serve(other) as elsewhere, forum(root) as f:
        f.login()
        f.http.get(elsewhere.replace("127.0.0.1", "localhost") + "viewtopic.php?id=1")
        f.http.get(f"{root}viewtopic.php?id=317")
    assert other.seen and "mybb_ru" not in other.seen[0].cookie
    assert "mybb_ru" in b.seen[-1].cookie


def test_a_hidden_topic_without_a_username_asks_for_one(board: tuple[MybbBoard, str]) -> None:
    b, root = board
    b.hidden = True
    with forum(root, username=None) as f, pytest.raises(TopicNotFound) as e:
        read(f)
    assert "[forum] username" in str(e.value)
    with forum(root, username=None) as f, pytest.raises(LoginRequired):
        f.fetch_pm_folder()


# --------------------------------------------------------------------------- API closed

@pytest.mark.parametrize("closed", ["404", "error"])
def test_a_closed_api_falls_back_to_the_pages_and_says_so_once(
        board: tuple[MybbBoard, str], closed: str) -> None:
    b, root = board
    b.api = closed
    b.posts[5].user_id, b.posts[5].username = 1, "Гость Вася"
    b.posts[7].edited, b.posts[7].edited_by = START + 999, "Kotik"
    with forum(root, username=None) as f:
        pages = read(f)
        assert [(p.page, len(p.posts), p.total_pages) for p in pages] == [
            (1, 100, 2), (2, 100, 3), (3, 30, 3)]
        assert [p.post_id for p in pages[1].posts] == list(range(1100, 1200))
        assert len(f.notes) == 1 and "API форума закрыт" in f.notes[0]
        if closed == "error":
            assert "API отключено администратором форума." in f.notes[0]
        again = read(f, PageCursor(3, 100))
        assert [p.page for p in again] == [3] and len(f.notes) == 1
    guest, edited = pages[0].posts[5], pages[0].posts[7]
    assert (guest.author, guest.author_id) == ("Гость Вася", None)
    assert edited.edit is not None and edited.edit.editor == "Kotik"
    assert "Подпись" not in edited.body_text and "Отредактировано" not in edited.body_text
    assert pages[0].posts[0].body_html == '<p>Сообщение 0: <span style="color: red">Лиса</span></p>'
    # Pages of 25: the whole topic, then page 1 (the page size) and the two holding 201….
    html_pages = [s.query.get("p", "1") for s in b.seen if s.path.endswith("viewtopic.php")]
    assert html_pages == [str(n) for n in range(1, 11)] + ["1", "9", "10"]
    assert [s.api for s in b.seen if s.api] == (
        ["topic.get"] if closed == "404" else ["topic.get", "board.get"])


def test_a_plain_fluxbb_board_is_told_apart(board: tuple[MybbBoard, str]) -> None:
    b, root = board
    b.punbb = True
    with forum(root, username=None) as f, pytest.raises(ForumError) as e:
        read(f)
    assert "PunBB/FluxBB без API MyBB.ru" in str(e.value)


# --------------------------------------------------------------------------- small parts

def test_topic_urls() -> None:
    assert parse_topic_url("https://gipermafia.rolka.me/viewtopic.php?id=149&p=3#p1") == (
        "https://gipermafia.rolka.me/", 149)
    assert parse_topic_url("https://mafia.example.org/forum/") == (
        "https://mafia.example.org/forum/", None)
    with pytest.raises(ConfigError, match="одно сообщение"):
        parse_topic_url("https://x.rusff.me/viewtopic.php?pid=5#p5")
    with pytest.raises(ConfigError, match="не номер темы"):
        parse_topic_url("https://x.rusff.me/viewtopic.php?id=abc")


def test_a_cut_answer_is_not_whole() -> None:
    def r(body: bytes, kind: str = "application/json") -> httpx.Response:
        return httpx.Response(200, content=body, headers={"content-type": kind})

    assert whole_answer(r(b'{"response": []}'))
    assert not whole_answer(r(b'{"response": [{"id": "1"'))
    assert whole_answer(r(b'{"response": []}', "text/html"))  # the API's own type unverified
    assert not whole_answer(r(b"<html><body><div class=post>", "text/html"))

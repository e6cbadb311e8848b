"""The vBulletin engine against a vB 4 board on 127.0.0.1 (tests/support/vbulletin/board.py):
paging in each URL form, the canonical redirect, incremental sync, login in the board's
encoding, PMs, and replies and PMs through the board's forms."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from support.vbulletin.board import HOST, PASSWORD, SLUG, VbBoard, md5_of
from support.vbulletin.pages import BOARD_ZONE, VbPm, VbPost, vote

from adapters.base import ForumSettings, Secret
from adapters.vbulletin.client import VbulletinForum
from adapters.vbulletin.forms import md5_fields
from adapters.vbulletin.posting import VbulletinPoster
from referee.core.errors import LoginFailed, TopicNotFound
from referee.core.kernel import PageCursor

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=BOARD_ZONE)
START = datetime(2026, 11, 20, 18, 0, tzinfo=BOARD_ZONE)
PLAYERS = [("Лиса", 63), ("Шерлок", 60), ("Kotik", 62), ("Ёжик", 64)]


def make_posts(n: int, first: int = 5000) -> list[VbPost]:
    out = []
    for k in range(n):
        name, uid = PLAYERS[k % len(PLAYERS)]
        target = PLAYERS[(k + 1) % len(PLAYERS)][0]
        out.append(VbPost(first + k, name, uid, START + timedelta(minutes=13 * k),
                          vote(target, f"Пост {k}: {target} ведёт себя странно")))
    return out


@pytest.fixture
def board() -> VbBoard:
    return VbBoard(posts=make_posts(23), clock=lambda: NOW)


@pytest.fixture
def root(board: VbBoard) -> Iterator[str]:
    with board.serve() as url:
        yield url


def forum_at(url: str, tmp_path: Path, *, password: str = PASSWORD,
             username: str | None = HOST[0]) -> VbulletinForum:
    settings = ForumSettings(url=url, timezone="Europe/Moscow", username=username,
                             rate_limit=0, retries=0, cookie_file=tmp_path / "game.cookies")
    return VbulletinForum(settings, password=lambda user: Secret(password), now=lambda: NOW)


@pytest.mark.parametrize("form", ["showthread.php?t=63", f"showthread.php/63-{SLUG}",
                                  f"threads/63-{SLUG}"])
def test_every_page_is_read_once_in_the_hosts_url_form(board: VbBoard, root: str,
                                                       tmp_path: Path, form: str) -> None:
    with forum_at(root + form, tmp_path) as forum:
        pages = list(forum.fetch_topic_pages())
        assert [p.page for p in pages] == [1, 2, 3]
        assert [p.post_id for tp in pages for p in tp.posts] == [
            p.post_id for p in board.posts]
        assert forum.requests == 3 and board.hits == ["thread:1", "thread:2", "thread:3"]
        assert pages[0].posts[0].posted_at == START
        assert pages[-1].total_posts == 23 and pages[-1].per_page == 10


def test_a_canonical_redirect_is_followed_once_then_its_form_is_used(
        board: VbBoard, root: str, tmp_path: Path) -> None:
    board.canonical = "threads"
    with forum_at(root + "showthread.php?t=63", tmp_path) as forum:
        assert len(list(forum.fetch_topic_pages())) == 3
        assert board.hits == ["redirect:1", "thread:1", "thread:2", "thread:3"]
        assert forum.topic_page_url(2).endswith(
            f"/forum/threads/63-{quote(SLUG.encode('cp1251'))}/page2")


def test_resuming_costs_one_request_when_nothing_changed_and_k_plus_1_with_new_pages(
        board: VbBoard, root: str, tmp_path: Path) -> None:
    with forum_at(root + "showthread.php?t=63", tmp_path) as forum:
        last = list(forum.fetch_topic_pages(PageCursor(3, 10)))
        assert [p.page for p in last] == [3] and forum.requests == 1
        board.posts += make_posts(15, first=6000)  # pages 3, 4 now
        before = forum.requests
        assert [p.page for p in forum.fetch_topic_pages(PageCursor(3, 10))] == [3, 4]
        assert forum.requests - before == 2


def test_a_page_past_the_end_is_the_last_page(board: VbBoard, root: str,
                                              tmp_path: Path) -> None:
    with forum_at(root + "showthread.php?t=63", tmp_path) as forum:
        pages = list(forum.fetch_topic_pages(PageCursor(7, 10)))
        assert [p.page for p in pages] == [3]


def test_a_missing_thread_is_reported(board: VbBoard, root: str, tmp_path: Path) -> None:
    with forum_at(root + "showthread.php?t=64", tmp_path) as forum, \
            pytest.raises(TopicNotFound, match="Неверно указана тема"):
        list(forum.fetch_topic_pages())


def test_a_closed_section_leads_to_one_login_in_the_boards_encoding(
        board: VbBoard, root: str, tmp_path: Path) -> None:
    board.guests_read = False
    with forum_at(root + "showthread.php?t=63", tmp_path) as forum:
        pages = list(forum.fetch_topic_pages())
        assert len(pages) == 3
        assert board.hits[:3] == ["thread:1", "login", "thread:1"]
    sent = board.logins[0]
    # The name arrived as windows-1251 bytes; the password only as md5 of «&#N;» entities.
    assert sent["vb_login_username"] == HOST[0] and sent["vb_login_password"] == ""
    assert sent["vb_login_md5password"] == md5_of(PASSWORD)
    assert sent["cookieuser"] == "1" and sent["securitytoken"] == "guest"
    assert PASSWORD not in str(sent.values())
    assert (tmp_path / "game.cookies").stat().st_mode & 0o077 == 0
    # The session is kept: the next run reads without logging in again.
    with forum_at(root + "showthread.php?t=63", tmp_path) as forum:
        list(forum.fetch_topic_pages(PageCursor(3, 10)))
    assert board.hit_count("login") == 1


def test_a_login_before_any_page_sends_the_name_in_the_boards_encoding(
        board: VbBoard, root: str, tmp_path: Path) -> None:
    # A host reading only PMs logs in first thing: the board's windows-1251 is learnt from
    # the page that serves the login form, not assumed to be UTF-8.
    with forum_at(root, tmp_path) as forum:
        forum.login()
        assert len(forum.fetch_pm_folder("inbox").entries) == len(board.pms)
    assert board.hits[:2] == ["denied:private.php", "login"]
    assert board.logins[0]["vb_login_username"] == HOST[0]


def test_a_wrong_password_says_so_without_the_password(board: VbBoard, root: str,
                                                       tmp_path: Path) -> None:
    board.guests_read = False
    with forum_at(root + "showthread.php?t=63", tmp_path, password="неверный") as forum, \
            pytest.raises(LoginFailed, match="отверг имя или пароль") as caught:
        list(forum.fetch_topic_pages())
    assert "неверный" not in str(caught.value)


def test_md5_fields_follow_vbulletins_md5hash() -> None:
    assert md5_fields(" secret ") == md5_fields("secret")
    ascii_pw, utf = md5_fields("secret")
    assert ascii_pw == utf == "5ebe2294ecd0e0f08eab7690d2a6ee69"
    cyrillic, low_bytes = md5_fields("Пароль")
    assert cyrillic == md5_of("Пароль") and cyrillic != low_bytes


def test_pm_folder_and_messages_after_a_login(board: VbBoard, root: str,
                                              tmp_path: Path) -> None:
    board.pms = [VbPm(101, "Лиса", 63, START + timedelta(hours=30), "Ночь 1",
                      "Стреляем в Kotik, исполнитель Лиса."),
                 VbPm(102, "Шерлок", 60, NOW - timedelta(minutes=5), "Проверка",
                      "Проверяю <b>Лиса</b>")]
    board.unread = {101, 102}
    with forum_at(root + "showthread.php?t=63", tmp_path) as forum:
        folder = forum.fetch_pm_folder("inbox")
        assert [e.pm_id for e in folder.entries] == [102, 101]
        assert [(e.sender, e.unread) for e in folder.entries] == [("Шерлок", True),
                                                                  ("Лиса", True)]
        assert folder.entries[0].sent_at == NOW - timedelta(minutes=5)
        pm = forum.fetch_pm(folder.entries[1])
        assert (pm.pm_id, pm.sender, pm.sender_id, pm.subject) == (101, "Лиса", 63, "Ночь 1")
        assert pm.body_text == "Стреляем в Kotik, исполнитель Лиса."
        assert pm.sent_at == START + timedelta(hours=30) and pm.recipients == (HOST[0],)
        assert forum.fetch_pm_folder("outbox").entries == ()
    assert board.hits == ["denied:private.php", "login", "folder:0:1", "pm:101"]
    assert board.unread == {102}


def test_a_reply_goes_through_the_form_with_its_security_token(
        board: VbBoard, root: str, tmp_path: Path) -> None:
    board.reject_token_once = True
    with forum_at(root + "showthread.php?t=63", tmp_path) as forum:
        poster = VbulletinPoster(forum)
        new_id = poster.reply("Итоги дня 1:\nповешен Kotik — мирный житель.")
    assert new_id == board.posts[-1].post_id
    assert board.posts[-1].author == HOST[0]
    assert "повешен Kotik" in board.posts[-1].body
    # A guest first (one login), then the form; the first token is refused, a fresh form
    # is fetched and sent once more.
    assert board.hits == ["denied:newreply.php", "login", "newreply", "postreply",
                          "newreply", "postreply"]
    sent = board.sent[-1]
    assert sent["securitytoken"] == board.token and sent["t"] == "63"
    assert sent["wysiwyg"] == "0" and sent["sbutton"] == "Ответить" and "preview" not in sent


def test_flood_control_is_waited_out_once(board: VbBoard, root: str, tmp_path: Path) -> None:
    board.flood_once = 12
    waits: list[float] = []
    with forum_at(root + "showthread.php?t=63", tmp_path) as forum:
        forum.http.sleep = waits.append
        assert VbulletinPoster(forum).reply("Ночь наступила.") == board.posts[-1].post_id
    assert waits == [13.0] and board.hit_count("postreply") == 2


def test_a_pm_goes_through_the_pm_form(board: VbBoard, root: str, tmp_path: Path) -> None:
    with forum_at(root + "showthread.php?t=63", tmp_path) as forum:
        assert VbulletinPoster(forum).send_pm("Ёжик", "Ты доктор. Ходи ночью.", "Роль") is None
    sent = board.sent[-1]
    assert (sent["recipients"], sent["title"], sent["message"]) == (
        "Ёжик", "Роль", "Ты доктор. Ходи ночью.")
    assert sent["securitytoken"] == board.token

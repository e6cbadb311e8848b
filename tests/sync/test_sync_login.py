"""Login (research 3.2, gotchas 10–11): a login form answered with HTTP 200 leads to one
login; the POST waits a second after the form; success is the session cookie; a refused
login says why without ever echoing the password."""

from __future__ import annotations

import logging
import stat
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from support.phpbb.respx_board import (
    PREFIX,
    FakeBoard,
    failed_login,
    fixture_bytes,
    login_page_with_error,
)
from sync_helpers import PASSWORD

from adapters.base import Secret
from adapters.phpbb.client import PhpbbForum
from referee.config.game import Config
from referee.core.errors import LoginFailed, LoginRequired
from referee.core.kernel import PageCursor
from referee.store import Store
from referee.store.sync import sync_pms, sync_topic

MakeForum = Callable[..., PhpbbForum]


def test_login_posts_the_form_a_second_after_it_was_served(
    board: FakeBoard, make_forum: MakeForum
) -> None:
    forum = make_forum()
    forum.login()
    assert board.log == ["GET login", "POST login"]
    (form,) = board.login_posts
    assert form["username"] == "Ведущий" and form["password"] == PASSWORD
    assert form["login"] == "Вход"                           # phpBB requires the button
    assert form["creation_time"] == "1795971550" and len(form["form_token"]) == 40
    assert form["autologin"] == "on"                          # «Запомнить меня»
    # Gotcha 11: not in the same second as creation_time.
    assert board.login_posted_at[0] - board.login_form_served_at[0] >= 1.0
    assert forum.logged_in()


def test_the_cookie_prefix_is_read_from_set_cookie(
    board: FakeBoard, make_forum: MakeForum
) -> None:
    forum = make_forum()
    forum.login()
    assert f"{PREFIX}_u" in forum.http.cookie_names()
    assert forum.http.cookie_value(f"{PREFIX}_u") == "58"
    assert forum.logged_in()


def test_a_closed_forum_logs_in_once_then_reads_every_page(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    board.require_login = True
    report = sync_topic(config, store, make_forum())
    # The login form served instead of page 1 is reused: no extra GET of ucp.php.
    assert board.log == ["topic:1", "POST login", "topic:1", "topic:2", "topic:3", "topic:4"]
    assert report.new_posts == 70


def test_a_redirect_to_the_login_page_leads_to_a_login(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    # Some boards answer a guest with 302 → ucp.php?mode=login instead of the form itself.
    board.require_login = True
    normal = board.handle

    def handle(request: httpx.Request) -> httpx.Response:
        if "viewtopic" in str(request.url) and f"{PREFIX}_u=58" not in request.headers.get(
                "cookie", ""):
            board.log.append("302 to login")
            return httpx.Response(302, headers={"location": "./ucp.php?mode=login"})
        return normal(request)

    board.handle = handle  # type: ignore[method-assign]
    report = sync_topic(config, store, make_forum())
    assert board.log[:4] == ["302 to login", "GET login", "POST login", "topic:1"]
    assert report.new_posts == 70


def test_an_expired_session_mid_run_is_renewed_once(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    board.require_login = True
    board.expire_on = {"topic:3"}
    report = sync_topic(config, store, make_forum())
    assert board.log == ["topic:1", "POST login", "topic:1", "topic:2",
                         "topic:3", "POST login", "topic:3", "topic:4"]
    assert report.new_posts == 70


def test_a_page_that_still_wants_a_login_after_logging_in_is_an_error(
    board: FakeBoard, make_forum: MakeForum
) -> None:
    # The account logs in fine but may not read the game forum: no endless login loop.
    board.topic_status[1] = board._guest(fixture_bytes("login_required.html"))
    with pytest.raises(LoginRequired, match="всё ещё показывает форму входа"):
        list(make_forum().fetch_topic_pages(PageCursor(1)))
    assert board.log == ["topic:1", "POST login", "topic:1"]


@pytest.mark.parametrize(
    ("forum_page", "reason"),
    [
        (fixture_bytes("login_failed.html"), "не принял пароль"),
        (login_page_with_error("Вы ввели неверное имя пользователя. Проверьте его."),
         "нет пользователя «Ведущий»"),
        (login_page_with_error(
            "Вы превысили максимально допустимое количество попыток входа. Теперь, кроме "
            "имени пользователя и пароля, вы должны пройти проверку средством против "
            "спам-ботов.", captcha=True), "капч"),
        (login_page_with_error("Вам <strong>бессрочно</strong> закрыт доступ к конференции."),
         "заблокирована"),
        (login_page_with_error(
            "Указанное имя пользователя в настоящее время неактивно. Если у вас есть "
            "проблемы с активацией учётной записи, свяжитесь с администратором."),
         "не подтверждена"),
    ],
)
def test_a_refused_login_says_why(
    board: FakeBoard, make_forum: MakeForum, forum_page: bytes, reason: str
) -> None:
    board.login_answers = [failed_login(forum_page)]
    with pytest.raises(LoginFailed, match=reason) as e:
        make_forum().login()
    assert PASSWORD not in str(e.value)
    assert board.log.count("POST login") == 1                 # one try: no CAPTCHA by us


def test_an_expired_form_token_is_retried_once_with_a_fresh_form(
    board: FakeBoard, make_forum: MakeForum
) -> None:
    board.login_answers = [failed_login(
        login_page_with_error("Ошибка отправки формы. Попробуйте ещё раз."))]
    forum = make_forum()
    forum.login()
    assert board.log == ["GET login", "POST login", "GET login", "POST login"]
    assert forum.logged_in()


def test_a_login_form_with_a_captcha_is_not_submitted(
    board: FakeBoard, make_forum: MakeForum
) -> None:
    captcha_form = login_page_with_error("", captcha=True)
    normal = board.handle

    def handle(request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and "mode=login" in str(request.url):
            board.log.append("GET login")
            return board.html(captcha_form)
        return normal(request)

    board.handle = handle  # type: ignore[method-assign]
    with pytest.raises(LoginFailed, match="капч"):
        make_forum().login()
    assert "POST login" not in board.log


def test_without_a_username_the_host_is_told_what_to_set(
    board: FakeBoard, make_forum: MakeForum, config: Config
) -> None:
    board.require_login = True
    forum = make_forum(replace(config.forum, board=replace(config.forum.board, username=None)))
    with pytest.raises(LoginRequired, match="username не задан"):
        list(forum.fetch_topic_pages(PageCursor(1)))


def test_the_session_is_kept_for_the_next_run_in_a_private_file(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store, tmp_path: Path
) -> None:
    forum = make_forum()
    sync_pms(config, store, forum)
    forum.close()
    cookie_file = tmp_path / "referee.cookies"
    assert stat.S_IMODE(cookie_file.stat().st_mode) == 0o600
    board.log.clear()
    asked: list[str] = []
    sync_pms(config, store, make_forum(password=lambda u: asked.append(u) or Secret("x")))
    assert "POST login" not in board.log and asked == []       # no password needed again


# --------------------------------------------------------------------------- secrets

def test_the_password_never_reaches_db_cookie_file_logs_or_errors(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store, tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    board.require_login = True
    forum = make_forum()
    sync_topic(config, store, forum)
    sync_pms(config, store, forum, sent=True)
    forum.close()
    store.close()
    board.login_answers = [failed_login(fixture_bytes("login_failed.html"))]
    with pytest.raises(LoginFailed) as failure:
        make_forum(cookie_file=tmp_path / "other.cookies").login()
    secret = PASSWORD.encode()
    everything = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert (tmp_path / "referee.db").exists() and (tmp_path / "referee.cookies").exists()
    assert secret not in everything
    assert PASSWORD not in caplog.text
    assert PASSWORD not in str(failure.value) + repr(failure.value)
    assert board.login_posts[0]["password"] == PASSWORD        # it was used, only in the POST
    # Nor any session id in what the host sees.
    assert "1" * 32 not in caplog.text


def test_cookies_are_not_sent_to_another_host_after_login(
    board: FakeBoard, make_forum: MakeForum
) -> None:
    forum = make_forum()
    forum.login()
    route = board.router.get("https://tracker.example/pixel").mock(
        return_value=httpx.Response(200))
    forum.http.get("https://tracker.example/pixel")
    forum.http.get("https://forum.test/viewtopic.php?t=3")
    assert "cookie" not in route.calls.last.request.headers
    assert f"{PREFIX}_u=58" in board.cookie_headers[-1]       # the forum itself gets it


def test_a_login_form_pointing_at_another_site_gets_no_password(
    board: FakeBoard, make_forum: MakeForum
) -> None:
    trap = fixture_bytes("login.html").replace(
        b'action="./ucp.php?mode=login"', b'action="https://evil.test/ucp.php?mode=login"')
    evil = board.router.post("https://evil.test/ucp.php").mock(return_value=httpx.Response(200))
    with pytest.raises(LoginFailed, match="другой сайт"):
        make_forum().login(form_html=trap.decode(), received_at=0.0)
    assert evil.call_count == 0 and "POST login" not in board.log

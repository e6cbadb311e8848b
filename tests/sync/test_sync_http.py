"""HTTP politeness (issue 2): retries with backoff, Retry-After, rate limit, User-Agent,
the private cookie file, and cookies that never leave the forum's site."""

from __future__ import annotations

import logging
import os
import stat
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
import respx
from support.clock import FakeTime
from support.phpbb.respx_board import BOARD
from sync_helpers import PASSWORD

import adapters.base as base
from adapters.base import (
    USER_AGENT,
    Backoff,
    HttpClient,
    Secret,
    get_password,
    retry_after_seconds,
    strip_sid,
)
from referee.core.errors import ForumError, LoginRequired, NetworkError

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def client(t: FakeTime, **kw: object) -> HttpClient:
    kw.setdefault("rate_limit", None)
    return HttpClient(BOARD, sleep=t.sleep, clock=t.clock, wall=lambda: NOW,
                      random_=lambda: 0.0, backoff=Backoff(base=1.0, cap=60.0), **kw)


# --------------------------------------------------------------------------- retries

@pytest.mark.parametrize(
    ("answers", "waits", "final"),
    [
        # forum answers                          waits before each retry   result
        ([503, 200], [1.0], 200),
        ([502, 500, 504, 200], [1.0, 2.0, 4.0], 200),
        ([429, 200], [1.0], 200),
        ([404], [], 404),                          # a real answer: not retried
        ([403], [], 403),
    ],
)
def test_server_errors_are_retried_with_exponential_backoff(
    answers: list[int], waits: list[float], final: int
) -> None:
    t = FakeTime()
    with respx.mock:
        route = respx.get(BOARD + "viewtopic.php").mock(
            side_effect=[httpx.Response(s) for s in answers]
        )
        r = client(t).get(BOARD + "viewtopic.php?t=3")
    assert r.status_code == final
    assert route.call_count == len(answers)
    assert t.sleeps == waits


def test_backoff_has_jitter_and_a_cap() -> None:
    b = Backoff(base=1.0, cap=10.0, jitter=0.5)
    assert b.delay(0, 0.0) == 1.0
    assert b.delay(0, 1.0) == 1.5       # up to +50 % jitter
    assert b.delay(10, 0.0) == 10.0     # capped


@pytest.mark.parametrize(
    ("header", "wait"),
    [
        ("7", 7.0),                                   # delta-seconds
        ("Sun, 22 Nov 2026 12:00:30 GMT", 30.0),      # an HTTP date, 30 s from NOW
    ],
)
def test_retry_after_is_honoured(header: str, wait: float) -> None:
    t = FakeTime()
    with respx.mock:
        respx.get(BOARD + "index.php").mock(side_effect=[
            httpx.Response(429, headers={"Retry-After": header}), httpx.Response(200),
        ])
        assert client(t).get(BOARD + "index.php").status_code == 200
    assert t.sleeps == [wait]
    assert retry_after_seconds(header, NOW) == wait


def test_a_retry_after_of_an_hour_is_not_waited_out() -> None:
    t = FakeTime()
    with respx.mock:
        respx.get(BOARD + "index.php").mock(
            return_value=httpx.Response(503, headers={"Retry-After": "3600"})
        )
        with pytest.raises(NetworkError, match="просит подождать 3600 с"):
            client(t).get(BOARD + "index.php")
    assert t.sleeps == []


@pytest.mark.parametrize("error", [httpx.ConnectError, httpx.ReadTimeout, httpx.ConnectTimeout])
def test_network_errors_are_retried_then_reported(error: type[Exception]) -> None:
    t = FakeTime()
    with respx.mock:
        route = respx.get(BOARD + "viewtopic.php").mock(side_effect=error("boom"))
        with pytest.raises(NetworkError) as e:
            client(t, retries=2).get(BOARD + "viewtopic.php?t=3&sid=" + "a" * 32)
    assert route.call_count == 3
    assert t.sleeps == [1.0, 2.0]
    assert "попыток: 3" in str(e.value)
    assert "sid=" not in str(e.value)          # the session id is a secret too


def test_five_hundreds_after_all_retries_name_the_status() -> None:
    t = FakeTime()
    with respx.mock:
        respx.get(BOARD + "index.php").mock(return_value=httpx.Response(502))
        with pytest.raises(NetworkError, match="HTTP 502 .* попыток: 2"):
            client(t, retries=1).get(BOARD + "index.php")


def test_a_post_that_may_have_reached_the_forum_is_not_sent_twice() -> None:
    t = FakeTime()
    with respx.mock:
        route = respx.post(BOARD + "posting.php").mock(side_effect=httpx.ReadTimeout("slow"))
        with pytest.raises(NetworkError):
            client(t).post(BOARD + "posting.php", data={"message": "x"})
    assert route.call_count == 1


def test_a_post_whose_connection_failed_is_retried() -> None:
    t = FakeTime()
    with respx.mock:
        route = respx.post(BOARD + "posting.php").mock(
            side_effect=[httpx.ConnectError("refused"), httpx.Response(200)]
        )
        assert client(t).post(BOARD + "posting.php", data={"m": "x"}).status_code == 200
    assert route.call_count == 2


# --------------------------------------------------------------------------- politeness

def test_rate_limit_spaces_requests_at_two_per_second_by_default() -> None:
    t = FakeTime()
    sent_at: list[float] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent_at.append(t.clock())
        return httpx.Response(200)

    with respx.mock:
        respx.get(BOARD + "index.php").mock(side_effect=answer)
        http = client(t, rate_limit=2.0)
        for _ in range(4):
            http.get(BOARD + "index.php")
    gaps = [b - a for a, b in zip(sent_at, sent_at[1:], strict=False)]
    assert gaps == [0.5, 0.5, 0.5]
    assert http.requests == 4


def test_user_agent_names_the_tool() -> None:
    t = FakeTime()
    with respx.mock:
        route = respx.get(BOARD + "index.php").mock(return_value=httpx.Response(200))
        client(t).get(BOARD + "index.php")
    ua = route.calls.last.request.headers["User-Agent"]
    assert ua == USER_AGENT
    assert ua.startswith("referee/") and ua.endswith("(+forum mafia referee)")


@pytest.mark.parametrize(
    ("url", "clean"),
    [
        ("https://f/viewtopic.php?t=3&sid=" + "0123456789abcdef" * 2, "https://f/viewtopic.php?t=3"),
        ("https://f/ucp.php?sid=" + "f" * 32 + "&i=pm", "https://f/ucp.php?i=pm"),
        ("https://f/viewtopic.php?t=3&sid=" + "a" * 32 + "&start=20",
         "https://f/viewtopic.php?t=3&start=20"),
        ("https://f/viewtopic.php?t=3", "https://f/viewtopic.php?t=3"),
    ],
)
def test_sid_is_stripped_from_urls(url: str, clean: str) -> None:
    assert strip_sid(url) == clean


# --------------------------------------------------------------------------- cookies

SET_COOKIES = [
    ("set-cookie", "phpbb3_abcde_u=58; path=/; domain=forum.test; HttpOnly"),
    ("set-cookie", "phpbb3_abcde_sid=" + "9" * 32 + "; path=/; domain=forum.test; HttpOnly"),
]


def test_cookie_file_is_private_and_reused_by_the_next_run(tmp_path: Path) -> None:
    t = FakeTime()
    jar = tmp_path / "game.cookies"
    with respx.mock:
        respx.get(BOARD + "index.php").mock(return_value=httpx.Response(200, headers=SET_COOKIES))
        with client(t, cookie_file=jar) as http:
            http.get(BOARD + "index.php")
    assert stat.S_IMODE(jar.stat().st_mode) == 0o600
    with respx.mock:
        route = respx.get(BOARD + "viewtopic.php").mock(return_value=httpx.Response(200))
        with client(t, cookie_file=jar) as http:
            http.get(BOARD + "viewtopic.php?t=3")
    assert "phpbb3_abcde_u=58" in route.calls.last.request.headers["Cookie"]


def test_cookie_file_is_created_0600_from_the_first_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[tuple[int, int]] = []
    real_open = os.open

    def spy(path: object, flags: int, mode: int = 0o777, *a: object, **k: object) -> int:
        opened.append((flags, mode))
        return real_open(path, flags, mode, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(base.os, "open", spy)
    jar = tmp_path / "game.cookies"
    jar.write_text("[]")
    jar.chmod(0o644)          # an old file readable by others …
    http = client(FakeTime(), cookie_file=jar)
    http.close()
    assert opened and all(mode == 0o600 for flags, mode in opened if flags & os.O_CREAT)
    assert stat.S_IMODE(jar.stat().st_mode) == 0o600   # … is private afterwards


def test_cookies_are_never_sent_to_another_host() -> None:
    t = FakeTime()
    with respx.mock:
        respx.get(BOARD + "index.php").mock(return_value=httpx.Response(200, headers=SET_COOKIES))
        other = respx.get("https://other.test/page").mock(return_value=httpx.Response(200))
        http = client(t)
        http.get(BOARD + "index.php")
        http.get("https://other.test/page")
    assert "Cookie" not in other.calls.last.request.headers


def test_a_redirect_to_another_site_is_refused_while_logged_in() -> None:
    t = FakeTime()
    with respx.mock:
        respx.get(BOARD + "index.php").mock(return_value=httpx.Response(200, headers=SET_COOKIES))
        respx.get(BOARD + "viewtopic.php").mock(
            return_value=httpx.Response(302, headers={"Location": "https://evil.test/steal"})
        )
        evil = respx.get("https://evil.test/steal").mock(return_value=httpx.Response(200))
        http = client(t)
        http.get(BOARD + "index.php")
        with pytest.raises(ForumError, match="перенаправил на другой сайт"):
            http.get(BOARD + "viewtopic.php?t=3")
    assert evil.call_count == 0


def test_a_guest_follows_a_redirect_to_another_site_without_cookies() -> None:
    t = FakeTime()
    with respx.mock:
        respx.get(BOARD + "viewtopic.php").mock(
            return_value=httpx.Response(301, headers={"Location": "https://new-forum.test/t/3"})
        )
        moved = respx.get("https://new-forum.test/t/3").mock(return_value=httpx.Response(200))
        r = client(t).get(BOARD + "viewtopic.php?t=3")
    assert r.status_code == 200
    assert "Cookie" not in moved.calls.last.request.headers


def test_same_site_redirects_keep_the_session() -> None:
    t = FakeTime()
    with respx.mock:
        respx.get(BOARD + "index.php").mock(return_value=httpx.Response(200, headers=SET_COOKIES))
        respx.get(BOARD + "viewtopic.php", params={"start": "0"}).mock(
            return_value=httpx.Response(200, text="ok")
        )
        respx.get(BOARD + "viewtopic.php").mock(
            return_value=httpx.Response(302, headers={"Location": "./viewtopic.php?t=3&start=0"})
        )
        http = client(t)
        http.get(BOARD + "index.php")
        r = http.get(BOARD + "viewtopic.php?t=3")
    assert r.text == "ok"
    assert "phpbb3_abcde_sid" in r.request.headers["Cookie"]
    assert http.requests == 3


# --------------------------------------------------------------------------- password

def test_password_comes_from_the_environment() -> None:
    secret = get_password("Ведущий", env={"REFEREE_PASSWORD": PASSWORD})
    assert secret.reveal() == PASSWORD


def test_password_is_prompted_for_when_not_in_the_environment() -> None:
    asked: list[str] = []

    def prompt(text: str) -> str:
        asked.append(text)
        return PASSWORD

    assert get_password("Ведущий", env={}, prompt=prompt).reveal() == PASSWORD
    assert asked == ["Пароль на форуме для Ведущий: "]


def test_without_a_terminal_the_host_is_told_how_to_give_the_password() -> None:
    with pytest.raises(LoginRequired, match="REFEREE_PASSWORD"):
        get_password("Ведущий", env={}, interactive=False)


def test_a_secret_never_prints_itself(caplog: pytest.LogCaptureFixture) -> None:
    s = Secret(PASSWORD)
    caplog.set_level(logging.DEBUG)
    logging.getLogger("t").info("password is %s / %r / %s", s, s, [s])
    assert PASSWORD not in repr(s) + str(s) + f"{s}" + caplog.text

"""The host's password stays a secret: it is sent in the login form to the forum and
nowhere else — not into the database, the cookie file, the log, the screen or an error
(docs/rules.md: credentials never stored). The forum's session cookies go to the forum only.

Everything runs through the CLI as a host would (``referee --verbose sync`` with
``REFEREE_PASSWORD`` set) against a phpBB 3.3 board played by respx with the real fixture
pages: a good login and full sync, a refused login, a network failure after logging in.
"""

from __future__ import annotations

import logging
import stat
import sys
import traceback
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import respx
from robust_helpers import FIXTURES
from support.clock import FakeTime
from support.phpbb.respx_board import PREFIX, FakeBoard, failed_login, fixture_bytes
from typer.testing import CliRunner

from adapters.base import HttpClient, Secret
from adapters.phpbb import client as phpbb_client
from adapters.phpbb.client import PhpbbForum
from referee import cli
from referee.config.game import load_config
from referee.core.errors import ForumError

MARKER = f"pw-{uuid.uuid4().hex}-Пароль"
"""The password of this test run: unique, so finding it anywhere is proof of a leak."""

SESSION_ID = "1" * 32
"""The session id the fake board hands out after a login (a secret too)."""


def game_config(tmp: Path) -> Path:
    """The demo game's referee.toml, pointed at the live (fake) board instead of saved pages."""
    text = (FIXTURES / "demo" / "referee.toml").read_text(encoding="utf-8")
    text = text.replace('snapshot = "pages"', "retries = 0")
    text = text.replace('url = "http://127.0.0.1:8733/viewtopic.php?t=3"',
                        'url = "https://forum.test/viewtopic.php?t=3"')
    text = text.replace("rate_limit = 2.0", "rate_limit = 1000.0")
    path = tmp / "referee.toml"
    path.write_text(text, encoding="utf-8")
    assert load_config(path).forum.board.snapshot is None
    return path


@pytest.fixture
def board(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeBoard]:
    monkeypatch.setenv("REFEREE_PASSWORD", MARKER)
    monkeypatch.setattr(phpbb_client, "LOGIN_WAIT", 0.0)  # the fake board has no clock
    b = FakeBoard(time=FakeTime(), require_login=True)
    with respx.mock(assert_all_called=False) as router:
        b.install(router)
        yield b


def referee(config: Path, db: Path, *args: str) -> tuple[int, str, BaseException | None]:
    """``referee --verbose …`` as the host types it: exit code, all it printed, error."""
    res = CliRunner().invoke(cli.app, ["--config", str(config), "--db", str(db), "--verbose",
                                       *args])
    shown = res.stdout + res.stderr
    if res.exception is not None:
        shown += "".join(traceback.format_exception(res.exception))
    return res.exit_code, shown, res.exception


def referee_main(config: Path, db: Path, *args: str, capsys: pytest.CaptureFixture[str],
                 monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """The installed ``referee`` entry point: what the host sees when a command fails."""
    monkeypatch.setattr(sys, "argv", ["referee", "--config", str(config), "--db", str(db),
                                      "--verbose", *args])
    with pytest.raises(SystemExit) as stop:
        cli.main()
    out = capsys.readouterr()
    return int(stop.value.code or 0), out.out + out.err


def files_under(folder: Path) -> bytes:
    """Every byte of every file the runs left behind (db, WAL, cookies, temp files)."""
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


def test_the_password_reaches_the_login_form_and_nothing_else(
    board: FakeBoard, tmp_path: Path, caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    caplog.set_level(logging.DEBUG)
    config = game_config(tmp_path)
    seen: list[str] = []

    # 1. A good login and a full sync: topic pages and the PM folders.
    code, shown, error = referee(config, tmp_path / "game.db", "sync", "--sent")
    assert code == 0 and error is None, shown
    seen.append(shown)
    assert board.login_posts and board.login_posts[0]["password"] == MARKER  # it was used
    code, shown, _ = referee(config, tmp_path / "game.db", "tally", "--day", "1", "--offline")
    seen.append(shown)

    # 2. A refused login (wrong password), on a fresh database without a session.
    board.login_answers = [failed_login(fixture_bytes("login_failed.html"))]
    code, shown, error = referee(config, tmp_path / "refused.db", "sync")
    assert code != 0 and error is not None and "не принял пароль" in str(error)
    seen.append(shown)
    board.login_answers = [failed_login(fixture_bytes("login_failed.html"))]
    code, shown = referee_main(config, tmp_path / "refused2.db", "sync", capsys=capsys,
                               monkeypatch=monkeypatch)
    assert code == 3 and "не принял пароль" in shown
    seen.append(shown)

    # 3. The network fails right after a login, while opening the PMs.
    serve = board.handle

    def cut_off(request: httpx.Request) -> httpx.Response:
        if request.url.params.get("i") == "pm":
            raise httpx.ConnectError("connection reset", request=request)
        return serve(request)

    monkeypatch.setattr(board, "handle", cut_off)
    code, shown = referee_main(config, tmp_path / "offline.db", "sync", capsys=capsys,
                               monkeypatch=monkeypatch)
    assert code == 3 and "не удаётся связаться с форумом" in shown
    seen.append(shown)
    seen.append(capsys.readouterr().out)

    logged = caplog.text
    assert "POST" in logged  # --verbose did log the requests, the login among them
    everything = "\n".join(seen) + logged
    assert MARKER not in everything
    assert SESSION_ID not in everything  # nor the session id
    stored = files_under(tmp_path)
    assert MARKER.encode() not in stored
    assert MARKER.encode("utf-16-le") not in stored and MARKER.encode("cp1251") not in stored
    cookies = tmp_path / "game.cookies"
    assert cookies.exists() and f"{PREFIX}_sid".encode() in cookies.read_bytes()
    assert stat.S_IMODE(cookies.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "game.db").stat().st_mode) == 0o600


# --------------------------------------------------------------------------- cookies

def logged_in_forum(board: FakeBoard, tmp_path: Path) -> PhpbbForum:
    forum_config = load_config(game_config(tmp_path)).forum
    http = HttpClient("https://forum.test/", rate_limit=None, retries=0,
                      cookie_file=tmp_path / "game.cookies", sleep=lambda s: None)
    forum = PhpbbForum(forum_config.settings(), http=http, password=lambda user: Secret(MARKER))
    forum.login()
    assert forum.logged_in()
    return forum


@pytest.mark.parametrize("elsewhere", [
    "https://evil.test/steal",
    "https://forum.test.evil.test/steal",      # the forum's name as a subdomain of another
    "https://evilforum.test/steal",
    "http://127.0.0.1/steal",
])
def test_a_redirect_to_another_site_never_gets_the_session(
    board: FakeBoard, tmp_path: Path, elsewhere: str
) -> None:
    forum = logged_in_forum(board, tmp_path)
    trap = board.router.route(url__startswith=elsewhere.rsplit("/", 1)[0]).mock(
        return_value=httpx.Response(200, text="<html>gotcha</html>"))
    board.topic_status[2] = httpx.Response(302, headers={"location": elsewhere})
    with pytest.raises(ForumError, match="другой сайт") as refused:
        forum.fetch_topic_page(2, per_page=20)
    assert trap.call_count == 0
    assert MARKER not in str(refused.value) and SESSION_ID not in str(refused.value)
    forum.close()


def test_the_session_cookies_go_to_the_forum_only(board: FakeBoard, tmp_path: Path) -> None:
    forum = logged_in_forum(board, tmp_path)
    other = board.router.route(host="tracker.test").mock(return_value=httpx.Response(204))
    forum.http.get("https://tracker.test/pixel.gif")
    forum.fetch_topic_page(1)
    assert "cookie" not in other.calls.last.request.headers
    assert f"{PREFIX}_sid={SESSION_ID}" in board.cookie_headers[-1]
    forum.close()

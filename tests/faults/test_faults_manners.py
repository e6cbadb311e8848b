"""Issue 14 — smaller things a host would notice: a foreign cookie in the cookie file, a
stall with nothing on screen, an address that does not resolve, a session id in the
board's access log.
"""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from fault_helpers import CLI, Runner, assert_db_is_the_truth, write_config
from support.phpbb.board import FOREIGN_REDIRECT, FORM_SID, ROOT, Board, stall

from adapters.base import HttpClient
from adapters.phpbb.urls import sid_in_body
from referee.core.errors import NetworkError

SID = "0" * 32


def test_a_cookie_set_by_a_foreign_host_after_a_redirect_is_not_kept(
    board: Board, run: Runner
) -> None:
    board.inject("topic:1", FOREIGN_REDIRECT)
    run.all()
    assert "bounce" in board.log                       # the detour did happen
    saved = json.loads(run.db.with_suffix(".cookies").read_text())
    assert saved and all(c["domain"].lstrip(".") == "127.0.0.1" for c in saved)
    assert "tracker" not in {c["name"] for c in saved}
    assert_db_is_the_truth(run.db, board)


def test_no_session_id_in_a_url_the_tool_requests(board: Board, make_runner) -> None:
    board.sid_in_forms = True                          # a login form with «&sid=» in it
    board.require_login = True
    run = make_runner()
    run.all()
    assert board.logins == 1
    assert not [p for p in board.paths if "sid=" in p]
    login = next(b for b in board.bodies if "password" in b)
    assert login["sid"] == FORM_SID                    # phpBB reads it from the body
    assert_db_is_the_truth(run.db, board)


@pytest.mark.parametrize(
    ("url", "data", "sent_to", "sent"),
    [
        ("./posting.php?mode=reply&t=3&sid=" + SID, {"message": "x"},
         "./posting.php?mode=reply&t=3", {"message": "x", "sid": SID}),
        ("./ucp.php?sid=" + SID + "&mode=login", {"sid": "1" * 32},
         "./ucp.php?mode=login", {"sid": "1" * 32}),       # the form's own field stands
        ("./ucp.php?mode=login", {"a": "b"}, "./ucp.php?mode=login", {"a": "b"}),
    ],
)
def test_a_form_address_gives_its_session_id_to_the_body(
    url: str, data: dict[str, str], sent_to: str, sent: dict[str, str]
) -> None:
    assert sid_in_body(url, data) == (sent_to, sent)


def test_an_address_that_does_not_resolve_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = socket.getaddrinfo

    def resolver(host: object, *args: object, **kw: object) -> object:
        if host == "mafia-forum.invalid":                # no query leaves this machine
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    client = HttpClient("http://mafia-forum.invalid/", rate_limit=None, retries=3,
                        sleep=lambda s: None)
    with pytest.raises(NetworkError) as caught:
        client.get("http://mafia-forum.invalid/viewtopic.php?t=3")
    assert "«mafia-forum.invalid» не находится" in caught.value.message
    assert "такого имени нет" in caught.value.message
    assert "написание" in (caught.value.hint or "")
    assert client.requests == 1                          # a name that is not there: no retry


def test_a_stalling_forum_is_waited_for_visibly_with_attempt_and_timeout(
    board: Board, make_runner, caplog: pytest.LogCaptureFixture
) -> None:
    run = make_runner(timeout=1.0, retries=2)
    board.inject("topic:2", stall(5), stall(5))
    with caplog.at_level(logging.WARNING, "referee.notice"):
        forum = run.open()
        forum.http.notice_after = 0.3
        from referee.store import Store
        from referee.store.sync import sync_topic

        with Store.open(run.db) as store, forum:
            sync_topic(run.config(), store, forum)
    lines = [r.getMessage() for r in caplog.records]
    waiting = [ln for ln in lines if "нет ответа" in ln]
    retrying = [ln for ln in lines if "ReadTimeout" in ln]
    assert len(waiting) == 2 and all(ln.startswith("жду ответа форума…") for ln in waiting)
    assert "нет ответа 0.3 с (попытка 1 из 3, таймаут 1 с)" in waiting[0]
    assert [("попытка 2 из 3" in retrying[0]), ("попытка 3 из 3" in retrying[1])] == [True] * 2


def test_the_host_sees_the_first_waiting_line_seconds_into_a_stall(tmp_path: Path) -> None:
    """The real command, no --verbose: while page 2 stalls, the first line on the screen is
    the waiting line, printed before the attempt times out (the order of the lines proves
    it, not a wall clock: a loaded machine must not fail this test)."""
    board = Board()
    with board.running():
        board.inject("topic:2", stall(30))
        config = write_config(board, tmp_path, timeout=6, retries=1)
        proc = subprocess.Popen(
            [sys.executable, "-c", CLI, "--config", str(config), "sync"], cwd=ROOT,
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
            env={"REFEREE_PASSWORD": "faults-Пароль-8", "PATH": "/usr/bin:/bin",
                 "PYTHONPATH": str(ROOT)})
        assert proc.stderr is not None
        first = proc.stderr.readline()
        rest = proc.communicate(timeout=60)[1]
    assert proc.returncode == 0, first + rest
    assert first.startswith("жду ответа форума…") and "нет ответа 5 с" in first
    assert "попытка 1 из 2, таймаут 6 с" in first        # printed while attempt 1 waits
    assert "ReadTimeout; попытка 2 из 2" in rest

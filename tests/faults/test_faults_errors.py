"""Issue 8 — a board that keeps misbehaving: the sync stops with a clear error, keeps what
it read, and the next run (on a healthy board) completes with nothing lost or doubled.

Each row: what the board does to every try of one request, the error the host gets, and
words of its message (what happened); every error also carries a hint (what to do).
"""

from __future__ import annotations

import pytest
from fault_helpers import (
    Runner,
    assert_db_is_the_truth,
    integrity,
    opened_pms,
    stored_posts,
    true_posts,
)
from support.phpbb.board import (
    BAD_GZIP,
    DROP,
    LOGIN_FORM,
    TRUNCATE,
    Board,
    Fault,
    stall,
    status,
)

from referee.core.errors import ForumError, LoginRequired, NetworkError

TRIES = 3
"""``retries = 2`` in the host's [forum]: three tries of each request."""


@pytest.mark.parametrize(
    ("faults", "request_key", "error", "words"),
    [
        # every try of the request gets        request      error          message says
        ([status(503)] * TRIES, "topic:3", NetworkError, ["HTTP 503", "попыток: 3"]),
        ([status(500)] * TRIES, "pm:104", NetworkError, ["HTTP 500", "p=104"]),
        ([DROP] * TRIES, "topic:4", NetworkError, ["не удаётся связаться с форумом",
                                                   "RemoteProtocolError"]),
        ([BAD_GZIP] * TRIES, "topic:2", NetworkError, ["не распаковать"]),
        ([TRUNCATE] * TRIES, "topic:3", NetworkError, ["неполную страницу"]),
        ([TRUNCATE] * TRIES, "pm:101", NetworkError, ["неполную страницу", "p=101"]),
        ([status(429, retry_after="3600")], "topic:2", NetworkError, ["просит подождать 3600 с"]),
        ([status(502)], "login", NetworkError, ["HTTP 502 при входе"]),
        ([LOGIN_FORM] * 2, "topic:3", LoginRequired, ["всё ещё показывает форму входа",
                                                      "страницу 3 темы t=3"]),
        ([LOGIN_FORM] * 2, "folder:inbox:2", LoginRequired, ["всё ещё показывает форму входа"]),
    ],
    ids=lambda v: v[0].kind if isinstance(v, list) and isinstance(v[0], Fault) else None,
)
def test_a_lasting_fault_stops_the_sync_with_a_clear_error_and_the_next_run_completes(
    board: Board, run: Runner, faults: list[Fault], request_key: str,
    error: type[ForumError], words: list[str],
) -> None:
    board.inject(request_key, *faults)
    with pytest.raises(error) as caught:
        run.all()
    for w in words:
        assert w in caught.value.message
    assert caught.value.hint
    assert integrity(run.db) == "ok"
    if request_key.startswith("topic:"):
        # Every page before the broken one is kept.
        page = int(request_key.split(":")[1])
        assert stored_posts(run.db) == true_posts(board)[: (page - 1) * board.per_page]

    run.all()  # the board is healthy again
    assert_db_is_the_truth(run.db, board)
    assert sorted(opened_pms(board)) == sorted(f"pm:{m.pm_id}" for m in board.pms)


def test_a_page_that_never_answers_is_a_timeout_error(board: Board, make_runner) -> None:
    run = make_runner(timeout=0.3)
    board.inject("topic:2", *[stall(5)] * TRIES)
    with pytest.raises(NetworkError, match="ReadTimeout") as caught:
        run.topic()
    assert "запустите команду позже" in (caught.value.hint or "")
    run.all()
    assert_db_is_the_truth(run.db, board)

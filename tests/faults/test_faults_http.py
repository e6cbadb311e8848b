"""Issue 8 — a board that misbehaves once: the sync retries and nothing is lost.

Each row: what the board does to one request, and which request. The sync must ask again,
finish, and leave a database that holds every post and PM of the board exactly once, with
its own text, and that SQLite finds consistent.
"""

from __future__ import annotations

import pytest
from fault_helpers import Runner, assert_db_is_the_truth, opened_pms
from support.phpbb.board import (
    BAD_GZIP,
    DROP,
    DROP_UNFRAMED,
    LOGIN_FORM,
    TRUNCATE,
    Board,
    Fault,
    stall,
    status,
)


@pytest.mark.parametrize(
    ("fault", "request_key"),
    [
        # what the board does                     to which request
        (DROP, "topic:2"),                       # half a page, then the connection closes
        (DROP_UNFRAMED, "topic:3"),              # no length: cut mid-post, looks complete
        (TRUNCATE, "topic:5"),                   # well framed, stops after a whole post
        (TRUNCATE, "topic:2"),                   # the same before the last page (the
                                                 # posts after the cut: never read again)
        (BAD_GZIP, "topic:4"),                   # «Content Encoding Error»
        (status(500), "topic:1"),
        (status(502), "topic:3"),
        (status(503), "topic:5"),
        (status(429, retry_after="2"), "topic:2"),
        (LOGIN_FORM, "topic:3"),                 # the session expired mid-run
        (DROP, "folder:inbox:2"),
        (TRUNCATE, "folder:inbox:1"),
        (status(503), "folder:inbox:3"),
        (LOGIN_FORM, "folder:inbox:2"),
        (DROP, "pm:103"),
        (TRUNCATE, "pm:104"),
        (BAD_GZIP, "pm:100"),
        (status(502), "pm:106"),
        (LOGIN_FORM, "pm:105"),
    ],
    ids=lambda v: v.kind + (str(v.status) if v.status else "") if isinstance(v, Fault) else v,
)
def test_a_fault_once_is_retried_and_the_sync_completes(
    board: Board, run: Runner, fault: Fault, request_key: str
) -> None:
    board.inject(request_key, fault)
    run.all()
    assert f"{request_key}!{fault.kind}" in board.log          # the fault did happen
    after = board.log[board.log.index(f"{request_key}!{fault.kind}") + 1:]
    assert request_key in after[:2]                            # and the page was asked again
    assert_db_is_the_truth(run.db, board)
    run.all()                                                  # a second run changes nothing
    assert_db_is_the_truth(run.db, board)
    assert sorted(opened_pms(board)) == sorted(f"pm:{m.pm_id}" for m in board.pms)


def test_retry_after_is_waited_before_asking_again(board: Board, run: Runner) -> None:
    board.inject("topic:2", status(429, retry_after="7"))
    run.topic()
    assert 7.0 in run.naps.taken
    assert_db_is_the_truth(run.db, board, pms=False)


def test_server_errors_back_off_exponentially(board: Board, make_runner) -> None:
    run = make_runner(retries=3)
    board.inject("topic:3", status(502), status(503), status(500))
    run.topic()
    assert run.naps.taken == [1.0, 2.0, 4.0]
    assert_db_is_the_truth(run.db, board, pms=False)


def test_a_stalled_page_times_out_and_is_asked_again(board: Board, make_runner) -> None:
    run = make_runner(timeout=0.5)
    board.inject("topic:4", stall(5))
    run.all()
    assert board.log.count("topic:4!stall") == 1
    assert_db_is_the_truth(run.db, board)

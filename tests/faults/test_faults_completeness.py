"""Issue 26 — no count from half a topic.

A sync that failed half-way (or one still reading a new game) leaves the store with part
of the topic; ``tally --offline`` then printed and *recorded* a wrong count. Now the store
knows which pages it holds and how many the topic had: a count over a window with pages
never read is labelled «НЕПОЛНЫЕ ДАННЫЕ» in the host part, never recorded, never posted,
and says what is missing and the command that fills it. With the forum unreachable, the
commands fall back to the stored data when it is whole for the phase (saying so), else
say to wait or to use ``--offline`` knowingly — after one quick retry, not ~19 s.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from fault_helpers import Runner, referee, write_config
from support.phpbb.board import Board, status

from referee.core.errors import NetworkError

AFTER_DAY = "2026-11-21 23:00"
TRIES = 3


def results(db: Path) -> list[tuple[str, int]]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT phase, number FROM results").fetchall()


@pytest.fixture
def half_read(board: Board, run: Runner) -> Runner:
    """Pages 1–2 of 5 stored: the sync stopped at page 3 (the forum failed there)."""
    board.inject("topic:3", *[status(500)] * TRIES)
    with pytest.raises(NetworkError):
        run.topic()
    return run


def test_a_count_over_half_a_topic_is_labelled_and_never_recorded(
        board: Board, half_read: Runner, tmp_path: Path) -> None:
    config = write_config(board, tmp_path)
    shown = referee(config, "--now", AFTER_DAY, "tally", "--offline", db=half_read.db)
    assert shown.returncode == 0, shown.stderr
    assert "НЕПОЛНЫЕ ДАННЫЕ" in shown.stdout
    assert "не прочитаны стр. 3–5 из 5" in shown.stdout and "referee sync" in shown.stdout
    assert "Итог записан" not in shown.stdout and results(half_read.db) == []
    posted = referee(config, "--now", AFTER_DAY, "tally", "--offline", "--post", "--yes",
                     db=half_read.db)
    assert posted.returncode != 0 and "неполные данные" in posted.stderr
    assert results(half_read.db) == []
    board.faults.clear()
    healed = referee(config, "--now", AFTER_DAY, "tally", "--roster-ok", db=half_read.db)
    assert "НЕПОЛНЫЕ ДАННЫЕ" not in healed.stdout and "Итог записан" in healed.stdout


def test_an_activity_check_over_half_a_topic_removes_nobody(
        board: Board, half_read: Runner, tmp_path: Path) -> None:
    config = write_config(board, tmp_path)
    done = referee(config, "--now", "2026-11-22 12:00", "check-activity", "--turn", "1",
                   "--offline", db=half_read.db)
    assert "НЕПОЛНЫЕ ДАННЫЕ" in done.stdout + done.stderr
    assert results(half_read.db) == []


def test_forum_down_with_the_day_stored_whole_counts_from_the_store(
        board: Board, run: Runner, tmp_path: Path) -> None:
    config = write_config(board, tmp_path)
    run.all()                                   # read whole, after the deadline
    board.inject("topic:5", *[status(503)] * 10)
    done = referee(config, "--now", AFTER_DAY, "tally", db=run.db)
    assert done.returncode == 0, done.stderr
    assert "по сохранённым данным" in done.stderr and "полные" in done.stderr
    assert "Итог записан" in done.stdout
    assert board.log.count("topic:5!status") == 2     # one quick retry, then the store


def test_forum_down_with_half_a_topic_says_to_wait_or_use_offline(
        board: Board, half_read: Runner, tmp_path: Path) -> None:
    config = write_config(board, tmp_path)
    board.inject("topic:2", *[status(503)] * 10)
    done = referee(config, "--now", AFTER_DAY, "tally", db=half_read.db)
    assert done.returncode != 0
    assert "--offline" in done.stderr and "подождите" in done.stderr
    assert "Traceback" not in done.stderr and results(half_read.db) == []


def test_a_night_read_from_a_pm_listing_cut_short_is_never_recorded_or_sent(
        board: Board, run: Runner, tmp_path: Path) -> None:
    run.topic()
    board.inject("folder:inbox:2", *[status(500)] * TRIES)
    with pytest.raises(NetworkError):
        run.pms()                               # the inbox listed up to page 1 only
    config = write_config(board, tmp_path)
    night = ("--now", "2026-11-22 12:00", "resolve-night", "--night", "1", "--offline")
    shown = referee(config, *night, db=run.db)
    assert "НЕПОЛНЫЕ ДАННЫЕ" in shown.stdout and "список ЛС (входящие)" in shown.stdout
    assert ("night", 1) not in results(run.db)
    sent = referee(config, *night, "--post", "--yes", db=run.db)
    assert sent.returncode != 0 and "неполные данные" in sent.stderr
    assert ("night", 1) not in results(run.db)

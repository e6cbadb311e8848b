"""Issue 14 — edits and deletions before the last page, and posts out of order.

A sync also re-reads the pages holding the posts of the day that is open (or just closed
and not yet recorded) — every command that counts does each time; ``referee sync`` and the
watch on their schedule, and at once when the post count shows a post gone
(:mod:`referee.game.reread`): an edited vote there is flagged by V4 and a deleted one is
marked missing, without ``sync --full``, at the cost of those pages only, which the sync
line names. Posts are stored in topic order (time, then id); a page showing them out of
order is read again and, if it stays so, stored in order with a note.

The board: 23 posts, 5 a page (pages 1–5); post 1000+k is written 18:00 + 7k min (Moscow)
on 20 November, by ``PLAYERS[k % 12]``, and votes.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from fault_helpers import (
    Runner,
    assert_db_is_the_truth,
    missing_posts,
    referee,
    stored_posts,
    true_posts,
    write_config,
)
from support.phpbb.board import SWAPPED, Board

from referee.store import Store
from referee.store.sync import sync_topic

DAY_FROM_POST_1011 = "2026-11-20 19:12"
"""A day 1 whose first post is 1011 (19:17), the second of page 3."""
NOW = ["--now", "2026-11-20 21:00"]


def test_a_sync_re_reads_the_pages_it_is_given_and_sees_edits_and_deletions(
    board: Board, run: Runner
) -> None:
    run.topic()
    board.edit_post(1007, "Kotik")                        # page 2
    board.delete_post(1013)                               # page 3
    served = len(board.log)
    with Store.open(run.db) as store, run.open() as forum:
        report = sync_topic(run.config(), store, forum, recheck=[2, 3, 5, 9])
    assert board.log[served:] == ["topic:2", "topic:3", "topic:5"]   # those pages only
    assert (report.rechecked, report.edited_posts, report.missing_posts) == ((2, 3), 1, 1)
    assert "перечитаны стр. 2–3 (правки и удаления)" in report.summary()
    assert any("#1013" in n and "пропало со страницы 3" in n for n in report.notes)
    assert missing_posts(run.db) == [1013]
    edited = next(p for p in stored_posts(run.db) if p[0] == 1007)
    assert len(edited[5]) == 2 and "Kotik" in edited[5][1]   # both texts kept (V4)
    assert [p[:5] for p in stored_posts(run.db)] == [p[:5] for p in true_posts(board)]


def test_the_deleted_first_post_of_the_first_page_re_read_is_seen_too(
    board: Board, run: Runner
) -> None:
    run.topic()
    board.delete_post(1010)                 # first post of page 3, in a day from 19:05 on
    with Store.open(run.db) as store, run.open() as forum:
        from datetime import UTC, datetime

        pages = store.pages_holding(datetime(2026, 11, 20, 16, 5, tzinfo=UTC), None,
                                    topic_id=3)
        assert pages == [2, 3, 4, 5]        # page 2 too: 1010 lay between 2 and 3
        sync_topic(run.config(), store, forum, recheck=pages)
    assert missing_posts(run.db) == [1010]


def test_an_edited_and_a_deleted_vote_of_the_open_day_are_caught_by_a_plain_sync(
    board: Board, tmp_path: Path
) -> None:
    config = write_config(board, tmp_path)
    config.write_text(config.read_text(encoding="utf-8").replace(
        'start = "2026-11-20 17:00"', f'start = "{DAY_FROM_POST_1011}"'), encoding="utf-8")
    assert referee(config, *NOW, "sync").returncode == 0
    board.edit_post(1012, "Kotik")         # Ёжик's vote (for Nika-77), page 3
    board.delete_post(1013)                # Тень_Ночи's vote, page 3
    served = len(board.requests("topic:"))
    sync = referee(config, *NOW, "sync")
    assert sync.returncode == 0, sync.stderr
    # The day's pages were read a moment ago (not due yet by the schedule); the last page
    # counts a post fewer than the store holds: the day's earlier pages are read again.
    assert board.requests("topic:")[served:] == ["topic:5", "topic:3", "topic:4", "topic:5"]
    assert "перечитаны стр. 3–4 (правки и удаления)" in sync.stderr
    assert "изменено: 1" in sync.stderr and "исчезло: 1" in sync.stderr
    assert "сообщение #1013 (Тень_Ночи) пропало со страницы 3" in sync.stderr
    tally = json.loads(referee(config, *NOW, "tally", "--offline", "--format", "json").stdout)
    v4 = [f for f in tally["flags"] if f["rule"] == "V4"]
    assert [(f["post_id"], f["voter"]) for f in v4] == [(1012, "Ёжик")]
    assert "Nika-77" in v4[0]["text"]       # the first-seen target counts


def test_once_the_day_is_recorded_its_pages_are_not_re_read(
    board: Board, tmp_path: Path
) -> None:
    config = write_config(board, tmp_path, deadline="2026-11-20 20:00")
    after = ["--now", "2026-11-21 09:00"]    # the night: day 1 closed
    assert referee(config, *after, "sync").returncode == 0
    # Closed, not recorded: its pages are re-read (by hand, on the schedule: 4 hours on).
    later = ["--now", "2026-11-21 13:05"]
    sync = referee(config, *later, "sync")
    assert "перечитаны стр. 1–4" in sync.stderr
    assert referee(config, *later, "tally", "--offline").returncode == 0   # recorded
    sync = referee(config, "--now", "2026-11-21 17:10", "sync")   # due again, were it not
    assert "перечитаны" not in sync.stderr and "прочитаны стр. 5 из 5" in sync.stderr


# --------------------------------------------------------------------------- order

def stored_order(db: Path, page: int) -> tuple[list[int], list[int]]:
    """(post ids by stored position, the page's stored post list) of one page."""
    with closing(sqlite3.connect(db)) as conn:
        by_position = [r[0] for r in conn.execute(
            "SELECT post_id FROM posts WHERE page=? ORDER BY position", (page,))]
        listed = json.loads(conn.execute("SELECT post_ids FROM pages WHERE page=?",
                                         (page,)).fetchone()[0])
    return by_position, listed


def test_a_page_out_of_order_once_is_read_again(board: Board, run: Runner) -> None:
    board.inject("topic:2", SWAPPED)
    report = run.topic()
    assert board.requests("topic:2") == ["topic:2!swapped", "topic:2"]
    assert report.notes == ()
    assert stored_order(run.db, 2) == ([1005, 1006, 1007, 1008, 1009],) * 2
    assert_db_is_the_truth(run.db, board, pms=False)


def test_a_page_that_stays_out_of_order_is_stored_in_order_with_a_note(
    board: Board, run: Runner
) -> None:
    board.inject("topic:2", SWAPPED, SWAPPED)
    report = run.topic()
    assert board.requests("topic:2") == ["topic:2!swapped", "topic:2!swapped"]
    assert any("странице 2" in n and "не по порядку времени" in n for n in report.notes)
    assert stored_order(run.db, 2) == ([1005, 1006, 1007, 1008, 1009],) * 2
    assert_db_is_the_truth(run.db, board, pms=False)

"""Issue 8 — the topic and the inbox change while the referee reads them.

Players keep writing during a sync, a moderator deletes posts, a PM arrives while the
inbox is being listed. After the sync no post or PM is lost; after a re-read of the topic
(``referee sync --full``, the only way to see deletions on earlier pages) the database holds
exactly what the board holds: every visible post once with its own text, every deleted post
that was stored before kept and marked missing (docs/rules.md V4: its vote may have counted).

The board: 23 posts, 5 a page (pages 1–5, page 5 holds posts 1020–1022); 7 PMs, 3 a page.
"""

from __future__ import annotations

from pathlib import Path

from fault_helpers import (
    Runner,
    assert_db_is_the_truth,
    missing_posts,
    opened_pms,
    stored_posts,
)
from support.phpbb.board import Board, make_posts

from referee.store.sync import MAX_STEPS_BACK


def test_posts_written_during_a_sync_are_read_to_the_new_last_page(
    board: Board, run: Runner
) -> None:
    board.before("topic:3", lambda b: b.add_posts(12))         # 5 pages become 7
    report = run.topic()
    assert (report.last_page, report.total_pages) == (7, 7)
    assert_db_is_the_truth(run.db, board, pms=False)


def test_posts_written_after_a_sync_are_read_by_the_next_one(
    board: Board, run: Runner
) -> None:
    run.topic()
    board.add_posts(9)                                           # page 5 fills, 6 and 7 come
    report = run.topic()
    assert (report.start_page, report.last_page, report.new_posts) == (5, 7, 9)
    assert_db_is_the_truth(run.db, board, pms=False)


def test_a_post_deleted_on_the_last_page_is_marked_missing_by_the_next_sync(
    board: Board, run: Runner
) -> None:
    run.topic()
    board.delete_post(1021)
    run.topic()
    assert missing_posts(run.db) == [1021]
    assert_db_is_the_truth(run.db, board, pms=False)


def test_a_post_deleted_on_an_earlier_page_is_marked_missing_by_a_full_sync(
    board: Board, run: Runner
) -> None:
    run.topic()
    board.delete_post(1007)                                      # mid page 2
    run.topic()
    assert missing_posts(run.db) == []    # an incremental sync does not re-read page 2
    run.topic(full=True)
    assert_db_is_the_truth(run.db, board, pms=False)


def test_a_deleted_first_post_of_a_page_is_marked_missing_by_a_full_sync(
    board: Board, run: Runner
) -> None:
    run.topic()
    board.delete_post(1010)                                      # first post of page 3
    run.topic(full=True)
    assert_db_is_the_truth(run.db, board, pms=False)


def test_a_post_deleted_during_a_sync_loses_no_later_post(
    board: Board, run: Runner
) -> None:
    # Page 2 is read; then a post of page 1 goes, and post 1010 slides from page 3 to the
    # end of page 2, which this sync has already read.
    board.before("topic:3", lambda b: b.delete_post(1002))
    run.topic()
    assert {p.post_id for p in board.posts} <= {p[0] for p in stored_posts(run.db)}
    run.topic(full=True)                 # and the deleted post is noticed by a re-read
    assert_db_is_the_truth(run.db, board, pms=False)


def test_posts_deleted_during_a_sync_that_shorten_the_topic(
    board: Board, run: Runner
) -> None:
    # Pages 1–4 are read; then three posts go and the topic ends on page 4.
    board.before("topic:5", lambda b: [b.delete_post(i) for i in (1001, 1004, 1006)])
    run.topic()
    assert {p.post_id for p in board.posts} <= {p[0] for p in stored_posts(run.db)}
    run.topic(full=True)
    assert_db_is_the_truth(run.db, board, pms=False)


def test_a_board_that_keeps_deleting_does_not_keep_the_sync_going_back(
    tmp_path: Path,
) -> None:
    board = Board(posts=make_posts(120))          # 24 pages
    for page in range(2, 25):                     # the first post goes before every read
        for _ in range(2):
            board.before(f"topic:{page}", lambda b: b.delete_post(b.posts[0].post_id))
    with board.running():
        run = Runner(board, tmp_path / "game.db")
        run.topic()
        pages = [int(k.split(":")[1]) for k in board.requests("topic:")]
        steps_back = sum(1 for a, b in zip(pages, pages[1:], strict=False) if b < a)
        assert 0 < steps_back <= MAX_STEPS_BACK
        board.hooks.clear()
        run.topic(full=True)
    assert_db_is_the_truth(run.db, board, pms=False)


def test_posts_deleted_and_written_between_two_syncs_are_all_read(
    board: Board, run: Runner
) -> None:
    run.topic()                          # page 5, where the next sync resumes: 1020–1022
    for post_id in (1001, 1002, 1003, 1004):
        board.delete_post(post_id)
    board.add_posts(4)                   # 1023–1026; 1023 now ends page 4, before page 5
    run.topic()
    assert {p.post_id for p in board.posts} <= {p[0] for p in stored_posts(run.db)}
    run.topic(full=True)                 # the deleted posts are noticed only by a re-read
    assert_db_is_the_truth(run.db, board, pms=False)


def test_a_pm_arriving_while_the_inbox_is_listed_is_read_and_none_is_opened_twice(
    board: Board, run: Runner
) -> None:
    # Newest first: the new PM lands on page 1 (already listed) and pushes every row down.
    board.before("folder:inbox:2", lambda b: b.add_pm())
    run.all()
    run.all()
    assert_db_is_the_truth(run.db, board)
    assert sorted(opened_pms(board)) == sorted(f"pm:{m.pm_id}" for m in board.pms)

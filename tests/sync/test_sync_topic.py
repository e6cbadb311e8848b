"""Topic sync (issue 3): paging the real phpBB pages, and an incremental second sync that
costs one request when nothing changed and k+1 requests for k new pages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from support.phpbb.respx_board import FakeBoard, FixtureTopic, SyntheticTopic, fixture_bytes

from adapters.phpbb.client import PhpbbForum
from adapters.phpbb.urls import parse_topic_url
from referee.config.game import Config
from referee.core.errors import ConfigError, NetworkError
from referee.core.kernel import Forum, PageCursor
from referee.store import Store
from referee.store.sync import SyncProgress, sync_topic

MakeForum = Callable[..., PhpbbForum]


def topic_requests(board: FakeBoard) -> list[str]:
    return [k for k in board.log if k.startswith("topic:")]


# --------------------------------------------------------------------------- URLs

@pytest.mark.parametrize(
    ("config_url", "root", "topic"),
    [
        ("https://forum.test/viewtopic.php?t=3", "https://forum.test/", 3),
        ("https://forum.test/forum/viewtopic.php?f=2&t=3&start=40&sid=" + "a" * 32,
         "https://forum.test/forum/", 3),
        ("https://forum.test/viewtopic.php?t=3#p120", "https://forum.test/", 3),
        ("https://forum.test/forum/", "https://forum.test/forum/", None),
    ],
)
def test_the_topic_link_from_the_browser_is_understood(
    config_url: str, root: str, topic: int | None
) -> None:
    assert parse_topic_url(config_url) == (root, topic)


@pytest.mark.parametrize(
    "bad", ["forum.test/viewtopic.php?t=3", "https://forum.test/viewtopic.php?p=120#p120",
            "https://forum.test/viewtopic.php?t=abc"],
)
def test_a_link_that_is_not_a_topic_link_is_refused_with_a_hint(bad: str) -> None:
    with pytest.raises(ConfigError):
        parse_topic_url(bad)


@pytest.mark.parametrize(
    ("page", "query"),
    [
        (1, "t=3&sk=t&sd=a&st=0"),                 # oldest first, nothing hidden (gotcha 8)
        (2, "t=3&sk=t&sd=a&st=0&start=20"),
        (4, "t=3&sk=t&sd=a&st=0&start=60"),
    ],
)
def test_page_urls_force_oldest_first_and_skip_by_start(
    make_forum: MakeForum, page: int, query: str
) -> None:
    assert make_forum().topic_page_url(page, 20) == f"https://forum.test/viewtopic.php?{query}"


# --------------------------------------------------------------------------- paging

def test_first_sync_reads_every_page_of_the_fixture_topic(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    forum = make_forum()
    assert isinstance(forum, Forum)
    report = sync_topic(config, store, forum)
    assert topic_requests(board) == ["topic:1", "topic:2", "topic:3", "topic:4"]
    assert (report.pages_fetched, report.total_pages, report.new_posts) == (4, 4, 70)
    assert report.title == "Мафия: игра 2"
    posts = store.posts()
    assert len(posts) == 70
    assert [(p.page, p.position) for p in posts[:2]] == [(1, 1), (1, 2)]
    assert posts[-1].page == 4


def test_every_page_request_asks_for_oldest_first(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    sync_topic(config, store, make_forum())
    urls = [u for u in board.urls if "viewtopic" in u]
    assert all("sk=t&sd=a&st=0" in u and "sid=" not in u for u in urls)
    assert [u.split("start=")[1] if "start=" in u else "0" for u in urls] == ["0", "20", "40",
                                                                               "60"]


def test_a_topic_of_one_page(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    board.topic = SyntheticTopic(1, per_page=25)
    board.topic.n_posts = 7
    report = sync_topic(config, store, make_forum())
    assert (report.pages_fetched, report.total_pages, report.new_posts) == (1, 1, 7)
    again = sync_topic(config, store, make_forum())
    assert (again.requests, again.new_posts) == (1, 0)


def test_start_past_the_end_is_clamped_to_the_last_page(
    board: FakeBoard, make_forum: MakeForum
) -> None:
    # Asking for page 9 of a 4-page topic: phpBB answers page 4; the page says so.
    forum = make_forum()
    pages = list(forum.fetch_topic_pages(PageCursor(9, 20)))
    assert [(p.page, p.total_pages) for p in pages] == [(4, 4)]
    assert topic_requests(board) == ["topic:9"]


def test_starting_mid_topic_without_the_page_size_reads_page_one_first(
    board: FakeBoard, make_forum: MakeForum
) -> None:
    pages = list(make_forum().fetch_topic_pages(PageCursor(3)))
    assert [p.page for p in pages] == [3, 4]
    assert topic_requests(board) == ["topic:1", "topic:3", "topic:4"]


# --------------------------------------------------------------------------- incremental

def test_resync_of_an_unchanged_topic_is_one_request(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    sync_topic(config, store, make_forum())
    board.log.clear()
    report = sync_topic(config, store, make_forum())
    assert topic_requests(board) == ["topic:4"]
    assert (report.requests, report.new_posts, report.pages_changed) == (1, 0, 0)
    assert not report.changed


@pytest.mark.parametrize(
    ("new_posts", "requests"),
    [
        # new posts after the first sync (5 posts a page, 3 pages)   requests of the re-sync
        (0, ["topic:3"]),
        (2, ["topic:3"]),                                          # page 3 filled up
        (5, ["topic:3", "topic:4"]),                               # k = 1 new page
        (13, ["topic:3", "topic:4", "topic:5", "topic:6"]),        # k = 3 new pages
    ],
)
def test_k_new_pages_cost_k_plus_one_requests(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store,
    new_posts: int, requests: list[str],
) -> None:
    board.topic = SyntheticTopic(3, per_page=5)
    board.topic.n_posts = 13                       # the last page holds 3 posts
    sync_topic(config, store, make_forum())
    board.topic.n_posts += new_posts
    board.log.clear()
    report = sync_topic(config, store, make_forum())
    assert topic_requests(board) == requests
    assert report.new_posts == new_posts
    assert len(store.posts()) == 13 + new_posts


def test_a_400_page_topic_is_not_reread_to_find_new_posts(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    # The cursor of an earlier sync (page 400 of 400) is all the next sync needs.
    board.topic = SyntheticTopic(400, per_page=25)
    forum = make_forum()
    last = next(forum.fetch_topic_pages(PageCursor(400, 25)))
    store.save_topic_page(last)
    board.topic.n_posts += 30
    board.log.clear()
    report = sync_topic(config, store, make_forum())
    assert topic_requests(board) == ["topic:400", "topic:401", "topic:402"]
    assert report.new_posts == 30


def test_a_smaller_page_size_on_the_board_does_not_skip_pages(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    board.topic = SyntheticTopic(2, per_page=10)
    board.topic.n_posts = 15                              # pages of 10: 2 pages
    sync_topic(config, store, make_forum())
    board.topic.per_page = 5                              # the admin changed the setting
    board.topic.n_posts = 17                              # pages of 5: 4 pages
    board.log.clear()
    report = sync_topic(config, store, make_forum())
    # start=10 now lands on page 3; the sync asks again for page 2 with the new size.
    assert topic_requests(board) == ["topic:3", "topic:2", "topic:3", "topic:4"]
    assert report.new_posts == 2
    assert len(store.posts(include_missing=False)) == 17


def test_a_failure_mid_sync_keeps_the_pages_read_and_the_next_sync_resumes(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    board.topic_status[3] = httpx.Response(503)
    with pytest.raises(NetworkError):
        sync_topic(config, store, make_forum())
    assert store.last_synced_page(3) == 2
    assert len(store.posts()) == 40                       # pages 1–2 are kept
    del board.topic_status[3]
    board.log.clear()
    report = sync_topic(config, store, make_forum())
    assert topic_requests(board) == ["topic:2", "topic:3", "topic:4"]
    assert (report.new_posts, len(store.posts())) == (30, 70)


def test_an_edited_vote_keeps_its_first_text_after_a_full_reread(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    # V4: page 3 was first read before the author changed «Kotik» to «Шерлок».
    before = {n: fixture_bytes(f"topic_p{n}_host.html") for n in range(1, 5)}
    before[3] = fixture_bytes("topic_p3_host_before_edit.html")
    board.topic = FixtureTopic(before)
    sync_topic(config, store, make_forum())
    board.topic = FixtureTopic()
    report = sync_topic(config, store, make_forum(), full=True)
    assert report.edited_posts == 1
    (edited,) = [p for p in store.posts() if p.text_changed]
    assert edited.first_revision.body_text.endswith("Мой голос – Kotik")
    assert edited.body_text.endswith("Мой голос – Шерлок")
    assert edited.edit is not None and edited.edit.count == 1


def test_a_deleted_post_is_marked_missing_and_posts_that_slid_back_are_not(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    board.topic = SyntheticTopic(3, per_page=5)          # posts 1000–1014
    sync_topic(config, store, make_forum())
    board.topic.deleted = {12, 1}       # posts 1012 (on the last page) and 1001 (on page 1)
    report = sync_topic(config, store, make_forum())
    # Only the last page is re-read: the post deleted there is noticed; 1010, which slid
    # back to page 2, is not mistaken for a deleted one.
    assert report.missing_posts == 1
    assert [p.post_id for p in store.posts() if p.missing_since] == [1012]
    full = sync_topic(config, store, make_forum(), full=True)
    assert full.missing_posts == 1
    assert sorted(p.post_id for p in store.posts() if p.missing_since) == [1001, 1012]
    assert len(store.posts()) == 15                       # nothing is ever removed


def test_progress_is_told_after_every_page_and_the_library_prints_nothing(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store,
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    seen: list[SyncProgress] = []
    report = sync_topic(config, store, make_forum(), progress=seen.append)
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""
    assert [p.pages_read for p in seen] == list(range(1, report.pages_fetched + 1))
    assert seen[-1].pages_to_read == report.pages_fetched
    assert seen[-1].new_posts == report.new_posts

"""The real board's topic as a moderator-host may see it, synced end to end: a soft-deleted
post shown to him (3.1+) is no post of the topic, and the first post that «First post on
every page» repeats above pages 2–4 is stored once; the page size stays the board's, every
page is read once and an unchanged re-sync costs one request."""

from __future__ import annotations

import re

import pytest
from support.phpbb.respx_board import FakeBoard, FixtureTopic, fixture_bytes

from adapters.phpbb.client import PhpbbForum
from adapters.phpbb.topic import parse_topic_page
from referee.config.game import Config
from referee.store import Store
from referee.store.sync import sync_topic

DELETED = 97  # the second post of page 2


def _html(n: int) -> str:
    return fixture_bytes(f"topic_p{n}_host.html").decode("utf-8")


_POST_START = re.compile(r'<div id="p\d+" class="post ')


def _first_post_block() -> str:
    page = _html(1)
    first, second = list(_POST_START.finditer(page))[:2]
    return page[first.start():second.start()]


def _moderator_pages(*, pinned: bool, deleted: bool) -> dict[int, bytes]:
    pages = {1: _html(1)}
    for n in (2, 3, 4):
        page = _html(n)
        if pinned:
            first = _POST_START.search(page)
            assert first is not None
            page = page[:first.start()] + _first_post_block() + page[first.start():]
        pages[n] = page
    if deleted:
        pages[2] = re.sub(rf'(<div id="p{DELETED}" class="post has-profile [^"]*)"',
                          r'\1 deleted"', pages[2])
        assert "deleted" in pages[2]
    return {n: page.encode("utf-8") for n, page in pages.items()}


@pytest.mark.parametrize(("pinned", "deleted"), [(True, False), (False, True), (True, True)],
                         ids=["first post on every page", "soft-deleted post", "both"])
def test_a_moderators_view_syncs_as_the_topic_is(
    board: FakeBoard, make_forum: PhpbbForum, config: Config, store: Store,
    pinned: bool, deleted: bool,
) -> None:
    board.topic = FixtureTopic(_moderator_pages(pinned=pinned, deleted=deleted))
    report = sync_topic(config, store, make_forum())
    assert [k for k in board.log if k.startswith("topic:")] == [
        "topic:1", "topic:2", "topic:3", "topic:4"]
    posts = store.posts()
    assert len(posts) == 70 - deleted == report.new_posts
    assert (DELETED in {p.post_id for p in posts}) is not deleted
    first = posts[0]
    assert (first.page, first.position) == (1, 1)  # not moved to a later page
    assert store.topic_per_page(3) == 20
    again = sync_topic(config, store, make_forum())
    assert (again.requests, again.new_posts) == (1, 0)


def test_a_post_soft_deleted_after_it_was_stored_is_marked_vanished(store: Store) -> None:
    url = "https://forum.test/viewtopic.php?t=3&start=20"
    from datetime import datetime
    from zoneinfo import ZoneInfo

    moscow = ZoneInfo("Europe/Moscow")
    now = datetime(2026, 11, 29, 20, 0, tzinfo=moscow)
    before = parse_topic_page(_html(2), url=url, tz=moscow, now=now)
    after = parse_topic_page(_moderator_pages(pinned=False, deleted=True)[2].decode(),
                             url=url, tz=moscow, now=now)
    store.save_topic_page(before)
    saved = store.save_topic_page(after)
    assert [pid for pid, _ in saved.vanished] == [DELETED]

"""PM sync (RULES.md N1, research gotcha 12): every inbox page is listed, and each PM is
opened once — opening marks it read for the host."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fake_board import FakeBoard, inbox_page

from adapters.phpbb.client import PhpbbForum
from referee.config import Config
from referee.store import Store
from referee.sync import sync_pms

MakeForum = Callable[..., PhpbbForum]


def opened(board: FakeBoard) -> list[int]:
    return [int(k.split(":")[1]) for k in board.log if k.startswith("pm:")]


def listed(board: FakeBoard) -> list[str]:
    return [k for k in board.log if k.startswith("folder:")]


def test_first_pm_sync_logs_in_lists_the_inbox_and_opens_each_pm(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    report = sync_pms(config, store, make_forum())
    assert board.log == ["folder:inbox:1", "POST login", "folder:inbox:1",
                         "pm:18", "pm:17", "pm:16"]
    assert (report.listed, report.new_pms) == (3, 3)
    assert sorted(store.known_pm_ids()) == [16, 17, 18]


@pytest.mark.parametrize(
    ("inbox_now", "opened_now"),
    [
        # the inbox at the second sync     PMs opened by the second sync
        ([18, 17, 16], []),                 # nothing new: only the listing is read
        ([15, 18, 17, 16], [15]),           # one new PM
        ([13, 14, 15, 18, 17, 16], [13, 14, 15]),
    ],
)
def test_a_second_pm_sync_opens_only_new_pms(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store,
    inbox_now: list[int], opened_now: list[int],
) -> None:
    forum = make_forum()
    sync_pms(config, store, forum)
    board.inbox = [inbox_page(inbox_now)]
    board.log.clear()
    report = sync_pms(config, store, forum)
    assert opened(board) == opened_now
    assert report.requests == 1 + len(opened_now)


def test_every_inbox_page_is_listed(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    board.inbox = [inbox_page([18, 17, 16], 1, 3), inbox_page([15, 14, 13], 2, 3),
                   inbox_page([12], 3, 3)]
    report = sync_pms(config, store, make_forum())
    assert listed(board) == ["folder:inbox:1", "folder:inbox:1", "folder:inbox:2",
                             "folder:inbox:3"]
    assert sorted(opened(board)) == [12, 13, 14, 15, 16, 17, 18]
    assert report.new_pms == 7


def test_a_pm_listed_twice_is_opened_once(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    # A PM arriving while the listing is read pushes an entry onto the next page.
    board.inbox = [inbox_page([18, 17, 16], 1, 2), inbox_page([16, 15], 2, 2)]
    sync_pms(config, store, make_forum())
    assert sorted(opened(board)) == [15, 16, 17, 18]


def test_sent_pms_are_read_only_when_asked(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    forum = make_forum()
    sync_pms(config, store, forum)
    assert "folder:sentbox:1" not in board.log
    report = sync_pms(config, store, forum, sent=True)
    assert {"folder:sentbox:1", "folder:outbox:1"} <= set(board.log)
    assert opened(board)[-1] == 19
    (mine,) = store.pms(folder="sentbox")
    assert (mine.pm_id, mine.sender) == (19, "Ведущий")
    assert report.new_pms == 1


def test_a_pm_from_someone_who_is_not_playing_is_stored(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    # The roster of this config has only Лиса and Шерлок; storing never filters senders.
    board.inbox = [inbox_page([14, 13])]
    sync_pms(config, store, make_forum())
    senders = {pm.sender for pm in store.pms()}
    players = {p.nick for p in config.players}
    assert senders - players                                # someone not in the game
    assert len(store.pms()) == 2


def test_pm_fields_are_stored_as_parsed(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    board.inbox = [inbox_page([9])]
    forum = make_forum()
    sync_pms(config, store, forum)
    (pm,) = store.pms()
    fresh = forum.fetch_pm(9)
    assert pm == fresh
    assert pm.sent_at.tzinfo is not None and pm.recipients


def test_a_later_sync_stops_listing_at_the_first_page_it_already_knows(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    # Folders are requested newest first (sk=t&sd=d): once a listing went to the end, a
    # page of known PMs means every older page is known too — a 13-page inbox costs one
    # request a sync, not 13.
    board.inbox = [inbox_page([18, 17, 16], 1, 3), inbox_page([15, 14, 13], 2, 3),
                   inbox_page([12], 3, 3)]
    forum = make_forum()
    sync_pms(config, store, forum)
    board.log.clear()
    report = sync_pms(config, store, forum)
    assert listed(board) == ["folder:inbox:1"] and report.requests == 1
    board.inbox = [inbox_page([19, 18, 17], 1, 3), inbox_page([16, 15, 14], 2, 3),
                   inbox_page([13, 12], 3, 3)]
    board.log.clear()
    sync_pms(config, store, forum)
    assert listed(board) == ["folder:inbox:1", "folder:inbox:2"]
    assert opened(board) == [19]


def test_a_listing_cut_short_is_read_in_full_next_time(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    # The first sync dies on page 2: PMs 12 and 13 were never seen. The next sync must not
    # stop at the (known) first page.
    board.inbox = [inbox_page([18, 17, 16], 1, 2), inbox_page([13, 12], 2, 2)]
    forum = make_forum()
    real = forum.fetch_pm_folder

    def failing(folder: str = "inbox", page: int = 1):  # noqa: ANN202
        if page == 2:
            raise RuntimeError("connection lost")
        return real(folder, page)

    forum.fetch_pm_folder = failing  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        sync_pms(config, store, forum)
    forum.fetch_pm_folder = real  # type: ignore[method-assign]
    sync_pms(config, store, forum)
    assert sorted(store.known_pm_ids()) == [12, 13, 16, 17, 18]

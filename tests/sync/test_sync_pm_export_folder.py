"""phpBB's folder export asked for once per folder where the board allows it (issue 30,
item 4): a board whose export carries the folder from the page asked for to its end (an
extension that lifts ``get_pm_from()``'s page limit) answers every later page of the same
listing, so those pages cost their listing only; a stock board's export holds one page and
is asked for once per page, as before."""

from __future__ import annotations

from collections.abc import Callable

from support.phpbb.respx_board import FakeBoard, inbox_page

from adapters.phpbb.client import PhpbbForum
from referee.config.game import Config
from referee.store import Store
from referee.store.sync import sync_pms

MakeForum = Callable[..., PhpbbForum]
FOUR_PAGES = [[18, 17, 16], [15, 14, 13], [12, 11, 10], [9]]


def kinds(board: FakeBoard, prefix: str) -> list[str]:
    return [k for k in board.log if k.startswith(prefix)]


def serve(board: FakeBoard, pages: list[list[int]]) -> None:
    board.inbox = [inbox_page(ids, n, len(pages)) for n, ids in enumerate(pages, start=1)]


def test_a_folder_the_board_exports_whole_costs_one_export_for_all_its_pages(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    board.export = "folder"
    serve(board, FOUR_PAGES)
    report = sync_pms(config, store, make_forum())
    assert kinds(board, "export:") == ["export:inbox:1"]
    assert kinds(board, "pm:") == []
    assert report.new_pms == report.exported == 10
    assert sorted(store.known_pm_ids()) == list(range(9, 19))


def test_a_stock_board_is_still_asked_once_per_page(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    serve(board, FOUR_PAGES)
    report = sync_pms(config, store, make_forum())
    assert kinds(board, "export:") == [f"export:inbox:{n}" for n in (1, 2, 3, 4)]
    assert report.new_pms == report.exported == 10 and kinds(board, "pm:") == []


def test_a_later_sync_asks_again_and_never_reuses_an_old_export(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    board.export = "folder"
    forum = make_forum()
    serve(board, FOUR_PAGES[2:])
    sync_pms(config, store, forum)
    serve(board, FOUR_PAGES)  # six new PMs on top: the folder moved down by two pages
    board.log.clear()
    report = sync_pms(config, store, forum)
    assert kinds(board, "export:") == ["export:inbox:1"] and kinds(board, "pm:") == []
    assert report.new_pms == 6 and sorted(store.known_pm_ids()) == list(range(9, 19))


def test_an_export_that_does_not_line_up_with_the_listing_is_not_trusted(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    # The later pages changed after the first export: their rows are asked for again.
    board.export = "folder"
    serve(board, FOUR_PAGES)
    forum = make_forum()
    first = forum.fetch_pm_folder("inbox", 1)
    forum.export_pm_folder_page(first, first.entries)
    serve(board, [[18, 17, 16], [8, 15, 14], [13, 12, 11], [10, 9]])
    second = forum.fetch_pm_folder("inbox", 2)
    batch = forum.export_pm_folder_page(second, second.entries)
    assert kinds(board, "export:") == ["export:inbox:1", "export:inbox:2"]
    assert [pm.pm_id for pm in batch.pms] == [8, 15, 14] and not batch.missing

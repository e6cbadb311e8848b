"""PM sync (docs/rules.md N1, research gotcha 12): every inbox page is listed, and the new PMs
of a page are read from phpBB's folder export — one request per page, nothing marked read.
Only what the export cannot give is opened, once each (opening marks a PM read)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from support.phpbb.respx_board import FakeBoard, inbox_page

from adapters.phpbb.client import PhpbbForum
from referee.config.game import Config
from referee.store import Store
from referee.store.sync import sync_pms

MakeForum = Callable[..., PhpbbForum]


def opened(board: FakeBoard) -> list[int]:
    return [int(k.split(":")[1]) for k in board.log if k.startswith("pm:")]


def listed(board: FakeBoard) -> list[str]:
    return [k for k in board.log if k.startswith("folder:")]


def exported(board: FakeBoard) -> list[str]:
    return [k for k in board.log if k.startswith("export:")]


def test_first_pm_sync_logs_in_lists_the_inbox_and_exports_its_page(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    report = sync_pms(config, store, make_forum())
    assert board.log == ["folder:inbox:1", "POST login", "folder:inbox:1", "export:inbox:1"]
    assert (report.listed, report.new_pms, report.exported, report.opened) == (3, 3, 3, 0)
    assert sorted(store.known_pm_ids()) == [16, 17, 18]
    assert "на форуме не прочитаны" in report.summary()


def test_the_export_posts_the_pages_form_key_once_it_is_a_second_old(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    # phpBB refuses a form key in the second it was made (check_form_key).
    sync_pms(config, store, make_forum())
    (form,) = board.export_posts
    assert form["form_token"] == "1c1ae8727203ab471c1a6fb5e7f8c60b337c709b"
    assert (form["export_option"], form["sk"], form["sd"], form["st"]) == ("XML", "t", "d", "0")
    assert "submit_export" in form and form["cur_folder_id"] == "0"
    assert board.time.sleeps and max(board.time.sleeps) >= 0.5


@pytest.mark.parametrize(
    ("inbox_now", "requests_now"),
    [
        # the inbox at the second sync     requests of the second sync
        ([18, 17, 16], ["folder:inbox:1"]),  # nothing new: only the listing is read
        ([15, 18, 17, 16], ["folder:inbox:1", "export:inbox:1"]),  # one new PM
        ([13, 14, 15, 18, 17, 16], ["folder:inbox:1", "export:inbox:1"]),  # three
    ],
)
def test_a_second_pm_sync_reads_only_new_pms_in_one_request(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store,
    inbox_now: list[int], requests_now: list[str],
) -> None:
    forum = make_forum()
    sync_pms(config, store, forum)
    board.inbox = [inbox_page(inbox_now)]
    board.log.clear()
    report = sync_pms(config, store, forum)
    assert board.log == requests_now
    assert report.requests == len(requests_now) and not opened(board)
    assert store.known_pm_ids() == set(inbox_now)


def test_every_inbox_page_is_listed_and_exported(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    board.inbox = [inbox_page([18, 17, 16], 1, 3), inbox_page([15, 14, 13], 2, 3),
                   inbox_page([12], 3, 3)]
    report = sync_pms(config, store, make_forum())
    assert listed(board) == ["folder:inbox:1", "folder:inbox:1", "folder:inbox:2",
                             "folder:inbox:3"]
    assert exported(board) == ["export:inbox:1", "export:inbox:2", "export:inbox:3"]
    assert opened(board) == []
    assert report.new_pms == report.exported == 7


def test_a_pm_listed_twice_is_read_once(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    # A PM arriving while the listing is read pushes an entry onto the next page.
    board.inbox = [inbox_page([18, 17, 16], 1, 2), inbox_page([16, 15], 2, 2)]
    report = sync_pms(config, store, make_forum())
    assert report.exported == 4 and sorted(store.known_pm_ids()) == [15, 16, 17, 18]


def test_sent_pms_are_read_only_when_asked(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    forum = make_forum()
    sync_pms(config, store, forum)
    assert "folder:sentbox:1" not in board.log
    report = sync_pms(config, store, forum, sent=True)
    assert {"folder:sentbox:1", "folder:outbox:1", "export:sentbox:1"} <= set(board.log)
    (mine,) = store.pms(folder="sentbox")
    assert (mine.pm_id, mine.sender, mine.recipients) == (19, "Ведущий", ("Полковник",))
    assert mine.body_html == 'Тень_Ночи – <span style="color:red">мафия</span>.'
    assert report.new_pms == 1 and not opened(board)


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


def test_an_exported_pm_is_stored_as_its_view_shows_it(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    board.inbox = [inbox_page([9])]
    forum = make_forum()
    sync_pms(config, store, forum)
    (pm,) = store.pms()
    view = forum.fetch_pm(9)
    same = ("pm_id", "sender", "sender_id", "recipients", "subject", "body_html", "body_text",
            "folder")
    assert {k: getattr(pm, k) for k in same} == {k: getattr(view, k) for k in same}
    # The export has the second the view leaves out: 22:20:37 Moscow, shown «22:20».
    assert pm.sent_at.replace(second=0) == view.sent_at and pm.sent_at.second == 37


def test_a_later_sync_stops_listing_at_the_first_page_it_already_knows(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    # Folders are requested newest first (sk=t&sd=d): once a listing went to the end, a
    # page of known PMs — or one ending with a PM known before — means every older page is
    # known too: a 13-page inbox costs one request a sync, not 13, and a new PM two.
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
    assert board.log == ["folder:inbox:1", "export:inbox:1"]
    assert 19 in store.known_pm_ids()
    # A page of new PMs only: the next page is listed, up to one known before.
    board.inbox = [inbox_page([22, 21, 20], 1, 4), inbox_page([19, 18, 17], 2, 4),
                   inbox_page([16, 15, 14], 3, 4), inbox_page([13, 12], 4, 4)]
    board.log.clear()
    sync_pms(config, store, forum)
    assert board.log == ["folder:inbox:1", "export:inbox:1", "folder:inbox:2"]
    assert {20, 21, 22} <= store.known_pm_ids()


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


# ------------------------------------------------------------------ when export fails

@pytest.mark.parametrize(("mode", "why", "asked"), [
    ("none", "нет выгрузки в XML", 0),          # a style or board without the option
    ("html", "не ответил выгрузкой папки ЛС в XML", 1),    # a refused form key, an error page
    ("broken", "испорчена", 2),                    # cut short, and again when asked again
])
def test_without_the_export_pms_are_opened_and_the_sync_line_says_so_once(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store,
    mode: str, why: str, asked: int,
) -> None:
    board.export = mode
    board.inbox = [inbox_page([18, 17, 16], 1, 2), inbox_page([15, 14], 2, 2)]
    report = sync_pms(config, store, make_forum())
    assert sorted(opened(board)) == [14, 15, 16, 17, 18]
    assert len(exported(board)) == asked  # and not for the second page
    assert why in report.export_unavailable
    line = report.summary()
    assert line.count("выгрузка папки недоступна") == 1
    assert "открыто по одному: 5, теперь прочитаны" in line
    assert sorted(store.known_pm_ids()) == [14, 15, 16, 17, 18]


def test_a_folder_that_changed_before_its_export_has_that_page_opened(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    # A PM arrived between the listing and the export: the rows no longer pair by place.
    # That page is opened; the export stays in use for the next sync.
    board.export = "shifted"
    report = sync_pms(config, store, make_forum())
    assert sorted(opened(board)) == [16, 17, 18] and exported(board) == ["export:inbox:1"]
    assert report.export_unavailable == "" and "unavailable" not in report.summary()


def test_an_export_row_unlike_its_listing_row_is_opened_instead(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    # Listing rows pair with export rows by place, checked by subject, sender and minute.
    forum = make_forum()
    real = forum.fetch_pm_folder

    def renamed(folder: str = "inbox", page: int = 1):  # noqa: ANN202
        fp = real(folder, page)
        return replace(fp, entries=tuple(replace(e, subject="Другая тема") if e.pm_id == 17
                                         else e for e in fp.entries))

    forum.fetch_pm_folder = renamed  # type: ignore[method-assign]
    report = sync_pms(config, store, forum)
    assert opened(board) == [17] and report.exported == 2


def test_an_export_cut_short_once_is_asked_for_again(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    board.export = "cut_once"
    report = sync_pms(config, store, make_forum())
    assert exported(board) == ["export:inbox:1", "export:inbox:1"] and not opened(board)
    assert report.exported == 3

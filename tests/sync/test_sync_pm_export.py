"""The real board's mailbox (fixtures/phpbb33-ru: phpBB 3.3.10, Russian pack) read by
folder export: the saved inbox and sent folder pages, answered the way phpBB's
``ucp_pm_viewfolder.php`` exports them, against the PMs' own saved pages."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from support.phpbb.export import GAME_PMS
from support.phpbb.respx_board import FakeBoard, fixture_bytes, inbox_page

from adapters.phpbb.client import PhpbbForum
from adapters.phpbb.pms import parse_pm
from referee.config.game import Config
from referee.core.kernel import PrivateMessage
from referee.store import Store
from referee.store.sync import sync_pms

MakeForum = Callable[..., PhpbbForum]
MSK = ZoneInfo("Europe/Moscow")
EARLIER = [12, 11, 10, 9, 8, 7, 6, 5, 3, 2, 1]
"""What the host's inbox held at the sync before: the other game's PMs and game 2's first
five (the real rows of pm_inbox.html)."""
NEW = [18, 17, 16, 15, 14, 13]


def view(pm_id: int, folder: str = "inbox") -> PrivateMessage:
    """The PM as its saved page shows it (what opening it gave)."""
    html = fixture_bytes(f"pm_{pm_id}.html").decode("utf-8")
    return parse_pm(html, url=f"pm_{pm_id}.html", tz=MSK, folder=folder,
                          now=datetime(2026, 11, 30, tzinfo=UTC))


_SMILEY = re.compile(r'<img class="smilies" [^>]*alt="([^"]*)"[^>]*>')


def same_as_view(stored: PrivateMessage, viewed: PrivateMessage) -> dict[str, object]:
    """What differs between the stored PM and its view, but the time (the export has the
    second) and the smilies' pictures (the export has the smiley as typed, «:)», and that
    stays text in the stored HTML: the plain text is the same)."""
    keys = ("pm_id", "sender", "sender_id", "recipients", "subject", "body_html",
            "body_text", "folder")
    seen = replace(viewed, body_html=_SMILEY.sub(r"\1", viewed.body_html))
    return {k: (getattr(stored, k), getattr(seen, k)) for k in keys
            if getattr(stored, k) != getattr(seen, k)}


@pytest.fixture
def earlier(board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
            ) -> PhpbbForum:
    board.inbox = [inbox_page(EARLIER)]
    forum = make_forum()
    sync_pms(config, store, forum)
    board.inbox = [fixture_bytes("pm_inbox.html")]
    board.log.clear()
    return forum


def test_six_new_pms_cost_one_listing_and_one_export_and_no_view(
    board: FakeBoard, earlier: PhpbbForum, config: Config, store: Store
) -> None:
    report = sync_pms(config, store, earlier)
    assert board.log == ["folder:inbox:1", "export:inbox:1"]
    assert (report.new_pms, report.exported, report.opened) == (6, 6, 0)
    assert report.requests == 2


def test_the_stored_texts_are_what_the_views_gave(
    board: FakeBoard, earlier: PhpbbForum, config: Config, store: Store
) -> None:
    sync_pms(config, store, earlier)
    stored = {pm.pm_id: pm for pm in store.pms()}
    assert {n: same_as_view(stored[n], view(n)) for n in NEW} == {n: {} for n in NEW}
    for n in NEW:
        exact = datetime.fromtimestamp(GAME_PMS[n]["time"]["epoch"], UTC)
        assert stored[n].sent_at == exact  # to the second; the view shows the minute
        assert stored[n].sent_at.replace(second=0) == view(n).sent_at


def test_the_hosts_sent_pm_is_stored_as_its_view_shows_it(
    board: FakeBoard, earlier: PhpbbForum, config: Config, store: Store
) -> None:
    report = sync_pms(config, store, earlier, sent=True)
    assert "export:sentbox:1" in board.log and not any(k.startswith("pm:") for k in board.log)
    (mine,) = store.pms(folder="sentbox")
    assert same_as_view(mine, view(19, "sentbox")) == {}
    assert report.opened == 0


def test_the_first_sync_of_the_whole_inbox_is_a_login_a_listing_and_an_export(
    board: FakeBoard, make_forum: MakeForum, config: Config, store: Store
) -> None:
    board.inbox = [fixture_bytes("pm_inbox.html")]
    report = sync_pms(config, store, make_forum())
    assert board.log == ["folder:inbox:1", "POST login", "folder:inbox:1", "export:inbox:1"]
    assert report.new_pms == 17 and len(store.pms()) == 17


def test_when_the_board_cannot_export_the_pms_are_opened_as_before(
    board: FakeBoard, earlier: PhpbbForum, config: Config, store: Store
) -> None:
    board.export = "none"
    earlier.export_off = ""
    report = sync_pms(config, store, earlier)
    assert board.log == ["folder:inbox:1"] + [f"pm:{n}" for n in NEW]
    stored = {pm.pm_id: pm for pm in store.pms()}
    assert all(stored[n] == view(n) for n in NEW)
    assert "теперь прочитаны на форуме" in report.summary()

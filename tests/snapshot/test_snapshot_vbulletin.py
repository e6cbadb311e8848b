"""vBulletin from saved pages: the 3-day game of tests/vbulletin (vb_game.py) on a Russian
vBulletin 4 board in windows-1251, saved by the host's browser each evening — the thread's
pages, the inbox, every PM — counts as the live board does (test_vb_game.py), «Сегодня» and
«Вчера» on a page taken from when it was saved; the real vB 3, 4 and 5 pages
(../shared/fixtures/vbulletin, read in place) saved by each browser read as served."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from support.clock import BoardClock

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vbulletin"))

from support.browser import Browser, save  # noqa: E402
from support.vbulletin.board import HOST, PASSWORD, TOPIC, VbBoard  # noqa: E402
from vb_game import DAY1, DAY2, DAY3, NIGHT1, NIGHT2, referee_toml  # noqa: E402

from adapters.base import ForumSettings, Secret  # noqa: E402
from adapters.registry import open_forum  # noqa: E402
from adapters.snapshot import SnapshotForum  # noqa: E402
from adapters.vbulletin.client import VbulletinForum  # noqa: E402
from referee.core.errors import ConfigError  # noqa: E402
from referee.game import DayResult, Game  # noqa: E402

SHARED = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "vbulletin"


@pytest.fixture
def clock() -> BoardClock:
    return BoardClock("2026-11-21 23:00", utc=True)


@pytest.fixture
def board(clock: BoardClock) -> VbBoard:
    return VbBoard(posts=list(DAY1), clock=clock)


@pytest.fixture
def root(board: VbBoard) -> Iterator[str]:
    with board.serve() as url:
        yield url


def with_reply_link(served: bytes, pm_id: int) -> bytes:
    """A PM page with the reply link vBulletin's PM postbit carries (class_postbit.php:
    ``private.php?do=newpm&pmid=N``); the test board's page has no button bar."""
    text = served.decode("cp1251").replace(
        '<h2 class="title icon">', f'<a href="private.php?do=newpm&amp;pmid={pm_id}" '
        'class="newcontent_textcontrol">Ответить</a><h2 class="title icon">', 1)
    return text.encode("cp1251")


class Host:
    """The host at the browser, logged in, saving into one folder."""

    def __init__(self, board: VbBoard, root: str, folder: Path, clock: BoardClock) -> None:
        self.board, self.root, self.folder, self.clock = board, root, folder, clock
        settings = ForumSettings(url=f"{root}showthread.php?t={TOPIC}", username=HOST[0],
                                 rate_limit=1000.0, timezone="Europe/Moscow")
        self.session = VbulletinForum(settings, password=lambda user: Secret(PASSWORD))
        self.session.fetch_pm_folder("inbox")  # the board asks the guest to log in

    def save(self, route: str, browser: Browser,
             change: Callable[[bytes], bytes] | None = None) -> Path:
        url = self.root + route
        r = self.session.http.get(url)
        content = change(r.content) if change else r.content
        return save(self.folder, content, url, browser=browser, at=self.clock(),
                    content_type=r.headers.get("content-type"))

    def save_everything(self, browser: Browser) -> None:
        for n in range(1, -(-len(self.board.posts) // self.board.per_page) + 1):
            self.save(f"showthread.php?t={TOPIC}" + (f"&page={n}" if n > 1 else ""), browser)
        self.save("private.php?folderid=0", browser)
        for pm in self.board.pms:
            self.save(f"private.php?do=showpm&pmid={pm.pm_id}", browser,
                      lambda b, pid=pm.pm_id: with_reply_link(b, pid))


def snapshot_game(tmp_path: Path, root: str, folder: Path, clock: BoardClock) -> Game:
    cfg = tmp_path / "referee.toml"
    text = referee_toml(root + f"showthread.php?t={TOPIC}")
    cfg.write_text(text.replace("[forum]\n", f'[forum]\nsnapshot = "{folder}"\n', 1),
                   encoding="utf-8")
    return Game.open(cfg, tmp_path / "game.db", clock=clock)


def counts(result: DayResult) -> dict[str, list[str]]:
    return {c.target: [v.voter for v in c.voters] for c in result.tally.counts}


def at(game: Game) -> Game:
    game._tallies.clear()
    game._nights.clear()
    return game


def test_three_days_saved_each_evening_count_as_on_the_live_board(
        board: VbBoard, root: str, clock: BoardClock, tmp_path: Path) -> None:
    folder = tmp_path / "форум"
    host = Host(board, root, folder, clock)
    host.save_everything("chrome")
    game = snapshot_game(tmp_path, root, folder, clock)
    board.hits.clear()
    lines = at(game).sync()
    assert lines[0].startswith("тема 63: прочитаны стр. 1–2 из 2; новых сообщений: 11")
    assert board.hits == []
    day1 = game.tally_day(1)
    assert counts(day1) == {"Kotik": ["Лиса", "Тень_Ночи", "Мисс Марпл", "Полковник"],
                            "Лиса": ["Шерлок", "Ёжик", "Kotik"]}
    assert day1.tally.hanged == "Kotik"
    assert 7005 not in {v.post_id for v in day1.tally.votes}

    board.pms += NIGHT1
    board.posts += DAY2
    clock.set("2026-11-23 22:30")
    host.save_everything("firefox")  # windows-1251 kept, no address noted
    at(game).sync()
    assert [d.player for d in game.resolve_night(1).outcome.deaths] == ["Мисс Марпл"]
    day2 = game.tally_day(2)
    assert counts(day2) == {"Лиса": ["Шерлок", "Ёжик", "Полковник", "Гроза"],
                            "Шерлок": ["Лиса", "Тень_Ночи"]}
    assert day2.tally.hanged == "Лиса"

    board.pms += NIGHT2
    board.posts += DAY3
    clock.set("2026-11-25 22:30")
    host.save_everything("no_scripts")
    lines = at(game).sync()
    assert not [ln for ln in lines if "пропал" in ln]
    assert game.resolve_night(2).outcome.deaths == ()
    day3 = game.tally_day(3)
    assert counts(day3) == {"Тень_Ночи": ["Шерлок", "Ёжик", "Гроза", "Полковник"],
                            "Гроза": ["Тень_Ночи"]}
    assert day3.tally.hanged == "Тень_Ночи" and day3.winner is not None
    # The relative dates on the saved pages landed where the posts were written.
    stored = {p.post_id: p.posted_at for p in game.store.posts()}
    assert stored == {p.post_id: p.posted_at for p in board.posts}
    assert {pm.pm_id: pm.sent_at for pm in game.store.pms()} == {
        pm.pm_id: pm.sent_at for pm in board.pms}
    board.hits.clear()
    again = at(game).sync()
    assert "новых сообщений: 0" in again[0] and board.hits == []  # never the board
    game.close()


def test_a_pm_saved_without_its_address_or_a_link_is_named(
        board: VbBoard, root: str, clock: BoardClock, tmp_path: Path) -> None:
    board.pms += NIGHT1
    host = Host(board, root, tmp_path / "p", clock)
    host.save(f"showthread.php?t={TOPIC}", "chrome")
    saved = host.save(f"private.php?do=showpm&pmid={NIGHT1[0].pm_id}", "firefox")
    forum = open_forum(ForumSettings(snapshot=tmp_path / "p", timezone="Europe/Moscow"))
    assert isinstance(forum, SnapshotForum)
    assert (saved, "на сохранённой странице ЛС не видно её номера (pmid)") in forum.skipped


def test_a_folder_of_xenforo_pages_is_refused_for_a_vbulletin_game(
        root: str, tmp_path: Path) -> None:
    folder = tmp_path / "p"
    page = ('<!DOCTYPE html><html id="XF" data-template="thread_view"><head><title>Мафия'
            '</title></head><body><article class="message message--post" data-author="Лиса" '
            'data-content="post-1"></article></body></html>')
    save(folder, page.encode("utf-8"), "https://xf.test/threads/mafija.5/", browser="chrome")
    with pytest.raises(ConfigError, match="сохранены страницы форума на XenForo, а referee "
                                          "читает её как форум на vBulletin"):
        open_forum(ForumSettings(url=f"{root}showthread.php?t={TOPIC}", snapshot=folder))


# --------------------------------------------------------------------------- real pages

@pytest.mark.parametrize("browser", ["chrome", "firefox", "html_only", "no_scripts"])
@pytest.mark.parametrize("version", [3, 4, 5])
def test_a_real_page_saved_by_each_browser_reads_as_served(
        version: int, browser: Browser, tmp_path: Path) -> None:
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is not here: the real vBulletin pages are read in place")
    served = (SHARED / f"vBulletin{version}.html").read_bytes()
    manifest = json.loads((SHARED / f"vBulletin{version}.manifest.json").read_text("utf-8"))
    address = _address_of(served.decode("latin-1"))
    save(tmp_path / "p", served, address, browser=browser,
         at=datetime(2019, 7, 3, tzinfo=UTC))
    forum = open_forum(ForumSettings(snapshot=tmp_path / "p", timezone="Europe/Moscow"))
    assert isinstance(forum, SnapshotForum) and forum.engine == "vbulletin"
    (page,) = forum.fetch_topic_pages()
    got = [(p.post_id, p.author, p.author_id, p.posted_at) for p in page.posts]
    want = [(m["id"], m["author"], m["user_id"],
             datetime.fromisoformat(m["utc"].replace("Z", "+00:00")))
            for m in manifest["posts"]]
    assert got == want and page.topic_id is not None


def _address_of(text: str) -> str:
    """The thread's address as the page links it (canonical, else its first thread link)."""
    found = re.search(r'<link rel="canonical" href="([^"]+)"', text) or re.search(
        r'href="([^"]*showthread\.php[^"]*)"', text)
    assert found is not None
    return found.group(1).replace("&amp;", "&")

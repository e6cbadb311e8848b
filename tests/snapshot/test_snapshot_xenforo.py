"""XenForo from saved pages: the 3-day game of tests/xenforo (xf_game.py) saved by the host
from the browser each day — the thread's pages, the conversation list, every conversation —
and read from that folder gives the counts, hangings and night deaths the live board gives
(test_xenforo_game.py); the real XenForo 1 and 2 pages (../shared/fixtures/xenforo, read in
place) saved by each browser read as the live parser reads them."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "xenforo"))

from support.browser import Browser, save  # noqa: E402
from support.clock import BoardClock  # noqa: E402
from support.xenforo.board import XfBoard  # noqa: E402
from xf_game import HOST, PASSWORD, Game119, config_text, make_board  # noqa: E402

from adapters.base import ForumSettings, Secret  # noqa: E402
from adapters.registry import open_forum  # noqa: E402
from adapters.snapshot import SnapshotForum  # noqa: E402
from adapters.xenforo.client import XenforoForum  # noqa: E402
from referee.game import Game  # noqa: E402

SHARED = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "xenforo"


@pytest.fixture
def clock() -> BoardClock:
    return BoardClock("2026-11-22 09:00")


@pytest.fixture
def board(clock: BoardClock) -> Iterator[XfBoard]:
    b = make_board(now=clock)
    with b.running():
        yield b


class Host:
    """The host at the browser: logged in to the board, saving pages into one folder."""

    def __init__(self, board: XfBoard, game: Game119, folder: Path, clock: BoardClock) -> None:
        self.board, self.game, self.folder, self.clock = board, game, folder, clock
        settings = ForumSettings(url=board.base + game.game.route, username=HOST,
                                 rate_limit=1000.0, timezone="Europe/Moscow")
        self.session = XenforoForum(settings, password=lambda user: Secret(PASSWORD))
        self.session.login()

    def save(self, route: str, browser: Browser) -> Path:
        url = self.board.base + route
        r = self.session.http.get(url)
        assert r.status_code == 200, url
        return save(self.folder, r.content, url, browser=browser, at=self.clock(),
                    content_type=r.headers.get("content-type"))

    def save_everything(self, browser: Browser) -> None:
        thread = self.game.game
        pages = -(-len(thread.posts) // self.board.per_page)
        for n in range(1, pages + 1):
            self.save(thread.route + (f"page-{n}" if n > 1 else ""), browser)
        self.save("conversations/", browser)
        for c in self.board.conversations.values():
            for n in range(1, -(-len(c.messages) // self.board.per_page) + 1):
                self.save(c.route + (f"page-{n}" if n > 1 else ""), browser)


def snapshot_config(board: XfBoard, folder: Path) -> str:
    return config_text(board).replace("[forum]\n", f'[forum]\nsnapshot = "{folder}"\n', 1)


def counts(game: Game, day: int) -> dict[str, list[str]]:
    game._tallies.clear()
    return {c.target: [v.voter for v in c.voters] for c in game.tally_day(day).tally.counts}


DAY1 = {"Лиса": ["Ёжик", "Марго", "Комиссар Рекс", "Пилот"],
        "Ёжик": ["Лиса", "Бармен", "Тень"], "Бармен": ["Снежок"]}
DAY2 = {"Бармен": ["Ёжик", "Снежок", "Пилот", "Марго"], "Ёжик": ["Бармен", "Тень"]}
DAY3 = {"Тень": ["Ёжик", "Снежок", "Пилот", "Марго"], "Пилот": ["Тень"]}


def test_the_game_saved_day_by_day_counts_as_the_live_board(
        board: XfBoard, clock: BoardClock, tmp_path: Path) -> None:
    g = Game119(board)
    g.day1()
    g.night1()
    folder = tmp_path / "сохранённые"
    host = Host(board, g, folder, clock)
    host.save_everything("chrome")
    cfg = tmp_path / "referee.toml"
    cfg.write_text(snapshot_config(board, folder), encoding="utf-8")
    game = Game.open(cfg, tmp_path / "game.db", clock=clock)
    board.log.clear()
    lines = game.sync(progress=None)
    assert lines[0].startswith("тема 69072: прочитаны стр. 1–2 из 2; новых сообщений: 22")
    assert board.log == []  # the board is not asked for anything
    day1 = game.tally_day(1)
    assert counts(game, 1) == DAY1 and day1.tally.hanged == "Лиса"
    assert {(r.voter, r.notes[0].rule) for r in day1.tally.rejected} == {
        (HOST, "V5"), ("Доктор Хаус", "V3"), ("Доктор Хаус", "V1")}
    assert any("отредактирован" in str(f) for f in day1.tally.flags)
    clock.set("2026-11-22 10:30")
    assert [d.player for d in game.resolve_night(1).outcome.deaths] == ["Комиссар Рекс"]

    g.day2()
    clock.set("2026-11-23 18:00")
    host.save_everything("firefox")  # another browser the next day: no address noted
    game.sync(progress=None)
    g.edit_margo_day2()
    g.night2()
    clock.set("2026-11-24 09:00")
    host.save_everything("chrome")
    lines = game.sync(progress=None)
    assert not [ln for ln in lines if "пропал" in ln or "пропущен" in ln]
    assert counts(game, 2) == DAY2 and game.tally_day(2).tally.hanged == "Бармен"
    assert any("сначала голос за «Бармен», потом голос за «Тень»" in str(f)
               for f in game.tally_day(2).tally.flags)  # V4: the version saved first
    clock.set("2026-11-24 10:30")
    # A2, A3: Доктор Хаус missed the votes of days 1 and 2 (rejected votes) and leaves at
    # the end of day 2, after its tally (issue 27): the night's shot at him finds nobody.
    assert [r["nick"] for r in game.tally_day(2).removals] == ["Доктор Хаус"]
    assert [d.player for d in game.resolve_night(2).outcome.deaths] == []

    g.day3()
    clock.set("2026-11-26 09:00")
    host.save_everything("no_scripts")
    game.sync(progress=None)
    day3 = game.tally_day(3)
    assert counts(game, 3) == DAY3 and day3.tally.hanged == "Тень"
    assert day3.winner is not None and day3.winner.side == "town"
    again = game.sync(progress=None)
    assert "новых сообщений: 0" in again[0] and "изменено" not in again[0]
    assert board.log == [] or all(m == "GET" and "login" not in r for m, r, _ in board.log)
    game.close()


def test_a_folder_saved_every_day_and_read_once_counts_every_day(
        board: XfBoard, clock: BoardClock, tmp_path: Path) -> None:
    g = Game119(board)
    folder = tmp_path / "pages"
    g.day1()
    g.night1()
    host = Host(board, g, folder, clock)
    host.save_everything("html_only")
    g.day2()
    clock.set("2026-11-23 18:00")
    host.save_everything("chrome")
    g.edit_margo_day2()
    g.night2()
    g.day3()
    clock.set("2026-11-26 09:00")
    host.save_everything("firefox")
    cfg = tmp_path / "referee.toml"
    cfg.write_text(snapshot_config(board, folder), encoding="utf-8")
    game = Game.open(cfg, tmp_path / "game.db", clock=clock)
    game.sync(progress=None)
    assert (counts(game, 1), counts(game, 2), counts(game, 3)) == (DAY1, DAY2, DAY3)
    assert [game.tally_day(d).tally.hanged for d in (1, 2, 3)] == ["Лиса", "Бармен", "Тень"]
    # Every message of every conversation, keyed as the live board keys them.
    live = XenforoForum(ForumSettings(url=board.base + g.game.route, username=HOST,
                                      rate_limit=1000.0, timezone="Europe/Moscow"),
                        password=lambda user: Secret(PASSWORD))
    listed = {e.pm_id for e in live.fetch_pm_folder("inbox").entries}
    assert {pm.pm_id for pm in game.store.pms()} == listed
    game.close()


def test_the_cli_tallies_from_the_saved_pages(board: XfBoard, clock: BoardClock,
                                              tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from referee.cli import app

    g = Game119(board)
    g.day1()
    g.night1()
    Host(board, g, tmp_path / "p", clock).save_everything("chrome")
    cfg = tmp_path / "referee.toml"
    cfg.write_text(snapshot_config(board, tmp_path / "p"), encoding="utf-8")
    base = ["--config", str(cfg), "--db", str(tmp_path / "cli.db"), "--now", "2026-11-22 09:00"]
    assert CliRunner().invoke(app, [*base, "sync"]).exit_code == 0
    res = CliRunner().invoke(app, [*base, "tally", "--day", "1", "--offline", "--format",
                                   "json"])
    doc = json.loads(res.stdout)
    assert doc["hanged"] == "Лиса" and doc["counts"][0]["votes"] == 4


# --------------------------------------------------------------------------- real pages

REAL = {
    "Xenforo2": "https://xenforo.com/community/threads/a-dark-theme-option.8276/",
    "Xenforo1": "https://forums.sufficientvelocity.com/threads/renascence-a-homura-quest.10402/"
                "page-54",
}


def _real(name: str) -> tuple[bytes, dict]:
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is not here: the real XenForo pages are kept outside the "
                    "project (../shared/fixtures/xenforo)")
    manifest = json.loads((SHARED / f"{name}.manifest.json").read_text(encoding="utf-8"))
    return (SHARED / f"{name}.html").read_bytes(), manifest


@pytest.mark.parametrize("browser", ["chrome", "firefox", "html_only", "no_scripts"])
@pytest.mark.parametrize("name", ["Xenforo2", "Xenforo1"])
def test_a_real_page_saved_by_each_browser_reads_as_served(
        name: str, browser: Browser, tmp_path: Path) -> None:
    served, manifest = _real(name)
    save(tmp_path / "p", served, REAL[name], browser=browser)
    forum = open_forum(ForumSettings(snapshot=tmp_path / "p", timezone="UTC"))
    assert isinstance(forum, SnapshotForum) and forum.engine == "xenforo"
    (page,) = forum.fetch_topic_pages()
    assert page.topic_id == int(REAL[name].split(".")[-1].split("/")[0])
    got = [(p.post_id, p.author, p.author_id) for p in page.posts]
    assert got == [(m["id"], m["author"], m["user_id"]) for m in manifest["posts"]]
    assert page.page == (54 if name == "Xenforo1" else 1)


def test_a_page_without_its_address_is_placed_by_its_post_links(tmp_path: Path) -> None:
    served, manifest = _real("Xenforo2")
    text = served.decode("utf-8").replace(
        '<link rel="canonical" href="https://xenforo.com/community/threads/'
        'a-dark-theme-option.8276/" />', "")
    save(tmp_path / "p", text.encode("utf-8"), REAL["Xenforo2"], browser="firefox")
    forum = open_forum(ForumSettings(snapshot=tmp_path / "p", timezone="UTC"))
    (page,) = forum.fetch_topic_pages()
    assert page.topic_id == 8276 and len(page.posts) == manifest["post_count"]

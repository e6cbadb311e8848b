"""MyBB.ru from saved pages: the 3-day game of tests/mybbru (mybb_game.py), its topic pages
saved by the host's browser after the first night and again at the end (two votes edited
between), read as pages of 100 like the live board, count as the live board's API does
(test_mybbru_game.py) once the host enters the night moves the dialogs held — MyBB.ru's
dialogs are read only through the API, and a saved one is skipped saying so."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mybbru"))

from mybb_game import CONFIG, FIRST_SYNC_AFTER, board_posts, night_pms  # noqa: E402
from support.browser import Browser, save  # noqa: E402
from support.moscow import msk  # noqa: E402
from support.mybbru.board import MybbBoard, serve  # noqa: E402

from adapters.base import ForumSettings  # noqa: E402
from adapters.registry import open_forum  # noqa: E402
from adapters.snapshot import SnapshotForum  # noqa: E402
from referee.cli import app  # noqa: E402
from referee.core.errors import MalformedPage  # noqa: E402
from referee.game import Game  # noqa: E402

NIGHTS = (
    (1, "Kotik", "shoot", "Nika-77", "Тень_Ночи"), (1, "Ёжик", "heal", "Гроза", None),
    (1, "Шерлок", "check", "Kotik", None), (2, "Тень_Ночи", "shoot", "Мотылёк", None),
    (2, "Ёжик", "heal", "Мотылёк", None), (2, "Шерлок", "check", "Тень_Ночи", None),
)
"""What the host's dialogs said (night_pms), entered by the host: ``referee action add``."""


@pytest.fixture
def board() -> MybbBoard:
    return MybbBoard(posts=board_posts(FIRST_SYNC_AFTER, edited=False), pms=night_pms())


@pytest.fixture
def root(board: MybbBoard) -> Iterator[str]:
    with serve(board) as url:
        yield url


def save_topic(board: MybbBoard, root: str, folder: Path, browser: Browser, when: str) -> None:
    pages = -(-len(board.posts) // board.per_page)
    for n in range(1, pages + 1):
        url = f"{root}viewtopic.php?id={board.topic_id}" + (f"&p={n}" if n > 1 else "")
        r = httpx.get(url)
        save(folder, r.content, url, browser=browser, at=msk(when),
             content_type=r.headers.get("content-type"))


def snapshot_config(root: str, folder: Path) -> str:
    return CONFIG.format(url=f"{root}viewtopic.php?id=317").replace(
        "[forum]\n", f'[forum]\nsnapshot = "{folder}"\n', 1)


def tally(config: Path, day: int, now: str) -> dict:  # type: ignore[type-arg]
    res = CliRunner().invoke(app, ["--config", str(config), "--db",
                                   str(config.with_suffix(".db")), "--now", now, "tally",
                                   "--day", str(day), "--offline", "--format", "json",
                                   # «Пуаро», not a player, posts a vote: the host confirms
                                   # the roster (issue 26), else no silent turn is worked out
                                   "--roster-ok"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def counts(doc: dict) -> dict[str, list[str]]:  # type: ignore[type-arg]
    return {c["target"]: [v["voter"] for v in c["voters"]] for c in doc["counts"]}


def test_the_saved_topic_counts_as_the_api_does(board: MybbBoard, root: str,
                                                tmp_path: Path) -> None:
    folder = tmp_path / "ролька"
    save_topic(board, root, folder, "chrome", "2026-11-22 12:45")
    board.posts = board_posts()  # the rest of the game, and two votes edited since
    save_topic(board, root, folder, "firefox", "2026-11-25 23:00")
    config = tmp_path / "referee.toml"
    config.write_text(snapshot_config(root, folder), encoding="utf-8")
    game = Game.open(config, config.with_suffix(".db"), clock=lambda: msk("2026-11-25 23:00"))
    lines = game.sync(progress=None)
    assert lines[0].startswith(f"тема 317: прочитаны стр. 1–2 из 2; новых сообщений: "
                               f"{len(board.posts)}")
    stored = {p.post_id: (p.author, p.posted_at) for p in game.store.posts()}
    assert stored == {p.id: (p.username, datetime.fromtimestamp(p.posted, UTC))
                      for p in board.posts}
    assert {p.page for p in game.store.posts()} == {1, 2}  # pages of 100, as the API's
    for night, actor, action, target, executor in NIGHTS:
        game.add_action(night, actor, action, target=target, executor=executor)
    game.close()

    day1 = tally(config, 1, "2026-11-21 22:30")
    assert counts(day1) == {"Лиса": ["Nika-77", "Гроза", "Полковник", "Мотылёк"],
                            "Шерлок": ["Kotik", "Тень_Ночи"], "Kotik": ["Шерлок"],
                            "Nika-77": ["Лиса"]}
    assert day1["hanged"] == "Лиса"
    day2 = tally(config, 2, "2026-11-23 22:30")
    assert "Nika-77" not in day2["alive"]
    assert counts(day2) == {"Kotik": ["Шерлок", "Гроза", "Полковник", "Ёжик"],
                            "Гроза": ["Тень_Ночи"], "Снежок": ["Мотылёк"],
                            "Шерлок": ["Kotik"]}
    shadow = next(v for c in day2["counts"] for v in c["voters"] if v["voter"] == "Тень_Ночи")
    assert any("отредактировано" in f for f in shadow["flags"])  # V4: the first text counts
    day3 = tally(config, 3, "2026-11-25 22:30")
    # A3 (revised): Снежок wrote nothing in turn 2 and is out with the start of day 3 — his
    # vote and Полковник's vote for him do not count (V5); the roster confirmed above.
    assert counts(day3) == {"Тень_Ночи": ["Шерлок", "Гроза", "Мотылёк"],
                            "Шерлок": ["Тень_Ночи"]}
    assert day3["hanged"] == "Тень_Ночи"
    storm = next(v for c in day3["counts"] for v in c["voters"] if v["voter"] == "Гроза")
    assert any("первый текст не сохранён" in f for f in storm["flags"])


def test_a_saved_dialog_is_skipped_with_the_way_around(board: MybbBoard, root: str,
                                                       tmp_path: Path) -> None:
    folder = tmp_path / "p"
    save_topic(board, root, folder, "chrome", "2026-11-22 12:45")
    dialog = ('<!DOCTYPE html><html><head><meta charset="windows-1251"><title>Личные '
              'сообщения</title><script>var BoardID = 1700;</script></head><body>'
              '<div id="pun-messages" class="punbb"></div></body></html>')
    saved = save(folder, dialog.encode("cp1251"), f"{root}messages.php?id=14",
                 browser="chrome")
    forum = open_forum(ForumSettings(snapshot=folder, timezone="Europe/Moscow"))
    assert isinstance(forum, SnapshotForum) and forum.engine == "mybbru"
    why = dict(forum.skipped)[saved]
    assert "только через API" in why and "referee action add" in why


def test_a_later_page_saved_alone_is_placed_by_its_posts_numbers(
        board: MybbBoard, root: str, tmp_path: Path) -> None:
    board.posts = board_posts()
    last = -(-len(board.posts) // board.per_page)
    url = f"{root}viewtopic.php?id={board.topic_id}&p={last}"
    save(tmp_path / "p", httpx.get(url).content, url, browser="firefox")
    (page,) = open_forum(ForumSettings(snapshot=tmp_path / "p", timezone="Europe/Moscow")
                         ).fetch_topic_pages()
    before = (last - 1) * board.per_page  # the posts on the board's pages before it
    assert (page.page, page.topic_id) == (before // 100 + 1, 317)
    assert [p.post_id for p in page.posts] == [p.id for p in board.posts[before:]]


def test_a_later_page_that_numbers_no_post_is_refused_in_words(
        board: MybbBoard, root: str, tmp_path: Path) -> None:
    last = -(-len(board.posts) // board.per_page)
    url = f"{root}viewtopic.php?id={board.topic_id}&p={last}"
    served = re.sub(rb"<strong>\d+</strong>", b"", httpx.get(url).content)  # a style without
    save(tmp_path / "p", served, url, browser="chrome")  # the posts' numbers
    with pytest.raises(MalformedPage, match=f"нет ни одной полной \\(только стр. {last}\\)"):
        open_forum(ForumSettings(snapshot=tmp_path / "p", timezone="Europe/Moscow"))

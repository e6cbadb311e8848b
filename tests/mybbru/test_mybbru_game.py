"""A whole 3-day game on a MyBB.ru board served on 127.0.0.1, read through the board's API
by ``referee sync`` and counted by ``referee tally --day N`` (mybb_game.py tells what a host
counts and why)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from mybb_game import CONFIG, FIRST_SYNC_AFTER, PASSWORD, board_posts, night_pms
from support.moscow import msk
from support.mybbru.board import MybbBoard, serve
from typer.testing import CliRunner

from referee.cli import app
from referee.game import Game
from referee.store.sync import open_adapter, sync_topic


@pytest.fixture
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[MybbBoard, Path]]:
    """The board as it stood at the first sync, and the game's referee.toml."""
    monkeypatch.setenv("REFEREE_PASSWORD", PASSWORD)
    board = MybbBoard(posts=board_posts(FIRST_SYNC_AFTER, edited=False), pms=night_pms())
    with serve(board) as root:
        config = tmp_path / "referee.toml"
        config.write_text(CONFIG.format(url=f"{root}viewtopic.php?id=317"), encoding="utf-8")
        yield board, config


def cli(config: Path, *args: str, now: str) -> str:
    res = CliRunner().invoke(app, ["--config", str(config), "--db",
                                   str(config.with_suffix(".db")), "--now", now, *args])
    assert res.exit_code == 0, res.output
    return res.stdout


def counts(doc: dict) -> dict[str, list[str]]:  # type: ignore[type-arg]
    return {c["target"]: [v["voter"] for v in c["voters"]] for c in doc["counts"]}


def tally(config: Path, day: int, now: str) -> dict:  # type: ignore[type-arg]
    return json.loads(cli(config, "tally", "--day", str(day), "--offline", "--format", "json",
                          now=now))


def test_three_days_read_through_the_api_count_as_a_host_counts(
        played: tuple[MybbBoard, Path]) -> None:
    board, config = played
    cli(config, "sync", now="2026-11-22 12:45")
    assert board.count("board.auth") == 1  # the PMs needed the host's session
    board.posts = board_posts()  # the rest of the game, and two votes edited since
    cli(config, "sync", now="2026-11-25 23:00")

    day1 = tally(config, 1, "2026-11-21 22:30")
    assert counts(day1) == {"Лиса": ["Nika-77", "Гроза", "Полковник", "Мотылёк"],
                            "Шерлок": ["Kotik", "Тень_Ночи"], "Kotik": ["Шерлок"],
                            "Nika-77": ["Лиса"]}
    assert day1["hanged"] == "Лиса"
    rejected1 = {r["voter"]: r["rule"] for r in day1["rejected"]}
    # Nika-77's second vote is listed, not counted (V4); the host's opening post is his.
    assert rejected1 == {"Ведущий_Макс": "V5", "Снежок": "V3", "Nika-77": "V4", "Ёжик": "V1"}
    assert "Ёжик" in day1["not_voted"]

    day2 = tally(config, 2, "2026-11-23 22:30")
    assert "Nika-77" not in day2["alive"]  # the mafia's shot of night 1, from the PMs
    assert counts(day2) == {"Kotik": ["Шерлок", "Гроза", "Полковник", "Ёжик"],
                            "Гроза": ["Тень_Ночи"], "Снежок": ["Мотылёк"],
                            "Шерлок": ["Kotik"]}
    assert day2["hanged"] == "Kotik"
    shadow = next(v for c in day2["counts"] for v in c["voters"] if v["voter"] == "Тень_Ночи")
    assert any("отредактировано" in f for f in shadow["flags"])  # V4: the first text counts
    rejected2 = {r["voter"]: r["rule"] for r in day2["rejected"]}
    assert rejected2 == {"Снежок": "V3", "Nika-77": "V5", "Пуаро": "V5"}

    day3 = tally(config, 3, "2026-11-25 22:30")
    assert counts(day3) == {"Тень_Ночи": ["Шерлок", "Гроза", "Мотылёк"],
                            "Шерлок": ["Тень_Ночи", "Снежок"], "Снежок": ["Полковник"]}
    assert set(day3["alive"]) == {"Шерлок", "Тень_Ночи", "Гроза", "Ёжик", "Полковник",
                                  "Мотылёк", "Снежок"}  # night 2: the doctor saved Мотылёк
    assert day3["hanged"] == "Тень_Ночи"
    storm = next(v for c in day3["counts"] for v in c["voters"] if v["voter"] == "Гроза")
    assert any("первый текст не сохранён" in f for f in storm["flags"])
    assert {r["voter"]: r["rule"] for r in day3["rejected"]} == {"Ёжик": "V1"}


def test_a_resync_with_nothing_new_is_one_request(played: tuple[MybbBoard, Path]) -> None:
    board, config = played
    board.posts = board_posts()
    game = Game.open(config, config.with_suffix(".db"), clock=lambda: msk("2026-11-25 23:00"))
    try:
        with open_adapter(game.config, db_path=game.store.path) as forum:
            first = sync_topic(game.config, game.store, forum, progress=None)
        assert (first.new_posts, first.pages_fetched, first.total_pages) == (len(board.posts), 2, 2)
        assert first.requests == 3  # topic.get and two post.get pages of 100
        before = len(board.seen)
        with open_adapter(game.config, db_path=game.store.path) as forum:
            again = sync_topic(game.config, game.store, forum, progress=None)
        assert again.requests == 1 and len(board.seen) - before == 1
        assert board.seen[-1].api == "post.get" and board.seen[-1].query["skip"] == "100"
        assert not again.changed
    finally:
        game.close()


def test_the_hosts_nightly_mail_comes_from_the_dialogs(played: tuple[MybbBoard, Path]) -> None:
    board, config = played
    game = Game.open(config, config.with_suffix(".db"), clock=lambda: msk("2026-11-22 11:00"))
    try:
        game.sync(progress=None)
        pms = {pm.pm_id: pm for pm in game.store.pms()}
        assert set(pms) == {9010, 9011, 9012, 9020, 9021, 9022}  # received; sent ones not read
        assert pms[9010].sender == "Kotik" and pms[9010].recipients == ("Ведущий_Макс",)
        assert pms[9010].body_text == "Стреляем в Nika-77, исполнитель Тень_Ночи."
    finally:
        game.close()


def test_a_board_with_its_api_closed_is_read_from_its_pages_and_said_once(
        played: tuple[MybbBoard, Path]) -> None:
    board, config = played
    board.api, board.posts = "404", board_posts()
    config.write_text(config.read_text(encoding="utf-8").replace(
        'username = "Ведущий_Макс"\n', ""), encoding="utf-8")  # the topic only
    game = Game.open(config, config.with_suffix(".db"), clock=lambda: msk("2026-11-21 23:00"))
    try:
        lines = game.sync(progress=None)
        assert sum("API форума закрыт" in line for line in lines) == 1
        assert lines[0].startswith("тема 317: прочитаны стр. 1–2 из 2")
        day1 = game.tally_day(1).tally
        assert {c.target: c.votes for c in day1.counts} == {
            "Лиса": 4, "Шерлок": 2, "Kotik": 1, "Nika-77": 1}
        assert day1.hanged == "Лиса"
    finally:
        game.close()


def test_the_nights_mail_cannot_be_read_without_the_api(played: tuple[MybbBoard, Path]) -> None:
    board, config = played
    board.api = "error"
    res = CliRunner().invoke(app, ["--config", str(config), "--db",
                                   str(config.with_suffix(".db")), "sync"])
    assert res.exit_code != 0
    assert "личные сообщения referee читает только через API" in str(res.exception)
    assert board.count("post.get") == 0 and board.count("board.get") == 1

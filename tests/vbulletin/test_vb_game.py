"""A 3-day game on a Russian vBulletin 4 board served on 127.0.0.1 at vBulletin's addresses
(tests/vbulletin/vb_game.py has the game and what a host counts): ``referee sync`` and
``referee tally --day N`` through the library the CLI stands on, day after day as the
posts and the night PMs arrive; then the CLI itself; a re-sync with nothing new costs one
request for the thread and one for the inbox."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.moscow import msk
from support.vbulletin.board import PASSWORD, VbBoard
from typer.testing import CliRunner
from vb_game import DAY1, DAY2, DAY3, NIGHT1, NIGHT2, referee_toml

from adapters.base import Secret
from adapters.vbulletin.client import VbulletinForum
from referee.cli import app
from referee.config.game import load_config
from referee.game import DayResult, Game
from referee.store import Store
from referee.store.sync import open_adapter, sync_pms, sync_topic


@pytest.fixture
def board() -> VbBoard:
    return VbBoard(posts=list(DAY1))


@pytest.fixture
def root(board: VbBoard) -> Iterator[str]:
    with board.serve() as url:
        yield url


@pytest.fixture
def game(tmp_path: Path, root: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    monkeypatch.setenv("REFEREE_PASSWORD", PASSWORD)
    config = tmp_path / "referee.toml"
    config.write_text(referee_toml(root + "showthread.php?t=63"), encoding="utf-8")
    g = Game.open(config, tmp_path / "game.db", clock=lambda: msk("2026-11-21 23:00"))
    yield g
    g.close()


def at(game: Game, when: str) -> Game:
    game.clock = lambda: msk(when)
    game._tallies.clear()
    game._nights.clear()
    return game


def counts(result: DayResult) -> dict[str, list[str]]:
    return {c.target: [v.voter for v in c.voters] for c in result.tally.counts}


def rejected(result: DayResult) -> set[int]:
    counted = {v.post_id for v in result.tally.votes}
    return {r.post_id for r in result.tally.rejected} - counted


def test_three_days_synced_and_counted_as_a_host_counts(game: Game, board: VbBoard) -> None:
    lines = at(game, "2026-11-21 23:00").sync()
    assert lines[0].startswith("тема 63: прочитаны стр. 1–2 из 2; новых сообщений: 11")
    day1 = game.tally_day(1)
    assert counts(day1) == {"Kotik": ["Лиса", "Тень_Ночи", "Мисс Марпл", "Полковник"],
                            "Лиса": ["Шерлок", "Ёжик", "Kotik"]}
    assert day1.tally.hanged == "Kotik" and day1.recorded
    assert 7010 in rejected(day1)  # Гроза: «Мой голос» with no reason (V3)
    assert 7005 not in {v.post_id for v in day1.tally.votes}  # a quoted vote is not hers

    board.pms += NIGHT1
    board.posts += DAY2
    at(game, "2026-11-23 22:30").sync()
    night1 = game.resolve_night(1)
    assert [d.player for d in night1.outcome.deaths] == ["Мисс Марпл"]
    day2 = game.tally_day(2)
    assert counts(day2) == {"Лиса": ["Шерлок", "Ёжик", "Полковник", "Гроза"],
                            "Шерлок": ["Лиса", "Тень_Ночи"]}
    assert day2.tally.hanged == "Лиса"
    assert 7016 in rejected(day2)  # the dead Мисс Марпл

    board.pms += NIGHT2
    board.posts += DAY3
    at(game, "2026-11-25 22:30").sync()
    assert game.resolve_night(2).outcome.deaths == ()
    day3 = game.tally_day(3)
    assert counts(day3) == {"Тень_Ночи": ["Шерлок", "Ёжик", "Гроза", "Полковник"],
                            "Гроза": ["Тень_Ночи"]}
    assert day3.tally.hanged == "Тень_Ночи" and day3.winner is not None
    assert day3.winner.side == "town"

    # Nothing new: one request for the thread (its last page) and one for the inbox.
    adapter = open_adapter(game.config, db_path=game.store.path)
    with adapter:
        assert sync_topic(game.config, game.store, adapter).requests == 1
        assert sync_pms(game.config, game.store, adapter).requests == 1
    assert board.hit_count("login") == 1  # the session was kept between runs


def test_the_boards_relative_dates_land_where_the_posts_were_written(
        tmp_path: Path, board: VbBoard, root: str) -> None:
    # The board prints «Сегодня, 12:34» and «Вчера, 09:30» for day 3's posts.
    now = msk("2026-11-25 23:00")
    board.clock = lambda: now
    board.posts += DAY2 + DAY3
    config_path = tmp_path / "referee.toml"
    config_path.write_text(referee_toml(root + "showthread.php?t=63"), encoding="utf-8")
    config = load_config(config_path)
    with Store.open(tmp_path / "game.db") as store:
        forum = VbulletinForum(config.forum.settings(tmp_path / "game.cookies"),
                               password=lambda user: Secret(PASSWORD), now=lambda: now)
        with forum:
            report = sync_topic(config, store, forum)
        assert report.new_posts == 27
        stored = {p.post_id: p.posted_at for p in store.posts()}
    assert stored == {p.post_id: p.posted_at for p in board.posts}
    assert board.hits == ["thread:1", "thread:2", "thread:3"]


@pytest.mark.parametrize("engine", [None, "vbulletin"])
def test_the_cli_tally_of_each_day(tmp_path: Path, board: VbBoard, root: str,
                                   monkeypatch: pytest.MonkeyPatch, engine: str | None) -> None:
    monkeypatch.setenv("REFEREE_PASSWORD", PASSWORD)
    config = tmp_path / "referee.toml"
    config.write_text(referee_toml(root + "showthread.php?t=63", engine=engine),
                      encoding="utf-8")
    board.posts += DAY2 + DAY3
    board.pms += NIGHT1 + NIGHT2
    base = ["--config", str(config), "--db", str(tmp_path / "cli.db")]
    runner = CliRunner()
    hanged = []
    for day, now in ((1, "2026-11-22 09:00"), (2, "2026-11-24 09:00"),
                     (3, "2026-11-26 09:00")):
        res = runner.invoke(app, [*base, "--now", now, "tally", "--day", str(day),
                                  "--format", "json"])
        assert res.exit_code == 0, res.output
        hanged.append(json.loads(res.stdout)["hanged"])
    assert hanged == ["Kotik", "Лиса", "Тень_Ночи"]

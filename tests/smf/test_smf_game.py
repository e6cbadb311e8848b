"""The 3-day game «Мафия: игра 1» on SMF 2.1 as the real board rendered it, served on
127.0.0.1 at SMF's URL patterns: sync (topic as a guest, the host's PMs after a login),
then the tally of each day, against the host's own count in the board's manifest.

The game's rules, as its first post says: «Засчитывается последний голос игрока, поданный
до окончания дня», a vote is «Мой голос – [color=red]Ник[/color] и причина» and the host
counted votes without a reason too (``host_tallies``). Roles as the host's PMs gave them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.moscow import msk
from support.smf.site import HOST_PASSWORD, RealBoard

from adapters.base import ForumSettings, Secret
from adapters.registry import engine_for
from referee.game import Game
from referee.store.sync import open_adapter, sync_pms, sync_topic

MANIFEST = json.loads((Path(__file__).resolve().parents[2] / "fixtures/smf21-ru/manifest.json")
                      .read_text(encoding="utf-8"))

CONFIG = """
[game]
title = "Мафия: игра 1"
host = "Ведущий"
start = "2026-11-26 18:00"

[forum]
{engine}url = "{url}index.php?topic=2.0"
timezone = "Europe/Moscow"
username = "Ведущий"
rate_limit = 200.0

[[schedule.days]]
day = 1
start = "2026-11-26 18:00"
deadline = "2026-11-27 22:00"
night_deadline = "2026-11-28 10:00"

[[schedule.days]]
day = 2
start = "2026-11-28 10:10"
deadline = "2026-11-28 22:00"
night_deadline = "2026-11-29 10:00"

[[schedule.days]]
day = 3
start = "2026-11-29 10:05"
deadline = "2026-11-29 18:00"
night_deadline = "2026-11-30 10:00"

[players]
"Шерлок" = "commissar"
"Kotik" = "citizen"
"Лиса" = "citizen"
"Пуаро" = "citizen"
"Мисс Марпл" = "doctor"
"Nika-77" = "citizen"
"Ёжик" = "citizen"
"Полковник" = "citizen"
"Гроза" = "citizen"
"Мотылёк" = "citizen"
"Barmaley" = {{ role = "mafia", clan = "Мафия" }}
"Тень_Ночи" = {{ role = "mafia", clan = "Мафия" }}

[rules]
changes = "{changes}"
reason_min_letters = {reason}
"""


@pytest.fixture
def board() -> Iterator[RealBoard]:
    with RealBoard().running() as b:
        yield b  # type: ignore[misc]


def _game(board: RealBoard, tmp_path: Path, *, engine: str = "", changes: str = "last_counts",
          reason: int = 0) -> tuple[Game, object]:
    path = tmp_path / "referee.toml"
    path.write_text(CONFIG.format(url=board.base, engine=engine, changes=changes,
                                  reason=reason), encoding="utf-8")
    game = Game.open(path, tmp_path / "game.db", clock=lambda: msk("2026-11-30 12:00"))
    adapter = open_adapter(game.config, password=lambda user: Secret(HOST_PASSWORD),
                           db_path=tmp_path / "game.db")
    return game, adapter


def _counts(game: Game, day: int) -> dict[str, list[str]]:
    tally = game.tally_day(day).tally
    return {c.target: sorted(v.voter for v in c.voters) for c in tally.counts}


def _host(day: int) -> dict[str, list[str]]:
    return {target: sorted(voters)
            for target, voters in MANIFEST["host_tallies"][str(day)].items()}


def test_sync_and_tally_give_the_hosts_count_of_each_day(board: RealBoard,
                                                         tmp_path: Path) -> None:
    game, adapter = _game(board, tmp_path)
    with adapter:  # type: ignore[attr-defined]
        report = sync_topic(game.config, game.store, adapter)
        pms = sync_pms(game.config, game.store, adapter)
    assert (report.new_posts, report.total_pages, report.requests) == (70, 3, 3)
    # Every PM is shown in full on its folder page (display mode «все сразу»): none is
    # opened on its own. 4 requests: the inbox as a guest (a login form), the login (the
    # POST: its redirect through sa=check to the index is not followed, issue 30), the
    # newest inbox page again, then the older page.
    assert (pms.listed, pms.new_pms, pms.requests) == (27, 27, 4)
    assert board.requests("pmid=") == []
    for day in (1, 2):
        assert _counts(game, day) == _host(day), f"day {day}"
    assert game.tally_day(1).tally.hanged == "Kotik"
    assert game.tally_day(2).tally.hanged == "Тень_Ночи"
    # Night 2: the doctor heals Шерлок again. referee's rules (docs/rules.md, the doctor) allow
    # no heal of the same player two nights in a row, so Шерлок dies and his vote and the
    # vote for him are not counted; Barmaley hangs all the same.
    before = game.tally_day(3).tally
    assert "Шерлок" not in before.alive and before.hanged == "Barmaley"
    assert _counts(game, 3) == {"Barmaley": [v for v in _host(3)["Barmaley"] if v != "Шерлок"]}
    # This game's host let the heal stand: recorded as his decision, the count is his.
    game.drop_action(2, "Barmaley", "shoot", reason="в этой игре доктор лечит кого угодно")
    game._tallies.clear()
    assert _counts(game, 3) == _host(3)
    assert game.tally_day(3).tally.hanged == "Barmaley"
    game.close()


def test_the_night_pms_decide_who_plays_the_next_day(board: RealBoard, tmp_path: Path) -> None:
    game, adapter = _game(board, tmp_path)
    with adapter:  # type: ignore[attr-defined]
        sync_topic(game.config, game.store, adapter)
        sync_pms(game.config, game.store, adapter)
    # Night 1: «Стреляем в Пуаро» (Тень_Ночи, Barmaley); the doctor heals Шерлок.
    night1 = game.resolve_night(1, record=False)
    assert [d.player for d in night1.outcome.deaths] == ["Пуаро"]
    assert "Пуаро" not in game.tally_day(2).tally.alive
    # Night 2: «Стреляем в Шерлок», «Лечу Шерлок» a second night in a row (refused).
    night2 = game.resolve_night(2, record=False)
    assert [d.player for d in night2.outcome.deaths] == ["Шерлок"]
    assert any("два раза подряд" in line for line in night2.outcome.lines())
    game.close()


def test_a_second_sync_with_nothing_new_costs_one_request(board: RealBoard,
                                                          tmp_path: Path) -> None:
    game, adapter = _game(board, tmp_path)
    with adapter:  # type: ignore[attr-defined]
        sync_topic(game.config, game.store, adapter)
        again = sync_topic(game.config, game.store, adapter)
        assert (again.requests, again.pages_fetched, again.new_posts) == (1, 1, 0)
        assert board.log[-1] == "GET index.php?topic=2.50"
        sync_pms(game.config, game.store, adapter)
        before = len(board.log)
        pms = sync_pms(game.config, game.store, adapter)
        # The newest inbox page holds only known PMs: the listing stops there.
        assert (pms.requests, pms.new_pms, len(board.log) - before) == (1, 0, 1)
    game.close()


def test_the_projects_default_rules_read_the_same_pages_their_own_way(
        board: RealBoard, tmp_path: Path) -> None:
    # V4 (the first vote counts) and V3 (a reason of 10 letters): Полковник's first vote
    # (Kotik, a16) counts, Nika-77's «Мой голос – Лиса» without a reason does not.
    game, adapter = _game(board, tmp_path, changes="forbidden", reason=10)
    with adapter:  # type: ignore[attr-defined]
        sync_topic(game.config, game.store, adapter)
        sync_pms(game.config, game.store, adapter)
    day1 = _counts(game, 1)
    assert day1["Kotik"] == sorted(["Лиса", "Пуаро", "Тень_Ночи", "Мотылёк", "Шерлок",
                                    "Полковник"])
    assert "Лиса" not in day1
    assert game.tally_day(1).tally.hanged == "Kotik"
    game.close()


def test_the_engine_is_found_from_the_address_or_named(board: RealBoard, tmp_path: Path) -> None:
    assert engine_for(ForumSettings(url=f"{board.base}index.php?topic=2.0")).name == "smf"
    game, adapter = _game(board, tmp_path, engine='engine = "smf"\n')
    assert adapter.engine == "smf"  # type: ignore[attr-defined]
    adapter.close()  # type: ignore[attr-defined]
    game.close()


def test_referee_sync_and_tally_on_the_command_line(board: RealBoard, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from referee.cli import app

    path = tmp_path / "referee.toml"
    path.write_text(CONFIG.format(url=board.base, engine="", changes="last_counts", reason=0),
                    encoding="utf-8")
    monkeypatch.setenv("REFEREE_PASSWORD", HOST_PASSWORD)
    base = ["--config", str(path), "--db", str(tmp_path / "cli.db"), "--now", "2026-11-30 12:00"]
    runner = CliRunner()
    synced = runner.invoke(app, [*base, "sync"])
    assert synced.exit_code == 0, synced.output
    for day, hanged in ((1, "Kotik"), (2, "Тень_Ночи")):
        res = runner.invoke(app, [*base, "tally", "--day", str(day), "--offline",
                                  "--format", "json"])
        assert res.exit_code == 0, res.output
        doc = json.loads(res.stdout)
        assert doc["hanged"] == hanged
        assert {c["target"]: c["votes"] for c in doc["counts"]} == {
            target: len(voters) for target, voters in _host(day).items()}
    votes = runner.invoke(app, [*base, "votes", "--day", "1"])
    assert votes.exit_code == 0, votes.output
    assert f"{board.base}index.php?msg=12" in votes.stdout  # Пуаро's #FF0000 vote (a11)

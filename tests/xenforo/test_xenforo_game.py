"""Done when (issue 18): a 3-day game on XenForo 2 markup served on 127.0.0.1 at XenForo's
own URL patterns gives, through ``referee sync`` and ``referee tally --day N``, the counted
votes, counts and hanged player a host would count (the game is described in xf_game)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from support.clock import BoardClock
from support.xenforo.board import XfBoard
from typer.testing import CliRunner
from xf_game import HOST, Game119, config_text

from referee.cli import app
from referee.game import Game


def counts(game: Game, day: int) -> dict[str, list[str]]:
    game._tallies.clear()
    return {c.target: [v.voter for v in c.voters] for c in game.tally_day(day).tally.counts}


def test_three_days_give_the_hosts_counts(
        board: XfBoard, game119: Game119, open_game: Callable[..., Game],
        clock: BoardClock) -> None:
    game = open_game()
    game.sync(progress=None)
    game.clock = clock
    day1 = game.tally_day(1)
    assert counts(game, 1) == {"Лиса": ["Ёжик", "Марго", "Комиссар Рекс", "Пилот"],
                               "Ёжик": ["Лиса", "Бармен", "Тень"], "Бармен": ["Снежок"]}
    assert day1.tally.hanged == "Лиса" and day1.recorded
    rejected = {(r.voter, r.notes[0].rule) for r in day1.tally.rejected}
    assert rejected == {(HOST, "V5"), ("Доктор Хаус", "V3"), ("Доктор Хаус", "V1")}
    assert any("отредактирован" in str(f) for f in day1.tally.flags)  # Комиссар Рекс's edit

    clock.set("2026-11-22 10:30")
    night1 = game.resolve_night(1)
    assert [d.player for d in night1.outcome.deaths] == ["Комиссар Рекс"] and night1.recorded

    game119.day2()
    clock.set("2026-11-23 18:00")
    game.sync(progress=None)
    game119.edit_margo_day2()
    game119.night2()
    clock.set("2026-11-24 09:00")
    game.sync(progress=None)
    assert counts(game, 2) == {"Бармен": ["Ёжик", "Снежок", "Пилот", "Марго"],
                               "Ёжик": ["Бармен", "Тень"]}
    day2 = game.tally_day(2)
    assert day2.tally.hanged == "Бармен"
    assert any("сначала голос за «Бармен», потом голос за «Тень»" in str(f)
               for f in day2.tally.flags)  # V4: the first text seen counts
    assert {(r.voter, r.notes[0].rule) for r in day2.tally.rejected} == {("Доктор Хаус", "V5")}

    clock.set("2026-11-24 10:30")
    # A2, A3: Доктор Хаус missed the votes of days 1 and 2 (rejected votes) and leaves at
    # the end of day 2, after its tally (issue 27): the night's shot at him finds nobody.
    assert [r["nick"] for r in game.tally_day(2).removals] == ["Доктор Хаус"]
    assert [d.player for d in game.resolve_night(2).outcome.deaths] == []

    game119.day3()
    clock.set("2026-11-26 09:00")
    game.sync(progress=None)
    assert counts(game, 3) == {"Тень": ["Ёжик", "Снежок", "Пилот", "Марго"], "Пилот": ["Тень"]}
    day3 = game.tally_day(3)
    assert day3.tally.hanged == "Тень"
    assert day3.winner is not None and day3.winner.side == "town"
    assert {(r.voter, str(r.notes[0])) for r in day3.tally.rejected} == {
        ("Пилот", "V1: нет красного ника")}


def test_the_cli_syncs_and_tallies_day_one(
        board: XfBoard, game119: Game119, tmp_path: Path) -> None:
    cfg = tmp_path / "referee.toml"
    cfg.write_text(config_text(board), encoding="utf-8")
    base = ["--config", str(cfg), "--db", str(tmp_path / "cli.db"), "--now", "2026-11-22 09:00"]
    runner = CliRunner()
    res = runner.invoke(app, [*base, "sync"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, [*base, "tally", "--day", "1"])
    assert res.exit_code == 0, res.output
    assert "[b]Лиса — 4[/b]" in res.output
    # Links in the paste go to XenForo's own post addresses.
    assert f"[url={board.base}posts/" in res.output and "viewtopic.php" not in res.output
    res = runner.invoke(app, [*base, "tally", "--day", "1", "--offline", "--format", "json"])
    doc = json.loads(res.stdout)
    assert doc["hanged"] == "Лиса" and doc["counts"][0]["votes"] == 4


def test_the_tally_is_posted_once_and_a_dry_run_sends_nothing(
        board: XfBoard, game119: Game119, tmp_path: Path) -> None:
    cfg = tmp_path / "referee.toml"
    cfg.write_text(config_text(board), encoding="utf-8")
    base = ["--config", str(cfg), "--db", str(tmp_path / "post.db"), "--now", "2026-11-22 09:00"]
    runner = CliRunner()
    res = runner.invoke(app, [*base, "tally", "--day", "1", "--post", "--dry-run"])
    assert res.exit_code == 0, res.output
    assert not [r for _, r, _ in board.requests("POST") if r.endswith("add-reply")]
    before = len(game119.game.posts)
    res = runner.invoke(app, [*base, "tally", "--day", "1", "--post", "--yes"])
    assert res.exit_code == 0, res.output
    assert [r for _, r, _ in board.requests("POST")][-1] == "threads/mafija-119.69072/add-reply"
    posted = game119.game.posts[-1]
    assert len(game119.game.posts) == before + 1 and posted.author == HOST
    assert "Лиса" in posted.html and "Ёжик" in posted.html
    res = runner.invoke(app, [*base, "tally", "--day", "1", "--post", "--yes"])
    assert res.exit_code == 0 and len(game119.game.posts) == before + 1
    assert "уже отправлено" in res.output + (res.stderr if res.stderr_bytes else "")


def test_a_separate_voting_thread_counts_its_votes_only(
        board: XfBoard, open_game: Callable[..., Game], clock: BoardClock) -> None:
    g = Game119(board, vote_thread=True)
    g.day1()
    # A red vote in the discussion thread is no vote (V1: a vote is a post in the voting one).
    g.post("Снежок", "2026-11-21 21:00", "Уверен, это Тень: она молчит весь день.<br />\n"
           'Мой голос – <span style="color: red">Тень</span>', thread=g.game)
    game = open_game(config_text(board, vote_thread=True))
    lines = game.sync(progress=None)
    assert lines[-1].startswith("голосование: тема 69073")
    assert counts(game, 1) == {"Лиса": ["Ёжик", "Марго", "Комиссар Рекс", "Пилот"],
                               "Ёжик": ["Лиса", "Бармен", "Тень"], "Бармен": ["Снежок"]}
    assert game.tally_day(1).tally.hanged == "Лиса"

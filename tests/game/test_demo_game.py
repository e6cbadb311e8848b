"""The bundled demo game, played through the library layer the CLI stands on.

The demo is the real phpBB 3.3 topic «Мафия: игра 2» (fixtures/demo/pages) with its night-1
PMs; roles as the fixture's author designed them (fixtures/demo/referee.toml). Times are
Moscow (the forum's zone); the clock is injected so "before the deadline" and "after it"
are both tested.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.moscow import msk
from typer.testing import CliRunner

from referee.cli import app
from referee.game import Game
from referee.store.sync import open_adapter, sync_pms, sync_topic

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "fixtures/demo/referee.toml"


@pytest.fixture
def game(tmp_path: Path):
    g = Game.open(DEMO, tmp_path / "game.db", clock=lambda: msk("2026-11-29 12:00"))
    adapter = open_adapter(g.config, db_path=tmp_path / "game.db")
    sync_topic(g.config, g.store, adapter)
    sync_pms(g.config, g.store, adapter)
    yield g
    g.close()


def at(game: Game, when: str) -> Game:
    game.clock = lambda: msk(when)
    game._tallies.clear()
    game._nights.clear()
    return game


def test_day1_before_the_deadline_is_a_preview_and_records_nothing(game: Game) -> None:
    result = at(game, "2026-11-21 21:00").tally_day(1)
    assert not result.tally.closed
    assert result.tally.hanged is None
    assert result.tally.leader == "Mr. Smith"
    assert game.store.result("day", 1) is None


def test_day1_after_the_deadline_records_the_hanging_once(game: Game) -> None:
    # Mr. Smith 6 (83, 92, 105, 106, 107 «Mr. Smit» near match, 110) vs Шерлок 3: V6.
    first = at(game, "2026-11-21 22:00").tally_day(1)
    assert first.recorded and first.tally.hanged == "Mr. Smith"
    again = at(game, "2026-11-22 09:00").tally_day(1)
    assert not again.recorded
    assert again.recorded_hanged == "Mr. Smith"
    assert len([r for r in game.store.results() if r.phase == "day"]) == 1


def test_a_preview_in_the_same_run_does_not_stand_in_for_the_recording_count(
        game: Game) -> None:
    after = at(game, "2026-11-21 22:00")
    assert not after.tally_day(1, record=False).recorded      # --dry-run, or `votes`
    assert after.tally_day(1).recorded                         # then the real count records
    assert after.store.result("day", 1) is not None


def test_day2_counts_with_the_provisional_night_and_says_so(game: Game) -> None:
    # Night 1 (not resolved by the host yet): Kotik's blast kills Тень_Ночи and himself,
    # the ninja kills Nika-77; the mafia shot fails (executor Тень_Ночи beaten, N4/N5).
    result = at(game, "2026-11-23 23:00").tally_day(2)
    assert any("Ночь 1 ещё не записана" in n for n in result.notes)
    alive = set(result.tally.alive)
    assert {"Kotik", "Тень_Ночи", "Nika-77", "Mr. Smith"}.isdisjoint(alive)
    # Votes for the dead Тень_Ночи (125, 141) do not count (V5); Полковник's first vote was
    # for her, so his later vote for Лиса (142) is his first valid one (V4).
    counts = {c.target: [v.voter for v in c.voters] for c in result.tally.counts}
    assert counts == {"Лиса": ["Шерлок", "Ёжик", "Доктор Ватсон", "Полковник"]}
    assert result.tally.hanged == "Лиса"


def test_resolving_night1_records_it_once_and_the_note_goes_away(game: Game) -> None:
    at(game, "2026-11-22 10:30")
    first = game.resolve_night(1)
    assert first.recorded
    assert [d.player for d in first.outcome.deaths] == ["Kotik", "Тень_Ночи", "Nika-77"]
    second = game.resolve_night(1)
    assert not second.recorded and second.already_recorded
    assert second.outcome.lines() == first.outcome.lines()
    assert len([r for r in game.store.results() if r.phase == "night"]) == 1
    day2 = at(game, "2026-11-23 23:00").tally_day(2)
    assert not any("не записана" in n for n in day2.notes)


def test_a_night_in_progress_is_not_recorded(game: Game) -> None:
    result = at(game, "2026-11-22 09:00").resolve_night(1)
    assert not result.recorded and not result.final
    assert game.store.result("night", 1) is None


def test_host_drops_a_request_and_it_is_recorded_as_the_hosts(game: Game) -> None:
    at(game, "2026-11-22 10:30")
    game.drop_action(1, "Kotik", reason="подрыв после дедлайна по договорённости")
    result = game.resolve_night(1, record=False)
    assert "Kotik" not in {d.player for d in result.outcome.deaths}
    assert any("ведущий: заявка Kotik отменена" in e for e in result.host_edits)
    assert [o.kind for o in game.store.overrides("action.")] == ["action.drop"]


def test_host_vote_override_recounts_a_recorded_day(game: Game) -> None:
    at(game, "2026-11-22 09:00")
    assert game.tally_day(1).tally.hanged == "Mr. Smith"
    # The host accepts Гроза's first vote (85, no reason, V3) — her later vote (110) for
    # Mr. Smith is then a change and is ignored (V4): Mr. Smith 5, Шерлок 3, Kotik 1.
    game.override_vote("accept", 85, reason="аргумент был в ЛС")
    result = game.tally_day(1)
    counts = {c.target: len(c.voters) for c in result.tally.counts}
    assert counts["Mr. Smith"] == 5 and counts["Kotik"] == 1
    assert result.recorded
    assert any("сообщение #85: засчитать" in o for o in result.tally.overrides)


def test_moved_deadline_is_recorded_and_used(game: Game) -> None:
    at(game, "2026-11-21 21:00")
    game.set_deadline(1, msk("2026-11-21 12:00"), "перенос")
    result = game.tally_day(1)
    assert result.tally.closed
    assert game.window(1).deadline == msk("2026-11-21 12:00")
    # Votes after 12:00 (Марпл 105, Ёжик 106, Полковник 107, Гроза 110) are late now.
    assert {c.target: len(c.voters) for c in result.tally.counts}["Mr. Smith"] == 2


def test_activity_turn2_removes_the_silent_and_records_it(game: Game) -> None:
    at(game, "2026-11-22 10:30")
    game.resolve_night(1)
    result = at(game, "2026-11-24 10:00").check_activity(2)
    assert result.report.final and result.recorded
    removed = {f.nick for f in result.report.removed}
    # Мотылёк posted nothing on turn 2 and missed both votes; Снежок, Ира-Ира posted
    # nothing on turn 2 (A1). Nika-77 died on night 1, so she is not flagged.
    assert {"Мотылёк", "Снежок", "Ира-Ира"} <= removed
    assert "Nika-77" not in removed
    again = game.check_activity(2)
    assert not again.recorded


def test_excused_player_is_not_flagged(game: Game) -> None:
    at(game, "2026-11-22 10:30")
    game.resolve_night(1)
    game.excuse("снежок", 2, "в командировке")
    result = at(game, "2026-11-24 10:00").check_activity(2)
    assert "Снежок" not in {f.nick for f in result.report.removed}


# ------------------------------------------------------------------------------ CLI


def test_cli_tally_day1_bbcode_and_json(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "cli.db")
    base = ["--config", str(DEMO), "--db", db, "--now", "2026-11-22 09:00"]
    res = runner.invoke(app, [*base, "tally", "--day", "1"])
    assert res.exit_code == 0, res.output
    assert "[b]Mr. Smith — 6[/b]" in res.output
    assert "ТОЛЬКО ДЛЯ ВЕДУЩЕГО" in res.output
    paste = res.output.split("ТОЛЬКО ДЛЯ ВЕДУЩЕГО")[0]
    assert "V3" not in paste  # rejected votes are for the host only
    res = runner.invoke(app, [*base, "tally", "--day", "1", "--offline", "--format", "json"])
    doc = json.loads(res.stdout)
    assert doc["day"] == 1 and doc["hanged"] == "Mr. Smith"
    assert doc["counts"][0]["target"] == "Mr. Smith" and doc["counts"][0]["votes"] == 6
    assert {r["post_id"] for r in doc["rejected"]} >= {85, 89, 94, 104, 108, 115}


def test_cli_resolve_night_and_rerun_is_identical(tmp_path: Path) -> None:
    runner = CliRunner()
    base = ["--config", str(DEMO), "--db", str(tmp_path / "n.db"), "--now", "2026-11-22 10:30"]
    first = runner.invoke(app, [*base, "resolve-night", "--night", "1", "--format", "json"])
    assert first.exit_code == 0, first.output
    second = runner.invoke(app, [*base, "resolve-night", "--night", "1", "--format", "json"])
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert a["deaths"] == b["deaths"] and a["log"] == b["log"]
    assert [d["player"] for d in a["deaths"]] == ["Kotik", "Тень_Ночи", "Nika-77"]
    assert {u["pm_id"] for u in a["unreadable"]} == {18}


def test_cli_error_is_one_clear_line(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["--config", str(tmp_path / "missing.toml"), "tally"])
    assert res.exit_code != 0
    assert isinstance(res.exception, Exception)


def test_edited_vote_counts_its_first_seen_target(game: Game) -> None:
    # V4 on the real pages: post 126 was first saved voting Kotik, then edited to Шерлок
    # (both versions are in the demo folder). With Kotik's blast dropped by the host,
    # Тень_Ночи and Kotik live on day 2: her vote counts for Kotik, flagged as edited.
    at(game, "2026-11-22 10:30")
    game.drop_action(1, "Kotik", reason="проверка V4")
    game.resolve_night(1)
    t = at(game, "2026-11-24 09:00").tally_day(2).tally
    vote = next(v for v in t.votes if v.post_id == 126)
    assert (vote.voter, vote.target) == ("Тень_Ночи", "Kotik")
    notes = " ".join(str(f) for f in t.flags if f.post_id == 126)
    assert "сначала голос за «Kotik»" in notes
    assert "первый текст не сохранён" not in notes


def test_requests_file_is_recorded_as_the_hosts(game: Game, tmp_path: Path) -> None:
    # The host learnt the mafia's real order by other means: the shot goes to Снежок with
    # Лиса as executor; it replaces the clan's PM order (N5: one order per clan).
    f = tmp_path / "requests.toml"
    f.write_text(
        '[[request]]\nnight = 1\nactor = "Лиса"\naction = "shoot"\ntarget = "Мотылёк"\n'
        'executor = "Лиса"\nreason = "прислала в Telegram"\n', encoding="utf-8")
    at(game, "2026-11-22 10:30")
    assert len(game.import_requests(f)) == 1
    result = game.resolve_night(1, record=False)
    shots = [r for r in result.requests if r.action == "shoot"]
    assert [(r.actor, r.target, r.executor) for r in shots] == [("Лиса", "Мотылёк", "Лиса")]
    assert "Мотылёк" in {d.player for d in result.outcome.deaths}
    assert [o.kind for o in game.store.overrides("action.")] == ["action.add"]


def test_host_decides_the_hanging_over_the_count(game: Game) -> None:
    at(game, "2026-11-22 09:00")
    assert game.tally_day(1).tally.hanged == "Mr. Smith"
    game.set_hanged(1, None, "ничья по договорённости")
    result = game.tally_day(1)
    assert result.tally.hanged is None and result.recorded
    # The reason is the host's own record (issue 12): the host-only log has it, the
    # public explanation does not.
    assert result.tally.explanation.startswith("Решение ведущего: никого не вешают.")
    assert "ничья по договорённости" not in result.tally.explanation
    assert any("ничья по договорённости" in o for o in result.tally.overrides)
    assert game.store.result("day", 1).payload["hanged"] is None
    # Mr. Smith lives on into day 2.
    assert "Mr. Smith" in at(game, "2026-11-22 12:00").tally_day(2).tally.alive


def test_host_removal_takes_effect_at_the_end_of_the_day(game: Game) -> None:
    at(game, "2026-11-22 12:00")
    game.remove("гроза", 1, "замена не нашлась")
    state, _ = game.state_before_day(2)
    assert not state.is_alive("Гроза")
    assert [o.kind for o in game.store.overrides("player.")] == ["player.remove"]


def test_host_sets_a_day_the_config_does_not_list(game: Game) -> None:
    # T1: Day 3 is not in referee.toml; the host gives its deadline on the command line and
    # it starts at Night 2's deadline (24.11 10:00). Recorded, and the day is counted.
    at(game, "2026-11-25 23:00")
    with pytest.raises(Exception, match="нет в расписании"):
        game.window(3)
    game.set_deadline(3, msk("2026-11-25 22:00"), "день 3")
    w = game.window(3)
    assert (w.start, w.deadline) == (msk("2026-11-24 10:00"), msk("2026-11-25 22:00"))
    assert game.current_day() == 3
    assert [o.kind for o in game.store.overrides("schedule.")] == ["schedule.day"]
    game.set_deadline(4, msk("2026-11-27 22:00"), start=msk("2026-11-26 10:00"))
    assert game.window(4).start == msk("2026-11-26 10:00")


def test_check_activity_looks_first_at_the_turn_that_just_ended(game: Game) -> None:
    # On the morning of Day 2 the host wants turn 1's final list (A1 is final only now),
    # not a reminder for turn 2, which has just begun.
    at(game, "2026-11-22 10:30")
    assert game.activity_turn() == 1
    game.check_activity(1)
    assert game.activity_turn() == 2


def test_the_days_summary_lists_who_leaves_at_its_end(game: Game) -> None:
    # A3: Мотылёк missed both votes (A2): recorded by the turn-2 check, he leaves at the end
    # of day 2, after the tally, and the day's summary says so (role revealed: setting).
    at(game, "2026-11-22 10:30")
    game.resolve_night(1)
    at(game, "2026-11-24 10:00").check_activity(2)
    result = at(game, "2026-11-24 10:05").tally_day(2)
    assert [r["nick"] for r in result.removals] == ["Мотылёк"]
    from referee.render.context import Context
    from referee.render.day import day_paste

    paste = day_paste(result, Context.of(game.config))
    assert "Покидают игру в конце дня:" in paste and "A3" not in paste
    assert ("[b]Мотылёк[/b] — пропал(а) без вести, пропустил(а) голосования; роль: Мирный житель"
            in paste)

"""`referee status`: the demo game at the moments a host looks, as he would note them down —
the phase line, who has left and how, and what is still to do."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from glance_bench import BenchGame
from glance_demo import DEMO, at, demo, play_as_host
from typer.testing import CliRunner

from referee.cli import app
from referee.host.outgoing import night_messages
from referee.host.status import Gone, Living, OpenItem, PhaseNow, Status, game_status
from referee.render.morning import private_results
from referee.render.status import render_status, status_json

SMITH = "Mr. Smith (Мафия, клан «Лисья нора») — повешен(а) в день 1 (21.11 22:00)"
NIGHT1 = [
    "Kotik (Камикадзе, клан «Лисья нора») — погиб(ла) ночью 1 (22.11 10:00): собственный подрыв",
    "Тень_Ночи (Мафия, клан «Лисья нора») — погиб(ла) ночью 1 (22.11 10:00): подрыв камикадзе "
    "Kotik",
    "Nika-77 (Мирный житель) — погиб(ла) ночью 1 (22.11 10:00): удар ниндзя Ира-Ира",
]
LISA = "Лиса (Мафия, клан «Лисья нора») — повешен(а) в день 2 (23.11 22:00)"
MOTH = ("Мотылёк (Мирный житель) — выбыл(а) в конце дня 2: пропал(а) без вести: ни одного "
        "сообщения в теме за ход 2; пропущено голосований: 2 (дни 1, 2), предел — 2 (A1, A2)")
# A3 revised (issue 27): a silent turn 2 ends the game of these three with the start of day 3.
SILENT2 = [f"{nick} — выбыл(а) с началом дня 3: пропал(а) без вести: ни одного сообщения в теме "
           "за ход 2 (A1)" for nick in ("Мисс Марпл (Священник)", "Снежок (Мирный житель)",
                                        "Ира-Ира (Ниндзя)")]
NOT_RECORDED = " [не записано]"

SCENARIOS = [
    # (moment, the host played up to, the phase line, who has left, what is still to do)
    ("2026-11-20 12:00", None,
     "игра ещё не началась: день 1 начнётся 20.11 18:00, осталось 6 ч.", [], []),
    ("2026-11-21 12:00", None, "день 1 — дедлайн 21.11 22:00, осталось 10 ч.", [], []),
    ("2026-11-22 09:00", None, "ночь 1 — до конца ночи 22.11 10:00, осталось 1 ч.",
     [SMITH + NOT_RECORDED], ["day 1", "pm 1: ЛС #18"]),
    ("2026-11-22 09:00", "2026-11-22 09:00", "ночь 1 — до конца ночи 22.11 10:00, осталось 1 ч.",
     [SMITH], ["pm 1: ЛС #18"]),
    ("2026-11-23 12:00", None, "день 2 — дедлайн 23.11 22:00, осталось 10 ч.",
     [SMITH + NOT_RECORDED, *(d + NOT_RECORDED for d in NIGHT1)],
     ["day 1", "night 1", "pm 1: ЛС #18", "activity 1"]),
    ("2026-11-23 12:00", "2026-11-23 12:00", "день 2 — дедлайн 23.11 22:00, осталось 10 ч.",
     [SMITH, *NIGHT1], ["private 1: Полковник", "private 1: Ира-Ира"]),
    ("2026-11-24 12:00", "2026-11-24 12:00",
     "после дня 2 в расписании больше нет дней: добавьте следующий ([[schedule.days]] или "
     "referee tally --day N --start … --deadline …).",
     [SMITH, *NIGHT1, LISA, MOTH, *SILENT2], ["private 1: Полковник", "private 1: Ира-Ира"]),
]


def _item(i: OpenItem) -> str:
    return f"{i.kind} {i.number}" + (f": {i.subject}" if i.subject else "")


@pytest.mark.parametrize(("moment", "played", "phase", "gone", "todo"), SCENARIOS,
                         ids=[f"{s[0]} {'played' if s[1] else 'untouched'}" for s in SCENARIOS])
def test_the_demo_at_a_glance(tmp_path: Path, moment: str, played: str | None, phase: str,
                              gone: list[str], todo: list[str]) -> None:
    game = demo(tmp_path / "game.db")
    game = at(play_as_host(game, played) if played else game, moment)
    status = game_status(game, private_results)
    text = render_status(status)
    assert f"Сейчас: {phase}" in text
    assert [ln.strip() for ln in text.splitlines() if " — " in ln and "(" in ln
            and ("повешен" in ln or "погиб" in ln or "выбыл" in ln)] == gone
    assert len(status.living) + len(status.gone) == 14
    assert [_item(i) for i in status.open] == todo


def test_status_records_nothing(tmp_path: Path) -> None:
    game = at(demo(tmp_path / "game.db"), "2026-11-24 12:00")
    game_status(game)
    assert game.store.results() == []


def test_a_sent_result_is_no_longer_to_do(tmp_path: Path) -> None:
    game = play_as_host(demo(tmp_path / "game.db"), "2026-11-23 12:00")
    result = game.resolve_night(1, record=False)
    for m in night_messages(game.config, result, report="",
                            private=private_results(result.outcome), post=False, send=True,
                            now=game.now):
        game.store.mark_sent(m.key, m.kind, m.recipient, m.body, 1)
    assert [i.kind for i in game_status(game, private_results).open] == []


def test_a_host_decision_since_the_last_count_is_to_do(tmp_path: Path) -> None:
    game = play_as_host(demo(tmp_path / "game.db"), "2026-11-23 12:00")
    game.override_vote("accept", 85, reason="аргумент был в ЛС")  # day 1 is counted anew
    text = render_status(game_status(game, private_results))
    assert "День 1: дедлайн прошёл (21.11 22:00), итог не записан → referee tally --day 1" in text
    assert ("голос в сообщении #85 засчитан (аргумент был в ЛС) — ещё не в подсчёте → "
            "referee tally --day 1") in text


def test_json_tells_the_same_facts(tmp_path: Path) -> None:
    game = at(demo(tmp_path / "game.db"), "2026-11-23 12:00")
    status = game_status(game)
    data = json.loads(render_status(status, "json"))
    text = render_status(status)
    assert data["phase"]["kind"] == "day" and data["phase"]["number"] == 2
    assert data["phase"]["seconds_left"] == 10 * 3600
    assert [x["nick"] for x in data["living"]] == [x.nick for x in status.living]
    assert all(g["text"] in text for g in data["gone"])
    assert all(i["text"] in text for i in data["open"])
    assert data["gone"][0] | {"text": ""} == {
        "nick": "Mr. Smith", "role": "mafia", "role_ru": "Мафия", "clan": "Лисья нора",
        "how": "hanged", "number": 1, "at": "2026-11-21T19:00:00+00:00", "causes": [],
        "rule": "", "explanation": "", "recorded": False, "text": ""}


def test_the_cli_shows_the_status_and_its_json(tmp_path: Path) -> None:
    base = ["--config", str(DEMO), "--db", str(tmp_path / "g.db"), "--now", "2026-11-22 09:00"]
    out = CliRunner().invoke(app, [*base, "status"])
    assert out.exit_code == 0, out.output
    assert "Сейчас: ночь 1" in out.stdout and "ЛС #18" in out.stdout
    out = CliRunner().invoke(app, [*base, "status", "--format", "json", "--offline"])
    assert json.loads(out.stdout)["phase"]["kind"] == "night"


def test_user_text_cannot_reach_the_terminal_raw() -> None:
    now = datetime(2026, 11, 22, 12, tzinfo=UTC)
    nasty = "Зло\x1b[31m\x07"
    status = Status(
        "Игра\x1b]0;x\x07", now, "UTC", PhaseNow("day", 2, now + timedelta(hours=1),
                                                 timedelta(hours=1)),
        (Living(nasty, "citizen", None, "citizen"),),
        (Gone(nasty, "mafia", "A\x1b", "removed", 1, now, rule="host",
              explanation="ушёл\x1b[2J"),),
        (OpenItem("pm", 1, "referee pms --night 1", "ЛС #3", f"{nasty}: не прочитано", now),),
        None, None)
    text = render_status(status)
    assert "\x1b" not in text and "\x07" not in text
    assert "Зло[31m" in text  # the letters stay, the control characters go
    assert "\\u001b" in json.dumps(status_json(status))  # JSON keeps them, escaped


def test_a_benchmark_game_at_a_glance(bench: BenchGame) -> None:
    game = bench.at(bench.end)
    status = game_status(game, private_results)
    plan = bench.plan
    hanged = [g.nick for g in status.gone if g.how == "hanged"]
    killed = [g.nick for g in status.gone if g.how == "night"]
    assert hanged == [n for n in plan.hanged.values() if n]
    assert killed == [n for n in plan.killed.values() if n]
    assert len(status.living) == 30 - len(hanged) - len(killed)
    # Every night's check went to the commissar and the sergeant, and none was sent.
    assert {i.kind for i in status.open} == {"private"}
    assert len(render_status(status).splitlines()) < 80


def test_a_host_set_vote_is_to_do_with_its_target(tmp_path: Path) -> None:
    # `vote set` records the target and the reason each in its place (the status reads
    # both back from the record).
    game = play_as_host(demo(tmp_path / "game.db"), "2026-11-23 12:00")
    game.override_vote("set", 85, target="Лиса", reason="ник в ЛС")
    text = render_status(game_status(game))
    assert "голос в сообщении #85 — за Лиса (ник в ЛС) — ещё не в подсчёте" in text

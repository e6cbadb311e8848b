"""``referee watch`` against the scripted game on a live board on 127.0.0.1, with a fake
clock (issue 21): what it tells once, what it posts once, and what a long run meets — a
restart, the forum away for an hour, a laptop asleep past the deadline, a second watch, a
config edited while it runs."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support.clock import FakeClock
from support.moscow import msk
from support.phpbb.game_board import GameBoard
from watch_helpers import replies, results, watch

import referee.host.watch.jobs as jobs
from referee.core.errors import GameError
from referee.host.watch.lock import WatchLock

DAY1_END = msk("2026-11-20 23:30")


def votes_told(lines: list[str]) -> list[str]:
    return [line.split(" ", 1)[1] for line in lines if "голос засчитан" in line]


def tallies(board: GameBoard) -> list[str]:
    return [r for r in replies(board) if r.startswith("[b]Подсчёт голосов")]


# ------------------------------------------------------------------------------ told once

def test_new_votes_are_told_once_even_across_a_restart(config: Path, db: Path,
                                                       clock: FakeClock) -> None:
    _, first = watch(config, db, clock, until=msk("2026-11-20 15:40"))
    _, second = watch(config, db, clock, until=msk("2026-11-20 17:20"))
    assert votes_told(first.lines) == [
        "голос засчитан: Шерлок → Лиса (Лиса — 1), пост #1002",
        "голос засчитан: Мисс Марпл → Лиса (Лиса — 2), пост #1003",
    ]
    # The restarted watch goes on from the last look: no summary, nothing told twice.
    assert not second.having("первый взгляд")
    assert votes_told(second.lines) == [
        "голос засчитан: Kotik → Ёжик (Ёжик — 1), пост #1004",
        "голос засчитан: Лиса → Ёжик (Ёжик — 2), пост #1005",
        "голос засчитан: Ёжик → Лиса (Лиса — 3), пост #1006",
    ]
    assert [line[6:] for line in second.having("лидер")] == [
        "лидеры: Лиса, Ёжик — по 2 (был: Лиса)", "лидер: Лиса — 3 (был: Лиса, Ёжик)"]


def test_what_did_not_count_and_edits_are_told_with_why(config: Path, db: Path,
                                                        clock: FakeClock) -> None:
    _, seen = watch(config, db, clock, until=DAY1_END)
    assert seen.having("голос не засчитан: Тень_Ночи → Kotik — без аргумента (V3), пост #1007")
    assert seen.having("пост #1004 (Kotik) отредактирован")
    assert seen.having("голос не засчитан: Гроза → Kotik — после дедлайна (V1), пост #1009")
    # The first look's summary and a status line with the phase, time left, leader.
    assert seen.lines[1].endswith("первый взгляд: до начала игры 1 ч")
    day = next(s for s in seen.statuses if s.startswith("день 1") and "лидер: Лиса — 4" in s)
    assert "не голосовали (2): Тень_Ночи, Гроза" in day and "до конца" in day


def test_night_pms_are_told_as_requests_or_not_understood(config: Path, db: Path,
                                                          clock: FakeClock) -> None:
    clock.t = msk("2026-11-20 21:00")
    _, seen = watch(config, db, clock, until=msk("2026-11-21 09:00"))
    pms = [line[6:] for line in seen.having("ЛС от")]
    assert pms == [
        "ЛС от Kotik: заявка на ночь 1 — выстрел мафии → Шерлок, исполнитель Kotik",
        "ЛС от Шерлок: заявка на ночь 1 — проверка → Kotik",
        "ЛС от Мисс Марпл: заявка на ночь 1 — лечение → Шерлок",
        "ЛС от Ёжик: не понято — заявки нет: у роли «Мирный житель» нет ночного хода, "
        "сообщение — просто разговор (ЛС #103)",
    ]


def test_players_silent_this_turn_are_named_as_the_deadline_nears(
    config: Path, db: Path, clock: FakeClock
) -> None:
    clock.t = msk("2026-11-21 18:00")
    _, seen = watch(config, db, clock, until=msk("2026-11-21 21:40"), warn=_minutes(90))
    (line,) = seen.having("не писали в этот ход")
    assert line == "20:30 день 2, дедлайн 21.11 22:00: не писали в этот ход (2): Тень_Ночи, Гроза"


# ------------------------------------------------------------------------------ posted once

def test_the_deadline_tally_is_posted_exactly_once_even_across_a_restart(
    config: Path, db: Path, clock: FakeClock, board: GameBoard
) -> None:
    watch(config, db, clock, until=msk("2026-11-20 22:30"), tally=True, post=True)
    assert len(tallies(board)) == 1
    assert board.replies[0][0] == msk("2026-11-20 22:01")
    _, again = watch(config, db, clock, until=DAY1_END, tally=True, post=True)
    assert len(tallies(board)) == 1 and not again.having("день 1: итог")


def test_a_watch_killed_between_the_post_and_its_record_does_not_post_twice(
    config: Path, db: Path, clock: FakeClock, board: GameBoard,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = jobs.set_state

    def dies_when_done(store, key, state, at, **extra):  # noqa: ANN001, ANN003, ANN202
        if state == "done" and key == "day:1:tally":
            raise SystemExit("killed")  # the forum has the post; the job is not closed
        return real(store, key, state, at, **extra)

    monkeypatch.setattr(jobs, "set_state", dies_when_done)
    with pytest.raises(SystemExit):
        watch(config, db, clock, until=DAY1_END, tally=True, post=True)
    monkeypatch.setattr(jobs, "set_state", real)
    _, again = watch(config, db, clock, until=DAY1_END, tally=True, post=True)
    assert len(tallies(board)) == 1
    assert again.having("уже отправлено")
    (line,) = again.having("день 1: итог")
    assert line.endswith("уже было отправлено: 1")


def test_a_deadline_passed_while_no_watch_ran_is_done_once_on_start(
    config: Path, db: Path, clock: FakeClock, board: GameBoard
) -> None:
    watch(config, db, clock, until=msk("2026-11-20 21:30"), tally=True, post=True)
    clock.t = msk("2026-11-20 23:05")
    _, seen = watch(config, db, clock, until=DAY1_END, tally=True, post=True)
    assert len(tallies(board)) == 1
    (line,) = seen.having("день 1: итог")
    assert "(срок был 20.11 22:00, сделано сейчас — 20.11 23:05)" in line
    assert "Гроза" not in tallies(board)[0].split("Не проголосовали")[0]  # 22:10 is late (V1)


def test_the_reminder_is_posted_once_a_day(config: Path, db: Path, clock: FakeClock,
                                           board: GameBoard) -> None:
    watch(config, db, clock, until=msk("2026-11-20 21:20"), remind=_minutes(60), post=True)
    watch(config, db, clock, until=msk("2026-11-20 21:50"), remind=_minutes(60), post=True)
    (reminder,) = replies(board)
    assert reminder == ("[b]Напоминание: до конца голосования дня 1 — 1 ч[/b]\n"
                        "Дедлайн: 20.11 22:00 (МСК).\n"
                        "Ещё не проголосовали (2): [b]Тень_Ночи[/b], [b]Гроза[/b].\n")
    watch(config, db, clock, until=msk("2026-11-21 21:40"), every=60, remind=_minutes(60),
          post=True)
    assert [r.splitlines()[0] for r in replies(board)] == [
        "[b]Напоминание: до конца голосования дня 1 — 1 ч[/b]",
        "[b]Напоминание: до конца голосования дня 2 — 1 ч[/b]"]


def test_nothing_is_posted_without_post(config: Path, db: Path, clock: FakeClock,
                                        board: GameBoard) -> None:
    why, seen = watch(config, db, clock, until=msk("2026-11-22 12:00"), every=60, tally=True,
                      resolve=True, activity=True, remind=_minutes(60))
    assert why == "over"
    assert board.replies == [] and board.sent_pms == []
    assert not [k for k in board.log if k in ("reply", "compose")]
    # The work is done all the same: recorded and shown for the host to copy.
    assert sorted((r[0], r[1]) for r in results(db)) == [
        ("activity", 1), ("day", 1), ("day", 2), ("night", 1)]
    assert seen.having("день 1: итог записан — на виселицу — Лиса; не публикуется (без --post)")
    assert seen.having("┄┄ текст для темы (не опубликован: без --post) ┄┄")


# ------------------------------------------------------------------------------ a long run

def test_the_forum_down_for_an_hour_is_waited_out_and_caught_up(
    config: Path, db: Path, clock: FakeClock, board: GameBoard
) -> None:
    clock.t = msk("2026-11-20 21:20")
    clock.at(msk("2026-11-20 21:30"), lambda: setattr(board, "down", True))
    clock.at(msk("2026-11-20 22:30"), lambda: setattr(board, "down", False))
    _, seen = watch(config, db, clock, until=DAY1_END, every=10, tally=True, post=True)
    down = [line for line in seen.lines if "форум" in line]
    assert [line[:5] for line in down] == ["21:30", "21:40", "22:00", "22:01", "22:31"]
    assert "форум не отвечает: " in down[0] and "следующая попытка в 21:40" in down[0]
    assert "следующая попытка в 22:00" in down[1]           # backing off: 10, 20, 30 min
    assert "следующая попытка в 22:31" in down[3]
    assert down[4].endswith("форум снова отвечает (не отвечал 1 ч 01 мин); пропущенное "
                            "дочитано")
    # The deadline's work waited for the forum, then was done once with every vote.
    assert [t for t, _ in board.replies] == [msk("2026-11-20 22:31")]
    assert "[b]Лиса — 4[/b]" in tallies(board)[0]


def test_a_laptop_asleep_past_the_deadline_does_the_work_once_on_waking(
    config: Path, db: Path, clock: FakeClock, board: GameBoard
) -> None:
    clock.t = msk("2026-11-20 21:00")
    clock.at(msk("2026-11-20 21:45"), lambda: setattr(clock, "t", msk("2026-11-20 23:47")))
    _, seen = watch(config, db, clock, until=msk("2026-11-21 01:00"), tally=True, post=True)
    (woke,) = seen.having("часы прыгнули")
    # The last moment seen awake was the nap that took the lid down (30 s naps).
    assert woke.startswith("23:47 часы прыгнули вперёд с 21:44 на 20.11 23:47")
    (line,) = seen.having("день 1: итог")
    assert "(срок был 20.11 22:00, сделано сейчас — 20.11 23:47)" in line
    assert [t for t, _ in board.replies] == [msk("2026-11-20 23:47")]
    ((_, _, _, recorded_at),) = [r for r in results(db) if r[0] == "day"]
    assert recorded_at == msk("2026-11-20 23:47")


def test_a_second_watch_on_the_same_database_is_refused(config: Path, db: Path,
                                                        clock: FakeClock) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys
            from pathlib import Path
            from referee.host.watch.lock import WatchLock
            with WatchLock(Path({str(db)!r})):
                print("held", flush=True)
                sys.stdin.readline()
        """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(GameError) as refused:
            watch(config, db, clock, until=msk("2026-11-20 12:00"))
        assert "для этой базы уже запущен referee watch" in str(refused.value)
        assert f"pid {holder.pid}" in str(refused.value)
    finally:
        holder.communicate("\n", timeout=10)
    why, _ = watch(config, db, clock, until=msk("2026-11-20 12:00"))  # free again
    assert why == "until"
    with WatchLock(db), pytest.raises(GameError):  # in one process too
        watch(config, db, clock, until=msk("2026-11-20 12:30"))


def test_a_config_edited_while_running_is_reloaded_or_kept(config: Path, db: Path,
                                                          clock: FakeClock) -> None:
    good = config.read_text(encoding="utf-8")
    clock.at(msk("2026-11-20 15:10"), lambda: config.write_text("[game\n", encoding="utf-8"))
    moved = good.replace('deadline = "2026-11-20 22:00"', 'deadline = "2026-11-20 21:00"')
    clock.at(msk("2026-11-20 17:10"), lambda: config.write_text(moved, encoding="utf-8"))
    _, seen = watch(config, db, clock, until=msk("2026-11-20 21:30"), tally=True)
    (kept,) = seen.having("не прочитан")
    assert kept.startswith("15:30 referee.toml не прочитан: ")
    assert kept.endswith("работаю с прежними настройками")
    assert seen.having("голос засчитан: Ёжик → Лиса")        # the watch went on meanwhile
    (reloaded,) = seen.having("перечитан")
    assert reloaded.startswith("17:30 referee.toml перечитан")
    # The moved deadline is the one the watch acts on.
    (line,) = seen.having("день 1: итог")
    assert line.startswith("21:01 ")


def _minutes(n: int):  # noqa: ANN202
    from datetime import timedelta

    return timedelta(minutes=n)


def test_a_round_that_fails_is_told_and_the_watch_goes_on(
    config: Path, db: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import referee.host.watch.loop as loop

    real, failures = loop.take_look, iter([GameError("the day cannot be counted", "fix it")])

    def sometimes(game):  # noqa: ANN001, ANN202
        error = next(failures, None) if game.now >= msk("2026-11-20 14:30") else None
        if error is not None:
            raise error
        return real(game)

    monkeypatch.setattr(loop, "take_look", sometimes)
    why, seen = watch(config, db, clock, until=msk("2026-11-20 16:10"))
    assert why == "until"
    (line,) = seen.having("ошибка")
    assert line == "14:30 ошибка: the day cannot be counted → fix it"
    assert seen.having("голос засчитан: Мисс Марпл → Лиса (Лиса — 2)")


def test_the_hosts_own_commands_run_between_rounds(config: Path, db: Path,
                                                   clock: FakeClock) -> None:
    from typer.testing import CliRunner

    from referee.cli import app

    said: list[str] = []

    def host_rejects_a_vote() -> None:
        # The watch holds the database only during a round (issue 14's lock): the host's
        # decision goes in while it sleeps, and the next round tells what it changed.
        res = CliRunner().invoke(app, ["--config", str(config), "--db", str(db), "vote",
                                       "reject", "1003", "--reason", "вне очереди"])
        said.append(res.output)

    clock.at(msk("2026-11-20 15:40"), host_rejects_a_vote)
    _, seen = watch(config, db, clock, until=msk("2026-11-20 16:10"))
    assert said and said[0].startswith("Записано: vote reject 1003")
    assert seen.having("16:00 голос больше не засчитан: Мисс Марпл → Лиса (Лиса — 1), "
                       "пост #1003")


def test_a_post_that_vanishes_is_told(config: Path, db: Path, clock: FakeClock,
                                      board: GameBoard) -> None:
    clock.at(msk("2026-11-20 15:40"), lambda: board.delete_post(1002))
    _, seen = watch(config, db, clock, until=msk("2026-11-20 16:10"))
    assert seen.having("16:00 пост #1002 (Шерлок) исчез со страницы")

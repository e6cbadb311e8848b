"""Commands refuse impossible requests (issue 12): a day, night or turn outside the schedule,
a nick that is no player (the nearest nick suggested), a player already out, an action the
actor's role cannot do, a vote decision that could change nothing, an option out of range.
Each: exit code 2, a clear message, and the database exactly as it was.

The demo game at 22.11 10:30: day 1 recorded (Mr. Smith hanged), night 1 over.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from check_helpers import DEMO, cli, dump, refused, synced_demo

CASES = [
    (("tally", "--day", "0", "--offline"), ["--day 0: дни нумеруются с 1"]),
    (("tally", "--day", "5", "--offline"), ["--day 5: дня 5 нет в расписании (дни: 1, 2)"]),
    (("votes", "--day", "0"), ["--day 0"]),
    (("vote", "set", "89", "--target", "Шерлак"),
     ["--target «Шерлак»: такого игрока нет — может быть, Шерлок?"]),
    (("vote", "set", "89", "--target", "Пуаро"), ["«Пуаро»: такого игрока нет"]),
    (("vote", "accept", "76"), ["сообщение 76 — ведущего", "V5"]),
    (("vote", "set", "76", "--target", "Лиса"), ["сообщение 76 — ведущего"]),
    (("vote", "accept", "83"), ["голос из сообщения 83 (Шерлок → Mr. Smith) и так засчитан"]),
    (("vote", "accept", "94"), ["vote accept 94 ничего не изменит", "vote set 94 --target"]),
    (("vote", "accept", "89"), ["ничего не изменит", "V2"]),
    (("vote", "reject", "85"), ["голос из сообщения 85 и так не засчитан: V3"]),
    (("vote", "accept", "999999"), ["сообщения 999999 нет в базе"]),
    (("hang", "--day", "3", "Лиса"), ["--day 3: дня 3 нет в расписании"]),
    (("hang", "--day", "1", "Пуаро"), ["hang «Пуаро»: такого игрока нет"]),
    (("hang", "--day", "2", "Mr. Smith"), ["Mr. Smith уже выбыл(а) из игры к началу дня 2"]),
    (("hang", "--day", "1"), ["укажите НИК или --nobody"]),
    (("excuse", "Снежок", "--turn", "9"), ["--turn 9: хода 9 нет в расписании (ходы: 1, 2)"]),
    (("excuse", "Снежок", "--turn", "0"), ["--turn 0: ходы нумеруются с 1"]),
    (("excuse", "Снеж", "--turn", "1"), ["«Снеж»: такого игрока нет — может быть, Снежок?"]),
    (("action", "add", "--night", "7", "Лиса", "shoot", "Шерлок"),
     ["--night 7: ночи 7 нет в расписании (ночи: 1, 2)"]),
    (("action", "add", "--night", "1", "Снежок", "check", "Лиса"),
     ["Снежок — Мирный житель, у этой роли нет действия «проверка» (check)", "ночью не ходит"]),
    (("action", "add", "--night", "1", "Полковник", "heal", "Лиса"),
     ["нет действия «лечение»", "может: проверка (check)"]),
    (("action", "add", "--night", "1", "Гроза", "ambush", "Лиса"), ["целей нужно 0, указано 1"]),
    (("action", "add", "--night", "1", "Ёжик", "protect", "Kotik"), ["целей нужно 2, указано 1"]),
    (("action", "add", "--night", "1", "Полковник", "check", "Лиса", "--executor", "Лиса"),
     ["--executor — только у выстрела мафии"]),
    (("action", "add", "--night", "1", "Полковник", "fly", "Лиса"), ["неизвестное действие"]),
    (("action", "add", "--night", "2", "Mr. Smith", "shoot", "Лиса"),
     ["Mr. Smith уже выбыл(а) из игры к ночи 2"]),
    (("action", "add", "--night", "1", "Полковник", "check", "Шерлак"),
     ["цель «Шерлак»: такого игрока нет — может быть, Шерлок?"]),
    (("action", "drop", "--night", "9", "Лиса"), ["ночи 9 нет"]),
    (("action", "drop", "--night", "1", "Лиса", "fly"), ["неизвестное действие"]),
    (("remove", "Пуаро", "--after-day", "1"), ["remove «Пуаро»: такого игрока нет"]),
    (("remove", "Лиса", "--after-day", "0"), ["--after-day 0: дни нумеруются с 1"]),
    (("check-activity", "--turn", "0", "--offline"), ["--turn 0: ходы нумеруются с 1"]),
    (("check-activity", "--turn", "9", "--offline"), ["хода 9 нет"]),
    (("resolve-night", "--night", "0", "--offline"), ["--night 0: ночи нумеруются с 1"]),
    (("resolve-night", "--night", "5", "--offline"), ["ночи 5 нет"]),
    (("pms", "--night", "4", "--offline"), ["ночи 4 нет"]),
]


@pytest.mark.parametrize(("args", "words"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_an_impossible_request_is_refused_and_nothing_recorded(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, args: tuple[str, ...],
    words: list[str],
) -> None:
    db = synced_demo(tmp_path, tmp_path_factory.getbasetemp())
    before = dump(db)
    message = refused(cli(DEMO, db, *args))
    for word in words:
        assert word in message, (word, message)
    assert "→" in message  # and what to do instead
    assert dump(db) == before


def test_the_real_exit_code_is_2(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
                                 ) -> None:
    db = synced_demo(tmp_path, tmp_path_factory.getbasetemp())
    before = dump(db)
    run = subprocess.run(
        [sys.executable, "-c", "from referee.cli import main; main()", "--config", str(DEMO),
         "--db", str(db), "--now", "2026-11-22 10:30", "hang", "--day", "3", "Лиса"],
        capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"}, check=False)
    assert run.returncode == 2
    assert "дня 3 нет в расписании" in run.stderr and "Traceback" not in run.stderr
    assert dump(db) == before


def test_a_near_nick_is_never_taken_for_the_host(tmp_path: Path,
                                                 tmp_path_factory: pytest.TempPathFactory
                                                 ) -> None:
    # «Шерлак» is one letter from Шерлок: the vote reader counts it flagged (V2), but a
    # host's command is his own word and is not guessed.
    db = synced_demo(tmp_path, tmp_path_factory.getbasetemp())
    message = refused(cli(DEMO, db, "hang", "--day", "1", "Шерлак"))
    assert "может быть, Шерлок?" in message


def test_decisions_that_can_work_are_recorded_and_say_where(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    db = synced_demo(tmp_path, tmp_path_factory.getbasetemp())
    res = cli(DEMO, db, "vote", "accept", "85", "--reason", "аргумент был в ЛС")
    assert res.exit_code == 0, res.output
    assert ("сообщение #85 (Гроза): голос засчитан (кандидат — Kotik) (было: не засчитан)"
            in res.stdout)
    assert "referee tally --day 1" in res.stdout
    res = cli(DEMO, db, "excuse", "снежок", "--turn", "2")
    assert "ход 2, предупредил(а) ведущего: Снежок" in res.stdout
    assert "referee check-activity --turn 2" in res.stdout
    res = cli(DEMO, db, "action", "add", "--night", "1", "Полковник", "check", "Лиса")
    assert res.exit_code == 0, res.output
    assert "referee resolve-night --night 1" in res.stdout
    night = cli(DEMO, db, "resolve-night", "--night", "1", "--dry-run", "--offline").stdout
    assert "ведущий: Полковник" in night or "Полковник: проверка → Лиса" in night

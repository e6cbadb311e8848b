"""Config that refuses to guess (issue 12): each mistake a new host made — accepted before
with exit code 0 and no word — is now an error that names the file, the line and the fix.

One row per case: how the file is changed, the line the error names, words it must say.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from check_helpers import DEMO, cli, dump, refused, synced_demo

from referee.config.game import load_config
from referee.config.schema import ConfigProblems
from referee.core.errors import ConfigError

BASE = """\
[game]
host = "Ведущий"
[forum]
url = "https://forum.example/viewtopic.php?t=3"
timezone = "Europe/Moscow"
[[schedule.days]]
day = 1
start = "2026-11-20 18:00"
deadline = "2026-11-21 22:00"
night_deadline = "2026-11-22 10:00"
[[schedule.days]]
day = 2
start = "2026-11-22 10:05"
deadline = "2026-11-23 22:00"
[players]
"Лиса" = { role = "мафия", clan = "A" }
"Шерлок" = "commissar"
"Kotik" = "citizen"
[rules]
changes = "forbidden"
"""
# Lines: 2 host, 3 [forum], 5 timezone, 6/11 [[schedule.days]], 9 day 1 deadline,
# 13 day 2 start, 18 "Kotik", 20 changes.

CASES = [
    ("unknown key, nearest named", ("changes =", "chnages ="), 20,
     ["неизвестный ключ chnages", "может быть, changes?"]),
    ("unknown key in [game]", ("host =", "hsot ="), 2, ["неизвестный ключ hsot", "host?"]),
    ("a key in the wrong table", ('host = "Ведущий"', 'host = "Ведущий"\nsnapshot = "x"'), 3,
     ["snapshot", "пишется в разделе [forum]"]),
    ("unknown section", ('[rules]', '[rulez]'), 19, ["неизвестный раздел [rulez]", "[rules]?"]),
    ("wrong type says the type", ('host = "Ведущий"', "host = 5"), 2,
     ["game.host = 5", "должно быть текстом"]),
    ("a whole number", ('changes = "forbidden"', "change_limit = 1.5"), 20,
     ["rules.change_limit", "целым числом"]),
    ("live forum without timezone", ('timezone = "Europe/Moscow"\n', ""), 3,
     ["[forum] timezone не указан", "UTC", 'timezone = "Europe/Moscow"']),
    ("date with a dash for the colon", ('"2026-11-21 22:00"', '"2026-11-21 22-00"'), 9,
     ["schedule.days[0].deadline", "2026-11-21 22-00", "ГГГГ-ММ-ДД ЧЧ:ММ"]),
    ("a date without a time", ('"2026-11-21 22:00"', '"2026-11-21"'), 9,
     ["\"2026-11-21\"", "не дата и время"]),
    ("a TOML datetime", ('"2026-11-21 22:00"', "2026-11-21T22:00:00"), 9,
     ["текстом в кавычках"]),
    ("day 2 starts before day 1's deadline", ('"2026-11-22 10:05"', '"2026-11-21 20:00"'), 11,
     ["день 2 (schedule.days[1], строка 11)", "раньше дедлайна",
      "день 1 (schedule.days[0], строка 6)"]),
    ("night ends after the next day starts", ('"2026-11-22 10:05"', '"2026-11-22 09:00"'), 11,
     ["ночь 1 (schedule.days[0], строка 6)", "позже начала", "день 2 (schedule.days[1]"]),
    ("a gap in the day numbers", ("day = 2", "day = 3"), 11,
     ["после дня 1 (schedule.days[0], строка 6)", "день 3", "нет дня 2"]),
    ("deadline before its start", ('deadline = "2026-11-23 22:00"',
                                   'deadline = "2026-11-22 09:00"'), 11,
     ["день 2", "дедлайн 22.11.2026 09:00 не позже начала 22.11.2026 10:05"]),
    ("the host among the players", ('"Kotik" = "citizen"', '"Kotik" = "citizen"\n'
                                                          '"ведущий" = "citizen"'), 19,
     ["ведущий 'Ведущий'", "строка 2", "players.'ведущий'"]),
    ("two nicks by case", ('"Kotik" = "citizen"', '"Kotik" = "citizen"\n"KOTIK" = "citizen"'),
     19, ["'KOTIK'", "'Kotik'", "строка 18", "один ник"]),
    ("Latin beside a Cyrillic look-alike", ('"Kotik" = "citizen"',
                                            '"Kotik" = "citizen"\n"Kоtik" = "citizen"'), 19,
     ["'Kоtik'", "'Kotik'", "один ник"]),
    ("an invisible character", ('"Kotik" = "citizen"',
                                '"Kotik" = "citizen"\n"Ko\\u00adtik" = "citizen"'), 19,
     ["'Kotik'", "один ник"]),
    ("ё and е", ('"Kotik" = "citizen"', '"Kotik" = "citizen"\n"Ёжик" = "citizen"\n'
                                        '"Ежик" = "doctor"'), 20, ["'Ежик'", "'Ёжик'"]),
    ("an alias that is another player", ('changes = "forbidden"',
                                         'changes = "forbidden"\n[aliases]\n"Лиса" = ["KOTIK"]'),
     22, ["'KOTIK' (aliases.'Лиса')", "'Kotik' (players.'Kotik'"]),
    ("an alias of nobody", ('changes = "forbidden"',
                            'changes = "forbidden"\n[aliases]\n"Лис" = ["Лисичка"]'), 22,
     ["aliases.'Лис'", "может быть, 'Лиса'?"]),
    ("a vote colour that is no colour", ('changes = "forbidden"', 'vote_colours = ["gren"]'),
     20, ["rules.vote_colours", "'gren' — не цвет", '"green"']),
    ("a deleted-vote choice", ('changes = "forbidden"', 'deleted_vote = "drop"'), 20,
     ["rules.deleted_vote", '"count_flagged", "void"']),
]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "referee.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_base_config_loads(tmp_path: Path) -> None:
    assert len(load_config(_write(tmp_path, BASE)).players) == 3


@pytest.mark.parametrize(("case", "edit", "line", "words"), CASES, ids=[c[0] for c in CASES])
def test_each_mistake_is_an_error_with_its_line(tmp_path: Path, case: str,
                                                edit: tuple[str, str], line: int,
                                                words: list[str]) -> None:
    old, new = edit
    assert old in BASE, case
    path = _write(tmp_path, BASE.replace(old, new, 1))
    with pytest.raises(ConfigProblems) as caught:
        load_config(path)
    message = str(caught.value)
    assert message.startswith(f"{path}, строка {line}: "), message
    for word in words:
        assert word in message, (word, message)
    assert caught.value.hint  # every error says what to do


def test_every_problem_is_listed_at_once(tmp_path: Path) -> None:
    text = BASE.replace("changes =", "chnages =").replace('host = "Ведущий"', "host = 5")
    with pytest.raises(ConfigProblems) as caught:
        load_config(_write(tmp_path, text))
    assert [p.line for p in caught.value.problems] == [2, 20]
    assert "ошибок — 2" in str(caught.value)


def test_a_snapshot_game_may_leave_the_timezone_out(tmp_path: Path) -> None:
    # Saved pages are read offline; `referee check` warns about the zone instead.
    text = BASE.replace('timezone = "Europe/Moscow"\n', 'snapshot = "pages"\n')
    assert load_config(_write(tmp_path, text)).forum.board.timezone == "UTC"


def test_a_toml_syntax_error_names_its_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"referee\.toml, строка 3: это не TOML"):
        load_config(_write(tmp_path, '[game]\nhost = "x"\nbroken line\n'))


@pytest.mark.parametrize("value", ["2026-11-21 22-00", "2026-11-21", "21.11.2026 22:00",
                                   "2026-11-21T22:00", "2026-11-21 22:00+03:00"])
def test_the_command_line_takes_the_same_one_form(tmp_path: Path, value: str,
                                                  tmp_path_factory: pytest.TempPathFactory
                                                  ) -> None:
    db = synced_demo(tmp_path, tmp_path_factory.getbasetemp())
    before = dump(db)
    for args in (("tally", "--day", "1", "--offline"),):
        message = refused(cli(DEMO, db, *args, now=value))
        assert f"--now = {value!r}" in message and "ГГГГ-ММ-ДД ЧЧ:ММ" in message
    message = refused(cli(DEMO, db, "tally", "--day", "2", "--deadline", value, "--offline"))
    assert f"--deadline = {value!r}" in message
    assert dump(db) == before


def test_a_config_that_is_a_folder_is_a_clear_error(tmp_path: Path) -> None:
    message = refused(cli(tmp_path, tmp_path / "g.db", "tally", "--offline"))
    assert "это папка, а не файл" in message and str(tmp_path / "referee.toml") in message
    assert not (tmp_path / "g.db").exists()


def test_an_hour_the_clocks_skip_is_refused(tmp_path: Path) -> None:
    text = BASE.replace("Europe/Moscow", "Europe/Berlin").replace(
        '"2026-11-21 22:00"', '"2026-03-29 02:30"')
    with pytest.raises(ConfigError, match="такого времени нет"):
        load_config(_write(tmp_path, text))

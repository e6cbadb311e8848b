"""``referee.toml`` is validated once (issue 28 item 4): every check the loader made again
after the schema now lives in the schema (:mod:`referee.config.schema`) or the checks across
entries (:mod:`referee.config.checks`), with its line and its fix — the reading of the values
(:func:`referee.config.game.parse_config`) checks nothing more. One row per check the loader
used to repeat: if the schema stopped making one, its row fails (the file would load, or
fail with a traceback instead of the words).
"""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

import pytest

from referee.config.game import ForumConfig, load_config, parse_config
from referee.config.schema import ConfigProblems
from referee.core.forum_settings import ForumSettings

BASE = """\
[game]
host = "Ведущий"
[forum]
url = "https://forum.example/viewtopic.php?t=3"
timezone = "Europe/Moscow"
[players]
"Лиса" = { role = "мафия", clan = "A" }
"Шерлок" = "commissar"
"Kotik" = "citizen"
"""
# Lines: 1 [game], 2 host, 3 [forum], 6 [players], 7 "Лиса", 8 "Шерлок"; what is added
# at the end starts at line 10.

DAY = '[[schedule.days]]\nday = {day}\nstart = "{start}"\ndeadline = "{end}"\n'
DAY_1 = DAY.format(day=1, start="2026-11-20 18:00", end="2026-11-21 22:00")
SWAP = '[[replacements]]\nslot = "Kotik"\nplayer = "Новичок"\n'

# (the check, how the file is changed: (old, new) or text added at the end, the line of the
# problem that says the first words (0: none, the part is missing), words it must say)
CASES: list[tuple[str, tuple[str, str] | str, int, list[str]]] = [
    ("an engine the registry lacks", ('timezone = "Europe/Moscow"',
                                      'timezone = "Europe/Moscow"\nengine = "ipb"'), 6,
     ["forum.engine", "такой движок не поддерживается", '"phpbb"', "уберите строку"]),
    ("a blank host", ('host = "Ведущий"', 'host = "  "'), 2,
     ["game.host", "пусто: нужен ник ведущего"]),
    ("no [players]", ('[players]\n"Лиса" = { role = "мафия", clan = "A" }\n'
                      '"Шерлок" = "commissar"\n"Kotik" = "citizen"\n', ""), 0,
     ["нет [players]"]),
    ("an empty [players]", ('"Лиса" = { role = "мафия", clan = "A" }\n'
                            '"Шерлок" = "commissar"\n"Kotik" = "citizen"\n', ""), 6,
     ["players должно быть непустой таблицей"]),
    ("players that is no table", ('[players]\n"Лиса" = { role = "мафия", clan = "A" }\n'
                                  '"Шерлок" = "commissar"\n"Kotik" = "citizen"\n', ""), 1,
     ["players должно быть непустой таблицей"]),
    ("a clan that is no text", ('clan = "A"', "clan = 1"), 7,
     ["players.'Лиса'.clan = 1", "должно быть текстом"]),
    ("a role that is neither text nor table", ('"Шерлок" = "commissar"', '"Шерлок" = 5'), 8,
     ["players.'Шерлок'", "роль пишется текстом"]),
    ("a schedule that is no table", "", 1, ["schedule должно быть списком [[schedule.days]]"]),
    ("days that are no list", "[schedule]\ndays = 5\n", 11,
     ["schedule.days должно быть записями [[schedule.days]]"]),
    ("a day that is no table", "[schedule]\ndays = [1]\n", 11,
     ["schedule.days должно быть записями [[schedule.days]]"]),
    ("a day without its deadline", '[[schedule.days]]\nday = 1\nstart = "2026-11-20 18:00"\n',
     10, ["schedule.days[0]: нет deadline"]),
    ("a day number below 1", DAY.format(day=0, start="2026-11-20 18:00",
                                        end="2026-11-21 22:00"), 11,
     ["schedule.days[0].day = 0", "не меньше 1"]),
    ("a deadline before its start", DAY.format(day=1, start="2026-11-21 22:00",
                                               end="2026-11-20 18:00"), 10,
     ["день 1", "дедлайн 20.11.2026 18:00 не позже начала 21.11.2026 22:00"]),
    ("a night that ends before the day", DAY_1 + 'night_deadline = "2026-11-21 21:00"\n', 10,
     ["конец ночи 21.11.2026 21:00 не позже дедлайна дня 21.11.2026 22:00"]),
    ("the same day twice", DAY_1 + DAY_1, 14, ["день 1 (schedule.days[1]", "повторяет день 1"]),
    ("aliases that are no table", "", 1, ["aliases должно быть таблицей"]),
    ("an alias of nobody", '[aliases]\n"Лис" = ["Лисичка"]\n', 11,
     ["aliases.'Лис': такого игрока нет в [players]", "может быть, 'Лиса'?"]),
    ("spellings that are no texts", '[aliases]\n"Лиса" = [1]\n', 11,
     ["aliases.'Лиса' должно быть списком написаний в кавычках"]),
    ("replacements that are no list", "", 1,
     ["replacements должно быть записями [[replacements]]"]),
    ("a replacement without its player", '[[replacements]]\nslot = "Kotik"\nfrom_post = 7\n',
     10, ["replacements[0]: нет player"]),
    ("a slot that is no text", '[[replacements]]\nslot = 5\nplayer = "Новичок"\n'
                               "from_post = 7\n", 11,
     ["replacements[0].slot = 5", "должно быть текстом"]),
    ("a slot that is no player", SWAP.replace('"Kotik"', '"Kotk"') + "from_post = 7\n", 11,
     ["replacements[0].slot = 'Kotk': такого игрока нет в [players]", "может быть, 'Kotik'?"]),
    ("a post number that is no number", SWAP + 'from_post = "x"\n', 13,
     ['replacements[0].from_post = "x"', "должно быть целым числом"]),
    ("a replacement from nowhere", SWAP, 10, ["replacements[0]: нет from_post или from_time"]),
    ("actions that are no list", '[rules]\nchange_limited_actions = "проверка"\n', 11,
     ["rules.change_limited_actions", "должно быть списком действий"]),
    ("an unknown action", '[rules]\nchange_limited_actions = ["колдовство"]\n', 11,
     ["неизвестное действие 'колдовство'", "проверка (check)"]),
    ("a setup that is no table", "", 1, ["setup должно быть таблицей"]),
    ("a negative number of clans", "[setup]\nclans = -1\n", 11,
     ["setup.clans = -1", "не меньше 0"]),
    ("a number of players that is no whole number", "[setup]\n\"мафия\" = 1.5\n", 11,
     ["setup.мафия = 1.5", "должно быть целым числом"]),
    ("a missed-vote limit below 1", "[rules]\nmissed_vote_limit = 0\n", 11,
     ["rules.missed_vote_limit = 0", "не меньше 1"]),
    ("an unknown silent leave", '[rules]\nsilent_leave = "noon"\n', 11,
     ["rules.silent_leave", '"morning", "end_of_day"']),
    ("a flag that is no flag", "[rules]\nmissed_votes_consecutive = 1\n", 11,
     ["rules.missed_votes_consecutive = 1", "true или false"]),
    ("a password", ('timezone = "Europe/Moscow"', 'timezone = "Europe/Moscow"\npassword = "x"'),
     6, ["секретный ключ forum.password", "REFEREE_PASSWORD"]),
    ("a bot token", "[notify]\ntelegram_token = \"x\"\n", 11,
     ["секретный ключ notify.telegram_token", "REFEREE_TELEGRAM_TOKEN"]),
]
TOP = {"a schedule that is no table": "schedule = 5\n",
       "aliases that are no table": "aliases = 5\n",
       "replacements that are no list": "replacements = 5\n",
       "a setup that is no table": "setup = 5\n",
       "players that is no table": "players = 5\n"}
"""Keys written above every table (TOML takes a plain value there only)."""


def _write(tmp_path: Path, case: str, edit: tuple[str, str] | str) -> Path:
    if isinstance(edit, tuple):
        assert edit[0] in BASE, case
        text = BASE.replace(edit[0], edit[1], 1)
    else:
        text = BASE + edit
    path = tmp_path / "referee.toml"
    path.write_text(TOP.get(case, "") + text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("case", "edit", "line", "words"), CASES, ids=[c[0] for c in CASES])
def test_each_check_is_the_schemas_with_its_line(tmp_path: Path, case: str,
                                                 edit: tuple[str, str] | str, line: int,
                                                 words: list[str]) -> None:
    path = _write(tmp_path, case, edit)
    with pytest.raises(ConfigProblems) as caught:
        load_config(path)
    message = str(caught.value)
    assert message.startswith(str(path)), message
    assert [p.line for p in caught.value.problems if words[0] in p.text] == [line or None]
    for word in words:
        assert word in message, (word, message)
    assert caught.value.hint  # every error says what to do


def test_a_secret_is_never_repeated(tmp_path: Path) -> None:
    path = _write(tmp_path, "a password", ('timezone = "Europe/Moscow"',
                                           'timezone = "Europe/Moscow"\npassword = "hunter2"'))
    with pytest.raises(ConfigProblems) as caught:
        load_config(path)
    assert "hunter2" not in str(caught.value)


def test_night_actions_may_be_named_in_russian(tmp_path: Path) -> None:
    path = _write(tmp_path, "actions",
                  '[rules]\nchange_limited_actions = ["проверка", "Лечение", "shoot"]\n')
    assert load_config(path).night.change_limited_actions == ("check", "heal", "shoot")


def test_a_raw_mapping_is_validated_too(tmp_path: Path) -> None:
    """A caller that hands :func:`parse_config` the values without the file gets the same
    refusal, without a line (there is no text to find it in)."""
    raw = {"game": {"host": "Ведущий"}, "forum": {"url": "https://f/viewtopic.php?t=1",
                                                  "timezone": "UTC"},
           "players": {"Лиса": "мафия"},
           "replacements": [{"slot": "Никто", "player": "Новичок", "from_post": 3}]}
    with pytest.raises(ConfigProblems, match="replacements\\[0\\].slot = 'Никто'"):
        parse_config(raw, tmp_path / "referee.toml")
    raw["replacements"][0]["slot"] = "Лиса"  # type: ignore[index]
    config = parse_config(raw, tmp_path / "referee.toml")
    assert config.replacements[0].slot == "Лиса" and config.replacements[0].from_post == 3


def test_the_forum_table_is_the_engines_settings_and_the_games_own_keys(tmp_path: Path) -> None:
    """``ForumConfig`` holds the plain :class:`ForumSettings` an engine receives (no field
    repeated) and beside it only what the game reads: where votes are, the sent folder, a
    watch's cadence."""
    path = _write(tmp_path, "forum", ('timezone = "Europe/Moscow"', 'timezone = "Europe/Moscow"\n'
                                      'snapshot = "pages"\nretries = 1\nmax_answer_mib = 5\n'
                                      'vote_url = "https://forum.example/viewtopic.php?t=4"\n'
                                      "read_sent = true\nreread_every = 30\n"
                                      "pm_every_by_day = 15\npm_every_by_night = 5"))
    forum = load_config(path).forum
    settings = forum.settings(tmp_path / "game.cookies")
    assert (settings.url, settings.timezone, settings.retries, settings.max_answer_mib,
            settings.snapshot, settings.cookie_file) == (
        "https://forum.example/viewtopic.php?t=3", "Europe/Moscow", 1, 5.0,
        tmp_path / "pages", tmp_path / "game.cookies")
    assert forum.board == replace(settings, cookie_file=None)
    assert (forum.vote_url, forum.read_sent, forum.reread_every, forum.reread_before_deadline,
            forum.pm_every_by_day, forum.pm_every_by_night) == (
        "https://forum.example/viewtopic.php?t=4", True, 30.0, 60.0, 15.0, 5.0)
    engine_fields = {f.name for f in fields(ForumSettings)}
    assert not engine_fields & {f.name for f in fields(ForumConfig)}


def test_a_player_nicknamed_like_a_credential_is_a_player(tmp_path: Path) -> None:
    """Nicks are keys of ``[players]`` and ``[aliases]``: «Token» or «sid» there is a
    player's name, not a password left in the file."""
    raw = {"game": {"host": "Ведущий"}, "forum": {"url": "https://f/viewtopic.php?t=1",
                                                  "timezone": "UTC"},
           "players": {"Token": "мирный", "sid": "мафия", "Pass": "доктор"},
           "aliases": {"sid": ["Сид"]}}
    config = parse_config(raw, tmp_path / "referee.toml")
    assert [p.nick for p in config.players] == ["Token", "sid", "Pass"]

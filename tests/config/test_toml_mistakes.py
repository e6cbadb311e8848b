"""Issue 29 item 6: the host's TOML mistakes told in Russian, each with its line and fix
(one translator, :mod:`referee.config.toml_errors`), and an empty file's missing parts all at
once."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.config.game import load_config
from referee.core.errors import ConfigError

GOOD = """\
[game]
host = "Ведущий"

[forum]
url = "https://forum.example/viewtopic.php?t=3"
timezone = "Europe/Moscow"

[players]
"Лиса" = "мафия"
"Ёжик" = "комиссар"
"Гроза" = "маньяк"
"Kotik" = "мирный житель"
"Снежок" = "мирный житель"
"Мотылёк" = "мирный житель"
"""
EJIK = '"Ёжик" = "комиссар"'

MISTAKES = [
    # (what the host did, the line as he wrote it, what referee says, the fix it gives)
    ("a player written twice", '"Лиса" = "комиссар"',
     "строка 10: игрок «Лиса» записан в [players] дважды (строки 9 и 10)",
     "оставьте одну из двух строк"),
    ("a Cyrillic nick without quotes", 'Ёжик = "комиссар"',
     "строка 10: это не TOML — ник Ёжик без кавычек (без кавычек пишутся только латинские "
     "буквы, цифры, «_» и «-»)", 'возьмите его в кавычки: "Ёжик" = …'),
    ("a nick with a space without quotes", 'Мисс Марпл = "священник"',
     "строка 10: это не TOML — ник Мисс Марпл без кавычек", '"Мисс Марпл" = …'),
    ("a role without quotes", '"Ёжик" = комиссар',
     "строка 10: это не TOML — значение комиссар без кавычек",
     'возьмите его в кавычки: … = "комиссар"'),
    ("a closing quote missing", '"Ёжик" = "комиссар',
     'строка 10: не закрыта кавычка — "Ёжик" = "комиссар',
     'каждая строка пишется в двух кавычках: "Лиса" = "мафия"'),
    ("a quote missing in the middle", '"Ёжик = "комиссар"',
     'строка 10: не закрыта кавычка — "Ёжик = "комиссар"', "в двух кавычках"),
    ("a table written twice", '[forum]\nurl = "x"',
     "строка 10: раздел [forum] записан дважды (строки 4 и 10)", "оставьте одну"),
    ("a forum key written twice", None,
     "строка 6: ключ «url» записан в [forum] дважды (строки 5 и 6)", "оставьте одну"),
]


def _write(tmp_path: Path, text: str, bom: bool = False) -> Path:
    p = tmp_path / "referee.toml"
    p.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return p


@pytest.mark.parametrize(("mistake", "line", "says", "fix"), MISTAKES,
                         ids=[m[0] for m in MISTAKES])
def test_a_toml_mistake_is_told_in_russian_with_its_fix(
    tmp_path: Path, mistake: str, line: str | None, says: str, fix: str
) -> None:
    if line is None:
        text = GOOD.replace('timezone = "Europe/Moscow"', 'url = "https://b/?t=4"')
    else:
        text = GOOD.replace(EJIK, line)
    with pytest.raises(ConfigError) as caught:
        load_config(_write(tmp_path, text))
    error = caught.value
    assert says in error.message and fix in (error.hint or "")
    assert "Invalid" not in str(error) and "overwrite" not in str(error)
    assert "Illegal" not in str(error)


def test_a_file_saved_with_a_bom_by_notepad_is_read(tmp_path: Path) -> None:
    config = load_config(_write(tmp_path, GOOD, bom=True))
    assert config.host == "Ведущий" and len(config.players) == 6


def test_a_bom_file_mistake_names_the_same_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="строка 10: игрок «Лиса» записан"):
        load_config(_write(tmp_path, GOOD.replace(EJIK, '"Лиса" = "комиссар"'), bom=True))


def test_any_other_mistake_is_russian_with_line_and_column(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(_write(tmp_path, GOOD.replace(EJIK, '"Ёжик" = ["комиссар"')))
    assert "это не TOML — список не закрыт" in caught.value.message


@pytest.mark.parametrize("text", ["", "# пока пусто\n", "[game]\n[forum]\n"])
def test_an_empty_file_lists_every_missing_part_at_once(tmp_path: Path, text: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(_write(tmp_path, text))
    message = caught.value.message
    assert "ошибок — 3:" in message
    assert "в [forum] нужен url" in message and "нет [game] host" in message
    assert "нет [players]" in message
    assert 'referee init "ссылка на тему"' in message


def test_one_missing_part_is_one_error_without_the_init_hint(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(_write(tmp_path, GOOD.replace('host = "Ведущий"\n', "")))
    assert "нет [game] host" in caught.value.message and "ошибок" not in caught.value.message
    assert "referee init" not in str(caught.value)


def test_a_file_cut_inside_a_triple_quote_says_toml_and_where_to_look(tmp_path: Path) -> None:
    # Found by tests/robustness/test_fuzz_config.py: a triple quote left open at the end of
    # the file was told without saying it is a TOML mistake.
    with pytest.raises(ConfigError) as caught:
        load_config(_write(tmp_path, GOOD + 'note = """abc'))
    assert "ошибка в TOML — файл оборвался" in caught.value.message
    assert "конец файла" in (caught.value.hint or "")

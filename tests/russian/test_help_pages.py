"""Issue 29, the help check: every command's ``-h`` is Russian. A Latin word may stand only
where the host types it — an option's name, a placeholder's choice, an example line, or a
name the tool or the config file uses as it is (listed in ``TYPED``, each with why)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import typer
from typer.testing import CliRunner

from referee.cli import app

TYPED = {
    "referee": "the program's name, typed in every command",
    "toml": "referee.toml, the config file's name", "md": "docs/rules.md",
    "docs": "docs/rules.md", "rules": "docs/rules.md",
    "bbcode": "a --format value", "text": "a --format value", "json": "a --format value",
    "JSON": "the file format named as the host's tools name it",
    "CSV": "the file format", "PNG": "the picture's format", "SQLite": "the database",
    "HTTP": "what --verbose logs",
    "players": "the [players] section", "setup": "the [setup] section",
    "schedule": "[[schedule.days]]", "days": "[[schedule.days]]",
    "request": "[[request]] of a requests file", "drop": "[[drop]] of a requests file",
    "id": "an action may be typed by its id",
    "Europe": "a time zone as typed", "Moscow": "a time zone as typed",
    "bash": "a shell", "zsh": "a shell", "fish": "a shell", "PowerShell": "a shell",
    "db": "the database file's suffix", "votes": "ФАЙЛ.votes.csv", "csv": "ФАЙЛ.votes.csv",
    "replay": "`referee replay`, a command's name", "tally": "a command's name",
    "forum": "[forum] section", "url": "[forum] url", "username": "[forum] username",
    "snapshot": "[forum] snapshot", "UTF": "the file encoding (UTF-8)",
    "README": "the file that documents the tool",
    "check": "a command's name", "Ctrl": "Ctrl-C, the keys", "C": "Ctrl-C, the keys",
}
RULE_CODE = re.compile(r"\b[VATNW]\d+(?:\.\d+)?\b")
"""A rule's code (V6, A1, N15): the host finds the rule by it in docs/rules.md."""
LATIN = re.compile(r"[A-Za-z][A-Za-z]*")


def _paths(command: object, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    yield prefix
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from _paths(sub, (*prefix, name))


COMMANDS = list(_paths(typer.main.get_command(app)))


def latin_words(page: str) -> list[str]:
    """The Latin words of a help page outside option names, placeholders and examples."""
    found: list[str] = []
    commands = False
    for line in page.splitlines():
        text = line.strip()
        commands = commands or line == "Команды:"
        if text.startswith("Пример:") or text.startswith("Запуск:"):
            continue
        if commands and re.match(r"  [a-z]", line):  # the command's name, typed as it is
            text = text.split(maxsplit=1)[-1]
        text = RULE_CODE.sub(" ", text)
        text = re.sub(r"(?<![\w-])--?[a-z][\w-]*", " ", text)          # option names
        text = re.sub(r"\b[a-z]+(?:\|[a-z]+)+\b", " ", text)           # choices a|b|c
        text = re.sub(r"https?://\S+", " ", text)
        found += [w for w in LATIN.findall(text) if w not in TYPED]
    return found


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "referee")
def test_a_help_page_has_no_latin_word_the_host_does_not_type(path: tuple[str, ...]) -> None:
    res = CliRunner().invoke(app, [*path, "-h"], terminal_width=100)
    assert res.exit_code == 0, res.output
    assert latin_words(res.stdout) == [], res.stdout


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "referee")
def test_a_help_page_has_no_typer_insides(path: tuple[str, ...]) -> None:
    page = CliRunner().invoke(app, [*path, "-h"], terminal_width=100).stdout
    for inside in ("<int>", "<str>", "<path>", "<float>", "list[str]", "--no-", "no-",
                   "[default", "Usage", "Options", "Arguments", "TEXT", "INTEGER"):
        assert inside not in page, (inside, page)
    assert "..." not in page.split("Команды:")[-1] if "Команды:" in page else True


def test_the_checker_catches_english() -> None:
    assert latin_words("  --format bbcode|text|json  Формат.") == []
    assert latin_words("  nick <str>  Ник игрока.") == ["nick", "str"]
    assert latin_words("Пример: referee hang --day 2 Лиса") == []
    assert latin_words("Голос этого сообщения — за TARGET.") == ["TARGET"]


def test_action_add_reads_in_russian() -> None:
    page = CliRunner().invoke(app, ["action", "add", "-h"], terminal_width=100).stdout
    assert page.startswith("Запуск: referee action add [ПАРАМЕТРЫ] КТО ДЕЙСТВИЕ [ЦЕЛЬ]...\n")
    assert "\nАргументы:\n  КТО       Кто ходит.  [обязательно]\n" in page
    assert "  --night ЧИСЛО     Номер ночи.  [обязательно]\n" in page
    assert "  --executor НИК    Исполнитель выстрела мафии.\n" in page


def test_flags_are_single_and_defaults_russian() -> None:
    page = CliRunner().invoke(app, ["hang", "-h"], terminal_width=100).stdout
    assert "  --nobody             В этот день никого не вешают.\n" in page
    page = CliRunner().invoke(app, ["watch", "-h"], terminal_width=100).stdout
    assert "[по умолчанию: 10]" in page and "10.0" not in page
    res = CliRunner().invoke(app, ["tally", "--no-offline"])
    assert res.exit_code == 2  # the twin is gone from the parser too


def test_the_command_list_gives_whole_summaries() -> None:
    page = CliRunner().invoke(app, ["-h"], terminal_width=100).stdout
    commands = page.split("Команды:")[1]
    assert "..." not in commands
    assert "golosования" not in commands
    assert "(A1: ни одного сообщения за ход; A2: пропущенные" in commands


@pytest.mark.parametrize(("args", "says"), [
    (["action", "add", "--night", "1"], "Ошибка: Не указан аргумент 'КТО'."),
    (["excuse", "--turn", "1"], "Ошибка: Не указан аргумент 'НИК'."),
    (["tally", "--no-offline"], "Ошибка: Нет такого параметра: --no-offline (есть: --offline)"),
])
def test_a_usage_error_names_the_argument_in_russian(args: list[str], says: str) -> None:
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2 and says in res.stderr, res.stderr

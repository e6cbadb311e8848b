"""Issue 13: Russian is the interface — every ``--help``, every error of each kind, the
question and its answers, the action words, ``--version``, ``-h`` and shell completion."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import typer
from demo_run import DEMO, run
from rich.console import Console
from typer.testing import CliRunner

from referee.cli import app, main
from referee.core import errors
from referee.core.roles import action_id
from referee.render import console

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
ENGLISH_FRAME = ("Usage:", "Options:", "Commands:", "Arguments:", "Show this message",
                 "[default:", "[required]", "Error:", "Missing option", "No such option")


def _paths(command: typer.main.TyperGroup | object, prefix: tuple[str, ...] = ()
           ) -> Iterator[tuple[str, ...]]:
    yield prefix
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from _paths(sub, (*prefix, name))


COMMANDS = list(_paths(typer.main.get_command(app)))


def test_the_walk_finds_every_command() -> None:
    names = {" ".join(p) for p in COMMANDS}
    assert {"tally", "check-activity", "resolve-night", "deal", "replay", "action add",
            "vote set", "sync", "status", "history", "export"} <= names


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "referee")
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_every_help_is_russian_with_a_purpose_and_an_example(
    path: tuple[str, ...], flag: str
) -> None:
    res = CliRunner().invoke(app, [*path, flag])
    assert res.exit_code == 0, res.output
    text = res.stdout
    assert text.startswith("Запуск: referee")
    purpose = text.split("\n\n")[1].strip()
    assert CYRILLIC.search(purpose), purpose
    assert "Пример: referee " in text
    assert "Параметры:" in text and "Показать эту справку и выйти." in text
    assert not [w for w in ENGLISH_FRAME if w in text]
    for line in text.splitlines():           # every option says what it does, in Russian
        if line.startswith("  -") and "  " in line.strip():
            assert CYRILLIC.search(line) or line.strip().startswith("--"), line


def test_version_completion_and_h() -> None:
    from importlib.metadata import version

    res = CliRunner().invoke(app, ["--version"])
    assert res.exit_code == 0 and res.stdout.strip() == f"referee {version('referee')}"
    res = CliRunner().invoke(app, ["--show-completion"])
    assert res.exit_code == 0 and "_REFEREE_COMPLETE" in res.stdout
    top = CliRunner().invoke(app, ["-h"]).stdout
    assert "--install-completion" in top and "Установить автодополнение" in top


@pytest.mark.parametrize(("args", "says"), [
    (["tally", "--day", "x"], "Ошибка: Неверное значение '--day': нужно целое число"),
    (["hang"], "Ошибка: Не указан параметр '--day'."),
    (["tallyy"], "Ошибка: Нет такой команды: 'tallyy'. Может быть, 'tally'?"),
    (["tally", "--dya", "1"], "Ошибка: Нет такого параметра: --dya"),
    (["tally", "-f", "html"], "— не одно из: 'bbcode', 'text', 'json'."),
    (["replay", "x.json", "-f", "bbcode"], "— не одно из: 'json', 'text'."),
    (["hang", "--day", "1", "a", "b"], "Ошибка: Лишние аргументы: b"),
])
def test_a_usage_error_is_told_in_russian(args: list[str], says: str) -> None:
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2
    assert says in res.stderr and "Справка: referee" in res.stderr
    assert not [w for w in ENGLISH_FRAME if w in res.stderr]


# ------------------------------------------------------------------------ errors of each kind

def _main(args: list[str], monkeypatch: pytest.MonkeyPatch,
          capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["referee", *args])
    with pytest.raises(SystemExit) as done:
        main()
    return int(done.value.code or 0), capsys.readouterr().err


def _raised(call: Callable[[], object]) -> errors.RefereeError:
    with pytest.raises(errors.RefereeError) as caught:
        call()
    return caught.value


def _network() -> object:
    from adapters.base import HttpClient

    client = HttpClient("http://127.0.0.1:9/", rate_limit=None, retries=0, timeout=1,
                          sleep=lambda s: None)
    return client.get_text("http://127.0.0.1:9/viewtopic.php?t=3")


def _login_required() -> object:
    from adapters.base import get_password

    return get_password("Ведущий", env={}, interactive=False)


def _login_failed() -> errors.RefereeError:
    from adapters.phpbb.client import PhpbbForum

    raise PhpbbForum.refused("wrong_password", "Ведущий")


def _date() -> object:
    from referee.core.dates import parse_forum_date

    return parse_forum_date("вчера когда-то", tz=ZoneInfo("Europe/Moscow"),
                            now=datetime(2026, 11, 22, tzinfo=UTC))


def _malformed() -> object:
    from adapters.phpbb.pms import parse_pm

    return parse_pm("<html><body>пусто</body></html>", url="ucp.php?i=pm&p=1",
                    tz=ZoneInfo("UTC"), now=datetime(2026, 11, 22, tzinfo=UTC))


def _topic_not_found(tmp: Path) -> Callable[[], object]:
    def call() -> object:
        from adapters.phpbb.snapshot import SnapshotForum

        return list(SnapshotForum(tmp, tz=ZoneInfo("UTC")).fetch_topic_pages())

    return call


def _pm_removed() -> object:
    raise errors.PmRemoved("личного сообщения 7 больше нет", "его удалил автор до прочтения")


def _game() -> object:
    from referee.core.roles import normalise_role

    return normalise_role("комисар", "players.'Игрок05'")


@pytest.mark.parametrize("kind", ["network", "login_required", "login_failed", "date",
                                  "malformed", "topic_not_found", "pm_removed", "config"])
def test_a_forum_or_config_error_of_each_kind_is_russian(kind: str, tmp_path: Path) -> None:
    calls: dict[str, Callable[[], object]] = {
        "network": _network, "login_required": _login_required, "login_failed": _login_failed,
        "date": _date, "malformed": _malformed, "topic_not_found": _topic_not_found(tmp_path),
        "pm_removed": _pm_removed, "config": _game,
    }
    error = _raised(calls[kind])
    assert CYRILLIC.search(error.message), error.message
    assert error.hint is None or CYRILLIC.search(error.hint), error.hint


def test_every_error_class_is_covered_by_a_russian_message() -> None:
    # The classes a host can meet (referee/core/errors.py), each raised somewhere in Russian.
    sources = "\n".join(p.read_text(encoding="utf-8") for p in
                        [*Path("referee").rglob("*.py"), *Path("adapters").rglob("*.py")])
    for cls in (errors.ConfigError, errors.ForumError, errors.TopicNotFound,
                errors.LoginRequired, errors.LoginFailed, errors.AccessDenied,
                errors.MalformedPage, errors.NetworkError, errors.DateParseError,
                errors.PmRemoved, errors.StoreError, errors.GameError):
        raised = re.findall(rf"\b{cls.__name__}\(\s*f?[\"']([^\n]*)", sources)
        assert raised, cls.__name__
        english = [m for m in raised if not CYRILLIC.search(m) and re.search(
            r"\b[a-z]{4,}\b", re.sub(r"\{[^}]*\}|--[\w-]+|\[[^\]]*\]", "", m))]
        assert not english, (cls.__name__, english)


@pytest.mark.parametrize(("args", "code", "says"), [
    (["--config", "нет-такого.toml", "tally"], 2, "файл настроек"),
    (["--config", str(DEMO), "hang", "--day", "1"], 2, "укажите НИК или --nobody"),
    (["--config", str(DEMO), "action", "add", "--night", "1", "Полковник", "колдовать"], 2,
     "неизвестное действие 'колдовать'"),
])
def test_the_command_line_prints_one_russian_line_and_no_traceback(
    args: list[str], code: int, says: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    exit_code, err = _main(args, monkeypatch, capsys)
    assert exit_code == code and err.startswith("referee: ") and says in err
    assert "Traceback" not in err


def test_a_store_error_is_russian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "game.db"
    bad.write_text("это не база", encoding="utf-8")
    exit_code, err = _main(["--config", str(DEMO), "--db", str(bad), "tally", "--offline"],
                           monkeypatch, capsys)
    assert exit_code == 4 and "— не база referee" in err


# ------------------------------------------------------------------------ the question

@pytest.mark.parametrize(("answers", "meaning"), [
    (["д"], True), (["Да"], True), (["y"], True), (["YES"], True), (["  да "], True),
    (["н"], False), (["нет"], False), (["n"], False), (["No"], False), ([""], False),
    (["может быть", "д"], True),
])
def test_the_question_takes_russian_and_english_answers(
    answers: list[str], meaning: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    given = iter(answers)
    asked: list[str] = []

    def ask(question: str) -> str:
        asked.append(question)
        return next(given)

    assert console.confirm("Отправить 1 сообщ. в тему?", ask) is meaning
    assert asked[0] == "Отправить 1 сообщ. в тему? [д/Н]" and len(asked) == len(answers)
    if len(answers) > 1:
        assert "Ответьте «д» (да) или «н» (нет)." in capsys.readouterr().err


def test_no_input_at_all_is_a_no() -> None:
    def ask(question: str) -> str:
        raise EOFError

    assert console.confirm("Отправить?", ask) is False


# ------------------------------------------------------------------------ action words

@pytest.mark.parametrize(("word", "action"), [
    ("проверка", "check"), ("проверить", "check"), ("Проверяю", "check"), ("check", "check"),
    ("лечение", "heal"), ("лечить", "heal"), ("выстрел", "shoot"), ("стрелять", "shoot"),
    ("убийство", "kill"), ("засада", "ambush"), ("избить", "beat"), ("подрыв", "blow"),
    ("забрать", "take"), ("защита", "protect"), ("ЗАЩИТА  НЕКРОМАНТА", "protect"),
    ("колдовать", None),
])
def test_russian_action_words_and_their_common_forms(word: str, action: str | None) -> None:
    assert action_id(word) == action


def test_action_add_takes_a_russian_word(tmp_path: Path) -> None:
    db = tmp_path / "game.db"
    assert run(db, "2026-11-22 09:00", "sync").exit_code == 0
    res = run(db, "2026-11-22 09:00", "action", "add", "--night", "1", "Полковник",
              "проверить", "Лиса")
    assert res.exit_code == 0, res.output
    assert "заявка ведущего: Полковник — проверка → Лиса" in res.stdout


# ------------------------------------------------------------------------ what a host scans

def test_text_is_styled_on_a_terminal_and_plain_when_piped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    screen = io.StringIO()
    monkeypatch.setattr(console, "out", Console(file=screen, force_terminal=True,
                                                color_system="standard", width=100))
    console.emit("Подсчёт голосов — день 1\n\nЛиса — 4\n\n" + console.HOST_ONLY + "\nx\n",
                 "text")
    drawn = screen.getvalue()
    assert "\x1b[1m" in drawn and "Подсчёт голосов — день 1" in drawn     # bold title
    monkeypatch.undo()
    piped = run(tmp_path / "game.db", "2026-11-22 09:00", "tally", "--day", "1", "-f", "text")
    assert "\x1b[" not in piped.stdout and "Подсчёт голосов — день 1" in piped.stdout


def test_bbcode_is_never_styled_even_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(console, "out", Console(force_terminal=True))
    console.emit("[b]Лиса[/b]", "bbcode")
    assert capsys.readouterr().out == "[b]Лиса[/b]\n"


def test_check_activity_fits_100_columns(tmp_path: Path) -> None:
    db = tmp_path / "game.db"
    for now, args in (("2026-11-22 10:30", ("resolve-night", "--night", "1")),
                      ("2026-11-24 10:30", ("check-activity", "--turn", "2", "--offline"))):
        res = run(db, now, *args)
        assert res.exit_code == 0, res.output
    for fmt in ("text", "bbcode"):
        res = run(db, "2026-11-24 10:30", "check-activity", "--turn", "2", "--offline",
                  "-f", fmt)
        host = res.stdout.split(console.HOST_ONLY)[1]
        assert max(len(line) for line in host.splitlines()) <= 100


def test_the_progress_bar_speaks_russian(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    monkeypatch.setattr(console, "err", Console(file=screen, force_terminal=True, width=100))

    class Step:
        pages_read, pages_to_read, new_posts = 2, 4, 37

    with console.progress_bar(enabled=True) as show:
        assert show is not None
        show(Step())
    assert "Читаю тему" in screen.getvalue() and "новых сообщений: 37" in screen.getvalue()

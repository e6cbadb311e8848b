"""``referee check`` says what the tool understood, and ``referee init URL`` writes a new
game's referee.toml from its topic (issue 12). Neither writes the game database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import respx
from check_helpers import DEMO, DEMO_TEXT, ROOT, cli, exit_code, refused, write_config

from referee.config.game import load_config

PAGES = ROOT / "fixtures/demo/pages"
TOPIC = "http://forum.test/viewtopic.php?t=3"


@pytest.fixture
def topic() -> Iterator[respx.Route]:
    """The demo topic's first page served as a live board (phpBB 3.3, Russian pack)."""
    html = (PAGES / "topic_p1_host.html").read_text(encoding="utf-8")
    with respx.mock(assert_all_called=False) as router:
        yield router.route(host="forum.test").mock(return_value=httpx.Response(
            200, text=html, headers={"content-type": "text/html; charset=UTF-8"}))


# ------------------------------------------------------------------ check

def test_check_on_the_demo_prints_a_clean_report(tmp_path: Path) -> None:
    db = tmp_path / "never.db"
    res = cli(DEMO, db, "check", now="2026-11-20 12:00")
    assert res.exit_code == 0, res.output
    out = res.stdout
    for line in (
        "часовой пояс Europe/Moscow (всё время ниже — форумное)",
        "день | начало              | дедлайн             | конец ночи",
        "1    | пт 20.11.2026 18:00 | сб 21.11.2026 22:00 | вс 22.11.2026 10:00",
        "2    | вс 22.11.2026 10:05 | пн 23.11.2026 22:00 | вт 24.11.2026 10:00",
        "Игроки (14), роли из referee.toml:",
        "Шерлок — Громила, клан Лисья нора",
        "Ира-Ира — Ниндзя",
        "По сторонам: город 8, кланы 5, маньяк 1; расклад по умолчанию (docs/rules.md, "
        "по числу игроков): город 8, кланы 5, маньяк 1.",
        "Кланы: Лисья нора (5).",
        "Правила: все по умолчанию (docs/rules.md).",
        "Тема: движок phpbb, «Мафия: игра 2», страниц 4, сообщений 70, первое сообщение — "
        "Ведущий.",
        "Итог: ошибок нет.",
    ):
        assert line in out, (line, out)
    assert "Предупреждения" not in out and "Ошибки" not in out
    assert not db.exists()


def test_check_offline_skips_the_topic(tmp_path: Path) -> None:
    out = cli(DEMO, tmp_path / "g.db", "check", "--offline", now="2026-11-20 12:00").stdout
    assert "Тема: не открывалась (--offline)." in out


def test_a_schedule_in_the_past_is_a_warning_only(tmp_path: Path) -> None:
    res = cli(DEMO, tmp_path / "g.db", "check", "--offline", now="2027-03-01 12:00")
    assert res.exit_code == 0
    assert "всё расписание в прошлом (последний день 2 кончился 24.11.2026 10:00)" in res.stdout


def test_check_lists_every_error_with_its_line(tmp_path: Path) -> None:
    text = DEMO_TEXT.replace("changes =", "chnages =").replace(
        '"Мотылёк" = "citizen"', '"Мотылёк" = "citizen"\n"KOTIK" = "citizen"')
    config = write_config(tmp_path, text)
    res = cli(config, tmp_path / "g.db", "check", "--offline")
    assert exit_code(res) == 2
    assert "Ошибки (2):" in res.stdout
    assert "строка 69: неизвестный ключ chnages в [rules] — может быть, changes?" in res.stdout
    assert "'KOTIK' (players.'KOTIK') и 'Kotik' (players.'Kotik', строка 45)" in res.stdout
    assert "Итог: ошибок — 2" in res.stdout


def test_check_shows_the_rules_that_differ_and_the_host_it_doubts(tmp_path: Path) -> None:
    text = DEMO_TEXT.replace('tie = "first_to_reach"', 'tie = "nobody"').replace(
        'host = "Ведущий"', 'host = "Модератор"').replace(
        "[rules]\n", '[rules]\nvote_colours = ["green", "#cc6600"]\n')
    config = write_config(tmp_path, text)
    res = cli(config, tmp_path / "g.db", "check", now="2026-11-20 12:00")
    assert res.exit_code == 0, res.output
    assert 'tie = "nobody" (по умолчанию "first_to_reach")' in res.stdout
    assert 'vote_colours = ["green", "#cc6600"] (по умолчанию ["red"])' in res.stdout
    assert "первое сообщение темы написал Ведущий, а ведущий в [game] host — Модератор" \
        in res.stdout


def test_check_opens_a_live_topic(tmp_path: Path, topic: respx.Route) -> None:
    text = "\n".join(ln for ln in DEMO_TEXT.splitlines()
                     if not ln.startswith(("snapshot", "username")))
    text = text.replace('url = "http://127.0.0.1:8733/viewtopic.php?t=3"', f'url = "{TOPIC}"')
    config = write_config(tmp_path, text + "\n")
    res = cli(config, tmp_path / "g.db", "check", now="2026-11-20 12:00")
    assert res.exit_code == 0, res.output
    assert "Тема: движок phpbb, «Мафия: игра 2», страниц 4, сообщений 70" in res.stdout
    assert topic.call_count == 1
    assert not (tmp_path / "g.db").exists() and not list(tmp_path.glob("*.cookies"))


def test_check_says_when_the_topic_does_not_open(tmp_path: Path) -> None:
    text = DEMO_TEXT.replace('snapshot = "pages"', f'snapshot = "{tmp_path / "nothing"}"')
    (tmp_path / "nothing").mkdir()
    config = tmp_path / "referee.toml"
    config.write_text(text, encoding="utf-8")
    res = cli(config, tmp_path / "g.db", "check", now="2026-11-20 12:00")
    assert exit_code(res) == 2
    assert "Ошибки (1):" in res.stdout and "тема" in res.stdout


# ------------------------------------------------------------------ init

def _init(path: Path, *args: str) -> str:
    res = cli(path, path.with_suffix(".db"), "init", *args)
    assert res.exit_code == 0, res.output
    return res.stdout


def test_init_on_the_demo_pages_fills_the_roster(tmp_path: Path) -> None:
    path = tmp_path / "game" / "referee.toml"
    out = _init(path, str(PAGES), "--timezone", "Europe/Moscow", "--start", "2026-11-20 18:00",
                "--days", "3", "--day-hours", "28", "--night-hours", "12")
    assert "Игроки из первого сообщения: 14" in out
    assert "Без сообщений в теме (проверьте написание): Ира-Ира" in out
    config = load_config(path)
    assert config.host == "Ведущий" and config.title == "Мафия: игра 2"
    assert [p.nick for p in config.players] == [p.nick for p in load_config(DEMO).players]
    assert not any(p.role_given for p in config.players)
    assert config.forum.board.timezone == "Europe/Moscow"
    snapshot = config.forum.board.snapshot
    assert snapshot is not None and snapshot.resolve() == PAGES
    assert [(d.day, f"{d.start.astimezone(config.tz):%d.%m %H:%M}",
             f"{d.deadline.astimezone(config.tz):%d.%m %H:%M}",
             f"{d.night_deadline.astimezone(config.tz):%d.%m %H:%M}")
            for d in config.schedule] == [
        (1, "20.11 18:00", "21.11 22:00", "22.11 10:00"),
        (2, "22.11 10:00", "23.11 14:00", "24.11 02:00"),
        (3, "24.11 02:00", "25.11 06:00", "25.11 18:00"),
    ]
    assert not path.with_suffix(".db").exists()
    # The file it wrote passes the check (roles wait for the deal: a warning).
    res = cli(path, tmp_path / "g.db", "check", "--offline", now="2026-11-20 12:00")
    assert res.exit_code == 0 and "роли не розданы (14 игроков без роли)" in res.stdout


def test_init_reads_a_live_topic(tmp_path: Path, topic: respx.Route) -> None:
    path = tmp_path / "referee.toml"
    _init(path, TOPIC, "--timezone", "Europe/Moscow")
    text = path.read_text(encoding="utf-8")
    assert f'url = "{TOPIC}"' in text and 'engine = "phpbb"' in text
    assert "# [[schedule.days]]" in text  # no --start: the schedule is left to write
    assert len(load_config(path).players) == 14


def test_init_never_overwrites_a_file(tmp_path: Path) -> None:
    path = tmp_path / "referee.toml"
    path.write_text("# мой файл\n", encoding="utf-8")
    message = refused(cli(path, tmp_path / "g.db", "init", str(PAGES), "--timezone", "UTC"))
    assert "уже есть: referee init не перезаписывает файлы" in message
    assert path.read_text(encoding="utf-8") == "# мой файл\n"


@pytest.mark.parametrize(("args", "words"), [
    (("--timezone", "Mars/Olympus"), "неизвестный часовой пояс"),
    (("--timezone", "UTC", "--start", "2026-11-20"), "ГГГГ-ММ-ДД ЧЧ:ММ"),
    (("--timezone", "UTC", "--start", "2026-11-20 18:00", "--days", "0"), "--days 0"),
    ((), "часовой пояс форума не указан"),
])
def test_init_refuses_what_it_cannot_write(tmp_path: Path, args: tuple[str, ...],
                                           words: str) -> None:
    path = tmp_path / "referee.toml"
    message = refused(cli(path, tmp_path / "g.db", "init", str(PAGES), *args))
    assert words in message
    assert not path.exists()


def test_init_refuses_what_is_no_topic(tmp_path: Path) -> None:
    message = refused(cli(tmp_path / "r.toml", tmp_path / "g.db", "init", "not-a-topic",
                          "--timezone", "UTC"))
    assert "не адрес темы и не папка" in message

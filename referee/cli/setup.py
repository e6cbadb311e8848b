"""``referee`` commands that set a game up: ``check`` (what the tool understood of the
config) and ``init`` (a new game's config from its topic)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from referee.cli import ListFmt, ListFmtOpt, _echo_err, _emit, app, opts


@app.command()
def check(
    offline: Annotated[bool, typer.Option(help="Не открывать тему на форуме.")] = False,
    fmt: ListFmtOpt = ListFmt.text,
) -> None:
    """Что referee понял из referee.toml: расписание, игроки с ролями, правила, ошибки.

    Расписание по времени форума, игроки с ролями и стороны против расклада, правила не по
    умолчанию, предупреждения и ошибки; без --offline ещё открывает тему. Код выхода 0 —
    только если ошибок нет.

    \b
    Пример: referee --config игра/referee.toml check --offline
    """
    from referee.host.checkup import checkup_now, run_checkup
    from referee.render.checkup import render_checkup

    result = run_checkup(opts.config, opts.db, now=checkup_now(opts.config, opts.now),
                         offline=offline)
    if fmt == ListFmt.json:
        from referee.render.listings_json import checkup_json

        _emit(checkup_json(result), "json")
    else:
        _emit(render_checkup(result))
    if not result.ok:
        raise typer.Exit(2)


@app.command()
def init(
    url: Annotated[str, typer.Argument(help="Тема игры (ссылка) или папка сохранённых страниц.")],
    timezone: Annotated[str | None, typer.Option(
        help='Часовой пояс форума, например "Europe/Moscow" (иначе спросит).')] = None,
    start: Annotated[str | None, typer.Option(
        help='Начало дня 1, время форума: "2026-11-20 18:00".')] = None,
    days: Annotated[int, typer.Option(help="Сколько дней в расписании.")] = 3,
    day_hours: Annotated[int, typer.Option("--day-hours", help="Длина дня, часов.")] = 24,
    night_hours: Annotated[int, typer.Option("--night-hours", help="Длина ночи, часов.")] = 12,
    username: Annotated[str | None, typer.Option(help="Войти под этим ником.")] = None,
) -> None:
    """Написать referee.toml новой игры по первому сообщению темы.

    Ведущий, игроки, расписание — в файл --config (по умолчанию ./referee.toml).
    Существующий файл не трогает.

    \b
    Пример: referee init "https://forum.example/viewtopic.php?t=123" --timezone Europe/Moscow
    """
    from referee.host.init_game import make_new_game, write_new
    from referee.render.config_file import new_config_text
    from referee.render.decision import config_written

    if timezone is None and _interactive():
        timezone = _ask_timezone()
    game = make_new_game(url, opts.config, timezone=timezone, start=start, days=days,
                         day_hours=day_hours, night_hours=night_hours, username=username)
    write_new(opts.config, new_config_text(game))
    _emit(config_written(opts.config, game))


def _interactive() -> bool:
    return sys.stdin.isatty()


def _ask_timezone() -> str:
    """Ask until the answer is a time zone: a typo is told and asked again, never the end
    of ``init`` (the host has typed the address and the start already)."""
    from referee.core.errors import RequestRefused
    from referee.host.init_game import check_timezone

    while True:
        typed = typer.prompt("Часовой пояс форума (например Europe/Moscow или МСК)", err=True)
        try:
            return check_timezone(typed, "часовой пояс")
        except RequestRefused as e:
            _echo_err(f"{e.message}. Попробуйте ещё раз ({e.hint}).")

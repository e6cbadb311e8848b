"""``referee`` commands over the whole game: sent messages, replay, the deal, and the game
at a glance (status, history, export)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from referee.cli import (
    DryRunOpt,
    Fmt,
    FmtOpt,
    ListFmt,
    ListFmtOpt,
    OfflineOpt,
    ReplayFmt,
    SendOpt,
    YesOpt,
    _confirm,
    _context,
    _echo_err,
    _emit,
    _game,
    app,
    err,
    opts,
)
from referee.core.errors import GameError


@app.command("mark-sent")
def mark_sent(
    key: Annotated[str, typer.Argument(help="Ключ из строки «неизвестно, дошло ли».")],
    forum_id: Annotated[int | None, typer.Option(help="Номер сообщения или ЛС на форуме.")
                        ] = None,
) -> None:
    """Ведущий проверил форум: сообщение, которое «могло дойти», дошло.

    Записывается, чтобы повторный запуск команды не отправил его второй раз.

    \b
    Пример: referee mark-sent 3f2a…c9 --forum-id 146
    """
    from referee.host.publish import mark_sent_by_host

    record = mark_sent_by_host(_game().store, key, forum_id)
    what = "сообщение в тему" if record.kind == "post" else "ЛС"
    _emit(f"Записано как отправленное: {what}, получатель: {record.recipient}")


@app.command()
def replay(
    game_file: Annotated[Path, typer.Argument(help="Файл игры .json (формат — в README).")],
    fmt: Annotated[ReplayFmt, typer.Option(
        "--format", "-f", help="json — для программ, text — рассказ по-русски.")
    ] = ReplayFmt.json,
) -> None:
    """Переиграть всю игру из файла JSON (проверки, тесты).

    \b
    Пример: referee replay игра.json --format text
    """
    from referee.config.game import NightRules
    from referee.host.replay import replay as run_replay
    from referee.host.replay import replay_text

    try:
        data = json.loads(game_file.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as e:
        # ValueError covers bad UTF-8, bad JSON and a number too long to read (Python's
        # 4300-digit limit); RecursionError, arrays nested thousands deep.
        raise GameError(f"не удаётся прочитать {game_file}: {e}",
                        "нужен файл игры JSON в UTF-8") from e
    rules = NightRules()
    if opts.config.exists():
        from referee.config.game import load_config

        rules = load_config(opts.config).night
    if fmt == ReplayFmt.json:
        _emit(json.dumps(run_replay(data, rules), ensure_ascii=False, indent=2))
    else:
        _emit(replay_text(data, rules), "text")


@app.command()
def deal(
    seed: Annotated[int, typer.Option(help="Зерно случайности: то же зерно — та же раздача.")],
    fmt: FmtOpt = Fmt.text,
    force: Annotated[bool, typer.Option(
        "--force", help="Раздать заново поверх ролей в [players] или записанной раздачи.")
    ] = False,
    send: SendOpt = False,
    yes: YesOpt = False,
    dry_run: DryRunOpt = False,
) -> None:
    """Раздать роли игрокам [players] по [setup] (по умолчанию — из правил) и написать ЛС.

    Раздача записывается в базу как состав игры. --send отправляет ЛС с ролями (один раз;
    вторая раздача с другим зерном запрещена).

    \b
    Пример: referee deal --seed 7 --send
    """
    from referee.config.game import load_config
    from referee.game.dealing import deal_game
    from referee.host.publish import send_deal
    from referee.render.deal import role_pm_texts
    from referee.render.decision import deal_recorded
    from referee.render.host import deal_listing
    from referee.store import Store

    config = load_config(opts.config)
    with Store.open(opts.db or config.db_path) as store:
        players = deal_game(config, store, seed, force=force, record=not dry_run)
        texts = role_pm_texts(players)
        # --send shows the role PMs once, in the sending listing
        _emit(deal_listing(players, [] if send else texts, "json" if fmt == Fmt.json else "text"))
        _echo_err(deal_recorded(seed, len(players), recorded=not dry_run))
        if send:
            send_deal(config, store, seed, texts, echo=_echo_err, confirm=_confirm, yes=yes,
                      dry_run=dry_run)


@app.command()
def status(fmt: Annotated[Fmt, typer.Option(
               "--format", "-f", help="text — для чтения, bbcode — для раздела ведущих на "
                                      "форуме, json — для программ.")] = Fmt.text,
           offline: OfflineOpt = False) -> None:
    """Игра одним взглядом (только ведущему): фаза, сколько осталось, кто жив, что сделать.

    \b
    Пример: referee status
    """
    from referee.host.status import game_status
    from referee.render.morning import private_results
    from referee.render.status import render_status

    _emit(render_status(game_status(_game(sync=not offline), private_results), fmt.value),
         fmt.value)


@app.command()
def history(
    day: Annotated[int | None, typer.Option(
        help="Номер дня (по умолчанию — текущий, после конца игры — её последний).")] = None,
    whole: Annotated[bool, typer.Option("--game", help="Таблица всей игры.")] = False,
    plot: Annotated[Path | None, typer.Option(help="Ещё и нарисовать день в PNG.")] = None,
    fmt: FmtOpt = Fmt.bbcode, offline: OfflineOpt = False,
) -> None:
    """Голосование дня голос за голосом (счёт, лидер, смены лидера, V6); --game: вся игра.

    \b
    Пример: referee history --day 1 --plot день1.png
    """
    from referee.host import history as h
    from referee.render import history as show
    from referee.render.plot import plot_day

    game = _game(sync=not offline)
    ctx, title = _context(game), game.config.title
    if whole:
        return _emit(show.render_game_history(h.game_history(game), fmt.value, title), fmt.value)
    day_history = h.history_of_day(game, game.scheduled_day(day).day if day is not None else None)
    _emit(show.render_day_history(day_history, fmt.value, ctx), fmt.value)
    if plot:  # the picture's path on stderr: stdout stays the table to paste
        err.print(f"Рисунок: {plot_day(day_history, plot, ctx, title)}", markup=False)


@app.command()
def export(
    game_file: Annotated[Path, typer.Argument(help="Файл переигровки (JSON), куда писать.")],
    votes: Annotated[Path | None, typer.Option(
        "--csv", help="По умолчанию — рядом, с тем же именем: игра.json → игра.votes.csv.")
    ] = None,
    offline: OfflineOpt = False,
    fmt: ListFmtOpt = ListFmt.text,
) -> None:
    """Идущая игра как файл для `referee replay` и CSV всех событий голосования.

    \b
    Пример: referee export игра.json
    """
    from referee.host.export import export_game
    from referee.render.export import CSV_ENCODING, replay_json, votes_csv

    game = _game(sync=not offline)
    (data, events), votes = export_game(game), votes or game_file.with_suffix(".votes.csv")
    try:
        game_file.write_text(replay_json(data), encoding="utf-8")
        votes.write_text(votes_csv(events, _context(game)), encoding=CSV_ENCODING, newline="")
    except OSError as e:
        raise GameError(f"не удаётся записать {e.filename}: {e.strerror}",
                        "укажите путь, куда можно писать") from e
    if fmt == ListFmt.json:
        from referee.render.listings_json import export_json

        return _emit(export_json(game_file, votes, len(events)), "json")
    _emit(f"Записано: {game_file} (проверка: referee replay {game_file}), {votes}")

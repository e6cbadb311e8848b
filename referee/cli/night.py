"""``referee`` commands of the night: the host's PMs, the night resolved, the host's edits
of requests."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.cli import (
    Fmt,
    FmtOpt,
    ListFmt,
    ListFmtOpt,
    OfflineOpt,
    PostOpt,
    ReasonOpt,
    SendOpt,
    YesOpt,
    _context,
    _emit,
    _emit_output,
    _game,
    _publish,
    _sync,
    action_app,
    app,
    out,
)
from referee.core.errors import RequestRefused

# ---------------------------------------------------------------------------------- night

@app.command()
def pms(
    night: Annotated[int | None, typer.Option(help="Только окно этой ночи.")] = None,
    offline: OfflineOpt = False,
    fmt: ListFmtOpt = ListFmt.text,
) -> None:
    """Сохранённые ЛС (ночи): отправитель, время, первая строка.

    \b
    Пример: referee pms --night 1
    """
    game = _game()
    if not offline:
        _sync(game, quiet=True)
    items = game.game_pms()
    title = "ЛС ведущему"
    if night is not None:
        start, end = game.scheduled_night(night)
        items = [p for p in items if start <= p.sent_at < end]
        title += f", ночь {night}"
    if fmt == ListFmt.json:
        from referee.render.listings_json import pms_json

        return _emit(pms_json(items, night), "json")
    from referee.render.host import pms_table

    out.print(pms_table(items, title, game.config.tz), markup=False)


@app.command("resolve-night")
def resolve_night(
    night: Annotated[int | None, typer.Option(help="Номер ночи (по умолчанию — последняя).")
                     ] = None,
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", help="Разобрать, ничего не записывать; с --post/--send — показать, не "
                          "отправлять.")] = False,
    offline: OfflineOpt = False,
    fmt: FmtOpt = Fmt.bbcode,
    post: PostOpt = False,
    send: SendOpt = False,
    yes: YesOpt = False,
) -> None:
    """Прочитать ночные заявки из ЛС, разобрать ночь (N1–N15) и вывести утренний итог.

    Затем — только для ведущего — личные результаты к отправке и пошаговое объяснение.
    --post публикует утренний итог, --send отправляет личные результаты в ЛС; один раз.

    \b
    Пример: referee resolve-night --night 1 --post --send
    """
    from referee.render.night import render_night

    game = _game()
    if not offline:
        _sync(game, quiet=fmt == Fmt.json)
    n = night if night is not None else game.current_night()
    result = game.resolve_night(n, record=not dry_run)
    _emit_output(render_night(result, _context(game), fmt.value), fmt, sending=post or send)
    if post or send:
        from referee.cli.day import _refuse_held

        _refuse_held(result.held, "итог ночи")
        from referee.host.outgoing import night_messages
        from referee.render.morning import morning_report, private_results

        outcome = result.outcome
        messages = night_messages(
            game.config, result, post=post, send=send, now=game.now,
            report=morning_report(outcome, result.morning_state, game.config.night,
                                  result.leaving,
                                  game.config.activity.reveal_role_on_removal),
            private=private_results(outcome))
        _publish(game, messages, yes, dry_run)


# The action as the host types it, in Russian or as an id (referee.core.roles is the vocabulary).
def _action(word: str) -> str:
    from referee.core.roles import action_id, action_words

    found = action_id(word)
    if found is None:
        raise RequestRefused(f"неизвестное действие {word!r}",
                             "напишите одно из: " + action_words())
    return found


@action_app.command("add")
def action_add(
    night: Annotated[int, typer.Option(help="Номер ночи.")],
    actor: Annotated[str, typer.Argument(help="Кто ходит.")],
    action: Annotated[str, typer.Argument(help="Действие: проверка, лечение, выстрел, …")],
    target: Annotated[list[str] | None, typer.Argument(help="Цель (у защиты — две).")] = None,
    executor: Annotated[str | None, typer.Option(help="Исполнитель выстрела мафии.")] = None,
    reason: ReasonOpt = "",
) -> None:
    """Добавить заявку от имени ведущего: КТО ДЕЙСТВИЕ ЦЕЛЬ (у защиты — две цели).

    Действие — по-русски или id: проверка/проверить, лечение/лечить, выстрел/стрелять,
    убийство, засада, избить, подрыв, забрать, защита.

    \b
    Пример: referee action add --night 1 Лиса выстрел Шерлок --executor Тень_Ночи
    Пример: referee action add --night 1 Ёжик защита Kotik Ира-Ира
    """
    from referee.render.decision import action_recorded

    found = _action(action)
    game = _game()
    targets = target or []
    game.add_action(night, actor, found, target=targets[0] if len(targets) == 1 else None,
                    targets=targets if len(targets) > 1 else (), executor=executor,
                    reason=reason)
    _emit(action_recorded(night, actor, found, targets))


@action_app.command("drop")
def action_drop(
    night: Annotated[int, typer.Option(help="Номер ночи.")],
    actor: Annotated[str, typer.Argument(help="Чьи заявки отменить.")],
    action: Annotated[str | None, typer.Argument(help="Только это действие.")] = None,
    reason: ReasonOpt = "",
) -> None:
    """Отменить заявку (или все заявки) игрока за ночь от имени ведущего.

    \b
    Пример: referee action drop --night 1 Полковник проверка
    """
    from referee.render.decision import drop_recorded

    found = _action(action) if action is not None else None
    _game().drop_action(night, actor, found, reason)
    _emit(drop_recorded(night, actor, found))


@action_app.command("import")
def action_import(
    requests_file: Annotated[Path, typer.Argument(
        help="Файл заявок ведущего (.toml) с записями [[request]] и [[drop]].")],
) -> None:
    """Записать каждую запись файла заявок ведущего как его решение.

    \b
    Пример: referee action import ночь1.toml
    """
    edits = _game().import_requests(requests_file)
    _emit(f"Записано решений ведущего: {len(edits)} (из {requests_file})")

"""``referee`` commands of the day: the count, the votes, the host's decisions on them, and
the activity check."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli import (
    DryRunOpt,
    Fmt,
    FmtOpt,
    ListFmt,
    ListFmtOpt,
    OfflineOpt,
    PostOpt,
    ReasonOpt,
    YesOpt,
    _context,
    _emit,
    _emit_output,
    _game,
    _host_notes,
    _parse_when,
    _publish,
    _sync,
    app,
    vote_app,
)
from referee.core.errors import GameError, RequestRefused

RosterOkOpt = Annotated[bool, typer.Option(
    "--roster-ok", help="Состав проверен: записать и опубликовать, хотя в теме пишет "
                        "кто-то похожий на игрока из [players].")]


def _sync_or_stored(game, *, quiet: bool,  # noqa: ANN001 - a referee.game.Game
                    window: Callable[[], tuple[datetime, datetime, str]]) -> None:
    """Sync before a count, quickly (one retry, issue 26): with the forum unreachable, the
    count goes on from the store when it holds the window whole (said so); else the host
    is told to wait or to use --offline knowingly."""
    from dataclasses import replace

    from referee.core.errors import NetworkError
    from referee.game.safety import stale_reads, topic_gaps
    from referee.render.console import echo_err

    forum = game.config.forum
    board = replace(forum.board, retries=min(forum.board.retries, 1))
    game.config = replace(game.config, forum=replace(forum, board=board))
    try:
        _sync(game, quiet=quiet)
    except NetworkError as e:
        start, end, what = window()
        gaps = topic_gaps(game.store, start, end) + stale_reads(game.store, end, game.now)
        if gaps:
            raise NetworkError(
                f"{e.message}; а сохранённых данных для «{what}» не хватает: "
                + "; ".join(gaps),
                "подождите и запустите команду снова, когда форум ответит; или запустите с "
                "--offline, понимая, что сообщений после последнего чтения в подсчёте не "
                "будет (неполный подсчёт не записывается и не публикуется)",
            ) from None
        read = max((r["fetched_at"] for r in game.store.page_rows() if r["fetched_at"]),
                   default=None)
        when = f" {read.astimezone(game.config.tz):%d.%m %H:%M}" if read else ""
        after = ("после конца окна" if game.now >= end else
                 "окно ещё идёт: написанного позже в подсчёте нет")
        echo_err(f"форум недоступен ({e.message}); «{what}» — по сохранённым данным: они "
                 f"полные (тема прочитана целиком{when}, {after})")
    finally:
        game.config = replace(game.config, forum=forum)


def _refuse_held(held: tuple[str, ...], what: str) -> None:
    """Issue 26: a count over incomplete data, or with the roster in doubt, is never
    posted; say why and what lifts it (the host part above names the details)."""
    if not held:
        return
    from referee.game.safety import INCOMPLETE

    hints = []
    if INCOMPLETE in held:
        hints.append("дочитайте тему: referee sync (пропуски в середине — referee sync "
                      "--full) и запустите команду снова")
    if "состав" in held:
        hints.append("снимите сомнение в составе ([aliases] или верный ник в [players]) "
                     "или подтвердите состав флагом --roster-ok")
    raise GameError(f"{what} не опубликован(а) и не записан(а): "
                    + ("неполные данные" if INCOMPLETE in held else "состав под сомнением")
                    + " (подробности — в части для ведущего выше)", "; ".join(hints))

if TYPE_CHECKING:
    from referee.rules.decisions import VoteAction

# ---------------------------------------------------------------------------------- votes

@app.command()
def tally(
    day: Annotated[int | None, typer.Option(help="Номер дня (по умолчанию — текущий).")] = None,
    deadline: Annotated[str | None, typer.Option(
        help='Назначить дедлайн дня, время форума: "2026-11-21 22:00".')] = None,
    start: Annotated[str | None, typer.Option(
        help="Назначить начало дня (для дня, которого нет в [schedule]).")] = None,
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="Подсчёт на момент сообщения (номер) или времени.")] = None,
    offline: OfflineOpt = False,
    fmt: FmtOpt = Fmt.bbcode,
    post: PostOpt = False,
    yes: YesOpt = False,
    dry_run: DryRunOpt = False,
    roster_ok: RosterOkOpt = False,
) -> None:
    """Подсчёт голосов дня и кто отправляется на виселицу (V1–V6), готовый к публикации.

    До дедлайна это предварительный подсчёт; первый запуск после дедлайна записывает итог
    дня, следующие показывают записанный итог. --post публикует подсчёт (никогда — часть
    только для ведущего), один раз.

    \b
    Пример: referee tally --day 2 --post
    """
    game = _game()
    game.roster_ok = roster_ok
    if not offline:
        def day_window() -> tuple[datetime, datetime, str]:
            w = game.window(day if day is not None else game.current_day())
            return w.start, w.deadline, f"подсчёт дня {w.day}"

        _sync_or_stored(game, quiet=fmt == Fmt.json, window=day_window)
    n = day if day is not None else game.current_day()
    if not deadline or n < 1:
        game.scheduled_day(n)  # --deadline may add a day the schedule does not list
    if start and not deadline:
        raise GameError("--start нужен вместе с --deadline", 'например: --start "…" --deadline "…"')
    if deadline:
        game.set_deadline(n, _parse_when(deadline, game, "--deadline"), "--deadline",
                          start=_parse_when(start, game, "--start") if start else None)
    point: int | datetime | None = None
    if as_of:
        point = int(as_of) if as_of.isdigit() else _parse_when(as_of, game, "--as-of")
    result = game.tally_day(n, as_of=point, record=not dry_run)
    from referee.render.day import day_paste, render_day

    ctx = _context(game)
    _emit_output(render_day(result, ctx, fmt.value), fmt, sending=post)
    if post:
        from referee.host.outgoing import tally_post

        _refuse_held(result.held, "подсчёт")
        _publish(game, [tally_post(game.config, n, day_paste(result, ctx))], yes, dry_run)


@app.command()
def votes(
    day: Annotated[int | None, typer.Option(help="Номер дня (по умолчанию — текущий).")] = None,
    fmt: ListFmtOpt = ListFmt.text,
) -> None:
    """Все события голосования дня (засчитанные, пропущенные, отклонённые) со ссылками.

    \b
    Пример: referee votes --day 1
    """
    from referee.render.host import votes_list

    game = _game()
    n = day if day is not None else game.current_day()
    game.scheduled_day(n)
    t = game.tally_day(n, record=False).tally
    if fmt == ListFmt.json:
        from referee.render.listings_json import votes_json

        return _emit(votes_json(n, t, game.config.forum.board.url), "json")
    _emit(votes_list(n, t, game.config.tz, game.config.forum.board.url))


def _vote_override(action: VoteAction, post: int, reason: str = "",
                   target: str | None = None) -> None:
    from referee.render.decision import vote_recorded

    effect = _game().override_vote(action, post, reason=reason, target=target)
    _emit(vote_recorded(effect, action))


PublicNoteOpt = Annotated[str, typer.Option(
    "--public-note", help="Пометка для игроков: показывается вместе с итогом.")]


@vote_app.command("accept")
def vote_accept(post: Annotated[int, typer.Argument(help="Номер сообщения.")],
                reason: ReasonOpt = "") -> None:
    """Засчитать голос этого сообщения, хотя правило его отклонило (кроме V2/V5).

    \b
    Пример: referee vote accept 94 --reason "красный ник виден в цитате"
    """
    _vote_override("accept", post, reason)


@vote_app.command("reject")
def vote_reject(post: Annotated[int, typer.Argument(help="Номер сообщения.")],
                reason: ReasonOpt = "") -> None:
    """Не засчитывать голос этого сообщения (считается, что голоса нет).

    \b
    Пример: referee vote reject 108 --reason "смена голоса"
    """
    _vote_override("reject", post, reason)


@vote_app.command("set")
def vote_set(post: Annotated[int, typer.Argument(help="Номер сообщения.")],
             target: Annotated[str, typer.Option(help="За кого этот голос.")],
             reason: ReasonOpt = "") -> None:
    """Голос этого сообщения — за игрока --target.

    \b
    Пример: referee vote set 89 --target Ёжик --reason "опечатка в нике"
    """
    _vote_override("set", post, reason, target)


@app.command()
def hang(
    day: Annotated[int, typer.Option(help="День, итог которого решает ведущий.")],
    nick: Annotated[str | None, typer.Argument(help="Кого вешают (без него — --nobody).")] = None,
    nobody: Annotated[bool, typer.Option(help="В этот день никого не вешают.")] = False,
    reason: ReasonOpt = "",
    public_note: PublicNoteOpt = "",
) -> None:
    """Ведущий решает итог дня поверх подсчёта (записывается, видно в подсчёте).

    \b
    Пример: referee hang --day 2 Лиса --reason "ничья" --public-note "решение ведущего"
    """
    from referee.render.decision import hanging_recorded

    if (nick is None) == (not nobody):
        raise RequestRefused("укажите НИК или --nobody", "например: referee hang --day 2 Лиса")
    who = _game().set_hanged(day, None if nobody else nick, reason, public_note)
    _emit(hanging_recorded(day, who, public_note))


@app.command()
def remove(
    nick: Annotated[str, typer.Argument(help="Ник игрока.")],
    after_day: Annotated[int, typer.Option("--after-day", help="Выбывает в конце этого дня.")],
    reason: ReasonOpt = "",
    public_note: PublicNoteOpt = "",
) -> None:
    """Ведущий выводит игрока из игры в конце дня (A3).

    \b
    Пример: referee remove Снежок --after-day 2 --reason "попросил выйти"
    """
    from referee.render.decision import removal_recorded

    who = _game().remove(nick, after_day, reason, public_note)
    _emit(removal_recorded(who, after_day, public_note))


# ---------------------------------------------------------------------------------- activity

@app.command("check-activity")
def check_activity(
    turn: Annotated[int | None, typer.Option(
        help="Номер хода (по умолчанию — только что закончившийся, если его проверка не "
             "записана, иначе текущий).")] = None,
    offline: OfflineOpt = False,
    fmt: FmtOpt = Fmt.bbcode,
    post: PostOpt = False,
    yes: YesOpt = False,
    dry_run: DryRunOpt = False,
    roster_ok: RosterOkOpt = False,
) -> None:
    """Кто пропал (A1: ни одного сообщения за ход; A2: пропущенные голосования).

    До конца хода это список-напоминание; после — выбывания записываются (A3). --post
    публикует публичную часть, один раз.

    \b
    Пример: referee check-activity --turn 2 --post
    """
    from referee.render.activity import render_activity

    game = _game()
    game.roster_ok = roster_ok
    if not offline:
        def turn_window_of() -> tuple[datetime, datetime, str]:
            from referee.rules.day.activity import turn_window

            n = turn if turn is not None else game.activity_turn()
            w = turn_window(n, game.schedule)
            return w.start, w.end, f"проверка активности хода {n}"

        _sync_or_stored(game, quiet=fmt == Fmt.json, window=turn_window_of)
    n = turn if turn is not None else game.activity_turn()
    result = game.check_activity(n, record=not dry_run)
    ctx = _context(game)
    text = render_activity(result.report, fmt.value, ctx.roles, ctx.reveal_role_on_removal,
                           ctx.tz)
    _emit_output(text, fmt, sending=post)
    if result.notes and fmt != Fmt.json:
        _emit(_host_notes(result.notes))
    if post:
        _refuse_held(result.held, "список выбывших")
        from referee.host.outgoing import activity_post, public_part
        from referee.render.activity import HOST_ONLY_HEADER

        public = public_part(render_activity(result.report, "bbcode", ctx.roles,
                                             ctx.reveal_role_on_removal, ctx.tz),
                             HOST_ONLY_HEADER)
        _publish(game, [activity_post(game.config, n, public)], yes, dry_run)


@app.command()
def excuse(
    nick: Annotated[str, typer.Argument(help="Ник игрока.")],
    turn: Annotated[int, typer.Option(help="Ход, о котором игрок предупредил.")],
    reason: ReasonOpt = "",
) -> None:
    """Записать, что игрок предупредил ведущего: в этом ходе он не пропавший (A1).

    \b
    Пример: referee excuse Гроза --turn 2 --reason "уехала на дачу"
    """
    from referee.render.decision import excuse_recorded

    _emit(excuse_recorded(_game().excuse(nick, turn, reason), turn))

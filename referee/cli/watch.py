"""``referee watch``: the host's assistant that keeps the count while the day runs (issue 21).

The loop is :mod:`referee.host.watch`, its words :mod:`referee.render.watch`; this page reads
the options, asks the one question, and draws: plain lines when piped (for logs), on a
terminal the lines scrolling above a status line that stays at the bottom.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli import PostOpt, SendOpt, YesOpt, _confirm, _echo_err, _emit, app, opts, out

if TYPE_CHECKING:
    from referee.host.watch import Screen


@app.command()
def watch(
    every: Annotated[float, typer.Option(
        help="Минут между двумя проверками (не меньше 2).")] = 10,
    tally_at_deadline: Annotated[bool, typer.Option(
        help="После дедлайна дня: записать и показать подсчёт (--post).")] = False,
    resolve_at_deadline: Annotated[bool, typer.Option(
        help="После ночи: разобрать её, показать утренний итог (--post, --send).")] = False,
    activity_at_deadline: Annotated[bool, typer.Option(
        help="После хода: проверка активности, записана и показана (--post).")] = False,
    post: PostOpt = False,
    send: SendOpt = False,
    remind: Annotated[float | None, typer.Option(
        help="За сколько минут до дедлайна сказать, кто не голосовал (--post: напоминание).")
    ] = None,
    warn: Annotated[float, typer.Option(
        help="За сколько минут до дедлайна сказать, кто не писал в этом ходе.")] = 60,
    until: Annotated[str | None, typer.Option(
        help='Остановиться в это время: "2026-11-23 23:00".')] = None,
    yes: YesOpt = False,
) -> None:
    """Следить за игрой: синхронизировать каждые --every минут и говорить, что нового.

    В каждый дедлайн — то, что просят параметры, один раз (вопрос задаётся здесь, один
    раз).

    \b
    Пример: referee watch --every 10 --tally-at-deadline --post
    """
    import getpass

    import referee.host.watch as watching
    from referee.config.game import load_config
    from referee.config.schema import local_time
    from referee.render.watch import WatchTexts

    tz = load_config(opts.config).tz
    options = watching.Options(
        timedelta(minutes=every), tally_at_deadline, resolve_at_deadline, activity_at_deadline,
        post, send, timedelta(minutes=remind) if remind is not None else None,
        timedelta(minutes=warn), local_time(until, tz, "--until") if until else None)
    watcher = watching.Watch(
        opts.config, opts.db, options, WatchTexts(),
        clock=watching.make_clock(local_time(opts.now, tz, "--now") if opts.now else None))
    if not watcher.agreed(show=_echo_err, ask=None if yes else _confirm):
        _echo_err("Отменено: наблюдение не начато.")
        return
    watcher.keep_password(getpass.getpass if sys.stdin.isatty() else None)
    with _screen() as screen:
        watcher.screen = screen
        watcher.run()


@contextmanager
def _screen() -> Iterator[Screen]:
    """Plain lines when piped (for logs); on a terminal the status line stays at the
    bottom, redrawn while the watch waits."""
    from referee.host.watch import Screen

    if not out.is_terminal:
        yield Screen(say=_emit, status=lambda line: _emit("· " + line))
        return
    from rich.live import Live
    from rich.text import Text

    from referee.render.console import rich_console
    from referee.render.status_line import FittedLine

    with Live(Text(""), console=rich_console(out), auto_refresh=False, transient=True) as live, \
            _redrawn_on_resize(live):
        def status(line: str) -> None:
            live.update(FittedLine(line), refresh=True)

        yield Screen(say=lambda line: live.console.print(line, markup=False, highlight=False),
                     status=status, tick=status)


@contextmanager
def _redrawn_on_resize(live: object) -> Iterator[None]:
    """On a terminal that says it was resized (SIGWINCH, POSIX), the status line is drawn
    again at once, fitted to the new width — not left cut or stale until the next tick."""
    import signal

    winch = getattr(signal, "SIGWINCH", None)
    if winch is None:
        yield
        return
    try:
        before = signal.signal(winch, lambda *_: live.refresh())  # type: ignore[attr-defined]
    except ValueError:  # not the main thread: no signal handlers there
        yield
        return
    try:
        yield
    finally:
        signal.signal(winch, before)

"""``referee`` command line: thin wrappers over :class:`referee.game.Game` and friends.

Every command is a few lines: open the game, call one library function, print what it
returns. Errors of the project (:class:`referee.core.errors.RefereeError`) are printed as one
clear message with what to do, never as a traceback, and never with a secret in them.
The interface is Russian: each help is a one-line purpose and an example, and typer's own
words are Russian too (:mod:`referee.render.typer_ru`); the terminal side — colour, the
yes/no question, the progress bar — is :mod:`referee.render.console`.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import sys
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from referee.cli import params
from referee.core.errors import RefereeError, RequestRefused
from referee.render.console import (
    confirm,
    echo_err,
    emit,
    err,
    out,
    paused,
    progress_bar,
    utf8_streams,
)
from referee.render.typer_ru import RussianGroup

params.install()  # the options' values read without pydantic (start-up, issue 30)

EXIT_CODES = (
    "\b\nКоды выхода:\n"
    "  0 — сделано;\n"
    "  1 — прочая ошибка;\n"
    "  2 — ошибка в referee.toml или в параметрах команды, просьба, которую игра не\n"
    "      позволяет, или в check нашлись ошибки;\n"
    "  3 — форум: сеть, вход, страница не та, что ожидалась;\n"
    "  4 — база игры (файл .db): не открывается, занята, повреждена;\n"
    "  5 — данные игры не позволяют команду (ник, день, ночь);\n"
    "  130 — прервано (Ctrl-C); всё сохранённое остаётся в базе."
)
"""The exit codes (:mod:`referee.core.errors`), in ``referee -h`` and in the README."""

app = typer.Typer(
    name="referee",
    help=(
        "Судья форумной мафии: подсчёт голосов, проверка активности, разбор ночи. Читает "
        "тему игры и личные сообщения ведущего в базу SQLite. Правила: docs/rules.md.\n\n"
        "\b\nПример: referee --config игра/referee.toml tally --day 1"
    ),
    epilog=EXIT_CODES,
    no_args_is_help=True,
    add_completion=False,  # our own Russian --install-completion/--show-completion below
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # docstrings name [players], [setup]: not rich markup
    context_settings={"help_option_names": ["-h", "--help"]},
    cls=RussianGroup,
)
vote_app = typer.Typer(
    help="Решение ведущего по одному сообщению с голосом (записывается, видно в подсчёте).\n\n"
         "\b\nПример: referee vote reject 123 --reason \"голос после правки\"",
    no_args_is_help=True, cls=RussianGroup,
    context_settings={"help_option_names": ["-h", "--help"]})
action_app = typer.Typer(
    help="Правка ночных заявок ведущим (записывается как решение ведущего).\n\n"
         "\b\nПример: referee action add --night 1 Полковник проверка Лиса",
    no_args_is_help=True, cls=RussianGroup,
    context_settings={"help_option_names": ["-h", "--help"]})
app.add_typer(vote_app, name="vote")
app.add_typer(action_app, name="action")


class Fmt(StrEnum):
    bbcode = "bbcode"
    text = "text"
    json = "json"


class ReplayFmt(StrEnum):
    """``replay`` tells a game for audits: JSON or Russian text (no BBCode: never posted)."""

    json = "json"
    text = "text"


FmtOpt = Annotated[Fmt, typer.Option(
    "--format", "-f", help="bbcode — для форума, text — для чтения, json — для программ.")]


class ListFmt(StrEnum):
    """A host's listing (votes, PMs, check, export): read, or JSON for his scripts."""

    text = "text"
    json = "json"


ListFmtOpt = Annotated[ListFmt, typer.Option(
    "--format", "-f", help="text — для чтения, json — для программ.")]


class _Opts:
    config: Path = Path("referee.toml")
    db: Path | None = None
    verbose: bool = False
    now: str | None = None


opts = _Opts()


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        out.print(f"referee {version('referee')}", markup=False)
        raise typer.Exit()


SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")
"""The shells typer writes completion for (PowerShell under both its names)."""


def _shell() -> str:
    """The host's shell: the process that started referee, else $SHELL (a shell that
    shellingham cannot see, e.g. under an IDE)."""
    from typer._completion_shared import _get_shell_name

    name = _get_shell_name() or Path(os.environ.get("SHELL", "")).name.lower() or "bash"
    name = name.removesuffix(".exe")
    if name not in SHELLS:
        raise RequestRefused(f"автодополнение для оболочки «{name}» не поддерживается",
                             "оно есть для bash, zsh, fish и PowerShell")
    return name


def _completion(value: bool, ctx: typer.Context, install: bool) -> None:
    """``--install-completion`` / ``--show-completion``: typer's scripts, Russian words."""
    if not value or ctx.resilient_parsing:
        return
    from typer._completion_shared import get_completion_script
    from typer._completion_shared import install as put
    from typer.completion import completion_init

    completion_init()
    shell = _shell()
    if install:
        shell, path = put(shell=shell, prog_name="referee", complete_var="_REFEREE_COMPLETE")
        out.print(f"Автодополнение для {shell} установлено: {path}. Оно заработает в новом "
                  "окне терминала.", markup=False)
    else:
        out.print(get_completion_script(prog_name="referee", complete_var="_REFEREE_COMPLETE",
                                        shell=shell), markup=False)
    raise typer.Exit()


def _install(ctx: typer.Context, value: bool) -> None:
    _completion(value, ctx, install=True)


def _show(ctx: typer.Context, value: bool) -> None:
    _completion(value, ctx, install=False)


@app.callback()
def _main(
    config: Annotated[Path, typer.Option("--config", "-c", help="referee.toml этой игры.")
                      ] = Path("referee.toml"),
    db: Annotated[Path | None, typer.Option(
        help="Файл базы SQLite (по умолчанию рядом с конфигом, .db).")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v",
                                          help="Писать в журнал HTTP-запросы.")] = False,
    now: Annotated[str | None, typer.Option(
        help='Действовать так, будто сейчас это время (часовой пояс форума), для проверок '
             'и репетиций: "2026-11-21 21:00".')] = None,
    _v: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                     help="Показать версию и выйти.")] = False,
    _i: Annotated[bool, typer.Option(
        "--install-completion", is_eager=True, help="Установить автодополнение для оболочки.",
        callback=_install)] = False,
    _s: Annotated[bool, typer.Option(
        "--show-completion", is_eager=True, help="Показать скрипт автодополнения.",
        callback=_show)] = False,
) -> None:
    opts.config, opts.db, opts.verbose, opts.now = config, db, verbose, now
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    _show_notices()


class _Notice(logging.Handler):
    """The library's lines for the host while something happens (a forum that keeps him
    waiting, a database in use): ``referee.notice``, shown as they are, --verbose or not."""

    def emit(self, record: logging.LogRecord) -> None:
        err.print(record.getMessage(), markup=False)


def _show_notices() -> None:
    notices = logging.getLogger("referee.notice")
    if not any(isinstance(h, _Notice) for h in notices.handlers):
        notices.addHandler(_Notice())
    notices.propagate = False


def _game(*, sync: bool = False):  # noqa: ANN202 - a referee.game.Game (lazy: fast --help)
    from referee.game import Game

    game = Game.open(opts.config, opts.db)
    if opts.now:
        fixed = _parse_when(opts.now, game, "--now")
        game.clock = lambda: fixed
    if sync:  # quietly: the output is what the command shows
        _sync(game, quiet=True)
    return game


def _parse_when(value: str, game, option: str) -> datetime:  # noqa: ANN001
    from referee.config.schema import local_time

    return local_time(value, game.config.tz, option)


def _password(username: str):  # noqa: ANN202 - an adapters.base.Secret
    """The forum password, asked (when there is a terminal) with the progress bar stopped:
    else the prompt hides behind «Читаю тему ━━━ 3/3» and the command looks frozen."""
    import getpass

    from adapters.base import get_password

    def prompt(question: str) -> str:
        with paused():
            return getpass.getpass(question)

    return get_password(username, prompt=prompt if sys.stdin.isatty() else None)


def _sync(game, *, sent: bool = False, full: bool = False, quiet: bool = False,  # noqa: ANN001
          scheduled: bool = False) -> None:
    with progress_bar(enabled=not quiet) as progress:
        lines = game.sync(sent=sent, full=full, progress=progress, password=_password,
                          scheduled=scheduled)
    for line in lines:
        if not quiet:
            echo_err(line)


def _context(game):  # noqa: ANN001, ANN202 - a Game in, a render Context out
    from referee.render.context import Context

    return Context.of(game.config)


def _emit_output(text: str, fmt: Fmt, sending: bool) -> None:
    """The command's whole text; when it is about to be sent, only its host-only part: the
    text to send is shown once, in the sending listing."""
    if sending and fmt != Fmt.json:
        from referee.render.parts import split

        text = split(text)[1] or text
    _emit(text, fmt.value)


def _emit(text: str, fmt: str = "bbcode") -> None:
    emit(text, fmt)


def _host_notes(notes) -> str:  # noqa: ANN001
    return "\n".join(f"! {n}" for n in notes)


# ---------------------------------------------------------------------------------- sending

PostOpt = Annotated[bool, typer.Option(
    "--post", help="Затем ответить в теме игры публичной частью (показать, спросить).")]
SendOpt = Annotated[bool, typer.Option("--send", help="Затем отправить ЛС (показать, спросить).")]
YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Отправить, не спрашивая.")]
DryRunOpt = Annotated[bool, typer.Option(
    "--dry-run", help="Показать, что было бы отправлено; ничего не отправлять и не записывать.")]
OfflineOpt = Annotated[bool, typer.Option(help="Не синхронизировать перед этим.")]


_echo_err = echo_err
_confirm = confirm


def _publish(game, messages, yes: bool, dry_run: bool) -> None:  # noqa: ANN001
    """Show, ask, send once, record (referee.host.publish); the listing goes to stderr."""
    from referee.host.publish import run

    run(game.config, game.store, messages, echo=_echo_err, confirm=_confirm, yes=yes,
        dry_run=dry_run)


ReasonOpt = Annotated[str, typer.Option(help="Причина (видна в подсчёте).")]


# ---------------------------------------------------------------------------------- sync

@app.command()
def sync(
    sent: Annotated[bool, typer.Option("--sent", help="Читать и папку отправленных.")] = False,
    full: Annotated[bool, typer.Option(
        help="Перечитать все страницы темы и прочитать ЛС сейчас (найдёт старые правки).")
                    ] = False,
) -> None:
    """Прочитать новые страницы темы и новые ЛС ведущего в базу.

    Бережно к форуму, как круг наблюдения: последняя страница темы и новые — всегда; ранние
    страницы открытого дня — по расписанию (по умолчанию раз в 4 часа, ещё раз за час до
    дедлайна и всегда сразу после него); папка ЛС — днём раз в час, ночью и после каждого
    дедлайна — сразу (настройки — в [forum], см. README). Строка синхронизации говорит, что
    отложено и до какого времени; --full читает всё сейчас. Команды с подсчётом без
    --offline читают перед ним всё нужное сами.

    Новые ЛС читаются из выгрузки папки форума, страница за страницей, и там остаются
    непрочитанными; только на форуме без выгрузки они открываются, каждое один раз, и
    становятся ПРОЧИТАННЫМИ для ведущего (строка синхронизации об этом скажет). ЛС
    читаются, когда задан [forum] username.

    \b
    Пример: referee sync --sent
    """
    _sync(_game(), sent=sent, full=full, scheduled=True)


# The commands, in the order --help lists them.
from referee.cli import day as _day_commands  # noqa: E402, F401
from referee.cli import night as _night_commands  # noqa: E402, F401
from referee.cli import records as _record_commands  # noqa: E402, F401
from referee.cli import setup as _setup_commands  # noqa: E402, F401
from referee.cli import watch as _watch_commands  # noqa: E402, F401


def main() -> None:
    utf8_streams()
    if any(key.endswith("_COMPLETE") for key in os.environ):
        # A Tab press in the host's shell (the script --install-completion wrote calls
        # ``_REFEREE_COMPLETE=complete_bash referee``): typer's bash, zsh, fish and
        # PowerShell answers are registered only by typer's own completion option, which
        # we replace with a Russian one — without this, Tab printed «Shell bash not
        # supported.» into the command line.
        from typer.completion import completion_init

        completion_init()
    try:
        app()
    except RefereeError as e:
        err.print(f"referee: {e}", markup=False)
        raise SystemExit(e.exit_code) from None
    except (OSError, sqlite3.Error) as e:
        # The store and the cookie file say what went wrong themselves; this is the net
        # under any other file the tool touches (never a traceback from the disk).
        from referee.store.guard import fs_error, sqlite_error

        error = fs_error(e, Path(".")) if isinstance(e, OSError) else sqlite_error(e, None)
        err.print(f"referee: {error}", markup=False)
        raise SystemExit(error.exit_code) from None
    except KeyboardInterrupt:
        err.print("referee: прервано; всё, что уже сохранено, остаётся в базе", markup=False)
        raise SystemExit(130) from None

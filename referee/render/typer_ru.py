"""typer's and click's own words — every ``--help`` frame and every usage error — in Russian.

typer (and the click inside it) writes «Usage:», «Options», «Show this message and exit.»
and «Missing option '--day'.» in English, some through gettext and some (typer 0.2x's own
copy of click) as plain strings, with no translation shipped. So the words are translated
where they come out: :class:`RussianGroup` — the class of every ``referee`` command group —
passes each help page and usage line through :func:`ru`, and prints usage errors itself in
Russian. A text not in the tables stays as typer wrote it, so a newer typer breaks nothing.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup

from referee.render import help_ru

WORDS: tuple[tuple[str, str], ...] = (
    ("Usage:", "Запуск:"),
    ("[OPTIONS]", "[ПАРАМЕТРЫ]"),
    ("COMMAND [ARGS]...", "КОМАНДА [АРГУМЕНТЫ]..."),
    ("Options:", "Параметры:"),
    ("Arguments:", "Аргументы:"),
    ("Commands:", "Команды:"),
    ("Show this message and exit.", "Показать эту справку и выйти."),
    ("[default:", "[по умолчанию:"),
    ("[required]", "[обязательно]"),
    ("[env var:", "[переменная окружения:"),
)
"""Fixed pieces of a help page, replaced wherever they appear."""

ERRORS: tuple[tuple[str, str], ...] = (
    (r"^No such option: (\S+) \(Possible options: (.*)\)$",
     r"Нет такого параметра: \1 (есть: \2)"),
    (r"^No such option: (.*)$", r"Нет такого параметра: \1"),
    (r"^No such command '(.*)'\. Did you mean (.*)\?$",
     r"Нет такой команды: '\1'. Может быть, \2?"),
    (r"^No such command '(.*)'\.$", r"Нет такой команды: '\1'."),
    (r"^Missing option (.*)\.$", r"Не указан параметр \1."),
    (r"^Missing argument (.*)\.$", r"Не указан аргумент \1."),
    (r"^Missing parameter: (.*)$", r"Не указано значение: \1"),
    (r"^Missing command\.$", r"Не указана команда."),
    (r"^Option (\S+) requires (?:an argument|\d+ arguments)\.$", r"Параметру \1 нужно значение."),
    (r"^Option (\S+) does not take a value\.$", r"Параметр \1 не принимает значения."),
    (r"^Got unexpected extra arguments? ?(?:\(s\))? \((.*)\)$", r"Лишние аргументы: \1"),
    (r"^Invalid value for (.*?): (?:Value error, )?(.*)$", r"Неверное значение \1: \2"),
    (r"^Invalid value: (?:Value error, )?(.*)$", r"Неверное значение: \1"),
)
"""Usage errors, whole message → Russian; the pieces below are then translated inside."""

PIECES: tuple[tuple[str, str], ...] = (
    (r"Input should be a valid integer(?:, unable to parse string as an integer)?",
     "нужно целое число"),
    (r"Input should be a valid number(?:, unable to parse string as a number)?", "нужно число"),
    (r"'(.*)' is not one of (.*)\.$", r"'\1' — не одно из: \2."),
    (r"'(.*)' is not a valid (integer|float)\.", r"'\1' — не число."),
    (r"Path '(.*)' does not exist\.", r"путь '\1' не существует."),
    (r"File '(.*)' does not exist\.", r"файл '\1' не существует."),
)


def ru(text: str) -> str:
    """A help page or usage line with typer's fixed words in Russian."""
    for english, russian in WORDS:
        text = text.replace(english, russian)
    return text


def ru_error(message: str) -> str:
    """A usage error's message in Russian (unknown messages pass through)."""
    for pattern, russian in ERRORS:
        message = re.sub(pattern, russian, message)
    for pattern, russian in PIECES:
        message = re.sub(pattern, russian, message)
    return message


def _russify(command: Any) -> Any:
    """Make one command's help and usage Russian (its instance methods, once): typer's
    words translated, and the page written by :mod:`referee.render.help_ru`."""
    if command is None or getattr(command, "_russian", False):
        return command
    help_ru.russify_params(command)
    help_of, usage_of = command.get_help, command.get_usage
    command.get_help = lambda ctx: ru(help_of(ctx))
    command.get_usage = lambda ctx: ru(usage_of(ctx))
    if not isinstance(command, RussianGroup):
        command.format_options = lambda ctx, formatter: help_ru.format_params(
            command, ctx, formatter)
        command.collect_usage_pieces = lambda ctx: help_ru.usage_pieces(command, ctx)
    command._russian = True
    return command


def _usage_error_types() -> tuple[type[BaseException], ...]:
    from typer import core

    engine = getattr(core, "_click", None)  # typer 0.2x carries its own click
    if engine is None:
        import click as engine
    return (engine.exceptions.ClickException,)


class RussianGroup(TyperGroup):
    """A typer group whose help pages and usage errors are Russian (see the module doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        help_ru.russify_params(self)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        help_ru.format_params(self, ctx, formatter)
        help_ru.format_commands(self, ctx, formatter)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return [*help_ru.usage_pieces(self, ctx), "КОМАНДА [АРГУМЕНТЫ]..."]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        return _russify(super().get_command(ctx, cmd_name))

    def get_help(self, ctx: Any) -> str:
        return ru(super().get_help(ctx))

    def get_usage(self, ctx: Any) -> str:
        return ru(super().get_usage(ctx))

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False,
                                  **extra)
        except _usage_error_types() as e:
            if not standalone_mode:
                raise
            _show(e)
            sys.exit(getattr(e, "exit_code", 2))
        except typer.Abort:
            if not standalone_mode:
                raise
            print("Прервано.", file=sys.stderr)
            sys.exit(1)
        if standalone_mode:
            sys.exit(result if isinstance(result, int) else 0)
        return result


def _show(e: Any) -> None:
    """A usage error as click shows one — usage, hint, message — in Russian. The «no
    arguments» case is the group's help page itself."""
    ctx = getattr(e, "ctx", None)
    message = e.format_message()
    if type(e).__name__ == "NoArgsIsHelpError" and ctx is not None:
        print(ctx.get_help(), file=sys.stderr)
        return
    if ctx is not None:
        print(ctx.get_usage(), file=sys.stderr)
        print(f"Справка: {ctx.command_path} -h\n", file=sys.stderr)
    print(f"Ошибка: {ru_error(message)}", file=sys.stderr)

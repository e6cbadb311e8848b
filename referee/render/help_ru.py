"""A help page a Russian host reads without meeting typer: the frame is Russian
(:mod:`referee.render.typer_ru` translates typer's words), and so is everything typer
writes itself from the code — the value placeholders, the argument names, the defaults.

- Placeholders («метапеременные») name what to type in the host's words: ``ЧИСЛО``,
  ``НИК``, ``ФАЙЛ``, ``ВРЕМЯ``, a choice as ``bbcode|text|json`` — never ``<int>``,
  ``<str>``, ``<path>`` or ``<list[str]>``.
- Arguments are named as the host says them (``КТО ДЕЙСТВИЕ [ЦЕЛЬ]...``), never by the
  Python parameter (``actor``, ``game_file``).
- A yes/no option is one flag (``--offline``): no ``--no-offline`` twin, no default
  «no-offline» to read.
- A default is shown only where it is a value to read (``[по умолчанию: 10]``).
- The command list gives each command's whole first line: nothing is cut with «...», in
  the help and in shell completion alike.
"""

from __future__ import annotations

import inspect
from enum import Enum
from pathlib import Path
from typing import Any, get_args

ARGUMENTS: dict[str, str] = {
    "nick": "НИК", "actor": "КТО", "action": "ДЕЙСТВИЕ", "target": "ЦЕЛЬ",
    "post": "НОМЕР", "game_file": "ФАЙЛ", "requests_file": "ФАЙЛ", "url": "ССЫЛКА",
    "key": "КЛЮЧ",
}
"""Argument (Python name) → how the host names it."""

OPTIONS: dict[str, str] = {
    "--config": "ФАЙЛ", "--db": "ФАЙЛ", "--now": "ВРЕМЯ", "--deadline": "ВРЕМЯ",
    "--start": "ВРЕМЯ", "--as-of": "НОМЕР|ВРЕМЯ", "--until": "ВРЕМЯ", "--target": "НИК",
    "--executor": "НИК", "--reason": "ПРИЧИНА", "--public-note": "ТЕКСТ",
    "--timezone": "ПОЯС", "--username": "НИК", "--plot": "ФАЙЛ", "--csv": "ФАЙЛ",
    "--forum-id": "НОМЕР",
}
"""Option (its long name) → its placeholder, where the type alone says too little."""

TYPES: dict[type, str] = {int: "ЧИСЛО", float: "ЧИСЛО", str: "ТЕКСТ", Path: "ПУТЬ"}

OPTIONS_METAVAR = "[ПАРАМЕТРЫ]"


def _python_type(param: Any) -> Any:
    """The value's Python type (``int | None`` → int, ``list[str]`` → str)."""
    desc = getattr(param, "type_descriptor", None)
    if desc is None:
        return None
    if desc.is_path:
        return Path
    annotation = desc.annotation
    while not isinstance(annotation, type) and get_args(annotation):
        annotation = next((a for a in get_args(annotation) if a is not type(None)), None)
    return annotation


def _choices(param: Any) -> tuple[str, ...]:
    desc = getattr(param, "type_descriptor", None)
    found = desc.choices if desc is not None else None
    return tuple(c.value if isinstance(c, Enum) else str(c) for c in (found or ()))


def metavar(param: Any) -> str:
    """The Russian placeholder of one parameter."""
    if param.param_type_name == "argument":
        return ARGUMENTS.get(param.name, param.name.upper())
    long = max(param.opts, key=len)
    if long in OPTIONS:
        return OPTIONS[long]
    if choices := _choices(param):
        return "|".join(choices)
    return TYPES.get(_python_type(param), "ЗНАЧЕНИЕ")


def russify_params(command: Any) -> None:
    """Russian placeholders on every parameter, yes/no options as single flags (their
    «--no-» twin dropped from the parser too), the usage line's «[ПАРАМЕТРЫ]»."""
    for param in command.params:
        if getattr(param, "is_flag", False) or getattr(param, "count", False):
            param.secondary_opts = []
            continue
        param.metavar = metavar(param)
    command.options_metavar = OPTIONS_METAVAR
    if command.help and not command.short_help:
        command.short_help = summary(command.help)


def summary(help_text: str) -> str:
    """A command's whole first line (its purpose), as the command list shows it."""
    return inspect.cleandoc(help_text).split("\n\n")[0].replace("\n", " ").strip()


# ------------------------------------------------------------------------- the page

def usage_pieces(command: Any, ctx: Any) -> list[str]:
    """``[ПАРАМЕТРЫ] КТО ДЕЙСТВИЕ [ЦЕЛЬ]...``: required arguments bare, the rest in
    brackets, a repeatable one with «...»."""
    out = [OPTIONS_METAVAR]
    for param in command.get_params(ctx):
        if param.param_type_name != "argument":
            continue
        name = param.metavar or metavar(param)
        name = name if param.required else f"[{name}]"
        out.append(name + ("..." if param.nargs != 1 else ""))
    return out


def _default(param: Any, ctx: Any) -> str | None:
    if getattr(param, "is_flag", False) or not param.show_default or param.required:
        return None
    value = param.get_default(ctx, call=False)
    if value is None or callable(value) or value == "" or value == []:
        return None
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def help_record(param: Any, ctx: Any) -> tuple[str, str] | None:
    """(the name column, the help column) of one parameter, in Russian."""
    if getattr(param, "hidden", False):
        return None
    name = param.metavar or metavar(param)
    if param.param_type_name == "argument":
        left = name + ("..." if param.nargs != 1 else "")
    else:
        left = ", ".join(sorted(param.opts, key=len))
        if not getattr(param, "is_flag", False) and not getattr(param, "count", False):
            left += f" {name}" + ("..." if param.nargs != 1 else "")
    extra = []
    if (default := _default(param, ctx)) is not None:
        extra.append(f"по умолчанию: {default}")
    if param.required:
        extra.append("обязательно")
    right = (param.help or "") if param.param_type_name == "option" else (
        getattr(param, "help", "") or "")
    if extra:
        right = f"{right}  [{'; '.join(extra)}]".strip()
    return left, right


def format_params(command: Any, ctx: Any, formatter: Any) -> None:
    """The «Аргументы» and «Параметры» sections."""
    args, opts = [], []
    for param in command.get_params(ctx):
        record = help_record(param, ctx)
        if record is not None:
            (args if param.param_type_name == "argument" else opts).append(record)
    if args:
        with formatter.section("Аргументы"):
            formatter.write_dl(args)
    if opts:
        with formatter.section("Параметры"):
            formatter.write_dl(opts)


def format_commands(group: Any, ctx: Any, formatter: Any) -> None:
    """«Команды»: each command with its whole first line."""
    rows = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is not None and not command.hidden:
            rows.append((name, summary(command.help or "")))
    if rows:
        with formatter.section("Команды"):
            formatter.write_dl(rows)

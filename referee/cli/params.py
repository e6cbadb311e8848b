"""The command line's values read without pydantic (issue 30 item 3: start-up).

typer 0.2x reads every option's value (``--config``, ``--day``) through a pydantic
``TypeAdapter`` built on first use: loading pydantic and building the adapters was
~0.15–0.25 s of every command, an offline ``tally`` of the demo game included. The
command line only has flags, strings, whole numbers, numbers, paths, a list of strings and
choices (``--format``): :func:`install` has typer read those plainly — with typer's own
path and choice checks and pydantic's words for a number that is not one, so the Russian
usage errors (:mod:`referee.render.typer_ru`) stay as they are — and leaves anything else
(and any other typer, which has no such step) to typer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

NOT_FLAG = "Input should be a valid boolean, unable to interpret input"
NOT_WHOLE = "Input should be a valid integer, unable to parse string as an integer"
NOT_NUMBER = "Input should be a valid number, unable to parse string as a number"
"""pydantic's words for a value that is not what it should be (typer_ru translates them)."""
TRUE = {"1", "on", "t", "true", "y", "yes"}
FALSE = {"", "0", "f", "false", "n", "no", "off"}
"""A yes/no value as pydantic read it (a flag's value is mostly True or False already)."""

Read = Callable[[Any, Any, Any], Any]
"""(value, the parameter, the click context) → the value the command receives."""


def _flag(value: Any, param: Any, ctx: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    word = str(value).strip().lower()
    if word in TRUE | FALSE:
        return word in TRUE
    raise ValueError(NOT_FLAG)


def _whole(value: Any, param: Any, ctx: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        raise ValueError(NOT_WHOLE) from None


def _number(value: Any, param: Any, ctx: Any) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    try:
        return float(str(value).strip())
    except ValueError:
        raise ValueError(NOT_NUMBER) from None


def _text(value: Any, param: Any, ctx: Any) -> str:
    return value if isinstance(value, str) else str(value)


def _texts(value: Any, param: Any, ctx: Any) -> list[str]:
    items = value if isinstance(value, list | tuple) else [value]
    return [_text(v, param, ctx) for v in items]


def plain_reader(annotation: Any, info: Any) -> Read | None:
    """How a value of ``annotation`` is read without pydantic; None: left to typer."""
    from typer._param_types import coerce_cli_choice, coerce_cli_path

    if getattr(info, "parser", None) is not None or getattr(info, "min", None) is not None \
            or getattr(info, "max", None) is not None:
        return None
    if annotation is str:
        return _text
    if annotation is bool:
        return _flag
    if annotation is int:
        return _whole
    if annotation is float:
        return _number
    if get_origin(annotation) is list and get_args(annotation) == (str,):
        return _texts
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        choices = list(annotation)
        return lambda value, param, ctx: coerce_cli_choice(
            value, choices=choices, case_sensitive=info.case_sensitive, ctx=ctx)
    if annotation is Path and getattr(info, "path_type", None) in (None, Path) \
            and not getattr(info, "allow_dash", False):
        return lambda value, param, ctx: coerce_cli_path(
            value if isinstance(value, Path) else Path(value), info, path_type=Path,
            param=param, ctx=ctx)
    return None


def install() -> None:
    """Have typer read the command line's plain values without pydantic (a typer without
    the pydantic step, or one changed inside, is left as it is)."""
    try:
        from typer import core
        from typer._click.exceptions import BadParameter
        from typer._coercion import RuntimeParam, build_runtime_param
    except ImportError:
        return
    if getattr(core, "build_runtime_param", None) is not build_runtime_param:
        return

    @dataclass(frozen=True)
    class PlainParam(RuntimeParam):  # type: ignore[misc]
        read: Read

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            try:
                return self.read(value, param, ctx)
            except ValueError as e:
                raise BadParameter(str(e), ctx=ctx, param=param) from None

    def runtime_param(descriptor: Any) -> Any:
        read = None if descriptor.file_annotation is not None else plain_reader(
            descriptor.annotation, descriptor.parameter_info)
        if read is None:
            return build_runtime_param(descriptor)
        return PlainParam(descriptor.parameter_info, descriptor.annotation, read)

    core.build_runtime_param = runtime_param

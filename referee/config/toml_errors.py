"""A TOML file the host wrote, read, and every parse mistake told in Russian with its fix.

Python's ``tomllib`` answers a mistake in English parser words — «Invalid statement»,
«Cannot overwrite a value», «Illegal character» — which tell a host nothing. The mistakes
a host makes are few, so each is recognised from the line it stands on and explained:

- a file saved by Windows Notepad begins with a byte-order mark: accepted (``utf-8-sig``);
- a player written twice in ``[players]``: «игрок «Лиса» записан в [players] дважды
  (строки 6 и 7)» — any key or table written twice likewise;
- a nick (or any key) with Russian letters or spaces and no quotes: TOML keys without
  quotes are Latin letters, digits, «_» and «-» only;
- a value (a role) without quotes;
- a quote opened and not closed.

Anything else is still told in Russian, with its line and column.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from referee.core.errors import ConfigError

_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$|\s*\(at end of document\)$")
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_KEY = r'(?:"(?:[^"\\]|\\.)*"|\'[^\']*\'|[A-Za-z0-9_-]+)'
_ASSIGN = re.compile(rf"^\s*({_KEY}(?:\s*\.\s*{_KEY})*)\s*=")
_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")

GENERIC: tuple[tuple[str, str], ...] = (
    (r"Expected '=' after a key in a key/value pair", "после ключа нужен знак «=»"),
    (r"Invalid value", "значение не читается (строки пишутся в кавычках, даты — "
                       "\"2026-11-20 18:00\")"),
    (r"Invalid statement", "строка не похожа ни на «ключ = значение», ни на [раздел]"),
    (r"Unclosed array", "список не закрыт: нужна «]»"),
    (r"Unclosed inline table", "таблица в фигурных скобках не закрыта: нужна «}»"),
    (r"Expected newline or end of document after a statement",
     "после значения на той же строке лишний текст (комментарий начинается с #)"),
    (r"Invalid initial character for a key part", "ключ начинается с недопустимого знака"),
    (r"Illegal character", "недопустимый знак"),
    (r"Cannot declare .* twice", "раздел записан дважды"),
    (r"Cannot overwrite a value", "ключ записан дважды"),
    (r"Invalid date or datetime", "неверная дата или время"),
)
"""tomllib's messages in Russian, for the mistakes not recognised from their line."""


def read_toml(p: Path, what: str, if_missing: str) -> dict[str, Any]:
    """A TOML file the host wrote, or a :class:`ConfigError` saying what is wrong with it."""
    if not p.exists():
        raise ConfigError(f"{what} {p} не найден", if_missing)
    if p.is_dir():
        raise ConfigError(f"{p} — это папка, а не файл", f"укажите файл в ней, например "
                          f"--config {p / 'referee.toml'}")
    try:
        text = read_text(p)
    except UnicodeDecodeError as e:
        raise ConfigError(f"{p} — не текст в UTF-8 ({e.reason})", "сохраните файл в UTF-8") from e
    except OSError as e:
        raise ConfigError(f"{p} не читается: {e.strerror}", "проверьте права на файл") from e
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise explain(e, text, p) from e


def read_text(p: Path) -> str:
    """The file's text; a UTF-8 byte-order mark (Windows Notepad writes one) is dropped."""
    return p.read_text(encoding="utf-8-sig")


def explain(error: tomllib.TOMLDecodeError, text: str, p: Path) -> ConfigError:
    """The parse error as the host's mistake, in Russian, naming its line."""
    message = str(error)
    at = _AT.search(message)
    english = _AT.sub("", message)
    if at is None or at.group(1) is None:
        return ConfigError(f"{p}: ошибка в TOML — файл оборвался: {_generic(english)}",
                           "проверьте конец файла: закрыты ли кавычки и скобки")
    number, column = int(at.group(1)), int(at.group(2))
    lines = text.splitlines()
    line = lines[number - 1] if number <= len(lines) else ""
    where = f"{p}, строка {number}"
    if "overwrite a value" in english or re.search(r"Cannot declare .* twice", english):
        twice = _twice(lines, number)
        if twice is not None:
            return ConfigError(f"{where}: {twice}", "оставьте одну из двух строк")
    if _unclosed_quote(line):
        return ConfigError(
            f"{where}: не закрыта кавычка — {line.strip()}",
            "каждая строка пишется в двух кавычках: \"Лиса\" = \"мафия\"")
    if (bare := _bare_key(line)) is not None:
        return ConfigError(
            f"{where}: это не TOML — ник {bare} без кавычек (без кавычек пишутся только "
            "латинские буквы, цифры, «_» и «-»)",
            f"возьмите его в кавычки: \"{bare}\" = …")
    if (value := _bare_value(line)) is not None:
        return ConfigError(f"{where}: это не TOML — значение {value} без кавычек",
                           f"возьмите его в кавычки: … = \"{value}\"")
    return ConfigError(f"{where}: это не TOML — {_generic(english)} (знак {column})",
                       "исправьте эту строку (образец — referee.toml в корне проекта)")


def _generic(english: str) -> str:
    for pattern, russian in GENERIC:
        if re.search(pattern, english):
            return russian
    return "строка не читается"


def _without_comment(line: str) -> str:
    """The line up to a «#» that stands outside quotes."""
    quote = ""
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "#":
            return line[:i]
    return line


def _unclosed_quote(line: str) -> bool:
    code = _without_comment(line)
    quote = ""
    for c in code.replace('\\"', ""):
        if quote:
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
    return bool(quote)


def _bare_key(line: str) -> str | None:
    """The key of ``Лиса = "мафия"``: written without quotes though it is not a bare key."""
    key, eq, _ = _without_comment(line).partition("=")
    key = key.strip()
    if not eq or not key or key.startswith(("[", '"', "'")) or _BARE.fullmatch(key):
        return None
    return key


def _bare_value(line: str) -> str | None:
    """The value of ``"Лиса" = мафия``: a word that is no number, date or true/false."""
    m = _ASSIGN.match(line)
    if not m:
        return None
    value = _without_comment(line)[m.end():].strip()
    if not value or value[0] in "\"'[{" or value in ("true", "false"):
        return None
    if re.fullmatch(r"[-+0-9.:TZ _e]+", value):
        return None
    return value


def _keys_of(lines: list[str]) -> list[tuple[int, tuple[str, ...], str]]:
    """(line number, table, key) of every ``key = value`` and of every [table] header."""
    out: list[tuple[int, tuple[str, ...], str]] = []
    table: tuple[str, ...] = ()
    for number, line in enumerate(lines, 1):
        if (header := _HEADER.match(line)) and not line.lstrip().startswith("[["):
            table = tuple(_unquoted(k) for k in header.group(1).split("."))
            out.append((number, (), "[" + header.group(1).strip() + "]"))
        elif line.lstrip().startswith("[["):
            table = ("[[",) + (str(number),)  # each array entry is a table of its own
        elif m := _ASSIGN.match(line):
            out.append((number, table, _unquoted(m.group(1))))
    return out


def _unquoted(key: str) -> str:
    key = key.strip()
    return key[1:-1] if len(key) >= 2 and key[0] == key[-1] and key[0] in "\"'" else key


def _twice(lines: list[str], number: int) -> str | None:
    """«игрок «Лиса» записан в [players] дважды (строки 6 и 7)», or None."""
    keys = _keys_of(lines)
    here = next(((t, k) for n, t, k in keys if n == number), None)
    if here is None:
        return None
    table, key = here
    first = next((n for n, t, k in keys if (t, k) == (table, key) and n < number), None)
    if first is None:
        return None
    if key.startswith("["):
        return f"раздел {key} записан дважды (строки {first} и {number})"
    if table == ("players",):
        return f"игрок «{key}» записан в [players] дважды (строки {first} и {number})"
    place = f" в [{'.'.join(table)}]" if table and table[0] != "[[" else ""
    return f"ключ «{key}» записан{place} дважды (строки {first} и {number})"

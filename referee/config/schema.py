"""What ``referee.toml`` may hold, key by key, and where each key stands in the file.

The config refuses to guess: a key it does not know is an error that names the nearest
known one (``chnages`` — ``changes``?), a value of the wrong type says the type expected
(``host = 5``: text in quotes), a date is only ``"YYYY-MM-DD HH:MM"`` in the forum's time
zone. :func:`check_schema` finds every such problem at once, each with its file and line,
before :mod:`referee.config.game` reads the values; a new setting is one line in :data:`TABLES`.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from referee.config.forum import engine_names
from referee.core.css_colours import COLOUR_FAMILIES, CSS_COLOUR_NAMES
from referee.core.errors import ConfigError
from referee.core.roles import action_id, action_words, normalise_role

Where = tuple[str | int, ...]
"""A key's place: ``("rules", "tie")``, ``("schedule", "days", 0, "start")``."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong in the file: what, on which line (when the file shows it), the fix."""

    text: str
    line: int | None = None
    hint: str | None = None

    def __str__(self) -> str:
        where = f"строка {self.line}: " if self.line else ""
        return where + self.text + (f" → {self.hint}" if self.hint else "")


class ConfigProblems(ConfigError):
    """Every problem found in one ``referee.toml``, each with its line."""

    def __init__(self, path: Path, problems: Iterable[Problem]) -> None:
        self.path = path
        self.problems = tuple(problems)
        first = self.problems[0]
        if len(self.problems) == 1:
            where = f"{path}, строка {first.line}" if first.line else str(path)
            super().__init__(f"{where}: {first.text}", first.hint or _FIX)
        else:
            lines = [f"{path}: ошибок — {len(self.problems)}:"]
            lines += [f"  • {p}" for p in self.problems]
            super().__init__("\n".join(lines), "исправьте каждую строку из списка")


_FIX = "исправьте эту строку (ключи и их значения — в README, «Настройки»)"


# ------------------------------------------------------------------------- where keys are

_KEY = r'(?:"(?:[^"\\]|\\.)*"|\'[^\']*\'|[A-Za-z0-9_-]+)'
_DOTTED = rf"{_KEY}(?:\s*\.\s*{_KEY})*"
_HEADER = re.compile(rf"^\s*(\[\[?)\s*({_DOTTED})\s*\]\]?\s*(?:#.*)?$")
_ASSIGN = re.compile(rf"^\s*({_DOTTED})\s*=\s*(.*)$")


def _key_path(text: str) -> tuple[str, ...]:
    """The key path a (dotted, maybe quoted) TOML key spells."""
    node: Any = tomllib.loads(f"{text} = 0")
    out: list[str] = []
    while isinstance(node, dict) and len(node) == 1:
        key = next(iter(node))
        out.append(key)
        node = node[key]
    return tuple(out)


class Source:
    """The file's text, to say on which line a key stands."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self._lines: dict[Where, int] = {}
        arrays: dict[tuple[str, ...], int] = {}
        table: Where = ()
        for number, line in enumerate(text.splitlines(), 1):
            try:
                if m := _HEADER.match(line):
                    names = _key_path(m.group(2))
                    if m.group(1) == "[[":
                        arrays[names] = arrays.get(names, -1) + 1
                        table = (*names, arrays[names])
                    else:
                        table = names
                    self._lines.setdefault(table, number)
                elif m := _ASSIGN.match(line):
                    where = (*table, *_key_path(m.group(1)))
                    self._lines.setdefault(where, number)
                    self._inline(where, m.group(2), number)
            except tomllib.TOMLDecodeError:
                continue  # inside a multi-line string or array: no key here

    def _inline(self, where: Where, value: str, number: int) -> None:
        """The keys of an inline table stand on its line (``"Лиса" = { role = … }``)."""
        if not value.lstrip().startswith("{"):
            return
        try:
            inner = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            return
        for key in inner:
            self._lines.setdefault((*where, key), number)

    def line(self, where: Where) -> int | None:
        """The line of ``where``, else of the nearest table around it."""
        for size in range(len(where), 0, -1):
            if (found := self._lines.get(where[:size])) is not None:
                return found
        return None


def label(where: Where) -> str:
    """How a message names a key: ``rules.tie``, ``schedule.days[0].start``,
    ``players.'Лиса'``."""
    out = ""
    for part in where:
        if isinstance(part, int):
            out += f"[{part}]"
        elif out.split(".")[0] in ("players", "aliases") and out.count(".") == 0 and out:
            out += f".{part!r}"
        else:
            out += f".{part}" if out else part
    return out


# ------------------------------------------------------------------------- what keys hold

Check = Callable[[Any], str | None]
"""A value → what is wrong with it (Russian, after «key = value:»), or None."""


def _is_text(v: Any) -> bool:
    return isinstance(v, str)


def text(v: Any) -> str | None:
    return None if _is_text(v) else "должно быть текстом в кавычках"


def flag(v: Any) -> str | None:
    return None if isinstance(v, bool) else "должно быть true или false"


def number(minimum: float) -> Check:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int | float) or v != v \
                or v in (float("inf"), float("-inf")):
            return "должно быть числом"
        return None if v >= minimum else f"должно быть не меньше {minimum:g}"
    return check


def whole(minimum: int) -> Check:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int):
            return "должно быть целым числом"
        return None if v >= minimum else f"должно быть не меньше {minimum}"
    return check


def texts(v: Any) -> str | None:
    if not isinstance(v, list) or not v or not all(_is_text(x) for x in v):
        return 'должно быть непустым списком текстов в кавычках, например ["…"]'
    return None


def choice(*values: str) -> Check:
    def check(v: Any) -> str | None:
        if v in values:
            return None
        near = difflib.get_close_matches(str(v), values, n=1)
        return ("должно быть одним из: " + ", ".join(f'"{c}"' for c in values)
                + (f' (может быть, "{near[0]}"?)' if near else ""))
    return check


def when(v: Any) -> str | None:
    if isinstance(v, datetime | date | time):
        return 'дата и время пишутся текстом в кавычках: "2026-11-21 22:00"'
    if not _is_text(v):
        return 'должно быть датой и временем в кавычках: "2026-11-21 22:00"'
    return _time_problem(v)


def zone(v: Any) -> str | None:
    if not _is_text(v):
        return "должно быть текстом в кавычках"
    try:
        ZoneInfo(v)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: «Europe» is a folder
        return 'неизвестный часовой пояс: пишите имя IANA, например "Europe/Moscow"'
    return None


def colours(v: Any) -> str | None:
    if problem := texts(v):
        return problem
    families = ", ".join(COLOUR_FAMILIES)
    for item in v:
        word = item.strip().lower()
        if word in COLOUR_FAMILIES or word in CSS_COLOUR_NAMES or _CSS_VALUE.match(word):
            continue
        near = difflib.get_close_matches(word, [*COLOUR_FAMILIES, *CSS_COLOUR_NAMES], n=1)
        return (f"{item!r} — не цвет" + (f' (может быть, "{near[0]}"?)' if near else "")
                + f": пишите семейство ({families}) или цвет CSS, например \"#cc0000\"")
    return None


_CSS_VALUE = re.compile(r"^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\(.*\))$", re.S)


def role_ids(v: Any) -> str | None:
    if not isinstance(v, list) or not all(_is_text(x) for x in v):
        return "должно быть списком ролей в кавычках"
    for item in v:
        try:
            normalise_role(item, "role")
        except ConfigError:
            return f"{item!r} — не роль"
    return None


def action_ids(v: Any) -> str | None:
    """Night actions as the host types them: ids or Russian names (``"проверка"``)."""
    if not isinstance(v, list) or not all(_is_text(x) for x in v):
        return 'должно быть списком действий в кавычках, например ["проверка", "лечение"]'
    bad = [x for x in v if action_id(x) is None]
    return f"неизвестное действие {bad[0]!r}: пишите одно из: {action_words()}" if bad else None


def nick(v: Any) -> str | None:
    if not _is_text(v):
        return "должно быть текстом в кавычках"
    return None if v.strip() else 'пусто: нужен ник ведущего на форуме, например "ВашНик"'


def engine(v: Any) -> str | None:
    """A registry name (:func:`referee.config.forum.engine_names`)."""
    if not _is_text(v):
        return "должно быть текстом в кавычках"
    problem = choice(*engine_names())(v)
    return problem and (f"такой движок не поддерживается: {problem} или уберите строку "
                        "(движок определится по адресу темы)")


NOTIFY_EVENTS = ("vote", "rejected", "post", "pm", "silent", "leader", "phase", "deadline",
                 "reminder", "forum", "config", "error")
"""The classes of lines ``referee watch`` can push to the host's phone (``[notify] events``)."""


def chat(v: Any) -> str | None:
    if isinstance(v, bool) or not isinstance(v, int | str):
        return "должно быть номером чата (числом) или текстом в кавычках"
    return None


def events(v: Any) -> str | None:
    if not isinstance(v, list) or not all(_is_text(x) for x in v):
        return "должно быть списком классов в кавычках"
    bad = [x for x in v if x not in NOTIFY_EVENTS]
    return f"{bad[0]!r} — не класс ({', '.join(NOTIFY_EVENTS)})" if bad else None


TABLES: Mapping[str, Mapping[str, Check]] = {
    "game": {"host": nick, "title": text, "start": when, "end": when},
    "forum": {
        "engine": engine, "url": text, "vote_url": text, "snapshot": text, "timezone": zone,
        "username": text, "rate_limit": number(0.01), "timeout": number(0.1),
        "retries": whole(0), "user_agent": text, "read_sent": flag,
        "max_answer_mib": number(0.01), "reread_every": number(0),
        "reread_before_deadline": number(0), "pm_every_by_day": number(0),
        "pm_every_by_night": number(0),
    },
    "rules": {
        "vote_phrases": texts, "red_colours": texts, "vote_colours": colours,
        "red_hue_tolerance": number(0), "red_min_saturation": number(0),
        "changes": choice("forbidden", "last_counts", "limited"), "change_limit": whole(0),
        "edited_vote": choice("count_flagged", "void", "missed"),
        "deleted_vote": choice("count_flagged", "void"),
        "tie": choice("first_to_reach", "nobody", "all", "earliest_last_vote"),
        "early_majority": flag, "reason_min_letters": whole(0),
        "near_match_distance": whole(0), "near_match_min_length": whole(1),
        "reveal_role_on_hanging": flag, "missed_vote_limit": whole(1),
        "missed_votes_consecutive": flag, "reveal_role_on_removal": flag,
        "silent_leave": choice("morning", "end_of_day"),
        "reveal_role_on_death": flag, "maniac_ambush_twice_in_a_row": flag,
        "ambush_kills": role_ids, "request_changes_per_game": whole(0),
        "change_limited_actions": action_ids, "clan_wins_at_parity": flag,
        "necromancer_turns": whole(1),
    },
    "notify": {"chat_id": chat, "events": events},
}
"""The plain tables: every key each may hold and what its value must be."""

DAY: Mapping[str, Check] = {"day": whole(1), "start": when, "deadline": when,
                            "night_deadline": when}
REPLACEMENT: Mapping[str, Check] = {"slot": text, "player": text, "from_post": whole(1),
                                    "from_time": when}
TOP_LEVEL = ("game", "forum", "players", "aliases", "schedule", "replacements", "rules",
             "setup", "notify")


# ------------------------------------------------------------------------- dates

_FORMAT = re.compile(r"^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$")
_HOW = '"ГГГГ-ММ-ДД ЧЧ:ММ", например "2026-11-21 22:00" (время форума)'


def _time_problem(value: str) -> str | None:
    m = _FORMAT.match(value.strip())
    if m is None:
        return f"не дата и время: пишите {_HOW}"
    try:
        datetime(*map(int, m.groups()))
    except ValueError:
        return f"такой даты или времени нет: пишите {_HOW}"
    return None


def local_time(value: Any, tz: ZoneInfo, key: str) -> datetime:
    """``"YYYY-MM-DD HH:MM"`` in the forum's time zone (docs/rules.md T2), as UTC. Anything else
    — another layout, a date without a time, a TOML date, an hour the clocks skip or pass
    twice — is a :class:`ConfigError` quoting the value: a deadline is never guessed."""
    problem = when(value)
    if problem is not None:
        raise ConfigError(f"{key} = {value!r}: {problem}", f"пишите {_HOW}")
    m = _FORMAT.match(value.strip())
    assert m is not None
    naive = datetime(*map(int, m.groups()))
    try:
        first = naive.replace(tzinfo=tz).astimezone(UTC)
        second = naive.replace(tzinfo=tz, fold=1).astimezone(UTC)
    except OverflowError:  # year 1 or 9999 pushed past the calendar by the zone offset
        raise ConfigError(f"{key} = {value!r} — вне календаря",
                          'пишите настоящую дату, например "2026-11-21 22:00"') from None
    if first.astimezone(tz).replace(tzinfo=None) != naive:
        raise ConfigError(f"{key} = {value!r}: в часовом поясе {tz.key} такого времени нет "
                          "(часы переводят вперёд)", "возьмите время на час позже")
    if first != second:
        raise ConfigError(f"{key} = {value!r}: в часовом поясе {tz.key} это время бывает "
                          "дважды (часы переводят назад)", "возьмите время на час позже")
    return first


# ------------------------------------------------------------------------- the check

def check_schema(raw: Mapping[str, Any], source: Source) -> list[Problem]:
    """Every unknown key and every value of the wrong type or form, in file order."""
    out: list[Problem] = []

    def bad(where: Where, what: str, hint: str | None = None) -> None:
        out.append(Problem(what, source.line(where), hint))

    for key, value in raw.items():
        if key not in TOP_LEVEL:
            _unknown(bad, (key,), TOP_LEVEL, "раздел" if isinstance(value, Mapping) else "ключ")
        elif key in TABLES:
            if not isinstance(value, Mapping):
                bad((key,), f"{key} должно быть таблицей", f"пишите раздел [{key}]")
            else:
                _table(bad, (key,), value, TABLES[key])
    _tables_of(bad, raw, "schedule", DAY)
    _tables_of(bad, raw, "replacements", REPLACEMENT)
    _players(bad, raw.get("players"))
    _aliases(bad, raw.get("aliases"), raw.get("players"))
    _setup(bad, raw.get("setup"))
    tz = _zone_of(raw)
    if tz is not None:
        _times_in_calendar(bad, raw, tz)
    return sorted(out, key=lambda p: p.line or 0)


Bad = Callable[..., None]


def _unknown(bad: Bad, where: Where, known: Iterable[str], what: str) -> None:
    name = str(where[-1])
    place = label(where[:-1])
    home = _home_of(name)
    if home is not None and home != place:  # a known key in the wrong table
        tail = f" — он пишется в разделе [{home}]"
    elif near := difflib.get_close_matches(name, list(known), n=1, cutoff=0.6):
        tail = f" — может быть, [{near[0]}]?" if what == "раздел" else f" — может быть, {near[0]}?"
    elif (other := _nearest_anywhere(name)) is not None:
        tail = f" — может быть, {other[1]} (в разделе [{other[0]}])?"
    else:
        tail = ""
    head = (f"неизвестный раздел [{name}]" if what == "раздел"
            else f"неизвестный ключ {name} " + (_in(place) if place else "вне разделов"))
    bad(where, head + tail, "исправьте имя или уберите строку (все ключи — в README, «Настройки»)")


def _in(place: str) -> str:
    return f"в {place}" if "[" in place or "." in place else f"в [{place}]"


def _home_of(name: str) -> str | None:
    return next((t for t, keys in TABLES.items() if name in keys), None)


def _nearest_anywhere(name: str) -> tuple[str, str] | None:
    every = {key: t for t, keys in TABLES.items() for key in keys}
    near = difflib.get_close_matches(name, list(every), n=1, cutoff=0.7)
    return (every[near[0]], near[0]) if near else None


def _table(bad: Bad, where: Where, table: Mapping[str, Any], keys: Mapping[str, Check]) -> None:
    for key, value in table.items():
        at = (*where, key)
        check = keys.get(key)
        if check is None:
            _unknown(bad, at, keys, "ключ")
        elif (problem := check(value)) is not None:
            bad(at, f"{label(at)} = {_shown(value)}: {problem}")


def _shown(value: Any) -> str:
    shown = repr(value) if not isinstance(value, str) else f'"{value}"'
    return shown if len(shown) <= 40 else shown[:37] + "…"


def _tables_of(bad: Bad, raw: Mapping[str, Any], key: str, keys: Mapping[str, Check]) -> None:
    """``[[schedule.days]]`` and ``[[replacements]]``: a list of tables of known keys."""
    value = raw.get(key)
    if value is None:
        return
    head: Where = (key,)
    if key == "schedule":
        if not isinstance(value, Mapping):
            bad(head, "schedule должно быть списком [[schedule.days]]",
                'пишите [[schedule.days]] с day = 1, start = "…", deadline = "…"')
            return
        for k in value:
            if k != "days":
                _unknown(bad, (key, k), ("days",), "ключ")
        value, head = value.get("days", []), ("schedule", "days")
    if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
        bad(head, f"{label(head)} должно быть записями [[{label(head)}]]",
            f"пишите каждую запись под заголовком [[{label(head)}]]")
        return
    for i, entry in enumerate(value):
        _table(bad, (*head, i), entry, keys)
        for need in _REQUIRED[key]:
            if not any(k in entry for k in need.split("|")):
                bad((*head, i), f"{label((*head, i))}: нет {' или '.join(need.split('|'))}",
                    _EXAMPLE[need])


_REQUIRED = {"schedule": ("start", "deadline"),
             "replacements": ("slot", "player", "from_post|from_time")}
_EXAMPLE = {"start": 'добавьте start = "2026-11-20 18:00"',
            "deadline": 'добавьте deadline = "2026-11-21 22:00"',
            "slot": 'добавьте slot = "ник, которого заменяют"',
            "player": 'добавьте player = "ник заменяющего"',
            "from_post|from_time": "добавьте from_post = НОМЕР_СООБЩЕНИЯ или "
                                   'from_time = "2026-11-21 12:00"'}


def _a_table(bad: Bad, key: str, value: Any, example: str) -> bool:
    """``[players]``, ``[aliases]``, ``[setup]`` are tables (``players = 5`` is not)."""
    if value is None:
        return False  # a missing [players] is told by :func:`missing_parts`
    if isinstance(value, Mapping) and (value or key != "players"):
        return True
    what = "непустой таблицей" if key == "players" else "таблицей"
    bad((key,), f"{key} должно быть {what}: {example}", f"пишите раздел [{key}]")
    return False


def _players(bad: Bad, players: Any) -> None:
    if not _a_table(bad, "players", players,
                    '"Ник" = "мирный житель", "Ник2" = { role = "мафия", clan = "A" }'):
        return
    for nick, spec in players.items():
        at: Where = ("players", nick)
        if isinstance(spec, Mapping):
            _table(bad, at, spec, {"role": text, "clan": text})
            spec = spec.get("role", "citizen")
        if not isinstance(spec, str):
            bad(at, f"{label(at)}: роль пишется текстом в кавычках или {{ role = …, clan = … }}")
        elif spec.strip() not in ("", "?"):
            try:
                normalise_role(spec, label(at))
            except ConfigError as e:
                bad(at, e.message, e.hint)


def _aliases(bad: Bad, aliases: Any, players: Any) -> None:
    if not _a_table(bad, "aliases", aliases, '"Ник" = ["другое написание", …]'):
        return
    nicks = list(players) if isinstance(players, Mapping) else []
    for nick, spellings in aliases.items():
        at: Where = ("aliases", nick)
        if nick not in nicks:
            near = difflib.get_close_matches(nick, nicks, n=1)
            bad(at, f"{label(at)}: такого игрока нет в [players]"
                + (f" — может быть, {near[0]!r}?" if near else ""),
                "пишите ник так же, как в [players]")
        if not (_is_text(spellings) or (isinstance(spellings, list)
                                        and all(_is_text(s) for s in spellings))):
            bad(at, f"{label(at)} должно быть списком написаний в кавычках")


def _setup(bad: Bad, setup: Any) -> None:
    if not _a_table(bad, "setup", setup, "роль = число игроков, clans = число кланов"):
        return
    for role, count in setup.items():
        at: Where = ("setup", role)
        if role != "clans":
            try:
                normalise_role(role, label(at))
            except ConfigError as e:
                bad(at, e.message, e.hint)
                continue
        if (problem := whole(0)(count)) is not None:
            bad(at, f"{label(at)} = {_shown(count)}: {problem}")


def _zone_of(raw: Mapping[str, Any]) -> ZoneInfo | None:
    forum = raw.get("forum")
    name = forum.get("timezone", "UTC") if isinstance(forum, Mapping) else "UTC"
    return ZoneInfo(name) if zone(name) is None else None


def _times_in_calendar(bad: Bad, raw: Mapping[str, Any], tz: ZoneInfo) -> None:
    """Times in the right form that the time zone cannot hold (out of the calendar, an hour
    the clocks skip)."""
    for where, value in _times(raw):
        if when(value) is None:
            try:
                local_time(value, tz, label(where))
            except ConfigError as e:
                bad(where, e.message, e.hint)


def _times(raw: Mapping[str, Any]) -> Iterable[tuple[Where, Any]]:
    game = raw.get("game")
    if isinstance(game, Mapping):
        yield from ((("game", k), game[k]) for k in ("start", "end") if k in game)
    schedule = raw.get("schedule")
    days = schedule.get("days") if isinstance(schedule, Mapping) else None
    for i, d in enumerate(days if isinstance(days, list) else []):
        if isinstance(d, Mapping):
            yield from ((("schedule", "days", i, k), d[k])
                        for k in ("start", "deadline", "night_deadline") if k in d)
    reps = raw.get("replacements")
    for i, r in enumerate(reps if isinstance(reps, list) else []):
        if isinstance(r, Mapping) and "from_time" in r:
            yield ("replacements", i, "from_time"), r["from_time"]

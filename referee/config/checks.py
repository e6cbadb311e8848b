"""The checks of ``referee.toml`` across its entries, once every value has the right form
(:mod:`referee.config.schema`): what would make the game count wrong without a word.

- a live forum without ``[forum] timezone`` (every deadline read as UTC, T2);
- a schedule whose days overlap, whose night ends after the next day starts, that skips a
  day number, or whose deadline is not after its start (T1) — each naming both entries;
- two nicks of ``[players]`` or ``[aliases]`` that are one nick to the vote reader (case,
  ё/е, Latin/Cyrillic look-alikes, invisible characters, V2) — naming both;
- the host among the players (V5: the host never votes);
- a replacement whose slot is no player.

:func:`check_config` is the one validation of ``referee.toml``: a secret first, then the
schema (:mod:`referee.config.schema`), the parts a game cannot do without, and these.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from referee.config.schema import Problem, Source, check_schema, label, local_time
from referee.core.errors import ConfigError
from referee.core.nicks import fold


def nick_key(nick: str) -> str:
    """The one form two spellings of a nick share when the vote reader takes them for the
    same player (V2), invisible characters (soft hyphens, joiners) dropped too."""
    visible = "".join(c for c in nick if unicodedata.category(c) != "Cf")
    return fold(visible)


def check_config(raw: Mapping[str, Any], source: Source) -> list[Problem]:
    """Every problem of the file, in file order; none: every value may be read as it is.
    A secret is told alone (nothing else matters until it is gone); then every key, type
    and form, else every part the game needs that is missing; then what the entries say
    together."""
    problems = secrets(raw, source)
    if problems:
        return problems
    problems = check_schema(raw, source) or missing_parts(raw, source)
    try:
        problems += check_entries(raw, source)
    except (ConfigError, TypeError, KeyError, AttributeError, ValueError, OSError):
        pass  # entries of the wrong form: the schema's problems say which
    return sorted(problems, key=lambda x: x.line or 0)


def check_entries(raw: Mapping[str, Any], source: Source) -> list[Problem]:
    """Every problem across entries, in file order."""
    out = _timezone(raw, source)
    tz = ZoneInfo(_forum(raw).get("timezone", "UTC"))
    out += _schedule(raw, source, tz)
    out += _same_nicks(raw, source)
    out += _host_plays(raw, source)
    out += _replaced_slots(raw, source)
    return sorted(out, key=lambda p: p.line or 0)


_SECRET_KEYS = ("password", "passwd", "pass", "token", "cookie", "sid", "telegram_token")
_NICK_TABLES = ("players", "aliases")
"""Tables keyed by players' nicks: a player called «Token» or «sid» is no credential."""


def secrets(raw: Mapping[str, Any], source: Source, where: tuple[str, ...] = ()) -> list[Problem]:
    """Credentials never live in ``referee.toml`` (the value is never repeated)."""
    out: list[Problem] = []
    for key, value in raw.items():
        at = (*where, key)
        if not where and key in _NICK_TABLES:
            continue
        if key.lower() in _SECRET_KEYS:
            out.append(Problem(
                f"в referee.toml секретный ключ {'.'.join(at)}: паролям и токенам не место в "
                "файле", source.line(at),
                "удалите эту строку и задайте REFEREE_TELEGRAM_TOKEN (токен бота) в окружении"
                if "token" in key.lower() else
                "удалите эту строку и задайте REFEREE_PASSWORD в окружении "
                "(или referee спросит пароль сам)"))
        elif isinstance(value, Mapping):
            out += secrets(value, source, at)
    return out


def _forum(raw: Mapping[str, Any]) -> Mapping[str, Any]:
    forum = raw.get("forum")
    return forum if isinstance(forum, Mapping) else {}


def _timezone(raw: Mapping[str, Any], source: Source) -> list[Problem]:
    forum = _forum(raw)
    if "timezone" in forum or not forum.get("url") or forum.get("snapshot"):
        return []
    return [Problem(
        "[forum] timezone не указан: без него все дедлайны считаются по UTC "
        "(на московском форуме — на 3 часа раньше)", source.line(("forum",)),
        'добавьте в [forum] часовой пояс форума, например timezone = "Europe/Moscow"')]


# ------------------------------------------------------------------------- schedule

@dataclass(frozen=True, slots=True)
class _Entry:
    index: int
    day: int
    start: datetime
    deadline: datetime
    night_deadline: datetime | None
    line: int | None

    @property
    def where(self) -> str:
        at = f"schedule.days[{self.index}]"
        return f"({at}, строка {self.line})" if self.line else f"({at})"

    @property
    def name(self) -> str:
        return f"день {self.day} {self.where}"


def _entries(raw: Mapping[str, Any], source: Source, tz: ZoneInfo) -> Iterator[_Entry]:
    schedule = raw.get("schedule")
    days = schedule.get("days") if isinstance(schedule, Mapping) else None
    for i, d in enumerate(days if isinstance(days, list) else []):
        where = ("schedule", "days", i)
        nd = d.get("night_deadline")
        yield _Entry(
            i, d.get("day", i + 1), local_time(d["start"], tz, label((*where, "start"))),
            local_time(d["deadline"], tz, label((*where, "deadline"))),
            local_time(nd, tz, label((*where, "night_deadline"))) if nd is not None else None,
            source.line(where))


def _schedule(raw: Mapping[str, Any], source: Source, tz: ZoneInfo) -> list[Problem]:
    out: list[Problem] = []

    def at(moment: datetime) -> str:
        return f"{moment.astimezone(tz):%d.%m.%Y %H:%M}"

    entries = list(_entries(raw, source, tz))
    for e in entries:
        if e.deadline <= e.start:
            out.append(Problem(f"{e.name}: дедлайн {at(e.deadline)} не позже начала "
                               f"{at(e.start)}", e.line, "дедлайн дня — после его начала"))
        if e.night_deadline is not None and e.night_deadline <= e.deadline:
            out.append(Problem(f"{e.name}: конец ночи {at(e.night_deadline)} не позже "
                               f"дедлайна дня {at(e.deadline)}", e.line,
                               "ночь идёт после дедлайна дня"))
    by_day: dict[int, _Entry] = {}
    for e in entries:
        if e.day in by_day:
            out.append(Problem(f"{e.name} повторяет {by_day[e.day].name}", e.line,
                               "у каждого дня — одна запись"))
        by_day.setdefault(e.day, e)
    ordered = [by_day[n] for n in sorted(by_day)]
    if ordered and ordered[0].day != 1:
        out.append(Problem(f"расписание начинается с дня {ordered[0].day}: нет дня 1",
                           ordered[0].line, "дни нумеруются с 1 подряд"))
    for a, b in zip(ordered, ordered[1:], strict=False):
        out += _between(a, b, at)
    return out


def _between(a: _Entry, b: _Entry, at: Any) -> list[Problem]:
    if b.day != a.day + 1:
        missing = ", ".join(str(n) for n in range(a.day + 1, b.day))
        return [Problem(f"после дня {a.day} {a.where} идёт {b.name}: нет дня {missing}", b.line,
                        "дни нумеруются подряд: добавьте пропущенный или исправьте номер")]
    if b.start < a.deadline:
        return [Problem(f"{b.name} начинается {at(b.start)}, раньше дедлайна: {a.name} идёт "
                        f"до {at(a.deadline)}", b.line, "окна дней не должны пересекаться")]
    if a.night_deadline is not None and a.night_deadline > b.start:
        return [Problem(f"ночь {a.day} {a.where} кончается {at(a.night_deadline)}, позже "
                        f"начала: {b.name} начинается {at(b.start)}", b.line,
                        "ночь кончается не позже начала следующего дня")]
    return []


# ------------------------------------------------------------------------- nicks

def _spellings(raw: Mapping[str, Any]) -> Iterator[tuple[tuple[str, ...], str, str]]:
    """(where, spelling, the player it names) for every nick and alias."""
    players = raw.get("players")
    for nick in players if isinstance(players, Mapping) else ():
        yield ("players", nick), nick, nick
    aliases = raw.get("aliases")
    for nick, spellings in (aliases.items() if isinstance(aliases, Mapping) else ()):
        for s in [spellings] if isinstance(spellings, str) else spellings:
            yield ("aliases", nick), s, nick


def _same_nicks(raw: Mapping[str, Any], source: Source) -> list[Problem]:
    out: list[Problem] = []
    seen: dict[str, tuple[tuple[str, ...], str, str]] = {}
    for where, spelling, owner in _spellings(raw):
        key = nick_key(spelling)
        first = seen.get(key)
        if first is None:
            seen[key] = (where, spelling, owner)
            continue
        if first[2] == owner and where[0] == "aliases":
            continue  # an alias that spells its own player's nick: nothing to mix up
        line = source.line(where)
        first_line = source.line(first[0])
        out.append(Problem(
            f"{spelling!r} ({label(where)}) и {first[1]!r} ({label(first[0])}"
            + (f", строка {first_line}" if first_line else "")
            + ") — для подсчёта голосов это один ник (регистр, ё/е, похожие латинские и "
            "русские буквы, невидимые знаки)", line,
            "оставьте одно написание; другое, если нужно, — в [aliases] этого игрока"))
    return out


def _host_plays(raw: Mapping[str, Any], source: Source) -> list[Problem]:
    game = raw.get("game")
    host = game.get("host") if isinstance(game, Mapping) else None
    players = raw.get("players")
    if not isinstance(host, str) or not host.strip() or not isinstance(players, Mapping):
        return []
    for nick in players:
        if nick_key(nick) == nick_key(host):
            return [Problem(
                f"ведущий {host!r} ([game] host, строка {source.line(('game', 'host'))}) "
                f"записан среди игроков: players.{nick!r}", source.line(("players", nick)),
                "ведущий не играет и не голосует (V5): уберите его из [players]")]
    return []


def _replaced_slots(raw: Mapping[str, Any], source: Source) -> list[Problem]:
    players = raw.get("players")
    nicks = list(players) if isinstance(players, Mapping) else []
    replacements = raw.get("replacements")
    out: list[Problem] = []
    for i, r in enumerate(replacements if isinstance(replacements, list) else []):
        slot = r.get("slot") if isinstance(r, Mapping) else None
        if isinstance(slot, str) and slot not in nicks:
            near = difflib.get_close_matches(slot, nicks, n=1)
            where = ("replacements", i, "slot")
            out.append(Problem(
                f"{label(where)} = {slot!r}: такого игрока нет в [players]"
                + (f" — может быть, {near[0]!r}?" if near else ""), source.line(where),
                "slot — ник того, кого заменяют, так же, как в [players]"))
    return out


# ------------------------------------------------------------------------- missing parts

INIT_HINT = 'весь файл по теме игры напишет referee init "ссылка на тему"'


def missing_parts(raw: Mapping[str, Any], source: Source) -> list[Problem]:
    """Every part a game cannot do without that the file lacks — the topic, the host, the
    players — all at once (an empty file is three mistakes, told in one run). When more
    than one is missing the file was barely started: the first also points to ``init``."""
    game = raw.get("game") if isinstance(raw.get("game"), Mapping) else {}
    out: list[Problem] = []
    if not _forum(raw).get("url") and not _forum(raw).get("snapshot"):
        out.append(Problem(
            "в [forum] нужен url (тема игры) или snapshot (папка сохранённых страниц)",
            source.line(("forum",)),
            'добавьте в [forum]: url = "https://ваш-форум/viewtopic.php?t=123"'))
    if "host" not in game:
        out.append(Problem(
            "нет [game] host: нужен ник ведущего на форуме (сообщения ведущего никогда не "
            "голоса)", source.line(("game",)), 'добавьте в [game]: host = "ВашНик"'))
    if "players" not in raw:
        out.append(Problem(
            "нет [players]: без списка игроков не сопоставить ники в голосах", None,
            'добавьте раздел [players]: "Ник" = "мирный житель", '
            '"Ник2" = { role = "мафия", clan = "A" }'))
    if len(out) > 1:
        first = out[0]
        out[0] = Problem(first.text, first.line, f"{first.hint}; {INIT_HINT}")
    return out

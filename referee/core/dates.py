"""Forum date text → timezone-aware UTC datetime (docs/rules.md T2).

phpBB prints dates in the *viewer's* timezone and format, translated token by token by the
language pack (``strtr`` over the English output, research §4.1): «29 ноя 2026, 14:35»,
«Вс ноя 29, 2026 14:35», «Sun Nov 29, 2026 2:35 pm», «Январь 1, 2007, 1:37 pm»,
«Янв 1, '07, 13:37», a custom ``d.m.Y H:i`` («10.03.2024 21:15», day first), and with
``|…|`` formats the relative «Сегодня, 14:35» / «Вчера» / «Завтра» / «5 минут назад».

Absolute forms go to python-dateutil with a parserinfo that knows the Russian month and
weekday names in every case form phpBB and people write (``янв``, ``январь``, ``января``,
``май``). ``fuzzy`` is never used: it silently turns «10 мар 2024» into 1 October
(research §4.2). Relative forms are resolved against ``now`` in the forum's timezone before
dateutil sees the text. Anything else raises :class:`~referee.core.errors.DateParseError`.
"""

from __future__ import annotations

import re
import warnings
from datetime import UTC, datetime, time, timedelta, tzinfo
from functools import lru_cache

from dateutil import parser as _du

from referee.core.errors import DateParseError

__all__ = ["parse_forum_date"]


class _ForumParserInfo(_du.parserinfo):
    """English + Russian month/weekday names as phpBB language packs and players write them."""

    MONTHS = [
        ("Jan", "January", "янв", "январь", "января", "январе"),
        ("Feb", "February", "фев", "февр", "февраль", "февраля", "феврале"),
        ("Mar", "March", "мар", "март", "марта", "марте"),
        ("Apr", "April", "апр", "апрель", "апреля", "апреле"),
        ("May", "май", "мая", "мае"),
        ("Jun", "June", "июн", "июнь", "июня", "июне"),
        ("Jul", "July", "июл", "июль", "июля", "июле"),
        ("Aug", "August", "авг", "август", "августа", "августе"),
        ("Sep", "Sept", "September", "сен", "сент", "сентябрь", "сентября", "сентябре"),
        ("Oct", "October", "окт", "октябрь", "октября", "октябре"),
        ("Nov", "November", "ноя", "нояб", "ноябрь", "ноября", "ноябре"),
        ("Dec", "December", "дек", "декабрь", "декабря", "декабре"),
    ]
    WEEKDAYS = [
        ("Mon", "Monday", "пн", "пнд", "понедельник"),
        ("Tue", "Tuesday", "вт", "втр", "вторник"),
        ("Wed", "Wednesday", "ср", "срд", "среда"),
        ("Thu", "Thursday", "чт", "чтв", "четверг"),
        ("Fri", "Friday", "пт", "птн", "пятница"),
        ("Sat", "Saturday", "сб", "сбт", "суббота"),
        ("Sun", "Sunday", "вс", "вск", "воскресенье"),
    ]
    # «1 января 2007 в 13:37» — the preposition carries no date information.
    JUMP = [*_du.parserinfo.JUMP, "в"]


_PARSER = _du.parser(_ForumParserInfo())

_SPACES = re.compile(r"[\s\u00a0\u202f]+")
# «2007 г.» / «2007 года»: dateutil cannot skip the abbreviation (research §4.2).
_YEAR_WORD = re.compile(r"(\d{4})\s*(?:г\.|года\b|г\b)", re.IGNORECASE)
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
# «2016-02-01, 02:21» (vBulletin's Y-m-d): a date that starts with its year is year, month,
# day; dateutil's dayfirst would read it year, day, month.
_YEAR_FIRST = re.compile(r"^\d{4}[-./]\d{1,2}[-./]\d{1,2}\b")
# A date without a year is ambiguous across New Year; phpBB's offered formats all carry one.
_HAS_YEAR = re.compile(r"\d{4}|'\d{2}\b|\b\d{1,2}[./-]\d{1,2}[./-]\d{2}\b")

_RELATIVE_DAY = re.compile(
    r"^(?P<word>сегодня|вчера|завтра|today|yesterday|tomorrow)\b\s*[,:]?\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
_DAY_OFFSET = {
    "сегодня": 0, "today": 0,
    "вчера": -1, "yesterday": -1,
    "завтра": 1, "tomorrow": 1,
}
_JUST_NOW = re.compile(r"^(?:менее минуты назад|less than a minute ago)$", re.IGNORECASE)
_AGO = re.compile(
    r"^(?P<n>\d+)\s+(?P<unit>минуту|минуты|минут|мин\.?|minutes?|час|часа|часов|hours?)"
    r"\s+(?:назад|ago)$",
    re.IGNORECASE,
)


def parse_forum_date(text: str, *, tz: tzinfo, now: datetime) -> datetime:
    """The UTC instant a forum date string denotes (docs/rules.md T2).

    ``tz`` is the timezone the page was rendered in (the account's phpBB setting, or a
    fixed offset a board prints in its footer, as vBulletin does);
    ``now`` is when the page was fetched (aware, any zone) and anchors «Сегодня» and
    «N минут назад». «N минут назад» means *at most* N whole minutes before ``now``
    (phpBB floors); the latest possible instant, ``now - N min``, is returned.
    """
    if now.tzinfo is None:
        raise ValueError("parse_forum_date needs an aware 'now'")
    try:
        return _parse(text, tz, now)
    except DateParseError:
        raise
    except (OverflowError, ValueError):
        # Dates beyond year 1…9999 once moved to UTC, «99999999999 минут назад», a «+99:00»
        # offset: text no forum prints for a real post, so it is unreadable, not a crash.
        raise DateParseError(f"Не удалось разобрать дату «{text}».", _HINT) from None


def _parse(text: str, tz: tzinfo, now: datetime) -> datetime:
    clean = _SPACES.sub(" ", text).strip().rstrip(".,;").strip()
    if not clean:
        raise DateParseError("Пустая дата на странице форума.", _HINT)
    local_now = now.astimezone(tz)

    if _JUST_NOW.match(clean):
        return now.astimezone(UTC)
    ago = _AGO.match(clean)
    if ago:
        n = int(ago.group("n"))
        unit = ago.group("unit").lower()
        delta = timedelta(hours=n) if unit.startswith(("час", "hour")) else timedelta(minutes=n)
        return (now - delta).astimezone(UTC)

    rel = _RELATIVE_DAY.match(clean)
    if rel:
        day = local_now.date() + timedelta(days=_DAY_OFFSET[rel.group("word").lower()])
        rest = rel.group("rest").strip()
        clock = _parse_clock(rest, text) if rest else time(0, 0)
        return _to_utc(datetime.combine(day, clock), tz)

    if _ISO.match(clean):
        try:
            parsed = datetime.fromisoformat(clean.replace("Z", "+00:00"))
        except ValueError:
            raise DateParseError(f"Не удалось разобрать дату «{text}».", _HINT) from None
        return _to_utc(parsed, tz)

    clean = _YEAR_WORD.sub(r"\1", clean)
    if not _HAS_YEAR.search(clean):
        raise DateParseError(f"В дате «{text}» нет года — такую дату нельзя разобрать "
                             "однозначно.", _HINT)
    return _to_utc(_parse_absolute(clean, local_now.year, text), tz)


_HINT = ("Проверьте формат даты в настройках учётной записи ведущего на форуме "
         "(Личный раздел → Настройки форума); поддерживаются форматы phpBB по умолчанию.")


def _to_utc(value: datetime, tz: tzinfo) -> datetime:
    if value.tzinfo is None:
        # fold=0: an ambiguous wall time in a DST change is read as its first occurrence.
        value = value.replace(tzinfo=tz)
    return value.astimezone(UTC)


@lru_cache(maxsize=8192)
def _parse_absolute(clean: str, default_year: int, original: str) -> datetime:
    # Cached: a topic page repeats the same date strings (profiles, notices, quotes).
    try:
        with warnings.catch_warnings():
            # «22 ноя 2026, 14:26 MSK» (a board format with PHP's «T»): phpBB prints every
            # date in the viewer's zone, which is ``tz``; the abbreviation adds nothing, and
            # dateutil's warning about it would only reach the host's terminal.
            warnings.simplefilter("ignore", _du.UnknownTimezoneWarning)
            return _PARSER.parse(clean, default=datetime(default_year, 1, 1),
                                 dayfirst=not _YEAR_FIRST.match(clean))
    except (ValueError, OverflowError):
        raise DateParseError(f"Не удалось разобрать дату «{original}».", _HINT) from None


@lru_cache(maxsize=1024)
def _parse_clock(rest: str, original: str) -> time:
    try:
        parsed = _PARSER.parse(rest, default=datetime(2000, 1, 1))
    except (ValueError, OverflowError):
        raise DateParseError(f"Не удалось разобрать время в «{original}».", _HINT) from None
    if parsed.date() != datetime(2000, 1, 1).date():
        # «Сегодня, 5 мая» — a calendar date after a relative word makes no sense.
        raise DateParseError(f"Не удалось разобрать время в «{original}».", _HINT)
    return parsed.time()

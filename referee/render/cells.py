"""Small pieces the status and history texts share: times in the forum's zone, a
monospace table, and user text made harmless for a terminal or a CSV.

In BBCode user text goes through :func:`referee.core.bbcode.escape` (no tag can start in a
nick); in plain text control characters are dropped (a nick or a PM line cannot move the
cursor or recolour the host's terminal); in a CSV a cell cannot start a formula.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, tzinfo

from referee.core.bbcode import escape

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def plain(text: str) -> str:
    """User text for a terminal: no control characters (newlines and tabs stay)."""
    return _CONTROL.sub("", text)


def user(text: str, bbcode: bool) -> str:
    """User text as the format needs it."""
    return escape(plain(text)) if bbcode else plain(text)


def csv_cell(text: str) -> str:
    """A spreadsheet reads a cell that starts with = + - @ as a formula: such a cell gets a
    leading apostrophe, as spreadsheets themselves write literal text."""
    text = plain(text)
    return "'" + text if text.startswith(_FORMULA_START) else text


def when(at: datetime | None, tz: tzinfo) -> str:
    return at.astimezone(tz).strftime("%d.%m %H:%M") if at is not None else "—"


def iso(at: datetime | None) -> str | None:
    return at.astimezone(UTC).isoformat() if at is not None else None


def left(delta: timedelta) -> str:
    """«2 д 3 ч», «3 ч 15 мин», «12 мин», «меньше минуты»."""
    minutes = int(delta.total_seconds() // 60)
    if minutes < 1:
        return "меньше минуты"
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return f"{days} д {hours} ч" if hours else f"{days} д"
    if hours:
        return f"{hours} ч {mins} мин" if mins else f"{hours} ч"
    return f"{mins} мин"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A monospace table (for a terminal, or inside ``[code]`` on the forum)."""
    widths = [max(len(r[i]) for r in (headers, *rows)) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    return "\n".join([line(headers), "  ".join("-" * w for w in widths), *map(line, rows)])

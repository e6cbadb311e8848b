"""Showing an :class:`~referee.rules.day.activity.ActivityReport` to the host and to the players.

Three formats:

- ``bbcode``: a public part ready to paste into the game topic (who leaves the game and
  why, docs/rules.md A1/A2 in words — the rule codes stay in the host-only part —, with the
  revealed role when the setting says so, and the A3 note; before the turn is over, a
  reminder for those who still have time), then the host-only part below the one divider
  (:mod:`.parts`) with the details table in a ``[code]`` block, at most 100 columns wide.
  Every nick and every text the host typed (excuse reasons, causes of death) goes through
  :func:`referee.core.bbcode.escape`.
- ``text``: the same for a terminal, as a readable table.
- ``json``: ``turn``, ``final``, ``rows``, ``removed`` (plus ``warnings`` and the window),
  times in ISO 8601 UTC.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, tzinfo
from typing import Any, Literal

from referee.core.bbcode import b, escape
from referee.core.roles import role_name_ru
from referee.render.parts import HOST_ONLY
from referee.rules.day.activity import ActivityFlag, ActivityReport, ActivityRow

Format = Literal["bbcode", "text", "json"]

HOST_ONLY_HEADER = HOST_ONLY
"""The divider of every command (:data:`referee.render.parts.HOST_ONLY`)."""

TABLE_WIDTH = 100
"""The host's table fits a terminal of this many columns."""
NICK_WIDTH = 20
"""A longer nick is cut in the table (the public part always shows it whole)."""

_STATUS_RU = {
    "ok": "в игре",
    "excused": "причина",
    "warning": "предупреждение",
    "removed": "выбывает",
    "died": "погиб(ла) в этом ходе",
}
_VOTE_RU = {"yes": "да", "no": "нет", "rejected": "не засчитан"}
_TZ_LABELS = {"Europe/Moscow": "МСК"}


def render_activity(
    report: ActivityReport,
    fmt: Format = "bbcode",
    roles: Mapping[str, str] | None = None,
    reveal_roles: bool = False,
    tz: tzinfo = UTC,
) -> str:
    """Render ``report`` as ``fmt``. ``roles`` maps nick → role id (or Russian role name);
    a removed player's role is shown only when ``reveal_roles`` is true
    (``[rules] reveal_role_on_removal``). Times are shown in ``tz`` (the forum's zone)."""
    role_of = dict(roles or {}) if reveal_roles else {}
    if fmt == "bbcode":
        return _bbcode(report, role_of, tz)
    if fmt == "text":
        return _text(report, role_of, tz)
    if fmt == "json":
        return _json(report, role_of)
    raise ValueError(f"неизвестный формат {fmt!r}: bbcode, text или json")


# --------------------------------------------------------------------------- shared pieces


def _tz_label(tz: tzinfo) -> str:
    key = getattr(tz, "key", None) or str(tz)
    return _TZ_LABELS.get(key, key)


def _when(dt: datetime | None, tz: tzinfo) -> str:
    return dt.astimezone(tz).strftime("%d.%m %H:%M") if dt is not None else "—"


def _role_ru(nick: str, role_of: Mapping[str, str]) -> str | None:
    role = role_of.get(nick)
    if role is None:
        return None
    return role_name_ru(role) or role


def _title(report: ActivityReport, tz: tzinfo) -> str:
    w = report.window
    return (
        f"Активность: ход {report.turn} "
        f"({_when(w.start, tz)} – {_when(w.end, tz)} {_tz_label(tz)})"
    )


def _state_line(report: ActivityReport, tz: tzinfo) -> str:
    label = _tz_label(tz)
    if report.final:
        return "Итог хода."
    if report.votes_final:
        return (
            f"Голосование дня {report.turn} закрыто; ход ещё идёт до "
            f"{_when(report.window.end, tz)} {label}."
        )
    return (
        f"Предварительно: голосование дня {report.turn} — до "
        f"{_when(report.window.day_deadline, tz)} {label}, ход — до "
        f"{_when(report.window.end, tz)} {label}."
    )


def _removal_sentence(flag: ActivityFlag, role: str | None, nick: str) -> str:
    """``nick`` and ``role`` are already escaped (BBCode) or plain (text). The nick opens
    the line, before the dash, where its form never changes."""
    role_part = f" Роль: {role}." if role else ""
    return (
        f"{nick} — {flag.explanation}.{role_part} "
        f"Выбывание — {flag.takes_effect}."
    )


def _warning_sentence(flag: ActivityFlag, nick: str) -> str:
    return f"{nick} — {flag.explanation}."


# --------------------------------------------------------------------------- table


def _headers(turn: int) -> tuple[str, ...]:
    return ("Ник", "Сообщ.", "Последнее", f"Голос д{turn}", "Пропуски", "Статус")


def _table_rows(report: ActivityReport, tz: tzinfo) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for row in report.rows:
        vote = _VOTE_RU[row.vote]
        if row.vote == "no" and not report.votes_final:
            vote = "ещё нет"
        out.append((
            row.nick,
            str(row.posts),
            _last_post(row, tz),
            vote,
            ", ".join(f"д{d}" for d in row.missed_days) or "—",
            _status(row, tz),
        ))
    return out


def _last_post(row: ActivityRow, tz: tzinfo) -> str:
    if row.last_post_at is None and row.last_seen_at is not None:
        return f"раньше {_when(row.last_seen_at, tz)}"
    return _when(row.last_post_at, tz)


def _status(row: ActivityRow, tz: tzinfo) -> str:
    """One cell: the status, the rules that flag it, the host's excuse or the death."""
    if row.death is not None:
        cause = row.death.cause.removeprefix("погиб(ла) ") if row.death.cause else ""
        return f"погиб(ла) {_when(row.death.at, tz)}" + (f", {cause}" if cause else "")
    status = _STATUS_RU[row.status]
    if row.status == "excused" and row.excused:
        status += f": {row.excused}"
    if row.rules:
        status += f" ({', '.join(row.rules)})"
    return status


def _format_table(headers: Sequence[str], rows: Sequence[Sequence[str]],
                  width: int = TABLE_WIDTH) -> str:
    """A plain table no wider than ``width``: a nick longer than :data:`NICK_WIDTH` is cut
    with «…», and the last column (the status, the longest text) wraps onto more lines."""
    widths = [max(len(r[i]) for r in (headers, *rows)) for i in range(len(headers))]
    widths[0] = min(widths[0], NICK_WIDTH)
    room = width - 3 * (len(headers) - 1) - sum(widths[:-1])
    widths[-1] = max(min(widths[-1], room), 10)

    def cell(text: str, w: int) -> str:
        return (text if len(text) <= w else text[: w - 1] + "…").ljust(w)

    def lines(cells: Sequence[str]) -> list[str]:
        *first, last = cells
        parts = textwrap.wrap(last, widths[-1]) or [""]
        head = [cell(c, w) for c, w in zip(first, widths, strict=False)]
        blank = [" " * w for w in widths[:-1]]
        return [" | ".join([*(head if i == 0 else blank), part]).rstrip()
                for i, part in enumerate(parts)]

    rule = "-+-".join("-" * w for w in widths)
    return "\n".join([*lines(headers), rule, *(ln for r in rows for ln in lines(r))])


_A3_LEGEND = {
    "morning": "за A2 выбывают в конце дня, за A1 — с началом следующего дня",
    "end_of_day": "выбывание в конце дня (за A1 — в конце следующего дня)",
}
"""When removals take effect, by ``silent_leave`` (the host's table: rule codes allowed)."""


def _legend(report: ActivityReport, tz: tzinfo) -> str:
    a2 = f"пропусков голосования: {report.missed_vote_limit}" + (
        " подряд" if report.missed_votes_consecutive else " всего"
    )
    return (
        f"A1 — ни одного сообщения за ход; A2 — {a2};\n"
        f"A3 — {_A3_LEGEND.get(report.silent_leave, _A3_LEGEND['morning'])}.\n"
        f"Проверено: {_when(report.now, tz)} {_tz_label(tz)}."
    )


# --------------------------------------------------------------------------- formats


def _bbcode(report: ActivityReport, role_of: Mapping[str, str], tz: tzinfo) -> str:
    sections: list[list[str]] = [[b(_title(report, tz)), _state_line(report, tz)]]
    if report.removed:
        items = []
        for flag in report.removed:
            role = _role_ru(flag.nick, role_of)
            sentence = _removal_sentence(
                flag, b(escape(role)) if role else None, b(escape(flag.nick))
            )
            items.append("[*]" + sentence)
        sections.append([b("Покидают игру:"), "[list]", *items, "[/list]", report.note])
    elif report.final:
        sections.append(["Никто не покидает игру за неактивность."])
    if report.warnings:
        items = ["[*]" + _warning_sentence(f, b(escape(f.nick))) for f in report.warnings]
        sections.append([b("Напоминание:"), "[list]", *items, "[/list]"])
    table = _format_table(
        _headers(report.turn), [[escape(c) for c in r] for r in _table_rows(report, tz)]
    )
    sections.append([HOST_ONLY_HEADER, _legend(report, tz), "[code]", table, "[/code]"])
    return "\n\n".join("\n".join(lines) for lines in sections) + "\n"


def _text(report: ActivityReport, role_of: Mapping[str, str], tz: tzinfo) -> str:
    sections: list[list[str]] = [[_title(report, tz), _state_line(report, tz)]]
    if report.removed:
        items = [
            "  - " + _removal_sentence(f, _role_ru(f.nick, role_of), f.nick)
            for f in report.removed
        ]
        sections.append(["Покидают игру:", *items, report.note])
    elif report.final:
        sections.append(["Никто не покидает игру за неактивность."])
    if report.warnings:
        items = ["  - " + _warning_sentence(f, f.nick) for f in report.warnings]
        sections.append(["Предупреждения (ещё есть время):", *items])
    table = _format_table(_headers(report.turn), _table_rows(report, tz))
    sections.append([HOST_ONLY_HEADER, _legend(report, tz), table])
    return "\n\n".join("\n".join(lines) for lines in sections) + "\n"


def _iso(dt: datetime | None) -> str | None:
    return dt.astimezone(UTC).isoformat() if dt is not None else None


def _row_json(row: ActivityRow) -> dict[str, Any]:
    return {
        "nick": row.nick,
        "posts": row.posts,
        "last_post_at": _iso(row.last_post_at),
        "last_seen_at": _iso(row.last_seen_at),
        "vote": row.vote,
        "missed_days": list(row.missed_days),
        "excused": row.excused,
        "status": row.status,
        "rules": list(row.rules),
        "death": (
            {"at": _iso(row.death.at), "cause": row.death.cause} if row.death else None
        ),
    }


def _flag_json(flag: ActivityFlag, role_of: Mapping[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "nick": flag.nick,
        "rule": flag.rule,
        "explanation": flag.explanation,
        "effective_after_day": flag.effective_after_day,
        "effective_before_day": flag.effective_before_day,
    }
    if flag.nick in role_of:
        out["role"] = role_of[flag.nick]
        out["role_ru"] = _role_ru(flag.nick, role_of)
    return out


def _json(report: ActivityReport, role_of: Mapping[str, str]) -> str:
    w = report.window
    data = {
        "turn": report.turn,
        "final": report.final,
        "votes_final": report.votes_final,
        "now": _iso(report.now),
        "window": {
            "start": _iso(w.start),
            "day_deadline": _iso(w.day_deadline),
            "end": _iso(w.end),
            "end_basis": w.end_basis,
        },
        "missed_vote_limit": report.missed_vote_limit,
        "missed_votes_consecutive": report.missed_votes_consecutive,
        "rows": [_row_json(r) for r in report.rows],
        "removed": [_flag_json(f, role_of) for f in report.removed],
        "warnings": [_flag_json(f, {}) for f in report.warnings],
        "note": report.note,
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"

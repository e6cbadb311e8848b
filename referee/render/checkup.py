"""``referee check`` as the host reads it: the schedule as a table in the forum's time, the
roster with roles and clans and the counts per side against the setup, the rule settings
that differ from docs/rules.md, what the topic says, then every warning and error."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime, tzinfo
from typing import Any

from referee.core.roles import role_ru
from referee.host.checkup import Checkup

_WEEKDAYS = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")
_SIDES = (("town", "город"), ("clan", "кланы"), ("maniac", "маньяк"), ("none", "без роли"))


def _when(at: datetime | None, tz: tzinfo) -> str:
    if at is None:
        return "—"
    local = at.astimezone(tz)
    return f"{_WEEKDAYS[local.weekday()]} {local:%d.%m.%Y %H:%M}"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in (headers, *rows)) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        return "  " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    return [line(headers), "  " + "-+-".join("-" * w for w in widths), *map(line, rows)]


def _sides(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{name} {counts[side]}" for side, name in _SIDES if counts.get(side))


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return f"{v:g}" if isinstance(v, float) else str(v)


def _understood(c: Checkup) -> list[str]:
    config = c.config
    assert config is not None
    tz = config.tz
    title = f"«{config.title}», " if config.title else ""
    forum = config.forum.board
    where = f"снимок {forum.snapshot}" if forum.snapshot else (forum.url or "—")
    out = [f"Игра {title}ведущий {config.host}; форум: {where}; часовой пояс "
           f"{forum.timezone} (всё время ниже — форумное).", ""]
    out.append(f"Расписание ({len(c.schedule)} дн.):" if c.schedule else "Расписания нет.")
    if c.schedule:
        out += _table(("день", "начало", "дедлайн", "конец ночи"),
                      [(str(d.day), _when(d.start, tz), _when(d.deadline, tz),
                        _when(d.night_deadline, tz)) for d in c.schedule])
    source = (f"роли из записанной раздачи (--seed {c.dealt_seed})" if c.dealt_seed is not None
              else "роли из referee.toml")
    out += ["", f"Игроки ({len(config.players)}), {source}:"]
    for p in config.players:
        role = (role_ru(p.role) + (f", клан {p.clan}" if p.clan else "")) if p.role_given \
            else "роль не роздана"
        out.append(f"  {p.nick} — {role}")
    clans = Counter(p.clan for p in config.players if p.clan and p.role_given)
    out.append(f"По сторонам: {_sides(c.sides) or '—'}; расклад {c.setup_source}: "
               f"{_sides(c.setup_sides) or '—'}.")
    if clans:
        out.append("Кланы: " + ", ".join(f"{name} ({n})" for name, n in clans.items()) + ".")
    out.append("")
    if c.rules_changed:
        out.append("Правила, отличные от решений по умолчанию (docs/rules.md):")
        out += [f"  {key} = {_value(v)} (по умолчанию {_value(d)})"
                for key, v, d in c.rules_changed]
    else:
        out.append("Правила: все по умолчанию (docs/rules.md).")
    return out


def _topic(c: Checkup) -> list[str]:
    if c.topic_skipped:
        return ["Тема: не открывалась (--offline)."]
    t = c.topic
    if t is None:
        return []
    posts = f", сообщений {t.posts}" if t.posts is not None else ""
    first = f", первое сообщение — {t.first_author}" if t.first_author else ""
    login = f"; вход как {t.logged_in_as}" if t.logged_in_as else ""
    return [f"Тема: движок {t.engine}, «{t.title}», страниц {t.pages}{posts}{first}{login}."]


def render_checkup(c: Checkup) -> str:
    """The whole report; the last line says whether the game can run with this file."""
    out = [f"Проверка {c.path}", ""]
    if c.config is not None:
        out += _understood(c)
        out += _topic(c)
    if c.warnings:
        out += ["", f"Предупреждения ({len(c.warnings)}):", *(f"  ! {w}" for w in c.warnings)]
    if c.errors:
        out += ["", f"Ошибки ({len(c.errors)}):", *(f"  ✗ {e}" for e in c.errors)]
    out.append("")
    out.append("Итог: ошибок нет." + (" Предупреждения — посмотрите." if c.warnings else "")
               if c.ok else f"Итог: ошибок — {len(c.errors)}; исправьте их, прежде чем "
               "считать голоса.")
    return "\n".join(out) + "\n"

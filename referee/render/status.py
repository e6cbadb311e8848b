"""``referee status`` for the host: one screen of text, BBCode with the same lines (for the
hosts' own section of the forum), or JSON with the same facts.

Host-only: it shows every role. Nicks, PM lines and the host's reasons are user text: the
text drops control characters from them (:func:`referee.render.cells.plain`).
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal
from zoneinfo import ZoneInfo

from referee.core.bbcode import ZWSP, b, escape
from referee.core.roles import DEFAULT_CLAN, action_ru, role_ru
from referee.host.status import Gone, Living, OpenItem, PhaseNow, Status
from referee.render.cells import iso, left, plain, when
from referee.rules.decisions import (
    Decision,
    Excuse,
    Hanging,
    NightEdit,
    Removal,
    ScheduleChange,
    VoteDecision,
)

Format = Literal["text", "bbcode", "json"]

_NIGHT_CAUSES = {
    "mafia": "выстрел мафии{who}",
    "maniac": "удар маньяка {who}",
    "ambush": "засада маньяка {who}",
    "kamikaze": "подрыв камикадзе {who}",
    "ninja": "удар ниндзя {who}",
    "harakiri": "харакири (второй промах, N10)",
    "testament": "завещание ниндзя {who}",
}
_TAG = re.compile(r"\[/?(?:b|i|u|color|url|spoiler|quote|code|list|\*)(?:=[^\]]*)?\]")
_REMOVAL_RULES = {"A1": "пропал(а) без вести", "A2": "пропуски голосования",
                  "host": "решение ведущего"}


def render_status(status: Status, fmt: Format = "text") -> str:
    if fmt == "json":
        return json.dumps(status_json(status), ensure_ascii=False, indent=2) + "\n"
    if fmt == "bbcode":
        return status_bbcode(status)
    if fmt != "text":
        raise ValueError(f"неизвестный формат {fmt!r}: text, bbcode или json")
    return status_text(status)


# ---------------------------------------------------------------------- words

def phase_ru(phase: PhaseNow, tz: ZoneInfo) -> str:
    """«Сейчас: день 2 — до дедлайна 23.11 22:00 осталось 5 ч 10 мин»."""
    rest = f"осталось {left(phase.left)}" if phase.left is not None else ""
    at = when(phase.deadline, tz)
    match phase.kind:
        case "over":
            return "игра окончена."
        case "before":
            return f"игра ещё не началась: день {phase.number} начнётся {at}, {rest}."
        case "day":
            return f"день {phase.number} — дедлайн {at}, {rest}."
        case "night":
            return f"ночь {phase.number} — до конца ночи {at}, {rest}."
        case "break":
            return f"перерыв — день {phase.number} начнётся {at}, {rest}."
    return (f"после дня {phase.number} в расписании больше нет дней: добавьте следующий "
            "([[schedule.days]] или referee tally --day N --start … --deadline …).")


def gone_ru(g: Gone, tz: ZoneInfo) -> str:
    """How and when a player left the game, in the host's words."""
    if g.how == "hanged":
        text = f"повешен(а) в день {g.number} ({when(g.at, tz)})"
    elif g.how == "night":
        causes = "; ".join(night_cause_ru(c, g.nick) for c in g.causes)
        text = f"погиб(ла) ночью {g.number} ({when(g.at, tz)}): {causes}"
    else:
        first = g.rule.split(",")[0].strip()
        why = g.explanation or _REMOVAL_RULES.get(first, g.rule or "решение ведущего")
        rule = f" ({g.rule})" if g.explanation and g.rule else ""
        moment = f"с началом дня {g.number}" if g.at_start else f"в конце дня {g.number}"
        text = f"выбыл(а) {moment}: {plain(why)}{rule}"
    return text if g.recorded else text + " [не записано]"


def night_cause_ru(token: str, nick: str) -> str:
    """A death cause token of the night engine (``mafia:<clan>``, ``kamikaze:<nick>`` …)."""
    kind, _, who = token.partition(":")
    if kind == "kamikaze" and who == nick:
        return "собственный подрыв"
    if kind == "mafia":  # the clan by its name; the one the host did not name, not at all
        who = f" (клан «{who}»)" if who and who != DEFAULT_CLAN else ""
    return _NIGHT_CAUSES.get(kind, kind).format(who=plain(who))


def item_ru(item: OpenItem, tz: ZoneInfo) -> str:
    n = item.number
    match item.kind:
        case "day":
            what = f"День {n}: дедлайн прошёл ({when(item.at, tz)}), итог не записан"
        case "night":
            what = f"Ночь {n} окончена ({when(item.at, tz)}), не разрешена"
        case "activity":
            what = f"Ход {n} окончен: активность не проверена"
        case "pm":
            what = f"Ночь {n}: {item.subject} не прочитано — {plain(item.detail)}"
        case "private":
            first = _untagged(item.detail).splitlines()[0] if item.detail else ""
            what = f"Ночь {n}: не отправлено {plain(item.subject)} — {first}"
        case _:
            reason = f" ({plain(item.detail)})" if item.detail else ""
            what = (f"Решение ведущего от {when(item.at, tz)}: "
                    f"{decision_ru(item.decision, tz)}{reason} — ещё не в подсчёте")
    return f"{what} → {item.command}"


def _untagged(bbcode_text: str) -> str:
    """A PM as the player will read it: without our tags and the escaping's zero-width
    spaces (a player's own «[» was escaped, so it is never taken for a tag)."""
    return plain(_TAG.sub("", bbcode_text)).replace(ZWSP, "")


def decision_ru(d: Decision | None, tz: ZoneInfo) -> str:
    match d:
        case VoteDecision(action="set"):
            return f"голос в сообщении #{d.post_id} — за {plain(d.target or '?')}"
        case VoteDecision():
            word = "засчитан" if d.action == "accept" else "не засчитан"
            return f"голос в сообщении #{d.post_id} {word}"
        case Hanging():
            who = f"вешают {plain(d.hanged)}" if d.hanged else "никого не вешают"
            return f"день {d.day}: {who}"
        case Removal():
            return f"{plain(d.nick)} выбывает после дня {d.after_day}"
        case Excuse():
            return f"{plain(d.nick)} предупредил(а) ведущего, ход {d.turn}"
        case NightEdit(op="drop"):
            return f"ночь {d.night}: заявки {plain(d.actor)} отменены"
        case NightEdit():
            targets = ", ".join(plain(t) for t in (d.targets or ((d.target,) if d.target else ())))
            return (f"ночь {d.night}: заявка ведущего — {plain(d.actor)}: "
                    f"{action_ru(d.action or '')}" + (f" → {targets}" if targets else ""))
        case ScheduleChange():
            return f"день {d.day}: дедлайн {when(d.deadline, tz)}"
    return "решение ведущего"


def _living_ru(p: Living) -> str:
    role = role_ru(p.role)
    if p.dealt_role != p.role:
        role = f"{role_ru(p.dealt_role)}, получил(а) значок комиссара"
    return f"{plain(p.nick)} — {role}{_clan(p.clan)}"


def _clan(clan: str | None) -> str:
    """«, клан «Лисья нора»»; nothing for the one clan the host did not name (its key
    ``mafia`` is ours, and «Мафия» is the role already)."""
    return f", клан «{plain(clan)}»" if clan and clan != DEFAULT_CLAN else ""


# ---------------------------------------------------------------------- formats

def status_text(s: Status) -> str:
    tz = ZoneInfo(s.timezone)
    head = f"{plain(s.title)} — " if s.title else ""
    lines = [f"{head}состояние на {when(s.now, tz)} ({s.timezone}). Только для ведущего.",
             "Сейчас: " + (s.winner_text or phase_ru(s.phase, tz)), ""]
    lines.append(f"В игре ({len(s.living)}):")
    lines += [f"  {_living_ru(p)}" for p in s.living]
    lines.append("")
    lines.append(f"Выбыли ({len(s.gone)}):" if s.gone else "Выбывших нет.")
    for g in s.gone:
        lines.append(f"  {plain(g.nick)} ({role_ru(g.role)}{_clan(g.clan)}) — {gone_ru(g, tz)}")
    lines.append("")
    if s.open:
        lines.append(f"Ещё не сделано ({len(s.open)}):")
        lines += [f"  • {item_ru(i, tz)}" for i in s.open]
    else:
        lines.append("Всё сделано: незаписанных итогов, непрочитанных ЛС и неотправленных "
                     "результатов нет.")
    return "\n".join(lines) + "\n"


def status_bbcode(s: Status) -> str:
    """The text's lines for the forum: every line escaped as it is (a nick's «[» never
    opens a tag), the title and section heads bold, the lists as [list]."""
    out: list[str] = []
    listing = False
    for line in status_text(s).rstrip("\n").split("\n"):
        item = line.startswith("  ")
        if listing and not item:
            out.append("[/list]")
            listing = False
        if item:
            if not listing:
                out.append("[list]")
                listing = True
            out.append("[*]" + escape(line.strip().removeprefix("• ")))
        elif line.endswith(":") or not out:
            out.append(b(escape(line)) if line else "")
        else:
            out.append(escape(line))
    if listing:
        out.append("[/list]")
    return "\n".join(out) + "\n"


def status_json(s: Status) -> dict[str, Any]:
    tz = ZoneInfo(s.timezone)
    p = s.phase
    return {
        "title": s.title,
        "now": iso(s.now),
        "timezone": s.timezone,
        "phase": {"kind": p.kind, "number": p.number, "deadline": iso(p.deadline),
                  "seconds_left": int(p.left.total_seconds()) if p.left is not None else None,
                  "text": s.winner_text or phase_ru(p, tz)},
        "living": [{"nick": x.nick, "role": x.role, "role_ru": role_ru(x.role), "clan": x.clan,
                    "dealt_role": x.dealt_role} for x in s.living],
        "gone": [{"nick": g.nick, "role": g.role, "role_ru": role_ru(g.role), "clan": g.clan,
                  "how": g.how, "number": g.number, "at": iso(g.at), "causes": list(g.causes),
                  "rule": g.rule, "explanation": g.explanation, "recorded": g.recorded,
                  "text": gone_ru(g, tz)} for g in s.gone],
        "open": [{"kind": i.kind, "number": i.number, "subject": i.subject, "detail": i.detail,
                  "at": iso(i.at), "command": i.command, "text": item_ru(i, tz)}
                 for i in s.open],
        "winner": s.winner,
    }

"""``referee resolve-night`` output: the public morning report (paste part), then, for the
host only, the requests as read from the PMs, what could not be read, the private results to
send, and the night told step by step (docs/rules.md N2 order, each step citing its rule).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from referee.core import bbcode
from referee.core.roles import ACTION_NAMES_RU
from referee.render.context import Context
from referee.render.morning import morning_report, private_results
from referee.render.tally import HOST_ONLY_RULE

if TYPE_CHECKING:
    from referee.game import NightResult


def _request_line(r: Any, esc: Any) -> str:
    what = ACTION_NAMES_RU.get(r.action, r.action)
    targets = ", ".join(esc(t) for t in r.all_targets())
    line = f"{esc(r.actor)}: {what}" + (f" → {targets}" if targets else "")
    if r.executor:
        line += f", исполнитель {esc(r.executor)}"
    src = f"ЛС #{r.source_id}" if r.source == "pm" else (r.source_id or r.source)
    line += f" [{src}]"
    if r.note:
        line += f" — {esc(r.note)}"
    return line


def render_night(result: NightResult, ctx: Context, fmt: str = "bbcode") -> str:
    if fmt == "json":
        return json.dumps(night_json(result), ensure_ascii=False, indent=2)
    bb = fmt == "bbcode"
    esc = bbcode.escape if bb else (lambda s: s)
    if result.early:
        return _before_the_deadline(result, ctx, esc)
    outcome = result.outcome
    paste = morning_report(outcome, result.morning_state, ctx.night, result.leaving,
                           ctx.reveal_role_on_removal)
    if not bb:
        paste = _strip_bbcode(paste)
    tz = ctx.tz
    host: list[str] = []
    start, end = result.window
    host.append(
        f"Ночь {result.night}: {start.astimezone(tz):%d.%m %H:%M} – "
        f"{end.astimezone(tz):%d.%m %H:%M} ({ctx.tz_name})"
    )
    if result.recorded:
        host.append("Итог ночи записан.")
    elif result.already_recorded:
        host.append("Итог ночи был записан раньше; показан он же (заявки из записи).")
    else:
        host.append("Пробный прогон (--dry-run): ничего не записано.")
    host.append("")
    host += _requests_part(result, esc, tz)
    private = private_results(outcome)
    host.append("")
    host.append(f"Личные результаты к отправке ({len(private)}):")
    for nick, text in private:
        host.append(f"• {esc(nick)}: {text if bb else _strip_bbcode(text)}")
    if not private:
        host.append("• нет")
    host.append("")
    host.append(esc(outcome.explain()))
    for note in result.notes:
        host.append(f"! {note}")
    return f"{paste}\n\n{HOST_ONLY_RULE}\n" + "\n".join(host) + "\n"


def _section(host: list[str], title: str, lines: list[str]) -> None:
    """A part of the host's text: a blank line, its title and its lines; none when empty."""
    if lines:
        host += ["", title, *lines]


def _requests_part(result: NightResult, esc: Any, tz: Any) -> list[str]:
    host = [f"Заявки ({len(result.requests)}):"]
    host += [f"• {_request_line(r, esc)}" for r in result.requests] or ["• нет"]
    _section(host, "Прочитано с сомнением — проверьте:",
             [f"• ЛС #{f.pm_id} {esc(f.actor)}: {esc(f.note)}" for f in result.intake.flags])
    _section(host, "Не прочитано (решите сами: referee action add/drop):", [
        f"• ЛС #{u.pm_id} от {esc(u.sender)}: {esc(u.reason)}"
        + (f" — «{esc(u.excerpt)}»" if u.excerpt else "")
        for u in result.intake.unreadable])
    _section(host, "Отозвано игроками (не исполняется, смену N1 не тратит):", [
        f"• ЛС #{w.withdrawal.pm_id} {_request_line(w.request, esc)} — «"
        f"{esc(w.withdrawal.excerpt)}»"
        for w in result.intake.withdrawn])
    _section(host, "Опоздали — после дедлайна ночи, не засчитаны (T2):", [
        f"• ЛС #{lt.pm_id} от {esc(lt.sender)}, {lt.sent_at.astimezone(tz):%d.%m %H:%M}: "
        f"{esc(lt.read)}"
        for lt in result.intake.late])
    _section(host, "Решения ведущего:", [f"• {esc(e)}" for e in result.host_edits])
    return host


def _before_the_deadline(result: NightResult, ctx: Context, esc: Any) -> str:
    """A night still going on: the requests read so far, and no result of any kind."""
    start, end = result.window
    tz = ctx.tz
    paste = (f"Ночь {result.night} ещё идёт — до {end.astimezone(tz):%d.%m %H:%M} "
             f"({ctx.tz_name}). Итог ночи будет после её окончания.")
    host = [f"Ночь {result.night}: {start.astimezone(tz):%d.%m %H:%M} – "
            f"{end.astimezone(tz):%d.%m %H:%M} ({ctx.tz_name})",
            "Ночь ещё идёт: заявки могут измениться, поэтому итог (гибели, проверки, "
            "спасения) не показывается и ничего не записано.", ""]
    host += _requests_part(result, esc, tz)
    host += [f"! {note}" for note in result.notes]
    return f"{paste}\n\n{HOST_ONLY_RULE}\n" + "\n".join(host) + "\n"


def night_json(result: NightResult) -> dict[str, Any]:
    o = result.outcome
    if result.early:  # no result before its time
        return {"night": result.night, "recorded": False, "final": False, "early": True,
                "requests": _requests_json(result), "unreadable": _unreadable_json(result),
                "withdrawn": _withdrawn_json(result), "late": _late_json(result),
                "deaths": [], "saved": [], "checks": [], "rejected": [], "private": [],
                "log": [], "winner": None, "notes": list(result.notes)}
    return {
        "night": result.night,
        "recorded": result.recorded or result.already_recorded,
        "final": result.final,
        "requests": _requests_json(result),
        "unreadable": _unreadable_json(result),
        "withdrawn": _withdrawn_json(result),
        "late": _late_json(result),
        "deaths": [{"player": d.player, "causes": list(d.causes)} for d in o.deaths],
        "saved": [{"player": p, "by": by} for p, by in o.saved],
        "checks": [{"by": c.by, "target": c.target, "result": c.result} for c in o.checks],
        "rejected": [{"actor": a, "action": act, "reason": r} for a, act, r in o.rejected],
        "private": [{"to": n, "text": t} for n, t in private_results(o)],
        "log": list(o.lines()),
        "winner": result.winner.token if result.winner is not None else None,
        "notes": list(result.notes),
    }


def _requests_json(result: NightResult) -> list[dict[str, Any]]:
    return [
        {"actor": r.actor, "action": r.action, "target": r.target,
         "targets": list(r.targets), "executor": r.executor, "source": r.source,
         "source_id": r.source_id, "note": r.note}
        for r in result.requests
    ]


def _unreadable_json(result: NightResult) -> list[dict[str, Any]]:
    return [{"pm_id": u.pm_id, "sender": u.sender, "kind": u.kind, "reason": u.reason}
            for u in result.intake.unreadable]


def _withdrawn_json(result: NightResult) -> list[dict[str, Any]]:
    return [
        {"actor": w.request.actor, "action": w.request.action, "target": w.request.target,
         "targets": list(w.request.targets), "source_id": w.request.source_id,
         "withdrawn_by_pm": w.withdrawal.pm_id, "text": w.withdrawal.excerpt}
        for w in result.intake.withdrawn
    ]


def _late_json(result: NightResult) -> list[dict[str, Any]]:
    return [{"pm_id": lt.pm_id, "sender": lt.sender, "sent_at": lt.sent_at.isoformat(),
             "read": lt.read} for lt in result.intake.late]


def _strip_bbcode(text: str) -> str:
    import re

    return re.sub(r"\[/?(?:b|i|u|color|url|spoiler)(?:=[^\]]*)?\]", "", text).replace(
        bbcode.ZWSP, ""
    )

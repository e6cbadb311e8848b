"""``referee tally`` output for a day of the game: the count (:mod:`referee.render.tally`)
plus what the game knows around it — the day's window and deadline, whether the result is
recorded, the host-facing notes, and the end of the game (W2) when the hanging ends it.

The CLI prints :func:`render_day`; ``tally --post`` posts :func:`day_paste`, so what is
posted is exactly the paste part the host saw.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from referee.core.bbcode import b, escape
from referee.core.roles import role_name_ru
from referee.render.context import Context
from referee.render.tally import HOST_ONLY_RULE, render_json, render_parts

if TYPE_CHECKING:
    from referee.game import DayResult


def _game_over(result: DayResult, bb: bool) -> str:
    if result.winner is None:
        return ""
    line = result.winner.explain()
    return "\n\n" + (b(escape(line)) if bb else line)


def _leaving(result: DayResult, ctx: Context, bb: bool) -> str:
    """A3: who leaves the game at the end of the day, after the tally."""
    if not result.removals:
        return ""
    esc = escape if bb else (lambda s: s)
    reveal = ctx.reveal_role_on_removal
    roles = ctx.roles
    # A3, in words: the rule codes and the host's own reason stay in the host-only part.
    lines = ["", "", "Покидают игру в конце дня:"]
    for r in result.removals:
        nick = r["nick"]
        words = {"A1": "пропал(а) без вести", "A2": "пропустил(а) голосования"}
        rules = [part.strip() for part in str(r.get("rule", "")).split(",") if part.strip()]
        # The host's public note passes through as it is; a bare rule code never does.
        why = ", ".join(words.get(rule, rule) for rule in rules
                        if rule in words or not re.fullmatch(r"[TVANW]\d+(?:\.\d+)?", rule))
        line = f"{b(esc(nick)) if bb else nick} — {esc(why or 'решение ведущего')}"
        if reveal and nick in roles:
            line += f"; роль: {role_name_ru(roles[nick]) or '?'}"
        lines.append(line)
    return "\n".join(lines)


def day_paste(result: DayResult, ctx: Context, fmt: str = "bbcode") -> str:
    """The part of the day's output meant for the game topic."""
    paste, _ = render_parts(result.tally, "bbcode" if fmt == "bbcode" else "text",
                            ctx.topic_url, ctx.tz, ctx.roles_revealed_on_hanging)
    return paste + _leaving(result, ctx, fmt == "bbcode") + _game_over(result, fmt == "bbcode")


def render_day(result: DayResult, ctx: Context, fmt: str = "bbcode") -> str:
    tz = ctx.tz
    if fmt == "json":
        doc = json.loads(render_json(result.tally, ctx.topic_url, tz,
                                     ctx.roles_revealed_on_hanging))
        doc["recorded"] = result.recorded_at is not None
        doc["winner"] = result.winner.token if result.winner is not None else None
        doc["removed"] = [{"nick": r["nick"], "rule": r.get("rule")} for r in result.removals]
        doc["notes"] = list(result.notes)
        return json.dumps(doc, ensure_ascii=False, indent=2)
    _, host = render_parts(result.tally, "bbcode" if fmt == "bbcode" else "text",
                           ctx.topic_url, tz, ctx.roles_revealed_on_hanging)
    lines = [day_paste(result, ctx, fmt), "", HOST_ONLY_RULE]
    w = result.window
    if w is not None:
        lines.append(f"День {result.day}: {w.start.astimezone(tz):%d.%m %H:%M} – дедлайн "
                     f"{w.deadline.astimezone(tz):%d.%m %H:%M} ({ctx.tz_name})")
    if result.recorded:
        lines.append("Итог записан.")
    elif result.recorded_at is not None:
        lines.append(f"Итог был записан {result.recorded_at.astimezone(tz):%d.%m %H:%M}.")
    elif not result.tally.closed:
        lines.append("Предварительный подсчёт: дедлайн ещё не наступил, ничего не записано.")
    lines.append(host)
    lines += [f"! {n}" for n in result.notes]
    return "\n".join(lines) + "\n"

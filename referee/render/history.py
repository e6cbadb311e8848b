"""``referee history``: a day's vote, vote by vote, and the whole game's table — in BBCode to
post (a ``[code]`` table, as the activity table is), plain text, or JSON.

Every nick goes through :func:`referee.core.bbcode.escape` in BBCode, as in the tally.
"""

from __future__ import annotations

import json
from datetime import tzinfo
from typing import Any, Literal

from referee.core.bbcode import b
from referee.core.roles import role_ru
from referee.host.history import DayHistory, DayLine, GameHistory, PlayerLine, Step
from referee.render.cells import iso, plain, table, user, when
from referee.render.context import Context
from referee.render.tally import vote_links

Format = Literal["bbcode", "text", "json"]

ROLES_WARNING = ("Игра ещё идёт: таблица раскрывает роли — только для ведущего, "
                 "не публикуйте до конца игры.")


def _check(fmt: str) -> None:
    if fmt not in ("bbcode", "text", "json"):
        raise ValueError(f"неизвестный формат {fmt!r}: bbcode, text или json")


# ---------------------------------------------------------------------- one day

def render_day_history(h: DayHistory, fmt: Format = "bbcode", ctx: Context | None = None
                       ) -> str:
    _check(fmt)
    zone = (ctx or Context()).tz
    if fmt == "json":
        return json.dumps(day_history_json(h), ensure_ascii=False, indent=2) + "\n"
    bb = fmt == "bbcode"
    state = ""
    if not h.closed:
        state = f" (день идёт, счёт на {when(h.as_of, zone)})" if h.as_of else " (день идёт)"
    title = f"День {h.day}: как шло голосование{state}"
    lines = [b(title) if bb else title]
    if not h.steps:
        lines.append("Засчитанных голосов нет.")
        return "\n".join(lines) + "\n"
    topic_url = (ctx or Context()).topic_url
    rows = [_step_row(s, bb, zone) for s in h.steps]
    grid = table(("№", "время", "голос", "счёт после голоса", "лидер"), rows)
    lines += ["[code]", grid, "[/code]"] if bb else [grid]
    lines += _day_summary(h, bb, zone, topic_url)
    return "\n".join(lines) + "\n"


def _step_row(s: Step, bb: bool, tz: tzinfo) -> tuple[str, ...]:
    counts = " · ".join(f"{user(n, bb)} {c}" for n, c in s.counts)
    lead = user(s.leader, bb) + (" ★" if s.lead_changed else "")
    vote = f"{user(s.voter, bb)} → {user(s.target, bb)}"
    if s.old is not None:  # V4: a change of vote says whom the vote was taken from
        vote += f" (был за {user(s.old, bb)})"
    return (str(s.number), when(s.at, tz), vote, counts, lead)


def _day_summary(h: DayHistory, bb: bool, tz: tzinfo, topic_url: str | None) -> list[str]:
    last = h.steps[-1]
    out = ["★ — лидер сменился с этим голосом.",
           f"Лидер: {user(last.leader, bb)} — с {when(last.leader_since, tz)}."]
    changes = h.lead_changes
    if changes:
        out.append(f"Смены лидера ({len(changes)}): " + "; ".join(
            f"{when(s.at, tz)} — {user(s.leader, bb)} (голос {s.number})" for s in changes) + ".")
    else:
        out.append("Лидер не менялся.")
    if h.reached is not None:
        r = h.reached
        # Players see no post ids and no rule codes: the vote is a link (docs/rules.md V6).
        vote = vote_links(f" (сообщение {r.post_id})", bb, topic_url).strip(" ()")
        vote = f"{vote}; " if vote else ""
        out.append(f"{'Итоговые' if h.closed else 'Нынешние'} {r.votes} {_votes_word(r.votes)} "
                   f"{user(r.nick, bb)} набрал(а) {when(r.at, tz)} ({vote}при равенстве "
                   "голосов на виселицу идёт тот, кто набрал их раньше).")
    if h.closed:
        out.append("Итог дня: " + vote_links(user(h.explanation, bb), bb, topic_url))
    return out


def _votes_word(n: int) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return "голос"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return "голоса"
    return "голосов"


def day_history_json(h: DayHistory) -> dict[str, Any]:
    r = h.reached
    return {
        "day": h.day, "start": iso(h.start), "deadline": iso(h.deadline), "closed": h.closed,
        "steps": [{"number": s.number, "at": iso(s.at), "post_id": s.post_id, "voter": s.voter,
                   "target": s.target, "old": s.old,
                   "counts": [{"nick": n, "votes": c} for n, c in s.counts],
                   "leader": s.leader, "leader_since": iso(s.leader_since),
                   "lead_changed": s.lead_changed} for s in h.steps],
        "final": [{"nick": n, "votes": c} for n, c in h.final],
        "leader": h.leader,
        "reached": {"nick": r.nick, "votes": r.votes, "at": iso(r.at), "post_id": r.post_id}
        if r else None,
        "lead_changes": [s.number for s in h.lead_changes],
        "hanged": h.hanged, "explanation": h.explanation,
    }


# ---------------------------------------------------------------------- the game

def render_game_history(g: GameHistory, fmt: Format = "bbcode", title: str = "") -> str:
    _check(fmt)
    if fmt == "json":
        return json.dumps(game_history_json(g), ensure_ascii=False, indent=2) + "\n"
    bb = fmt == "bbcode"

    def head(text: str) -> str:
        return b(text) if bb else text

    def block(text: str) -> list[str]:
        return ["[code]", text, "[/code]"] if bb else [text]

    name = f" «{user(title, bb)}»" if title else ""
    out = [head(f"Итоги игры{name}")]
    if not g.over:
        out.append(ROLES_WARNING)
    out += ["", head("Дни"), *block(table(("день", "повешен(а)", "голосов", "выбыли в конце дня"),
                                          [_day_row(d, bb) for d in g.days]))]
    out += ["", head("Ночи"), *block(table(("ночь", "погибли", "выбыли с утра"), [
        (str(n.night), ", ".join(_who(nick, role, bb) for nick, role, _ in n.deaths) or "—",
         ", ".join(_who(nick, role, bb) for nick, role in n.leaving) or "—")
        for n in g.nights]))]
    out += ["", head("Игроки"), *block(table(
        ("игрок", "роль", "дней с голосом", "голосов", "за мафию", "за маньяка", "за мирных"),
        [_player_row(p, bb) for p in g.players]))]
    if g.winner_text:
        out += ["", head(g.winner_text)]
    return "\n".join(out) + "\n"


def _who(nick: str, role: str | None, bb: bool) -> str:
    return f"{user(nick, bb)} ({role_ru(role)})" if role else user(nick, bb)


def _day_row(d: DayLine, bb: bool) -> tuple[str, ...]:
    hanged = _who(d.hanged, d.hanged_role, bb) if d.hanged else "никто"
    leaving = ", ".join(_who(n, r, bb) for n, r in d.leaving) or "—"
    return (str(d.day), hanged, f"{d.votes} из {d.counted}", leaving)


def _player_row(p: PlayerLine, bb: bool) -> tuple[str, ...]:
    nick = user(p.nick, bb) + ("" if p.alive else " †")
    return (nick, role_ru(p.role), f"{len(p.days_voted)} из {len(p.days_in_game)}",
            str(p.votes_cast), str(p.at_mafia), str(p.at_maniac), str(p.at_town))


def game_history_json(g: GameHistory) -> dict[str, Any]:
    return {
        "days": [{"day": d.day, "hanged": d.hanged, "hanged_role": d.hanged_role,
                  "votes": d.votes, "counted": d.counted, "recorded": d.recorded,
                  "leaving": [{"nick": n, "role": r} for n, r in d.leaving]} for d in g.days],
        "nights": [{"night": n.night, "recorded": n.recorded,
                    "deaths": [{"nick": k, "role": r, "causes": list(c)} for k, r, c in n.deaths],
                    "leaving": [{"nick": k, "role": r} for k, r in n.leaving]}
                   for n in g.nights],
        "players": [{"nick": p.nick, "role": p.role, "side": p.side, "alive": p.alive,
                     "days_in_game": list(p.days_in_game), "days_voted": list(p.days_voted),
                     "votes_cast": p.votes_cast, "at_mafia": p.at_mafia,
                     "at_maniac": p.at_maniac, "at_town": p.at_town} for p in g.players],
        "over": g.over, "winner_text": plain(g.winner_text) if g.winner_text else None,
    }

"""The host's own listings: a day's vote events, the stored PMs, a deal, and the line that
confirms a recorded decision. Never posted; plain data in, text (or a rich table) out."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import tzinfo

from rich.table import Table

from referee.config.game import Player
from referee.core.bbcode import escape
from referee.core.kernel import PrivateMessage
from referee.core.roles import DEFAULT_CLAN, role_ru
from referee.render.parts import HOST_ONLY
from referee.render.tally import post_link
from referee.rules.day.result import Tally
from referee.rules.night.text import clan_ru


def votes_list(day: int, tally: Tally, tz: tzinfo, topic_url: str | None) -> str:
    """Every vote event of the day (counted, ignored, rejected), in time order, with links.

    Plain lines, not a table: the links must stay whole for the host to click or copy."""
    rows = [(v.at, v.post_id, v.voter, f"→ {v.target}", f"засчитан ({v.accepted_by})")
            for v in tally.votes]
    rows += [(r.at, r.post_id, r.voter, f"«{r.typed}»" if r.typed else "", r.label)
             for r in tally.rejected]
    lines = [f"Голоса дня {day} ({len(rows)}):"]
    for at, pid, voter, what, verdict in sorted(rows):
        lines.append(f"{at.astimezone(tz):%d.%m %H:%M:%S}  #{pid}  {voter} {what} — {verdict}  "
                     f"{post_link(pid, topic_url)}")
    return "\n".join(lines)


def pms_table(items: Sequence[PrivateMessage], title: str, tz: tzinfo) -> Table:
    """The stored PMs: number, sender, time, subject, first line."""
    table = Table(title=title)
    for col in ("#", "от", "время", "тема", "первая строка"):
        table.add_column(col)
    for p in items:
        first = next((ln for ln in p.body_text.splitlines() if ln.strip()), "")
        table.add_row(str(p.pm_id), p.sender, f"{p.sent_at.astimezone(tz):%d.%m %H:%M}",
                      p.subject, first[:80])
    return table


def deal_listing(players: Sequence[Player], texts: Sequence[tuple[str, str, str]],
                 fmt: str = "text") -> str:
    """``referee deal``: every role PM (what the players get), then below the host-only
    divider who got which role, in the rules' names («Мафия, клан «A»»)."""
    if fmt == "json":
        return json.dumps({
            "players": [{"nick": p.nick, "role": p.role, "clan": p.clan} for p in players],
            "pms": [{"to": n, "subject": s, "text": t} for n, s, t in texts],
        }, ensure_ascii=False, indent=2)
    pms = [f"── ЛС для {escape(nick)}: {subject}\n{text.rstrip()}\n"
           for nick, subject, text in texts]
    # The one clan the host did not name needs no name here («мафия» is the role already).
    roster = [f"{escape(p.nick)} — {role_ru(p.role)}"
              + (f", {clan_ru(p.clan)}" if p.clan and p.clan != DEFAULT_CLAN else "")
              for p in players]
    return "\n".join([*pms, HOST_ONLY, "Раздача ролей:", *roster]) + "\n"

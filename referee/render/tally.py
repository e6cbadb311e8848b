"""The day's vote count as the host posts it (BBCode), reads it (text) or a tool reads it
(JSON). docs/rules.md V1–V6: every candidate with its voters in voting order and the time of each
vote (forum time zone, T2), the hanging (or leader) line with the tie explanation, who has
not voted. Posts that looked like votes and did not count go to a separate HOST-ONLY part,
each with its reason, rule and link: that part is never inside the text meant for pasting.

Everything a player typed (nicks, the red text) is passed through
:func:`referee.core.bbcode.escape` in BBCode, so a nick cannot inject tags.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, tzinfo
from typing import Any, Literal
from urllib.parse import urljoin, urlsplit, urlunsplit
from zoneinfo import ZoneInfo

from referee.core.bbcode import b, escape, url
from referee.core.roles import role_name_ru
from referee.render.parts import HOST_ONLY
from referee.rules.day.result import Candidate, CountedVote, Rejection, Tally
from referee.rules.day.verdict import TIE_RULE_NAMES_RU

Format = Literal["bbcode", "text", "json"]

HOST_ONLY_RULE = HOST_ONLY
"""The line that separates the paste part from the host-only part (:mod:`.parts`)."""


def post_link(post_id: int, topic_url: str | None = None) -> str:
    """``viewtopic.php?p=ID#pID``, absolute when the topic URL is known."""
    rel = f"viewtopic.php?p={post_id}#p{post_id}"
    if not topic_url:
        return rel
    parts = urlsplit(topic_url)
    if parts.path.endswith("viewtopic.php"):
        return urlunsplit((parts.scheme, parts.netloc, parts.path, f"p={post_id}", f"p{post_id}"))
    from adapters.registry import post_url

    # Other engines address posts their own way (XenForo: …/posts/ID/).
    return post_url(topic_url, post_id) or urljoin(topic_url, rel)


_POST_REF = re.compile(r" \(сообщение #?(\d+)\)")


def vote_links(text: str, bb: bool, topic_url: str | None) -> str:
    """A verdict names the vote that decided it by its post id («(сообщение 39)»), which
    players never see: in BBCode it becomes a link to that vote, and without the topic's
    address it is left out. Plain text (the host's reading) keeps the number."""
    if not bb:
        return _POST_REF.sub(r" (сообщение #\1)", text)
    if not topic_url:
        return _POST_REF.sub("", text)
    return _POST_REF.sub(
        lambda m: f" ({url(post_link(int(m.group(1)), topic_url), 'этим голосом')})", text)


def _zone(tz: tzinfo | str | None) -> tzinfo:
    if tz is None:
        return ZoneInfo("UTC")
    return ZoneInfo(tz) if isinstance(tz, str) else tz


def _when(at: datetime, tz: tzinfo) -> str:
    return at.astimezone(tz).strftime("%d.%m %H:%M")


def render_tally(
    tally: Tally,
    fmt: Format = "bbcode",
    topic_url: str | None = None,
    tz: tzinfo | str | None = None,
    roles: Mapping[str, str] | None = None,
) -> str:
    """The whole output: for ``bbcode``/``text`` the paste part, the separator line and the
    host-only part; for ``json`` one document with everything. ``roles`` (nick → role id),
    when given, reveals the hanged player's role (V6, ``reveal_role_on_hanging``)."""
    if fmt == "json":
        return render_json(tally, topic_url, tz, roles)
    paste, host = render_parts(tally, fmt, topic_url, tz, roles)
    return f"{paste}\n\n{HOST_ONLY_RULE}\n{host}\n"


def render_parts(
    tally: Tally,
    fmt: Literal["bbcode", "text"] = "bbcode",
    topic_url: str | None = None,
    tz: tzinfo | str | None = None,
    roles: Mapping[str, str] | None = None,
) -> tuple[str, str]:
    """(paste part, host-only part), so a caller can print or copy them separately."""
    if fmt not in ("bbcode", "text"):
        raise ValueError(f"неизвестный формат {fmt!r}: bbcode, text или json")
    zone = _zone(tz)
    bb = fmt == "bbcode"
    return (_paste(tally, bb, topic_url, zone, roles),
            _host_only(tally, bb, topic_url, zone))


# ----------------------------------------------------------------------------- paste part

def _paste(t: Tally, bb: bool, topic_url: str | None, tz: tzinfo,
           roles: Mapping[str, str] | None = None) -> str:
    esc = escape if bb else (lambda s: s)
    bold = b if bb else (lambda s: s)
    title = f"Подсчёт голосов — день {t.day}"
    if not t.closed and t.as_of is not None:
        title += f", на {_when(t.as_of, tz)}"
    elif t.closed_early_by is not None:
        title += " (закрыт досрочно)"
    lines = [bold(title), ""]
    if not t.counts:
        lines.append("Засчитанных голосов нет.")
    for c in t.counts:
        lines.append(_candidate_line(c, bb, topic_url, tz, leader=c.target == t.leader))
    lines.append("")
    explanation = vote_links(esc(t.explanation), bb, topic_url)
    lines.append(bold(explanation) if t.hanged or t.leader else explanation)
    if roles is not None and t.closed:
        for nick in t.hanged_all:
            if nick in roles:
                lines.append(f"Роль: {esc(nick)} — {bold(role_name_ru(roles[nick]) or '?')}.")
    if t.not_voted:
        label = "Не проголосовали" if t.closed else "Ещё не проголосовали"
        lines.append(f"{label} ({len(t.not_voted)}): " + ", ".join(esc(n) for n in t.not_voted))
    else:
        lines.append("Проголосовали все живые игроки.")
    return "\n".join(lines)


def _candidate_line(
    c: Candidate, bb: bool, topic_url: str | None, tz: tzinfo, leader: bool
) -> str:
    esc = escape if bb else (lambda s: s)
    voters = ", ".join(_voter(v, bb, topic_url, tz) for v in c.voters)
    head = f"{esc(c.target)} — {c.votes}"
    if bb and leader:
        head = b(head)
    return f"{head}: {voters}"


def _voter(v: CountedVote, bb: bool, topic_url: str | None, tz: tzinfo) -> str:
    when = _when(v.at, tz)
    if bb:
        stamp = url(post_link(v.post_id, topic_url), when) if topic_url else when
        return f"{escape(v.voter)} ({stamp})"
    return f"{v.voter} ({when})"


# ----------------------------------------------------------------------------- host part

def _rejection(r: Rejection, esc: Callable[[str], str], topic_url: str | None,
               tz: tzinfo) -> str:
    typed = f" «{esc(r.typed)}»" if r.typed else ""
    return (f"• #{r.post_id} {esc(r.voter)}, {_when(r.at, tz)}{typed} — {esc(r.label)} — "
            f"{post_link(r.post_id, topic_url)}")


def _host_only(t: Tally, bb: bool, topic_url: str | None, tz: tzinfo) -> str:
    esc = escape if bb else (lambda s: s)
    out: list[str] = []
    asked = [r for r in t.rejected if r.asks_host]
    rejected = [r for r in t.rejected if not r.asks_host]
    out.append(f"Не засчитано ({len(rejected)}):" if rejected else "Не засчитано: ничего.")
    out.extend(_rejection(r, esc, topic_url, tz) for r in rejected)
    if asked:
        # docs/rules.md V1: a post the program does not read for the host (two alternatives,
        # several nicks): not counted until he sets its target.
        out.append("")
        out.append(f"Ведущему проверить — не засчитано, пока ведущий не укажет ник "
                   f"(referee vote set НОМЕР --target НИК) ({len(asked)}):")
        out.extend(_rejection(r, esc, topic_url, tz) for r in asked)
    if t.flags:
        out.append("")
        out.append(f"Засчитано, но проверьте ({len(t.flags)}):")
        for f in t.flags:
            out.append(f"• #{f.post_id} {esc(f.voter)} — {esc(str(f))} — "
                       f"{post_link(f.post_id, topic_url)}")
    if t.overrides:
        out.append("")
        out.append("Решения ведущего:")
        out.extend(f"• {esc(o)}" for o in t.overrides)
    out.append("")
    tie = TIE_RULE_NAMES_RU.get(t.tie_rule, t.tie_rule)
    out.append(f"V6, ничья: {tie} (настройка tie = \"{t.tie_rule}\"). "
               f"Живых игроков: {len(t.alive)}.")
    return "\n".join(out)


# ----------------------------------------------------------------------------- JSON

def _iso(at: datetime | None) -> str | None:
    return at.astimezone(UTC).isoformat() if at is not None else None


def render_json(tally: Tally, topic_url: str | None = None, tz: tzinfo | str | None = None,
                roles: Mapping[str, str] | None = None) -> str:
    """Everything in one JSON document; times as ISO 8601 UTC plus ``local`` in forum time;
    ``hanged_role`` only when ``roles`` reveals it (V6)."""
    zone = _zone(tz)

    def vote(v: CountedVote) -> dict[str, Any]:
        return {
            "voter": v.voter, "post_id": v.post_id, "time": _iso(v.at),
            "local": _when(v.at, zone), "typed": v.typed, "match": v.match_kind,
            "accepted_by": v.accepted_by, "flags": [str(n) for n in v.flags],
            "link": post_link(v.post_id, topic_url),
        }

    doc: dict[str, Any] = {
        "day": tally.day,
        "closed": tally.closed,
        "start": _iso(tally.start),
        "deadline": _iso(tally.deadline),
        "as_of": _iso(tally.as_of),
        "as_of_post": tally.as_of_post,
        "hanged": tally.hanged,
        "hanged_all": list(tally.hanged_all),
        "hanged_role": (roles.get(tally.hanged) if roles is not None and tally.closed
                        and tally.hanged else None),
        "leader": tally.leader,
        "tied": list(tally.tied),
        "tie_rule": tally.tie_rule,
        "explanation": tally.explanation,
        "closed_early_by": tally.closed_early_by,
        "counts": [
            {"target": c.target, "votes": c.votes, "reached_at": _iso(c.reached_at),
             "reached_post": c.reached_post, "voters": [vote(v) for v in c.voters]}
            for c in tally.counts
        ],
        "not_voted": list(tally.not_voted),
        "alive": list(tally.alive),
        "rejected": [
            {"post_id": r.post_id, "voter": r.voter, "reason": r.reason, "rule": r.rule,
             "notes": [{"rule": n.rule, "text": n.text} for n in r.notes],
             "time": _iso(r.at), "local": _when(r.at, zone), "typed": r.typed,
             "target": r.target, "asks_host": r.asks_host,
             "link": post_link(r.post_id, topic_url)}
            for r in tally.rejected
        ],
        "flags": [{"post_id": f.post_id, "voter": f.voter, "rule": f.rule, "text": f.text}
                  for f in tally.flags],
        "overrides": list(tally.overrides),
    }
    return json.dumps(doc, ensure_ascii=False, indent=2)

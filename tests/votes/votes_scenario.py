"""Helpers for the vote tests: BBCode as players type it → HTML exactly as phpBB renders it.

``s9e(bbcode)`` gives the phpBB 3.2/3.3 form (``<span style="color:red">``,
``<strong class="text-strong">``, ``<blockquote><div><cite>Ник писал(а):</cite>…``, ``<br>``);
``legacy(bbcode)`` the phpBB 3.0/3.1 form (``<span style="color: #FF0000">``,
``<span style="font-weight: bold">``, ``<br />``). ``test_scenario_helper_matches_phpbb``
checks ``s9e`` against the real pages of the fixture board, so the tables below feed the
code the same HTML a real board serves.

Times in tables are Moscow time as the host reads them («21.11 14:35»), stored as UTC (T2).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from datetime import datetime

from support.moscow import msk_short as msk

from referee.config.game import DaySchedule, Replacement, VoteRules
from referee.core.kernel import EditNotice, Post
from referee.core.nicks import Roster
from referee.rules.day.count import tally
from referee.rules.day.result import Tally
from referee.rules.decisions import VoteDecision

HOST = "Ведущий"
PLAYERS = ("Шерлок", "Лиса", "Kotik", "Гроза", "Ёжик", "Mr. Smith", "Снежок")


DAY1 = DaySchedule(1, msk("20.11 18:00"), msk("21.11 22:00"), msk("22.11 10:00"))

# ----------------------------------------------------------------------------- BBCode → HTML

_SMILIES = {
    ":D": ("icon_e_biggrin.gif", "Very Happy"),
    ":lol:": ("icon_lol.gif", "Laughing"),
    ":shock:": ("icon_eek.gif", "Shocked"),
    ":)": ("icon_e_smile.gif", "Smile"),
}
_TOKEN = re.compile(
    r"\[(/?)(b|i|u|color|quote|code)(?:=([^\]]*))?\]|(\n)|("
    + "|".join(re.escape(s) for s in _SMILIES) + r")"
)


def _render(bb: str, legacy: bool) -> str:
    out: list[str] = []
    stack: list[str] = []
    pos = 0
    after_block = False
    in_code = False
    for m in _TOKEN.finditer(bb):
        text = bb[pos:m.start()]
        pos = m.end()
        if text:
            out.append(html.escape(text, quote=False))
            after_block = False
        close, tag, arg, newline, smiley = m.groups()
        if in_code and not (tag == "code" and close):
            out.append(html.escape(m.group(0), quote=False))
            continue
        if newline:
            # s9e drops the <br> of a newline that follows a block's end.
            out.append("\n" if after_block else ("<br />\n" if legacy else "<br>\n"))
            after_block = False
            continue
        if smiley:
            src, title = _SMILIES[smiley]
            if legacy:
                out.append(f'<!-- s{smiley} --><img src="./images/smilies/{src}" alt="{smiley}" '
                           f'title="{title}" /><!-- s{smiley} -->')
            else:
                out.append(f'<img class="smilies" src="./images/smilies/{src}" width="15" '
                           f'height="17" alt="{smiley}" title="{title}">')
            continue
        after_block = False
        if close:
            opened = stack.pop()
            assert opened == tag, f"[/{tag}] closes [{opened}] in {bb!r}"
            out.append(_close(tag, legacy))
            if tag in ("quote", "code"):
                after_block = True
                in_code = False
            continue
        stack.append(tag)
        out.append(_open(tag, arg, legacy))
        in_code = tag == "code"
    tail = bb[pos:]
    if tail:
        out.append(html.escape(tail, quote=False))
    assert not stack, f"unclosed {stack} in {bb!r}"
    return "".join(out)


def _open(tag: str, arg: str | None, legacy: bool) -> str:
    if tag == "color":
        return f'<span style="color: {arg}">' if legacy else f'<span style="color:{arg}">'
    if tag == "b":
        return '<span style="font-weight: bold">' if legacy else '<strong class="text-strong">'
    if tag == "i":
        return '<span style="font-style: italic">' if legacy else '<em class="text-italics">'
    if tag == "u":
        return ('<span style="text-decoration: underline">' if legacy
                else '<span style="text-decoration:underline">')
    if tag == "quote":
        if not arg:
            return '<blockquote class="uncited"><div>'
        return f"<blockquote><div><cite>{html.escape(arg, quote=False)} писал(а):</cite>"
    if tag == "code":
        if legacy:
            return ('<dl class="codebox"><dt>Код: <a href="#" onclick="selectCode(this); '
                    'return false;">Выделить всё</a></dt><dd><code>')
        return ('<div class="codebox"><p>Код: <a href="#" onclick="selectCode(this); '
                'return false;">Выделить всё</a></p><pre><code>')
    raise AssertionError(tag)


def _close(tag: str, legacy: bool) -> str:
    if tag == "b":
        return "</span>" if legacy else "</strong>"
    if tag == "i":
        return "</span>" if legacy else "</em>"
    if tag in ("color", "u"):
        return "</span>"
    if tag == "quote":
        return "</div></blockquote>"
    if tag == "code":
        return "</code></dd></dl>" if legacy else "</code></pre></div>"
    raise AssertionError(tag)


def s9e(bb: str) -> str:
    """phpBB 3.2/3.3 (s9e TextFormatter) HTML of a post's BBCode."""
    return _render(bb, legacy=False)


def legacy(bb: str) -> str:
    """phpBB 3.0/3.1 HTML of a post's BBCode (and 3.3 showing a post stored before 3.2)."""
    return _render(bb, legacy=True)


# ----------------------------------------------------------------------------- posts

def post(
    post_id: int, author: str, when: str, bb: str, *, old: bool = False,
    edited: str | None = None,
) -> Post:
    """One topic post; ``edited`` = «dd.mm HH:MM» gives it phpBB's edit notice."""
    body = legacy(bb) if old else s9e(bb)
    notice = EditNotice(author, msk(edited), 1) if edited else None
    return Post(post_id=post_id, author=author, author_id=None, posted_at=msk(when),
                body_html=body, body_text="", edit=notice)


Row = tuple[int, str, str, str]


def posts(rows: Iterable[Row]) -> list[Post]:
    """A table of (post id, author, «dd.mm HH:MM», BBCode) rows."""
    return [post(*row) for row in rows]


def roster(players: Sequence[str] = PLAYERS, **aliases: Sequence[str]) -> Roster:
    return Roster(players, aliases or None)


def run(
    items: Iterable[Post | Sequence[Post]],
    *,
    window: DaySchedule = DAY1,
    alive: Sequence[str] = PLAYERS,
    players: Sequence[str] = PLAYERS,
    rules: VoteRules | None = None,
    overrides: Iterable[str] = (),
    replacements: Iterable[Replacement] = (),
    as_of: int | datetime | None = None,
) -> Tally:
    return tally(
        items, window, alive=alive, roster=roster(players), host=HOST, rules=rules,
        overrides=[VoteDecision.parse(o) for o in overrides], replacements=replacements,
        as_of=as_of,
    )


def counts(t: Tally) -> dict[str, list[str]]:
    """{target: [voters in voting order]} in the tally's order."""
    return {c.target: [v.voter for v in c.voters] for c in t.counts}


def rejections(t: Tally) -> dict[int, str]:
    """{post id: rule that rejected it}."""
    return {r.post_id: r.rule for r in t.rejected}


def flags(t: Tally) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for f in t.flags:
        out.setdefault(f.post_id, []).append(f.rule)
    return out

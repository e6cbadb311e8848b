"""Helpers for the vote-form tables: a short markup for posts and a one-word verdict.

Markup (rendered as the boards render it):

    [r]…[/r]   red text          <span style="color:red">  (phpBB s9e [color=red])
    [s]…[/s]   struck through    <s>  (XenForo/SMF [s])
    [del]…     struck through    <del>
    [strike]…  struck through    <strike>  (vBulletin)
    [lt]…[/lt] struck through    <span style="text-decoration: line-through">
    [url]…     a link            <a href="https://example.org/" class="postlink">
    [@Ник]     a mention         XenForo's <a class="username" data-user-id=…>@Ник</a>
    [q]…[/q]   a quote           <blockquote><div><cite>Лиса писал(а):</cite>…
    newline    <br>

Verdicts, as a host reads the post:

    «= Ник»         counted for Ник, nothing to check
    «≈ Ник»         counted for Ник, flagged for the host (case form, typo, long red…)
    «✗ V1»          rejected with its rule (V1, V2, V3)
    «? проверить»   not counted: the host is asked (two alternatives, several nicks…)
    «—»             not a vote at all (no «мой голос» outside quotes)
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

from referee.core.kernel import Post
from referee.core.nicks import Roster
from referee.rules.day.reading import VoteReading, find_vote

PLAYERS = ("Шерлок", "Лиса", "Kotik", "Гроза", "Ёжик", "Mr. Smith", "Снежок", "Кот",
           "Тень Ночи")
REASON = "Весь день уходил от прямых вопросов и путал показания."

_TAGS = {
    "[r]": '<span style="color:red">', "[/r]": "</span>",
    "[s]": "<s>", "[/s]": "</s>",
    "[del]": "<del>", "[/del]": "</del>",
    "[strike]": "<strike>", "[/strike]": "</strike>",
    "[lt]": '<span style="text-decoration: line-through">', "[/lt]": "</span>",
    "[url]": '<a href="https://example.org/" class="postlink">', "[/url]": "</a>",
    "[q]": "<blockquote><div><cite>Лиса писал(а):</cite>", "[/q]": "</div></blockquote>",
    "\n": "<br>\n",
}
_TOKEN = re.compile(r"\[/?(?:r|s|del|strike|lt|url|q)\]|\[@[^\]]+\]|\n")


def to_html(text: str) -> str:
    out: list[str] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        out.append(html.escape(text[pos:m.start()], quote=False))
        tok = m.group(0)
        if tok.startswith("[@"):
            name = html.escape(tok[2:-1])
            out.append(f'<a href="https://forum.example/members/x.7/" class="username" '
                       f'data-user-id="7" data-username="@{name}">@{name}</a>')
        else:
            out.append(_TAGS[tok])
        pos = m.end()
    out.append(html.escape(text[pos:], quote=False))
    return "".join(out)


def game_roster(players: tuple[str, ...] = PLAYERS) -> Roster:
    """The roster as a game builds it for votes: case forms on (referee/game/base.py)."""
    return Roster(players, case_forms=True)


def read(text: str, roster: Roster | None = None) -> VoteReading | None:
    body = to_html(text)
    post = Post(1, "Гроза", 7, datetime(2026, 11, 21, 12, tzinfo=UTC), body, "")
    return find_vote(post, roster or game_roster())


def verdict(reading: VoteReading | None) -> str:
    """The one-word verdict of the module docstring."""
    if reading is None:
        return "—"
    if reading.verdict == "check":
        return "? проверить"
    if reading.verdict == "rejected":
        return f"✗ {reading.problems[0].rule}"
    mark = "≈" if reading.flags else "="
    return f"{mark} {reading.target}"

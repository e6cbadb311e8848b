"""Post HTML as real boards render it, for the vote-reading audit (docs/rules.md V1–V3).

Every builder here copies markup seen in real pages or in the templates that produce them
(origins in ``data/*.html`` and in research/phpbb.md §1.7 and §2):

* phpBB 3.2/3.3 (s9e): ``<span style="color:red">``, ``<strong class="text-strong">``,
  ``<em class="text-italics">``, ``<span style="font-size:150%;line-height:116%">``, ``<br>``,
  ``<blockquote><div><cite>Ник писал(а):</cite>…``, ``<div class="codebox">…<pre><code>``;
* phpBB 3.0/3.1 prosilver and legacy posts on 3.3: ``<span style="color: #FF0000">`` (space),
  ``<span style="font-weight: bold">``, ``<br />``, ``<dl class="codebox">``;
* phpBB 3.0 subsilver2: ``div.quotetitle`` + ``div.quotecontent`` quotes, ``div.codecontent``;
* other engines' colour markup: ``<font color="red">`` (vBulletin), ``rgb(…)`` (XenForo/IPS).
"""

from __future__ import annotations

import html
from datetime import UTC, datetime
from pathlib import Path

from referee.config.game import DaySchedule
from referee.core.kernel import Post
from referee.core.nicks import Roster

DATA = Path(__file__).resolve().parent / "data"

HOST = "Ведущий"
# Nicks of every shape a board allows: Cyrillic, Latin, digits, «_», «.», «-», spaces, ё.
PLAYERS = ("Шерлок", "Лиса", "Kotik", "Гроза", "Ёжик", "Mr. Smith", "Тень_Ночи", "Nika-77",
           "Доктор Ватсон", "x.y", "Agent007")
REASON = "Весь день молчит и уходит от прямых вопросов."

DAY = DaySchedule(1, datetime(2026, 11, 20, 15, 0, tzinfo=UTC),
                  datetime(2026, 11, 21, 19, 0, tzinfo=UTC),
                  datetime(2026, 11, 22, 7, 0, tzinfo=UTC))


def roster() -> Roster:
    return Roster(PLAYERS)


def post(body_html: str, author: str = "Гроза", post_id: int = 1, minute: int = 0) -> Post:
    return Post(post_id=post_id, author=author, author_id=None,
                posted_at=datetime(2026, 11, 21, 10, minute, tzinfo=UTC),
                body_html=body_html, body_text="")


def real(name: str) -> str:
    """A saved excerpt from ``data/`` without its origin comment."""
    text = (DATA / name).read_text(encoding="utf-8")
    end = text.index("-->") + 3
    return text[end:].strip("\n")


def esc(text: str) -> str:
    return html.escape(text, quote=False)


# ----------------------------------------------------------------------------- dialects

class Dialect:
    """How one board version renders the BBCode a vote uses."""

    name = "phpBB 3.3"
    br = "<br>\n"

    def colour(self, value: str, inner: str) -> str:
        return f'<span style="color:{value}">{inner}</span>'

    def bold(self, inner: str) -> str:
        return f'<strong class="text-strong">{inner}</strong>'

    def italic(self, inner: str) -> str:
        return f'<em class="text-italics">{inner}</em>'

    def underline(self, inner: str) -> str:
        return f'<span style="text-decoration:underline">{inner}</span>'

    def size(self, inner: str) -> str:
        return f'<span style="font-size:150%;line-height:116%">{inner}</span>'

    def quote(self, inner: str, who: str | None) -> str:
        if who is None:
            return f'<blockquote class="uncited"><div>{inner}</div></blockquote>'
        return f"<blockquote><div><cite>{esc(who)} писал(а):</cite>{inner}</div></blockquote>"

    def code(self, raw_bbcode: str) -> str:
        # BBCode inside [code] is not rendered: it stays literal text.
        return ('<div class="codebox"><p>Код: <a href="#" onclick="selectCode(this); '
                f'return false;">Выделить всё</a></p><pre><code>{esc(raw_bbcode)}</code></pre>'
                "</div>")

    def smiley(self) -> str:
        return ('<img class="smilies" src="./images/smilies/icon_e_biggrin.gif" width="15" '
                'height="17" alt=":D" title="Very Happy">')


class Legacy(Dialect):
    """phpBB 3.0/3.1 prosilver, and a pre-3.2 post shown by 3.3."""

    name = "phpBB 3.0"
    br = "<br />"

    def colour(self, value: str, inner: str) -> str:
        return f'<span style="color: {value}">{inner}</span>'

    def bold(self, inner: str) -> str:
        return f'<span style="font-weight: bold">{inner}</span>'

    def italic(self, inner: str) -> str:
        return f'<span style="font-style: italic">{inner}</span>'

    def underline(self, inner: str) -> str:
        return f'<span style="text-decoration: underline">{inner}</span>'

    def size(self, inner: str) -> str:
        return f'<span style="font-size: 150%; line-height: normal">{inner}</span>'

    def quote(self, inner: str, who: str | None) -> str:
        if who is None:
            return f'<blockquote class="uncited"><div>{inner}</div></blockquote>'
        return f"<blockquote><div><cite>{esc(who)} писал(а):</cite>{inner}</div></blockquote>"

    def code(self, raw_bbcode: str) -> str:
        return ('<dl class="codebox"><dt>Код: <a href="#" onclick="selectCode(this); '
                f'return false;">Выделить всё</a></dt><dd><code>{esc(raw_bbcode)}</code></dd>'
                "</dl>")

    def smiley(self) -> str:
        return ('<!-- s:D --><img src="./images/smilies/icon_e_biggrin.gif" alt=":D" '
                'title="Very Happy" /><!-- s:D -->')


class Subsilver2(Legacy):
    """phpBB 3.0 subsilver2 (data/phpbb30_subsilver2_bbcode.html)."""

    name = "subsilver2"

    def bold(self, inner: str) -> str:
        return f"<strong>{inner}</strong>"

    def italic(self, inner: str) -> str:
        return f"<em>{inner}</em>"

    def quote(self, inner: str, who: str | None) -> str:
        title = "<b>Цитата:</b>" if who is None else f"{esc(who)} писал(а):"
        return f'<div class="quotetitle">{title}</div><div class="quotecontent">\n{inner}</div>'

    def code(self, raw_bbcode: str) -> str:
        return ('<div class="codetitle"><b>Код:</b></div><div class="codecontent">\n'
                f"{esc(raw_bbcode)}</div>")


DIALECTS = (Dialect(), Legacy(), Subsilver2())


def simple_spoiler(inner: str) -> str:
    """AlfredoRamos simple spoiler (data/phpbb_ext_spoilers.html, form 1)."""
    return ('<details class="spoiler"><summary class="spoiler-header"><span class="spoiler-title">'
            'Спойлер</span><span class="spoiler-status"><i class="icon fa-fw fa-eye" '
            'aria-hidden="true"></i></span></summary>'
            f'<div class="spoiler-body">{inner}</div></details>')


def abbc3_spoiler(inner: str) -> str:
    """ABBC3 [spoil] (data/phpbb_ext_spoilers.html, form 2)."""
    return ('<div class="spoilwrapper"><div class="spoiltitle"><span class="spoilbtn" '
            'data-show="Показать" data-hide="Скрыть">Показать</span></div>'
            f'<div style="display: none;" class="spoilcontent">{inner}</div></div>')


def quotebox_spoiler(inner: str) -> str:
    """A phpBB 3.0 board's custom [spoiler] on the quote box
    (data/anime-ultime_phpbb30_spoiler_signature.html)."""
    return ('<div style="padding: 3px; background-color: #C9DFEB; border: 1px solid #d8d8d8; '
            'font-size: 1em;"><div style="text-transform: uppercase; font-weight: bold; '
            'display: block;"><span onClick="return false;"><b>Spoiler: </b>'
            '<a href="#" onClick="return false;">Voir</a></span></div>'
            f'<div class="quotecontent"><div style="display: none;">{inner}</div></div></div>')

"""MyBB.ru HTML pages, read without the API: telling MyBB.ru's pages from plain
PunBB/FluxBB ones (whose posts are ``div.blockpost``), the posting forms, the board's own
words on an answer page. Pure: bytes or text in, values out. The topic page itself is read
by :mod:`.topic`; facts and their sources: README.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser

from adapters import charset
from adapters.html import squash

_MYBB_MARKUP = re.compile(
    r'id="pun-viewtopic"|<div[^>]+class="post\b[^"]*"[^>]*data-posted=|\bForumAPITicket\b'
    r"|\bBoardID\s*=", re.IGNORECASE)
_PUNBB_MARKUP = re.compile(
    r'id="punviewtopic"|id="punwrap"|class="blockpost\b|Powered by <a[^>]+(punbb|fluxbb)',
    re.IGNORECASE)


reads_as_mybb = charset.reads_in_language(('id="pun-navlinks"',),
                                          ("Поиск", "Участники", ">Search<"))
"""Whether decoded page text reads as MyBB.ru in the board's language: the board's menu
(``#pun-navlinks``) comes with its «Поиск»/«Участники» (or «Search»)."""


def form_charset(content: bytes, content_type: str | None, codec: str) -> str:
    """The charset a page's forms are posted in: the one the page was decided to be in
    (:meth:`adapters.base.HttpClient.get_text`); a page all in ASCII that declares none
    reads the same in every one, and then it is MyBB.ru's own, windows-1251."""
    if content.isascii() and charset.declared(content, content_type) == (None, None):
        return "cp1251"
    return codec


def is_mybb_page(html: str) -> bool:
    """Whether a page is the MyBB.ru engine's (its body id, post blocks or JS globals)."""
    return bool(_MYBB_MARKUP.search(html))


def is_punbb_page(html: str) -> bool:
    """A plain PunBB/FluxBB page (no MyBB.ru marks): ``div.blockpost`` posts."""
    return bool(_PUNBB_MARKUP.search(html)) and not is_mybb_page(html)


# --------------------------------------------------------------------------- forms

@dataclass(frozen=True, slots=True)
class PostForm:
    """A posting form (``post.php?tid=N``, ``messages.php?action=new``) as served."""

    action: str
    values: dict[str, str] = field(default_factory=dict)
    """Every hidden field and the default of every text field, as a browser sends them."""
    message_field: str = "req_message"
    submit: tuple[str, str] | None = None
    fields: frozenset[str] = frozenset()
    """Every named control of the form (to know whether it asks for a subject, a
    recipient)."""
    checked: dict[str, str] = field(default_factory=dict)
    """Checkboxes the board ticks by default (``savemessage``): a browser sends them."""


def parse_post_form(html: str, *, url: str, action_has: str) -> PostForm | None:
    """``form#post`` (or the first form whose action contains ``action_has``); None when
    the page has no such form (a login page, a message instead)."""
    tree = LexborHTMLParser(html)
    form = tree.css_first("form#post")
    if form is None or action_has not in (form.attributes.get("action") or ""):
        form = next((f for f in tree.css("form")
                     if action_has in (f.attributes.get("action") or "")), None)
    if form is None:
        return None
    values: dict[str, str] = {}
    checked: dict[str, str] = {}
    names: set[str] = set()
    submit: tuple[str, str] | None = None
    for node in form.css("input"):
        a = node.attributes
        name, kind = a.get("name") or "", (a.get("type") or "text").lower()
        if not name:
            continue
        names.add(name)
        if kind in ("hidden", "text"):
            values[name] = a.get("value") or ""
        elif kind == "checkbox" and "checked" in a:
            checked[name] = a.get("value") or "1"
        elif kind == "submit" and submit is None:
            submit = (name, a.get("value") or "")
    area = form.css_first("textarea#main-reply") or form.css_first("textarea")
    message_field = (area.attributes.get("name") if area is not None else None) or "req_message"
    names.add(message_field)
    return PostForm(action=urljoin(url, form.attributes.get("action") or url), values=values,
                    message_field=message_field, submit=submit, fields=frozenset(names),
                    checked=checked)


def form_target(action: str, key: str) -> str:
    """A query value of a form's action (``tid`` of ``post.php?tid=N``)."""
    return parse_qs(urlsplit(action).query).get(key, [""])[0]


def page_message(html: str) -> str:
    """The board's own words on an answer page (an error list, an info box), for the host."""
    tree = LexborHTMLParser(html)
    for selector in ("#posterror", ".error-list", ".errors", "#msg", ".info .container",
                     "#pun-main .info", "div.error", "p.error"):
        node = tree.css_first(selector)
        if node is not None:
            text = squash(node.text(separator=" "))
            if text:
                return text[:300]
    return ""


def has_login_form(html: str) -> bool:
    tree = LexborHTMLParser(html)
    return tree.css_first("input[type=password]") is not None

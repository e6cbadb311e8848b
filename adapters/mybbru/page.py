"""MyBB.ru HTML pages, read without the API: telling MyBB.ru's pages from plain
PunBB/FluxBB ones (whose posts are ``div.blockpost``), the posting forms, the board's own
words on an answer page. Pure: bytes or text in, values out. The topic page itself is read
by :mod:`.topic`; facts and their sources: README.md.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from adapters import charset
from adapters.address import page_marks
from adapters.form import HtmlForm, find_form, read_form
from adapters.html import first_text

is_mybb_page = page_marks(
    r'id="pun-viewtopic"|<div[^>]+class="post\b[^"]*"[^>]*data-posted=|\bForumAPITicket\b'
    r"|\bBoardID\s*=")
"""Whether a page is the MyBB.ru engine's (its body id, post blocks or JS globals)."""
_punbb_marks = page_marks(
    r'id="punviewtopic"|id="punwrap"|class="blockpost\b|Powered by <a[^>]+(punbb|fluxbb)')


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


def is_punbb_page(html: str) -> bool:
    """A plain PunBB/FluxBB page (no MyBB.ru marks): ``div.blockpost`` posts."""
    return _punbb_marks(html) and not is_mybb_page(html)


# --------------------------------------------------------------------------- forms

def parse_post_form(html: str, *, url: str, action_has: str) -> HtmlForm | None:
    """``form#post`` (or the first form whose action contains ``action_has``); None when
    the page has no such form (a login page, a message instead). A browser sends its hidden
    and text fields, the boxes the board ticks by default (``savemessage``), the message
    (``req_message``) and its first submit button."""
    tree = LexborHTMLParser(html)
    form = find_form(tree, "form#post", action_has=action_has) or find_form(
        tree, action_has=action_has)
    return None if form is None else read_form(form, url, box="1", message="req_message")


def page_message(html: str) -> str:
    """The board's own words on an answer page (an error list, an info box), for the host."""
    return first_text(LexborHTMLParser(html), (
        "#posterror", ".error-list", ".errors", "#msg", ".info .container", "#pun-main .info",
        "div.error", "p.error"), separator=" ")[:300]


def has_login_form(html: str) -> bool:
    tree = LexborHTMLParser(html)
    return tree.css_first("input[type=password]") is not None

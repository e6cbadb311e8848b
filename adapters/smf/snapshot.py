"""SMF's half of a snapshot folder (``[forum] snapshot``; the shared half:
:mod:`adapters.snapshot`): what a saved page is, read with the live board's parsers.
Facts and their sources: README.md («Saved pages»).
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from adapters import snapshot
from adapters.smf import pms, topic
from adapters.smf.page import SmfPage, looks_like_smf, reads_as_smf
from adapters.smf.urls import query_params
from adapters.snapshot import Reading, SavedPage
from referee.core.errors import ForumError

_FOLDERS = {"inbox": "inbox", "sent": "sentbox"}


def saved_folder(tree: LexborHTMLParser, url: str) -> str:
    """The kernel folder a saved PM folder page shows: the folder form's own ``f=``, else
    the saved address's, else the inbox (SMF's ``action=pm`` without ``f``)."""
    form = tree.css_first("form#pmFolder") or tree.css_first("form[name=pmFolder]")
    for where in ((form.attributes.get("action") or "") if form is not None else "", url):
        value = query_params(where.partition("?")[2]).get("f")
        if value in _FOLDERS:
            return _FOLDERS[value]
    return "inbox"


def _print_view(tree: LexborHTMLParser) -> bool:
    """``action=printpage``: the whole topic on one page without post ids (``h1#title``
    and a ``div.postheader`` a post: ``topic_print_guest.html``)."""
    return tree.css_first("h1#title") is not None and tree.css_first("div.postheader") \
        is not None


class SmfPages(snapshot.SavedPages):
    """SMF 2.0/2.1 saved pages, read by :mod:`.topic` and :mod:`.pms`."""

    engine = "smf"
    reads_right = staticmethod(reads_as_smf)

    def read(self, page: SavedPage) -> Reading:
        smf = SmfPage(page.text, page.url)
        if _print_view(smf.tree):
            return Reading("other", why="версия темы для печати: в ней нет номеров сообщений "
                                        "— сохраните обычные страницы темы")
        if not looks_like_smf(page.text):
            return Reading("other", why="не страница SMF")
        clock = smf.clock()
        printed = clock[0] if clock else None
        where = {"url": page.url, "tz": self.tz, "now": page.saved_at}
        if smf.tree.css_first("#forumposts") is not None:
            return Reading("topic", topic=topic.parse_topic_page(page.text, **where),
                           printed_at=printed)
        if smf.tree.css_first("form#pmFolder, form[name=pmFolder]") is not None:
            folder = saved_folder(smf.tree, page.url)
            got = pms.parse_folder(page.text, folder=folder, **where)
            if got.mode == pms.MODE_CONVERSATION:
                raise ForumError(
                    "ЛС сохранены в виде «диалоги»: в нём SMF показывает только последнее "
                    "сообщение каждого диалога", "переключите вид на «Все сразу» (значок "
                    "«Изменить вид» над списком) и сохраните папку ещё раз")
            return Reading("pm_folder", folder=pms.newest_first(got, got.page),
                           pms=tuple(got.messages.values()),
                           printed_at=printed)
        if smf.login_form() is not None:
            return Reading("other", why="форма входа (страница сохранена без входа на форум)")
        said = smf.notice()
        return Reading("other", why=f"сообщение форума: «{said}»" if said
                       else "страница SMF, не тема и не ЛС")


__all__ = ["SmfPages", "saved_folder"]

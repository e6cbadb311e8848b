"""vBulletin's half of a snapshot folder (the shared half: :mod:`adapters.snapshot`): a saved
page with posts is a thread page, a page of ``do=showpm`` links a PM folder, a page with a
PM's postbit an opened PM; what a saved page does not say (the thread, a PM's id, the
folder) is taken from the «saved from url» address, else from the page's own links and
forms. README.md, «Saved pages», has each rule and its source."""

from __future__ import annotations

import re
from dataclasses import replace

from selectolax.lexbor import LexborHTMLParser

from adapters import snapshot
from adapters.address import or_none
from adapters.snapshot import Reading, SavedPage
from adapters.vbulletin import claims_page, pms, topic
from adapters.vbulletin.dates import Order
from adapters.vbulletin.urls import parse_thread_url
from referee.core.errors import MalformedPage
from referee.core.kernel import TopicPage

_FOLDER_ID = re.compile(r"[?&;]folderid=(-?\d+)")
_FOLDERS = {"0": "inbox", "-1": "sentbox"}
_THREAD_LINKS = 'a[href*="showthread.php"], a[href*="threads/"], form[action]'
"""A thread page's links and forms that name its thread (pages, posts' «Ответить» forms)."""


def _thread_of(url: str) -> int | None:
    address = or_none(parse_thread_url, url)
    return address.topic_id if address is not None else None


def _linked_thread(url: str) -> int | None:
    """The thread an address names (a ``t=`` anywhere in it, else the thread URL forms)."""
    match = re.search(r"[?&;]t=(\d+)", url)
    return int(match.group(1)) if match else _thread_of(url)


def _pm_id(tree: LexborHTMLParser, page: SavedPage) -> int | None:
    if page.on_board and (match := pms.PM_ID.search(page.url)):
        return int(match.group(1))
    node = tree.css_first('input[name="pmid"]')
    if node is not None and (node.attributes.get("value") or "").isdigit():
        return int(node.attributes.get("value") or 0)
    for link in tree.css('a[href*="do=newpm"], a[href*="do=showpm"], form[action*="pmid="]'):
        if match := pms.PM_ID.search(link.attributes.get("href")
                                  or link.attributes.get("action") or ""):
            return int(match.group(1))
    return None


def saved_folder(tree: LexborHTMLParser, page: SavedPage) -> str:
    """The kernel folder a saved PM page is of: the listing form's ``folderid``, the saved
    address's, the breadcrumb's; else the inbox."""
    form = tree.css_first("form#pmform")
    places = [(form.attributes.get("action") or "") if form is not None else "",
              page.url if page.on_board else ""]
    places += [a.attributes.get("href") or "" for a in tree.css(
        '#breadcrumb a[href*="folderid="], .navbar a[href*="folderid="]')][::-1]
    for where in places:
        if match := _FOLDER_ID.search(where.replace("&amp;", "&")):
            return _FOLDERS.get(match.group(1), match.group(1))
    return "inbox"


class VbulletinPages(snapshot.SavedPages):
    """vBulletin 3.8/4.x (and vB 5 thread) saved pages, read by :mod:`.topic`, :mod:`.pms`."""

    engine = "vbulletin"
    reads_right = staticmethod(topic.reads_as_vbulletin)
    _order: Order | None = None
    """The numeric date order learnt from the saved pages read so far (as the live board's)."""

    def read(self, page: SavedPage) -> Reading:
        if not claims_page(page.text):
            return Reading("other", why="не страница vBulletin")
        tree = LexborHTMLParser(page.text)
        if topic.raw_posts(tree, page.url):
            return Reading("topic", topic=self._thread(tree, page))
        if page.on_board and "/privatemessage/" in page.url:
            return Reading("other", why="ЛС vBulletin 5 referee пока не читает: ночные ходы "
                                        "можно внести файлом заявок (requests.toml)")
        if tree.css_first('div#showpm, div[id^="post_message_"]') is not None or (
                page.on_board and "do=showpm" in page.url):
            return self._pm(tree, page)
        if tree.css_first('a[href*="do=showpm"], form#pmform, ol.pmlist') is not None:
            folder = pms.parse_pm_folder(page.text, url=page.url,
                                          folder=saved_folder(tree, page), tz=self.tz,
                                          now=page.saved_at)
            return Reading("pm_folder", folder=folder)
        said = topic.message_text(tree)
        if said:
            return Reading("other", why=f"сообщение форума: «{said}»")
        if tree.css_first('input[name="vb_login_username"]') is not None and \
                not topic.is_logged_in(tree):
            return Reading("other", why="форма входа (страница сохранена без входа на форум)")
        return Reading("other", why="страница vBulletin, не тема и не ЛС")

    def _thread(self, tree: LexborHTMLParser, page: SavedPage) -> TopicPage:
        known = _thread_of(page.url) if page.on_board else None
        tp, self._order = topic.read_topic_page(
            page.text, url=page.url, tz=self.tz, now=page.saved_at, topic_id=known,
            order=self._order)
        if tp.topic_id is None and (tid := snapshot.most_linked(
                tree, _linked_thread, _THREAD_LINKS)) is not None:
            tp = replace(tp, topic_id=tid,
                         posts=tuple(replace(p, topic_id=tid) for p in tp.posts))
        return tp

    def _pm(self, tree: LexborHTMLParser, page: SavedPage) -> Reading:
        pm_id = _pm_id(tree, page)
        if pm_id is None:
            raise MalformedPage(
                "на сохранённой странице ЛС не видно её номера (pmid)",
                "сохраните ЛС из Chrome или Edge: они записывают адрес страницы в файл")
        folder = saved_folder(tree, page)
        pm = pms.parse_pm(page.text, url=page.url, pm_id=pm_id, folder=folder, tz=self.tz,
                           now=page.saved_at, host=self.settings.username)
        return Reading("pm", pms=(pm,))


__all__ = ["VbulletinPages", "saved_folder"]

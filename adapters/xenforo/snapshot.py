"""XenForo's half of a snapshot folder (``[forum] snapshot``; the shared half:
:mod:`adapters.snapshot`): what a saved page is (told by its markup, then its template),
which thread or conversation it shows, read with the live board's parsers; conversation
messages are keyed as the live board keys them, so a game read from saved pages can go on
live. Facts and their sources: README.md («Saved pages»).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser

from adapters import snapshot
from adapters.base import ForumSettings
from adapters.snapshot import Reading, SavedPage, most_linked
from adapters.xenforo.page import error_text, generation, login_form, reads_as_xenforo, root_mark
from adapters.xenforo.pms import (
    ConversationPage,
    ConversationRow,
    conversation_id_in,
    conversation_pms,
    inbox_page,
    parse_conversation_list,
    parse_conversation_page,
)
from adapters.xenforo.topic import read_thread_page
from referee.core.errors import MalformedPage
from referee.core.kernel import PmFolderPage, PrivateMessage, TopicPage

_THREAD_LINK = re.compile(r"threads/(?:[^/?#]*\.)?(\d+)(?=/|$|[?#])")
_TEMPLATES = {
    "login": "форма входа (страница сохранена без входа на форум)",
    "forum_list": "главная страница форума", "forum_view": "список тем раздела",
    "thread_reply": "форма ответа", "conversation_add": "форма новой переписки",
    "whats_new": "«Что нового»", "search_results": "результаты поиска",
    "member_view": "профиль участника",
}


def template_of(tree: LexborHTMLParser) -> str:
    """The page's template: XF2 ``html[data-template]``, XF1 ``div#content``'s class."""
    name = root_mark(tree, "data-template")
    if name:
        return name
    content = tree.css_first("div#content[class]")
    return ((content.attributes.get("class") or "").split() or [""])[0] if content else ""


def _thread_in(address: str) -> int | None:
    match = _THREAD_LINK.search(address)
    return int(match.group(1)) if match else None


def _kind(tree: LexborHTMLParser) -> str:
    if tree.css_first("article.message--post") is not None:
        return "thread"
    if tree.css_first("article.message--conversationMessage") is not None:
        return "conversation"
    template = template_of(tree)
    if tree.css_first("div.structItem--conversation") is not None or template in (
            "conversation_list", "direct_message_list"):
        return "list"
    if tree.css_first("li.message") is not None:
        return "conversation" if template.startswith("conversation") else "thread"
    return template


class XenforoPages(snapshot.SavedPages):
    """XenForo 1/2 saved pages, read by :mod:`.topic` and :mod:`.pms`."""

    engine = "xenforo"
    reads_right = staticmethod(reads_as_xenforo)

    def __init__(self, settings: ForumSettings, *, tz: ZoneInfo | None = None) -> None:
        super().__init__(settings, tz=tz)
        self._rows: dict[int, ConversationRow] = {}
        self._shown: list[tuple[int, ConversationPage]] = []
        self._per_page: int | None = None

    def read(self, page: SavedPage) -> Reading:
        tree = LexborHTMLParser(page.text)
        if generation(tree) is None:
            return Reading("other", why="не страница XenForo")
        kind = _kind(tree)
        if kind == "thread":
            return Reading("topic", topic=self._thread(tree, page))
        if kind == "list":
            return Reading("pm_folder", folder=self._list(page))
        if kind == "conversation":
            shown = parse_conversation_page(page.text, url=page.url, tz=self.tz,
                                            now=page.saved_at)
            cid = shown.conversation_id or most_linked(tree, conversation_id_in)
            if cid is None:
                raise MalformedPage("на сохранённой странице переписки не видно, какая это "
                                    "переписка", "сохраните её ещё раз из Chrome или Edge")
            self._shown.append((cid, shown))
            if shown.page < shown.total_pages and shown.messages:
                self._per_page = len(shown.messages)
            return Reading("pm")
        said = error_text(tree)
        if login_form(tree) is not None and kind != "thread_reply":
            return Reading("other", why=_TEMPLATES["login"])
        return Reading("other", why=_TEMPLATES.get(kind) or (
            f"сообщение форума: «{said}»" if said else f"страница XenForo «{kind or '?'}», "
            "не тема и не переписка"))

    def _thread(self, tree: LexborHTMLParser, page: SavedPage) -> TopicPage:
        tp = read_thread_page(page.text, url=page.url, tz=self.tz, now=page.saved_at).page
        if tp.page < tp.total_pages and tp.posts:
            self._per_page = len(tp.posts)  # one setting for threads and conversations
        if tp.topic_id is None and (tid := most_linked(tree, _thread_in)) is not None:
            tp = replace(tp, topic_id=tid,
                         posts=tuple(replace(p, topic_id=tid) for p in tp.posts))
        return tp

    def _list(self, page: SavedPage) -> PmFolderPage:
        listing = parse_conversation_list(page.text, url=page.url, tz=self.tz,
                                          now=page.saved_at)
        self._rows.update((row.conversation_id, row) for row in listing.rows)
        return inbox_page(listing, lambda route: route)

    def listed_in(self, pm: PrivateMessage, folder: str) -> bool:
        """XenForo keeps one list of conversations, the host's own messages in them: the
        live board lists every message in the inbox and nothing elsewhere."""
        return folder == "inbox"

    def late_pms(self) -> Iterator[PrivateMessage]:
        for cid, shown in self._shown:
            yield from conversation_pms(cid, shown, self._rows.get(cid), self._per_page,
                                        self.settings.username or "")


__all__ = ["XenforoPages", "template_of"]

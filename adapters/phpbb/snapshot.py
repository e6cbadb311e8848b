"""phpBB's half of a snapshot folder (``[forum] snapshot``; the shared half, what browsers
do to saved pages and how versions are ordered: :mod:`adapters.snapshot`).

Each saved file is classified by :func:`adapters.phpbb.page_kind`: topic pages, PM
folder listings and opened PMs are read by the live board's parsers; a PM's folder is the
one the UCP menu marks as the page's (``#active-subsection``); other phpBB pages (index,
login, posting forms) are skipped and listed in :attr:`SnapshotForum.skipped`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser

from adapters import snapshot
from adapters.base import ForumSettings
from adapters.phpbb import parse
from adapters.phpbb.urls import parse_topic_url
from adapters.snapshot import Reading, SavedPage

_FOLDER_NAMES = {"0": "inbox", "-1": "sentbox", "-2": "outbox"}


def saved_pm_folder(html: str) -> str:
    """The folder a saved PM was opened from: the UCP menu marks it ``#active-subsection``."""
    node = LexborHTMLParser(html).css_first("li#active-subsection a")
    href = (node.attributes.get("href") or "") if node else ""
    value = parse_qs(urlsplit(href.replace("&amp;", "&")).query).get("folder", ["inbox"])[0]
    return _FOLDER_NAMES.get(value, value)


class PhpbbPages(snapshot.SavedPages):
    """phpBB saved pages, read by :mod:`adapters.phpbb.parse`."""

    engine = "phpbb"
    title = "phpBB 3.x"
    url_example = "…/viewtopic.php?t=N"

    def reads_right(self, text: str) -> bool:
        return parse.reads_as_phpbb(text)

    def topic_of(self, url: str) -> int | None:
        return parse_topic_url(url)[1]

    def read(self, page: SavedPage) -> Reading:
        kind = parse.page_kind(page.text)
        where = {"url": page.url, "tz": self.tz, "now": page.saved_at}
        if kind == "topic":
            return Reading("topic", topic=parse.parse_topic_page(page.text, **where))
        if kind == "pm_folder":
            return Reading("pm_folder", folder=parse.parse_pm_folder(page.text, **where))
        if kind == "pm":
            pm = parse.parse_pm(page.text, folder=saved_pm_folder(page.text), **where)
            return Reading("pm", pms=(pm,))
        return Reading("other", why=f"это не страница темы и не ЛС ({kind})")


class SnapshotForum(snapshot.SnapshotForum):
    """A folder of saved phpBB pages as a forum (:class:`adapters.snapshot.SnapshotForum`)."""

    def __init__(
        self,
        folder: Path,
        *,
        forum: ForumSettings | None = None,
        tz: ZoneInfo | None = None,
        now: Callable[[], datetime] | None = None,
    ) -> None:
        super().__init__(folder, PhpbbPages(forum or ForumSettings(), tz=tz), now=now)


__all__ = ["PhpbbPages", "SnapshotForum", "saved_pm_folder"]

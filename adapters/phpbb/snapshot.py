"""phpBB's half of a snapshot folder (``[forum] snapshot``; the shared half, what browsers
do to saved pages and how versions are ordered: :mod:`adapters.snapshot`).

Each saved file is classified by :func:`page_kind` (its DOM, gotcha 10): topic pages, PM
folder listings and opened PMs are read by the live board's parsers; a PM's folder is the
one the UCP menu marks as the page's (``#active-subsection``); other phpBB pages (index,
login, posting forms) are skipped and listed in :attr:`SnapshotForum.skipped`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser

from adapters import snapshot
from adapters.base import ForumSettings
from adapters.phpbb.forms import _posting_form_node
from adapters.phpbb.page import PageKind, _login_form_node, _message_panel, reads_as_phpbb
from adapters.phpbb.pms import folder_of, parse_pm, parse_pm_folder, pm_header_rows
from adapters.phpbb.topic import _id_posts, _prosilver_posts, parse_topic_page, subsilver_anchors
from adapters.snapshot import Reading, SavedPage


def saved_pm_folder(html: str) -> str:
    """The folder a saved PM was opened from: the UCP menu marks it ``#active-subsection``."""
    node = LexborHTMLParser(html).css_first("li#active-subsection a")
    return folder_of((node.attributes.get("href") or "") if node else "")


def page_kind(html: str) -> PageKind:
    """What phpBB page this is, judged by its DOM (gotcha 10), not by the HTTP status."""
    tree = LexborHTMLParser(html)
    if _prosilver_posts(tree) or subsilver_anchors(tree):
        return "topic"
    if tree.css_first("div.post.pm") is not None:
        return "pm"
    if _posting_form_node(tree) is not None:
        return "posting_form"
    if tree.css_first('form#viewfolder, ul.pmlist, form[name="viewfolder"]') is not None:
        return "pm_folder"
    if pm_header_rows(tree) and tree.css_first("div.postbody") is not None:
        return "pm"  # subsilver2's message table
    if _id_posts(tree):
        return "topic"
    if _login_form_node(tree) is not None:
        return "login"
    if _message_panel(tree) is not None:
        return "message"
    return "unknown"


class PhpbbPages(snapshot.SavedPages):
    """phpBB saved pages, read by the live board's parsers."""

    engine = "phpbb"

    reads_right = staticmethod(reads_as_phpbb)

    @classmethod
    def open(cls, settings: ForumSettings) -> SnapshotForum:
        assert settings.snapshot is not None  # the registry opens only a snapshot folder
        return SnapshotForum(settings.snapshot, forum=settings)

    def read(self, page: SavedPage) -> Reading:
        kind = page_kind(page.text)
        where = {"url": page.url, "tz": self.tz, "now": page.saved_at}
        if kind == "topic":
            return Reading("topic", topic=parse_topic_page(page.text, **where))
        if kind == "pm_folder":
            return Reading("pm_folder", folder=parse_pm_folder(page.text, **where))
        if kind == "pm":
            pm = parse_pm(page.text, folder=saved_pm_folder(page.text), **where)
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


__all__ = ["PhpbbPages", "SnapshotForum", "page_kind", "saved_pm_folder"]

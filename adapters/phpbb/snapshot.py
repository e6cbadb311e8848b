"""Offline source: a folder of pages the host saved from a browser (``[forum] snapshot``).

For forums that block scripts, or a host who would rather not give the tool a password:
save the topic pages, the PM folders and the opened PMs ("Save page as…", HTML), put them in
one folder, and referee reads every ``*.html`` there through the same parser as the live
forum. Each file is classified by :func:`adapters.phpbb.parse.page_kind`; files of another
kind (index pages, login pages, the "…_files" folders browsers add) are skipped and listed
in :attr:`SnapshotForum.skipped`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser

from adapters.base import ForumSettings
from adapters.charset import Undecodable
from adapters.phpbb import parse
from adapters.phpbb.client import parse_topic_url
from referee.errors import ConfigError, ForumError, MalformedPage, TopicNotFound
from referee.kernel import (
    FIRST_PAGE,
    PageCursor,
    PmFolderPage,
    PmListEntry,
    PrivateMessage,
    TopicPage,
)

log = logging.getLogger("referee.snapshot")

_FOLDER_NAMES = {"0": "inbox", "-1": "sentbox", "-2": "outbox"}


def saved_pm_folder(html: str) -> str:
    """The folder a saved PM was opened from: the UCP menu marks it ``#active-subsection``."""
    node = LexborHTMLParser(html).css_first("li#active-subsection a")
    href = (node.attributes.get("href") or "") if node else ""
    value = parse_qs(urlsplit(href.replace("&amp;", "&")).query).get("folder", ["inbox"])[0]
    return _FOLDER_NAMES.get(value, value)


def _oldest_first(versions: list[tuple[int, TopicPage]]) -> list[TopicPage]:
    """Saved versions of one page, oldest first (see :class:`SnapshotForum`)."""

    def age(item: tuple[int, TopicPage]) -> tuple[int, int, int]:
        order, tp = item
        return len(tp.posts), sum(p.edit.count for p in tp.posts if p.edit), order

    return [tp for _, tp in sorted(versions, key=age)]


class SnapshotForum:
    """Saved pages as a forum (implements :class:`referee.kernel.Forum`).

    A page saved twice (e.g. before and after new posts, or before and after an edit) is
    read in every saved version, oldest first, so the store keeps each text a post ever had
    (vote rule V4). "Oldest" is judged by the page itself, not by file times (a git checkout
    or a copy resets those): fewer posts first, then fewer edits (phpBB's edit counters only
    grow), then the file's modification time. When ``[forum] url`` names a topic, pages of
    other topics in the folder are ignored.
    """

    def __init__(
        self,
        folder: Path,
        *,
        forum: ForumSettings | None = None,
        tz: ZoneInfo | None = None,
        now: Callable[[], datetime] | None = None,
    ) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise ConfigError(
                f"папки [forum] snapshot {self.folder} нет",
                "сохраните в неё страницы темы (и ЛС) из браузера",
            )
        self.tz = tz or ZoneInfo(forum.timezone if forum else "UTC")
        self.topic_id: int | None = None
        if forum is not None and forum.url:
            self.topic_id = parse_topic_url(forum.url)[1]
        self.skipped: list[tuple[Path, str]] = []
        self._topic: dict[int, list[TopicPage]] = {}
        self._folders: dict[tuple[str, int], PmFolderPage] = {}
        self._pms: dict[int, PrivateMessage] = {}
        self._load(now)

    engine = "phpbb"

    @property
    def requests(self) -> int:
        return 0

    def topic_page_url(self, page: int) -> str:
        """Saved pages have no address of their own on the board."""
        return ""

    def login(self) -> None:
        """Saved pages need no session."""

    def close(self) -> None:
        pass

    def __enter__(self) -> SnapshotForum:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading the folder

    def _files(self) -> list[Path]:
        files = [p for p in self.folder.iterdir()
                 if p.is_file() and p.suffix.lower() in (".html", ".htm")]
        return sorted(files, key=lambda p: (p.stat().st_mtime, p.name))

    def _load(self, now: Callable[[], datetime] | None) -> None:
        topics: dict[int | None, dict[int, list[tuple[int, TopicPage]]]] = {}
        for order, path in enumerate(self._files()):
            try:
                html = parse.decode_stored_page(path.read_bytes())
            except Undecodable as e:
                self.skipped.append((path, f"не понять наверняка, в какой он кодировке ({e})"))
                continue
            kind = parse.page_kind(html)
            url = path.resolve().as_uri()
            # Relative dates («Сегодня, 13:37») in a saved page are relative to when it was
            # saved, which the file's mtime tells best.
            when = now() if now else datetime.fromtimestamp(path.stat().st_mtime, UTC)
            try:
                if kind == "topic":
                    tp = parse.parse_topic_page(html, url=url, tz=self.tz, now=when)
                    topics.setdefault(tp.topic_id, {}).setdefault(tp.page, []).append(
                        (order, tp)
                    )
                elif kind == "pm_folder":
                    fp = parse.parse_pm_folder(html, url=url, tz=self.tz, now=when)
                    self._folders[(fp.folder, fp.page)] = fp
                elif kind == "pm":
                    folder = saved_pm_folder(html)
                    pm = parse.parse_pm(html, url=url, tz=self.tz, now=when, folder=folder)
                    self._pms[pm.pm_id] = pm
                else:
                    self.skipped.append((path, f"это не страница темы и не ЛС ({kind})"))
            except ForumError as e:
                self.skipped.append((path, e.message))
        for path, why in self.skipped:
            log.info("snapshot: skipped %s: %s", path.name, why)
        self._topic = self._pick_topic(topics)

    def _pick_topic(
        self, topics: dict[int | None, dict[int, list[tuple[int, TopicPage]]]]
    ) -> dict[int, list[TopicPage]]:
        if self.topic_id is not None:
            chosen = topics.get(self.topic_id)
            if chosen is None and None in topics and len(topics) == 1:
                chosen = topics[None]
            return {n: _oldest_first(v) for n, v in (chosen or {}).items()}
        if len(topics) > 1:
            ids = ", ".join(str(t) for t in sorted(t for t in topics if t is not None))
            raise ConfigError(
                f"в папке snapshot {self.folder} страницы нескольких тем ({ids})",
                'укажите [forum] url = "…/viewtopic.php?t=N" — какая из них игра',
            )
        for tid, pages in topics.items():
            self.topic_id = tid
            return {n: _oldest_first(v) for n, v in pages.items()}
        return {}

    # -- Forum

    def fetch_topic_pages(self, cursor: PageCursor = FIRST_PAGE) -> Iterator[TopicPage]:
        if not self._topic:
            raise TopicNotFound(
                f"в папке snapshot {self.folder} нет ни одной сохранённой страницы темы игры",
                "сохраните страницы темы из браузера (Ctrl+S) в эту папку",
            )
        for n in sorted(self._topic):
            if n >= cursor.page:
                yield from self._topic[n]

    def fetch_pm_folder(self, folder: str = "inbox", page: int = 1) -> PmFolderPage:
        """The saved PMs of ``folder`` as one listing (saved listing pages only tell which
        PMs exist; a PM whose own page was not saved is in :attr:`not_saved`)."""
        entries = tuple(
            PmListEntry(pm_id=pm.pm_id, subject=pm.subject, sender=pm.sender,
                        sent_at=pm.sent_at, url=f"saved:{pm.pm_id}",
                        recipients=pm.recipients)
            for pm in sorted(self._pms.values(), key=lambda p: (p.sent_at, p.pm_id))
            if pm.folder == folder
        )
        return PmFolderPage(folder=folder, page=1, total_pages=1,
                            entries=entries if page == 1 else ())

    @property
    def not_saved(self) -> list[PmListEntry]:
        """PMs that a saved folder listing shows but whose page is not in the folder."""
        return sorted(
            (e for fp in self._folders.values() for e in fp.entries if e.pm_id not in self._pms),
            key=lambda e: e.pm_id,
        )

    def fetch_pm(self, entry: PmListEntry | int, folder: str = "inbox") -> PrivateMessage:
        pm_id = entry.pm_id if isinstance(entry, PmListEntry) else int(entry)
        pm = self._pms.get(pm_id)
        if pm is None:
            raise MalformedPage(
                f"личного сообщения {pm_id} нет среди сохранённых страниц",
                "откройте это ЛС в браузере и сохраните его тоже в папку snapshot",
            )
        return pm

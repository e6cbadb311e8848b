"""Saved pages as a forum (``[forum] snapshot``): the half every engine shares.

For forums that block scripts, or a host who would rather not give the tool a password:
save the topic pages, the PM folders and the opened PMs from the browser («Сохранить
страницу как…», HTML) into one folder, and referee reads every page there through the same
parsers as the live board. This module walks the folder, decodes each file, asks the
engine's :class:`SavedPages` what the page is and reads it, keeps the saved versions of one
page oldest first, lists what it skipped and why (in Russian, for the host), refuses a
folder that is not the game's, and answers the :class:`referee.core.kernel.Forum` methods from
what it read. The engine's half only classifies and reads one page with its own parsers.

What browsers do to a page they save, and how it is met here:

- Chrome (and IE) write ``<!-- saved from url=(0051)https://… -->`` near the top: the
  page's address on the board. It is the page's URL for the parsers (the topic, the page
  number, a PM's id or folder come from it where the page itself does not say). Firefox
  writes none: the URL is then the file's, and the engines read the page's own marks
  (``<link rel="canonical">``, its links and forms).
- Links are made absolute, images and styles go to a ``…_files`` folder beside the page
  (listed as skipped), ``<base>`` is kept or dropped, scripts are kept or removed: the
  engines' saved-page readers depend on none of them.
- Chrome rewrites the page into UTF-8 and its ``<meta charset>`` with it; Firefox keeps the
  page's own encoding and declaration. The file is decoded by :mod:`adapters.charset`, its
  own declaration first; a file that reads right under no encoding is skipped, never
  stored as mojibake.
- Relative dates («Сегодня в 21:42») are relative to when the page was saved: the file's
  modification time, unless the page prints the board's clock (the engine says so).
"""

from __future__ import annotations

import html as html_lib
import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser

from adapters import charset
from adapters.base import ForumSettings
from adapters.http_client import Closing
from adapters.registry import PAGE_SUFFIXES, engines
from referee.core.errors import ConfigError, ForumError, MalformedPage, TopicNotFound
from referee.core.kernel import (
    FIRST_PAGE,
    PageCursor,
    PmFolderPage,
    PmListEntry,
    PrivateMessage,
    TopicPage,
)

log = logging.getLogger("referee.snapshot")

_ARCHIVES = (".mht", ".mhtml", ".webarchive", ".maff")
_SAVED_FROM = re.compile(r"<!--\s*saved from url=\(\d+\)\s*(\S+?)\s*-->", re.IGNORECASE)

Kind = Literal["topic", "pm_folder", "pm", "other"]


def saved_from(text: str) -> str | None:
    """The board address a browser noted in the page it saved (Chrome's and IE's «saved
    from url» comment, before or after the doctype), or None."""
    match = _SAVED_FROM.search(text[:8192])
    if match is None:
        return None
    url = html_lib.unescape(match.group(1))
    return url if url.startswith(("http://", "https://")) else None


def most_linked(page: LexborHTMLParser, number: Callable[[str], int | None],
                where: str = "a[href], form[action]") -> int | None:
    """The topic (or conversation) most of a saved page's links and forms (``where``) name,
    ``number`` reading it from an address: a post's links all name its own. For a page
    that says by no other mark which it shows (Firefox writes no «saved from url»)."""
    seen = Counter(found for node in page.css(where) if (found := number(
        node.attributes.get("href") or node.attributes.get("action") or "")) is not None)
    return seen.most_common(1)[0][0] if seen else None


@dataclass(frozen=True, slots=True)
class SavedPage:
    """One saved file, decoded."""

    path: Path
    text: str
    url: str
    """The page's address: the board's when the browser noted it, else the file's URI."""
    on_board: bool
    """Whether :attr:`url` is the board's address (from the «saved from url» comment)."""
    saved_at: datetime
    """When the page was saved (the file's time), for «Сегодня»/«Вчера»."""
    order: int
    """Its place among the folder's pages, oldest file first."""


@dataclass(frozen=True, slots=True)
class Reading:
    """What an engine made of one saved page."""

    kind: Kind
    topic: TopicPage | None = None
    folder: PmFolderPage | None = None
    pms: tuple[PrivateMessage, ...] = ()
    why: str = ""
    """For ``other``: what the page is, in the host's words («форма входа»)."""
    printed_at: datetime | None = None
    """The board's clock as the page prints it, when it does: the surest age of a version."""


class SavedPages:
    """One engine's half of a snapshot folder: what each saved page is, read with the
    engine's own parsers. Subclasses set the names and implement :meth:`read`."""

    engine = ""
    """The registry name (``"phpbb"``): what a host calls the engine («phpBB 3.x») and a
    topic address of it, for the hints, are its registry entry's."""
    regroups = False
    """Whether :meth:`regroup` numbers the pages otherwise than the board (then a saved
    page's address is no address of the store's page)."""

    def __init__(self, settings: ForumSettings, *, tz: ZoneInfo | None = None) -> None:
        self.settings = settings
        self.tz = tz or ZoneInfo(settings.timezone)

    def reads_right(self, text: str) -> bool:
        """The engine's check that a decoded page reads right (:mod:`adapters.charset`)."""
        return True

    @classmethod
    def open(cls, settings: ForumSettings) -> SnapshotForum:
        """``settings``' snapshot folder read by this engine (the registry's entry)."""
        if settings.snapshot is None:
            raise ConfigError("[forum] snapshot не задан", "укажите папку сохранённых страниц")
        return SnapshotForum(settings.snapshot, cls(settings))

    def read(self, page: SavedPage) -> Reading:
        """What ``page`` is, and its contents; a :class:`ForumError` for a page of this
        engine that cannot be read (it is skipped, with the error's words)."""
        raise NotImplementedError

    def listed_in(self, pm: PrivateMessage, folder: str) -> bool:
        """Whether the live board lists ``pm`` in ``folder`` (its own folder, unless the
        engine keeps one list for all)."""
        return pm.folder == folder

    def late_pms(self) -> Iterable[PrivateMessage]:
        """PMs known only once every page is read (XenForo numbers a conversation's
        messages by places that other pages tell)."""
        return ()

    def regroup(self, pages: dict[int, list[TopicPage]]) -> dict[int, list[TopicPage]]:
        """The game topic's pages (each with its versions, oldest first) as the store
        numbers them; the board's own numbering unless the engine says otherwise."""
        return pages


@dataclass(frozen=True, slots=True)
class _Version:
    path: Path
    order: int
    page: TopicPage
    printed_at: datetime | None


def _oldest_first(versions: list[_Version]) -> list[TopicPage]:
    """Saved versions of one page, oldest first (see :class:`SnapshotForum`)."""
    if len(versions) > 1 and all(v.printed_at is not None for v in versions):
        return [v.page for v in sorted(versions, key=lambda v: (v.printed_at, v.order))]

    def age(v: _Version) -> tuple[int, int, datetime, int]:
        edits = [p.edit for p in v.page.posts if p.edit]
        last = max((e.edited_at for e in edits if e.edited_at), default=datetime.min)
        return len(v.page.posts), sum(e.count for e in edits), last.replace(tzinfo=None), \
            v.order

    return [v.page for v in sorted(versions, key=age)]


def _in_todays_shape(pages: dict[int, list[TopicPage]]) -> dict[int, list[TopicPage]]:
    """Every saved version as a page of the topic as it stands in its newest saved last
    page (its page count, and its post count where a page prints one): an older version is
    read for its texts (V4), not for the topic's shape then. A page saved when it was the
    last one would otherwise tell the store that the posts after it are gone (and a later
    sync that re-reads it would say so)."""
    if not pages:
        return pages
    last = max(pages)
    newest = pages[last][-1]
    total = max(last, newest.total_pages)
    return {n: [v if v.total_pages == total and v.total_posts in (None, newest.total_posts)
                else replace(v, total_pages=max(total, v.page), total_posts=(
                    newest.total_posts if v.total_posts is not None else None))
                for v in versions]
            for n, versions in pages.items()}


@dataclass
class _Topic:
    """The pages of one topic the folder holds."""

    title: str = ""
    pages: dict[int, list[_Version]] = field(default_factory=dict)


class SnapshotForum(Closing):
    """Saved pages as a forum (implements :class:`referee.core.kernel.Forum`).

    A page saved twice (e.g. before and after new posts, or before and after an edit) is
    read in every saved version, oldest first, so the store keeps each text a post ever had
    (vote rule V4). "Oldest" is judged by the page itself, not by file times (a git checkout
    or a copy resets those): by the board's clock when every version prints it, else fewer
    posts first, then fewer edits (edit counters only grow), then the later last edit, then
    the file's modification time. When ``[forum] url`` names a topic, pages of other topics
    are skipped; a folder that holds none of its pages, or only another engine's pages, is
    refused, saying what it holds.
    """

    def __init__(self, folder: Path, pages: SavedPages, *,
                 now: Callable[[], datetime] | None = None) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise ConfigError(
                f"папки [forum] snapshot {self.folder} нет",
                "сохраните в неё страницы темы (и ЛС) из браузера",
            )
        self.pages = pages
        self.engine = pages.engine
        self.tz = pages.tz
        url = pages.settings.url
        # The game topic's number, read by the registry entry (None for a bare board address).
        self.topic_id = engines()[self.engine].topic_id(url) if url else None
        self.skipped: list[tuple[Path, str]] = []
        self._foreign: dict[str, int] = {}
        self._topics: dict[int | None, _Topic] = {}
        self._topic: dict[int, list[TopicPage]] = {}
        self._folders: dict[tuple[str, int], PmFolderPage] = {}
        self._pms: dict[int, PrivateMessage] = {}
        self._addresses: dict[int, str] = {}
        self._load(now)

    @property
    def requests(self) -> int:
        return 0

    def topic_page_url(self, page: int) -> str:
        """The board address a browser noted for the saved page, if it did."""
        return self._addresses.get(page, "")

    def login(self) -> None:
        """Saved pages need no session."""

    # -- reading the folder

    def _pages(self) -> list[Path]:
        pages: list[Path] = []
        for path in sorted(self.folder.iterdir(), key=lambda p: p.name):
            suffix = path.suffix.lower()
            if path.is_file() and suffix in PAGE_SUFFIXES:
                pages.append(path)
            elif path.is_dir():
                self.skipped.append((path, "папка, которую браузер сохраняет рядом со "
                                           "страницей (картинки, стили, скрипты)"))
            elif suffix in _ARCHIVES:
                self.skipped.append((path, "веб-архив: referee читает страницы, сохранённые "
                                           "как «Веб-страница, полностью» или «только HTML»"))
            elif not path.name.startswith("."):
                self.skipped.append((path, "не сохранённая страница (не .html)"))
        return sorted(pages, key=lambda p: (p.stat().st_mtime, p.name))

    def _open(self, path: Path, order: int,
              now: Callable[[], datetime] | None) -> SavedPage | None:
        try:
            text, _ = charset.decide(path.read_bytes(), reads_right=self.pages.reads_right)
        except charset.Undecodable as e:
            self.skipped.append((path, f"не понять наверняка, в какой он кодировке ({e})"))
            return None
        board = saved_from(text)
        # Relative dates («Сегодня, 13:37») in a saved page are relative to when it was
        # saved, which the file's mtime tells best.
        when = now() if now else datetime.fromtimestamp(path.stat().st_mtime, UTC)
        return SavedPage(path=path, text=text, url=board or path.resolve().as_uri(),
                         on_board=board is not None, saved_at=when, order=order)

    def _load(self, now: Callable[[], datetime] | None) -> None:
        for order, path in enumerate(self._pages()):
            page = self._open(path, order, now)
            if page is None:
                continue
            try:
                reading = self.pages.read(page)
            except ForumError as e:
                self.skipped.append((path, e.message))
                continue
            self._take(page, reading)
        for pm in self.pages.late_pms():
            self._pms[pm.pm_id] = pm
        if not (self._topics or self._pms or self._folders) and self._foreign:
            raise ConfigError(
                f"в папке snapshot {self.folder} сохранены страницы форума на "
                f"{', '.join(self._foreign)}, а referee читает её как форум на "
                f"{engines()[self.engine].title}",
                "проверьте [forum] engine и [forum] url: они должны быть того же форума, с "
                "которого сохранены страницы (или уберите их — движок узнается по страницам)",
            )
        self._topic = self._pick_topic()
        for path, why in self.skipped:
            log.info("snapshot: skipped %s: %s", path.name, why)

    def _take(self, page: SavedPage, reading: Reading) -> None:
        if reading.kind == "topic" and reading.topic is not None:
            tp = reading.topic
            topic = self._topics.setdefault(tp.topic_id, _Topic())
            topic.title = topic.title or tp.title
            topic.pages.setdefault(tp.page, []).append(
                _Version(page.path, page.order, tp, reading.printed_at))
            if page.on_board and not self.pages.regroups:
                self._addresses.setdefault(tp.page, page.url)
        elif reading.kind in ("pm_folder", "pm"):
            if reading.folder is not None:
                fp = reading.folder
                self._folders[(fp.folder, fp.page)] = fp
            for pm in reading.pms:
                self._pms[pm.pm_id] = pm
        else:
            self.skipped.append((page.path, self._why_other(page, reading.why)))

    def _why_other(self, page: SavedPage, why: str) -> str:
        """What a page this engine does not read is: another engine's page, or ``why``."""
        found = {e.name: e.title for e in engines().values()
                 if e.claims_page is not None and e.claims_page(page.text)}
        if not found or self.engine in found:
            return why or "это не страница темы и не ЛС"
        for title in found.values():
            self._foreign[title] = self._foreign.get(title, 0) + 1
        return f"страница форума на другом движке ({', '.join(found.values())})"

    def _pick_topic(self) -> dict[int, list[TopicPage]]:
        topics = self._topics
        if not topics:
            return {}
        if self.topic_id is None:
            if len(topics) > 1:
                ids = ", ".join(str(t) for t in sorted(t for t in topics if t is not None))
                raise ConfigError(
                    f"в папке snapshot {self.folder} страницы нескольких тем ({ids})",
                    f'укажите [forum] url = "{engines()[self.engine].example}" — какая из них '
                    "игра",
                )
            self.topic_id = next(iter(topics))
        # Pages that print no topic number are the game's when they are all the folder holds.
        chosen = self.topic_id if self.topic_id in topics else None
        if chosen not in topics or (chosen is None and len(topics) > 1):
            raise ConfigError(
                f"в папке snapshot {self.folder} нет страниц темы {self.topic_id}, "
                f"которую называет [forum] url: в ней {self._holds()}",
                "сохраните в эту папку страницы темы игры — или исправьте [forum] url",
            )
        for tid, other in topics.items():
            if tid != chosen:
                for versions in other.pages.values():
                    self.skipped += [(v.path, f"страница другой темы ({tid}), не темы игры "
                                              f"({self.topic_id})") for v in versions]
        pages = {n: _oldest_first(v) for n, v in sorted(topics[chosen].pages.items())}
        return _in_todays_shape(self.pages.regroup(pages))

    def _holds(self) -> str:
        """What the folder holds, for a refusal."""
        parts = []
        for tid, topic in self._topics.items():
            numbers = ", ".join(str(n) for n in sorted(topic.pages))
            name = f"темы {tid}" if tid is not None else "темы без номера"
            title = f" «{topic.title}»" if topic.title else ""
            parts.append(f"страницы {name}{title} (стр. {numbers})")
        if self._pms:
            parts.append(f"ЛС: {len(self._pms)}")
        elif self._folders:
            parts.append(f"списки ЛС: {len(self._folders)}")
        others = [p for p, _ in self.skipped if p.suffix.lower() in PAGE_SUFFIXES]
        if others:
            parts.append(f"других страниц: {len(others)}")
        return ", ".join(parts) or "ничего, что referee читает"

    # -- Forum

    def fetch_topic_pages(self, cursor: PageCursor = FIRST_PAGE) -> Iterator[TopicPage]:
        if not self._topic:
            raise TopicNotFound(
                f"в папке snapshot {self.folder} нет ни одной сохранённой страницы темы игры"
                + ("" if not (self._pms or self.skipped) else f" (в ней {self._holds()})"),
                "сохраните страницы темы из браузера (Ctrl+S) в эту папку",
            )
        for n in sorted(self._topic):
            if n >= cursor.page:
                yield from self._topic[n]

    def versions_of(self, page: int) -> int:
        """How many saved versions of ``page`` :meth:`fetch_topic_pages` yields
        (:class:`referee.core.kernel.SavedVersions`)."""
        return len(self._topic.get(page, ())) or 1

    def fetch_pm_folder(self, folder: str = "inbox", page: int = 1) -> PmFolderPage:
        """The saved PMs of ``folder`` as one listing (saved listing pages only tell which
        PMs exist; a PM whose own page was not saved is in :attr:`not_saved`)."""
        entries = tuple(
            PmListEntry(pm_id=pm.pm_id, subject=pm.subject, sender=pm.sender,
                        sent_at=pm.sent_at, url=f"saved:{pm.pm_id}",
                        recipients=pm.recipients, sender_id=pm.sender_id)
            for pm in sorted(self._pms.values(), key=lambda p: (p.sent_at, p.pm_id))
            if self.pages.listed_in(pm, folder)
        )
        return PmFolderPage(folder=folder, page=1, total_pages=1,
                            entries=entries if page == 1 else ())

    @property
    def not_saved(self) -> list[PmListEntry]:
        """PMs that a saved folder listing shows but whose page is not in the folder."""
        return sorted(
            {e.pm_id: e for fp in self._folders.values() for e in fp.entries
             if e.pm_id not in self._pms}.values(),
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


__all__ = ["PAGE_SUFFIXES", "Reading", "SavedPage", "SavedPages", "SnapshotForum",
           "most_linked", "saved_from"]

"""The kernel: the value types every forum engine returns and the interface it implements.

Adapters (one package per engine under ``adapters/``) turn a forum into these types; the
store persists them; the rules read them. Core code talks to a forum only through
:class:`Forum` and :class:`Poster`, whatever engine is behind them. All datetimes are
timezone-aware UTC (docs/rules.md T2).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class EditNotice:
    """A post's edit notice: who edited it last, when, how often («Последний раз
    редактировалось X …, всего редактировалось N раз» on phpBB)."""

    editor: str
    edited_at: datetime | None
    count: int


@dataclass(frozen=True, slots=True)
class Post:
    """One post of the game topic («сообщение»), as scraped from one page view.

    ``body_html`` is the post's content HTML, normalised by its engine so the one vote
    reader reads every engine alike: quotes as ``<blockquote>`` (the quoted author's header
    inside), code boxes as ``<div class="codebox"><code>…</code></div>``, spoilers with their
    hidden content in place (the author's own words), colour as the board renders it
    (CSS ``style="color: …"`` or ``<font color>``); no signature, edit notice or other
    chrome. ``body_text`` is its plain text where every line that came from a quote starts
    with ``QUOTE_MARK`` (see :mod:`referee.core.markup`), so vote and activity parsing can
    ignore quoted text.
    """

    post_id: int
    author: str
    author_id: int | None
    posted_at: datetime
    body_html: str
    body_text: str
    page: int = 0
    position: int = 0
    topic_id: int | None = None
    edit: EditNotice | None = None


@dataclass(frozen=True, slots=True)
class TopicPage:
    """What one topic page yields: its posts and where it sits in the topic."""

    topic_id: int | None
    title: str
    page: int
    total_pages: int
    per_page: int
    posts: tuple[Post, ...]
    total_posts: int | None = None
    next_url: str | None = None


@dataclass(frozen=True, slots=True)
class PrivateMessage:
    """A private message («личное сообщение», ЛС) in the host's mailbox."""

    pm_id: int
    sender: str
    sender_id: int | None
    recipients: tuple[str, ...]
    sent_at: datetime
    subject: str
    body_html: str
    body_text: str
    folder: str = "inbox"


@dataclass(frozen=True, slots=True)
class PmListEntry:
    """One row of a PM folder listing: enough to decide whether to open the PM."""

    pm_id: int
    subject: str
    sender: str
    sent_at: datetime | None
    url: str
    unread: bool = False
    recipients: tuple[str, ...] = ()
    """Set in sent/outbox listings (where ``sender`` is the account itself)."""
    sender_id: int | None = None
    """The sender's forum user id when the listing links his profile."""


@dataclass(frozen=True, slots=True)
class PmFolderPage:
    folder: str
    page: int
    total_pages: int
    entries: tuple[PmListEntry, ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class PageCursor:
    """Where a topic sync resumes: the last stored page and the page size the board showed.

    Without ``per_page`` an engine whose page addresses need it (``start=`` offsets) reads
    page 1 first to learn it."""

    page: int = 1
    per_page: int | None = None


FIRST_PAGE = PageCursor()
"""A topic read from its start."""


@dataclass(frozen=True, slots=True)
class PmBatch:
    """What one request for a whole PM folder page gave (:class:`PmFolderExport`).

    ``pms`` are the wanted PMs read without opening them; ``missing`` the wanted entries
    this way could not give (the caller opens those with :meth:`Forum.fetch_pm`);
    ``unavailable`` says why, when the engine could not use the way at all — the caller
    then stops asking for the rest of the run and tells the host once."""

    pms: tuple[PrivateMessage, ...] = ()
    missing: tuple[PmListEntry, ...] = ()
    unavailable: str = ""


# --------------------------------------------------------------------------- the interface

@runtime_checkable
class Forum(Protocol):
    """One forum engine as the core sees it (the gallery-dl "extractor" idea): a game
    topic read page by page, and the host's private messages.

    Implemented by each engine package under ``adapters/`` (live over HTTP, and saved
    pages: a snapshot folder, :mod:`adapters.snapshot`, which also implements
    :class:`SavedVersions`); chosen by :func:`adapters.registry.open_forum`. An engine that
    can read a whole PM folder page in one request also implements :class:`PmFolderExport`
    (optional; the PM sync checks).
    """

    engine: str
    """The engine's registry name (``"phpbb"``)."""
    topic_id: int | None
    """The game topic's number on the board (None when only PMs are read)."""

    @property
    def requests(self) -> int:
        """HTTP requests sent so far (0 for offline sources)."""
        ...

    def login(self) -> None:
        """Start a session as the host (a no-op when none is needed)."""
        ...

    def fetch_topic_pages(self, cursor: PageCursor = FIRST_PAGE) -> Iterator[TopicPage]:
        """Topic pages from ``cursor.page`` to the last one, oldest posts first.

        The first page yielded may have a lower number than asked for when the topic has
        shrunk (the board clamps to its last page)."""
        ...

    def topic_page_url(self, page: int) -> str:
        """The address of one topic page (a note in the store, and the link in outputs)."""
        ...

    def fetch_pm_folder(self, folder: str = "inbox", page: int = 1) -> PmFolderPage:
        """One page of a PM folder listing (``inbox``, ``sentbox``, ``outbox``), newest
        first."""
        ...

    def fetch_pm(self, entry: PmListEntry | int, folder: str = "inbox") -> PrivateMessage:
        """Open one PM. Some engines (phpBB) mark it read for the host: call once per PM."""
        ...

    def close(self) -> None:
        """Save the session and release the connection."""
        ...


@runtime_checkable
class PmFolderExport(Protocol):
    """An optional part of :class:`Forum`: the new PMs of a folder page read in one request
    (phpBB's folder export), without marking them read. The PM sync uses it when the
    engine's forum object has it (``isinstance(forum, PmFolderExport)``) and opens PMs one
    by one otherwise; engines without it need nothing."""

    def export_pm_folder_page(
        self, page: PmFolderPage, wanted: Sequence[PmListEntry]
    ) -> PmBatch:
        """The PMs ``wanted`` (entries of ``page``, the listing this forum object has just
        fetched) in one request for the whole page. Never raises for a board that cannot
        export: those entries come back in ``missing``, with ``unavailable`` saying why."""
        ...


@runtime_checkable
class SavedVersions(Protocol):
    """An optional part of :class:`Forum`: a source of saved pages (``[forum] snapshot``)
    may hold one page saved several times, and :meth:`Forum.fetch_topic_pages` then yields
    every version of it in a row, oldest first (so the store keeps every text, V4). A reader
    that stops at a page (the topic sync's re-read of earlier pages) takes all of them."""

    def versions_of(self, page: int) -> int:
        """How many versions of ``page`` :meth:`Forum.fetch_topic_pages` yields."""
        ...


@runtime_checkable
class Poster(Protocol):
    """What the tool sends on the host's word: replies in the game topic and PMs."""

    def reply(self, message: str, subject: str | None = None) -> int | None:
        """Reply in the game topic; the new post's id when the forum tells it."""
        ...

    def send_pm(self, to: str, message: str, subject: str,
                user_id: int | None = None) -> int | None:
        """Send one private message; the forum's id for it when the forum tells it."""
        ...

    def close(self) -> None:
        ...

"""Small value types shared by adapters, the store and the rules.

Adapters turn forum pages into these; the store persists them; the rules read them.
All datetimes are timezone-aware UTC (RULES.md T2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True, slots=True)
class EditNotice:
    """phpBB's «Последний раз редактировалось X …, всего редактировалось N раз»."""

    editor: str
    edited_at: datetime | None
    count: int


@dataclass(frozen=True, slots=True)
class Post:
    """One post of the game topic («сообщение»), as scraped from one page view.

    ``body_html`` is the inner HTML of the post content (``div.content``), without
    signature or notices. ``body_text`` is its plain text where every line that came from
    a quote starts with ``QUOTE_MARK`` (see :mod:`referee.markup`), so vote and activity
    parsing can ignore quoted text.
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


@dataclass(frozen=True, slots=True)
class PmFolderPage:
    folder: str
    page: int
    total_pages: int
    entries: tuple[PmListEntry, ...] = field(default_factory=tuple)

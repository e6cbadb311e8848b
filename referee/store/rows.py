"""The store's schema and the value types it hands out: posts with their revisions,
the host's decisions, recorded results and sent messages."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from referee.core.errors import StoreError
from referee.core.kernel import EditNotice, Post, TopicPage

SCHEMA_VERSION = 1

# Declared schema: tables are created from this and missing columns are added on open
# (additive migrations only: a newer referee can read an older file, never the reverse).
_TABLES: dict[str, tuple[dict[str, type], str | tuple[str, ...]]] = {
    "meta": ({"key": str, "value": str}, "key"),
    "posts": (
        {
            "post_id": int, "topic_id": int, "author": str, "author_id": int,
            "posted_at": str, "page": int, "position": int, "body_html": str,
            "body_text": str, "body_hash": str, "edit_editor": str, "edit_at": str,
            "edit_count": int, "first_seen": str, "last_seen": str, "missing_since": str,
            "written": int,
        },
        "post_id",
    ),
    "post_revisions": (
        {
            "post_id": int, "body_hash": str, "body_html": str, "body_text": str,
            "edit_count": int, "first_seen": str,
        },
        ("post_id", "body_hash"),
    ),
    "pages": (
        {
            "topic_id": int, "page": int, "url": str, "fetched_at": str, "post_ids": str,
            "content_hash": str, "total_pages": int, "per_page": int,
        },
        ("topic_id", "page"),
    ),
    "pms": (
        {
            "pm_id": int, "folder": str, "sender": str, "sender_id": int, "recipients": str,
            "sent_at": str, "subject": str, "body_html": str, "body_text": str,
            "fetched_at": str,
        },
        "pm_id",
    ),
    "overrides": (
        {
            "id": int, "kind": str, "subject": str, "payload": str, "reason": str,
            "recorded_at": str,
        },
        "id",
    ),
    "results": (
        {"phase": str, "number": int, "payload": str, "recorded_at": str},
        ("phase", "number"),
    ),
    "sent": (
        {
            "key": str, "kind": str, "recipient": str, "body": str, "forum_id": int,
            "sent_at": str,
        },
        "key",
    ),
}

_INDEXES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("posts", ("topic_id", "posted_at", "post_id")),
    ("posts", ("posted_at", "post_id")),  # a day's or a turn's posts, from every topic
    # Read from the index alone, never the posts' texts (issue 30): a window's mark, and
    # the topic's authors for the roster check.
    ("posts", ("topic_id", "posted_at", "post_id", "written")),
    ("posts", ("author", "missing_since", "posted_at", "post_id")),
    ("pms", ("sent_at",)),
    ("overrides", ("kind",)),
)

PHASES = ("day", "night", "activity")
"""Recorded results: a day's hanging (V6), a night's resolution (N2), a turn's removals (A3)."""
SENT_KINDS = ("post", "pm")
_OVERRIDE_KIND = re.compile(r"^[a-z_]+(\.[a-z_]+)*$")
_SID = re.compile(r"([?&](?:amp;)?)sid=[0-9a-fA-F]{32}")



# --------------------------------------------------------------------------- value types

@dataclass(frozen=True, slots=True)
class Revision:
    """One distinct text of a post, as first seen by a sync (docs/rules.md V4)."""

    body_hash: str
    body_html: str
    body_text: str
    edit_count: int
    first_seen: datetime


@dataclass(frozen=True, slots=True)
class StoredPost:
    """A post as the store knows it: the latest text plus every earlier one.

    ``revisions`` are ordered oldest first by (edit_count, first_seen); ``revisions[0]`` is
    the first text the tool ever saw. ``missing_since`` is set when the post vanished from
    its page on a later sync (deleted or hidden by a moderator).
    """

    post_id: int
    topic_id: int
    author: str
    author_id: int | None
    posted_at: datetime
    page: int
    position: int
    body_html: str
    body_text: str
    edit: EditNotice | None
    first_seen: datetime
    last_seen: datetime
    missing_since: datetime | None
    revisions: tuple[Revision, ...]

    @property
    def first_revision(self) -> Revision:
        return self.revisions[0]

    @property
    def text_changed(self) -> bool:
        """The tool saw more than one text of this post (an edit it witnessed)."""
        return len(self.revisions) > 1

    def as_post(self, revision: Revision | None = None) -> Post:
        """This post as a :class:`Post`, with the latest text or the given ``revision``."""
        html = revision.body_html if revision else self.body_html
        text = revision.body_text if revision else self.body_text
        edit = self.edit
        if revision is not None:
            # A revision carries the edit notice it was seen with: the text saw before an
            # edit had none (V4 tells "first text seen" from "edited before we saw it").
            if revision.edit_count <= 0:
                edit = None
            elif self.edit is None or self.edit.count != revision.edit_count:
                edit = EditNotice(self.edit.editor if self.edit else "", None,
                                  revision.edit_count)
        return Post(
            post_id=self.post_id, author=self.author, author_id=self.author_id,
            posted_at=self.posted_at, body_html=html, body_text=text, page=self.page,
            position=self.position, topic_id=self.topic_id, edit=edit,
        )


@dataclass(frozen=True, slots=True)
class PageSave:
    """What saving one topic page changed."""

    topic_id: int
    page: int
    new_posts: int
    edited_posts: int
    missing_posts: int
    unchanged: bool
    vanished: tuple[tuple[int, str], ...] = ()
    """(post id, author) of the posts this page showed gone."""


@dataclass(frozen=True, slots=True)
class Override:
    """A host decision (e.g. ``vote.accept``), with the host's reason."""

    id: int
    kind: str
    subject: str
    payload: dict[str, Any]
    reason: str
    recorded_at: datetime


@dataclass(frozen=True, slots=True)
class RecordedResult:
    phase: str
    number: int
    payload: dict[str, Any]
    recorded_at: datetime


@dataclass(frozen=True, slots=True)
class SentRecord:
    key: str
    kind: str
    recipient: str
    body: str
    forum_id: int | None
    sent_at: datetime


# --------------------------------------------------------------------------- helpers

def _iso(dt: datetime) -> str:
    if dt.tzinfo is None:
        raise StoreError(f"внутренняя ошибка: время без часового пояса {dt!r} (T2: только UTC)")
    return dt.astimezone(UTC).isoformat()


def _dt(s: str | None) -> datetime | None:
    return datetime.fromisoformat(s) if s else None


def _now() -> datetime:
    return datetime.now(UTC)


def _json_default(o: object) -> Any:
    if isinstance(o, datetime | date):
        return o.isoformat()
    if isinstance(o, set | frozenset | tuple):
        return list(o)
    raise TypeError(f"{type(o).__name__} is not JSON serialisable")


def _dumps(o: object) -> str:
    return json.dumps(o, ensure_ascii=False, sort_keys=True, default=_json_default)


def _proven_per_page(page: TopicPage) -> int | None:
    """Posts per page as this page shows it: a page before the last one is full; the last
    page's own figure may understate it (never overstate), which only makes a jump land
    early."""
    if page.page < page.total_pages and page.posts:
        return len(page.posts)
    return page.per_page or None


def _window(
    since: datetime | None, until: datetime | None, topic_id: int | None
) -> tuple[list[str], list[Any]]:
    """SQL conditions for posts with ``since <= posted_at < until`` (of one topic)."""
    where: list[str] = []
    params: list[Any] = []
    if since is not None:
        where.append("posted_at >= ?")
        params.append(_iso(since))
    if until is not None:
        where.append("posted_at < ?")
        params.append(_iso(until))
    if topic_id is not None:
        where.append("topic_id = ?")
        params.append(topic_id)
    return where, params


def body_hash(body_html: str) -> str:
    """Hash of a post text, blind to the session id phpBB puts into links for guests."""
    return hashlib.sha256(_SID.sub(r"\1", body_html).encode("utf-8")).hexdigest()



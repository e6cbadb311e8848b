"""The game database (SQLite, one file beside ``referee.toml``): the only module that knows
the schema.

What it keeps and why:

- ``posts`` — the current view of every post of the game topic, plus ``missing_since`` when
  a post vanished from its page (a deleted post is marked, never removed: its vote may
  already have been counted).
- ``post_revisions`` — every distinct text a post ever had. An edit never erases the first
  text: docs/rules.md V4 counts the first-seen target of an edited vote.
- ``pages`` — what each topic page held when last read; the cursor of incremental sync.
- ``pms`` — the host's private messages (night actions, docs/rules.md N1).
- ``overrides`` — the host's decisions (accept/reject a vote, excuses, …), always recorded.
- ``results`` — a day's or night's recorded result, written once.
- ``sent`` — idempotency keys of posts/PMs the tool sent, so nothing is sent twice.
- ``meta`` — ``schema_version`` and small settings.

Every scrape write is one transaction per page, so a crash never leaves half a page. No
password, cookie or session id is ever written here.
"""

from __future__ import annotations

from referee.store.base import StoreBase
from referee.store.records import GameRecords
from referee.store.rows import (
    PHASES,
    SCHEMA_VERSION,
    SENT_KINDS,
    Override,
    PageSave,
    RecordedResult,
    Revision,
    SentRecord,
    StoredPost,
    body_hash,
)
from referee.store.topic import TopicRecords


class Store(TopicRecords, GameRecords, StoreBase):
    """The game database. Open with :meth:`Store.open`; close (or use ``with``) when done."""


__all__ = [
    "PHASES", "SCHEMA_VERSION", "SENT_KINDS", "Override", "PageSave", "RecordedResult",
    "Revision", "SentRecord", "Store", "StoredPost", "body_hash",
]

"""The game database (SQLite, one file beside ``referee.toml``): the only module that knows
the schema.

What it keeps and why:

- ``posts`` — the current view of every post of the game topic, plus ``missing_since`` when
  a post vanished from its page (a deleted post is marked, never removed: its vote may
  already have been counted).
- ``post_revisions`` — every distinct text a post ever had. An edit never erases the first
  text: RULES.md V4 counts the first-seen target of an edited vote.
- ``pages`` — what each topic page held when last read; the cursor of incremental sync.
- ``pms`` — the host's private messages (night actions, RULES.md N1).
- ``overrides`` — the host's decisions (accept/reject a vote, excuses, …), always recorded.
- ``results`` — a day's or night's recorded result, written once.
- ``sent`` — idempotency keys of posts/PMs the tool sent, so nothing is sent twice.
- ``meta`` — ``schema_version`` and small settings.

Every scrape write is one transaction per page, so a crash never leaves half a page. No
password, cookie or session id is ever written here.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

from referee.errors import StoreError
from referee.kernel import EditNotice, Post, PrivateMessage, TopicPage

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
    """One distinct text of a post, as first seen by a sync (RULES.md V4)."""

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
        raise StoreError(f"internal: naive datetime {dt!r} given to the store (T2: UTC only)")
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


# --------------------------------------------------------------------------- the store

class Store:
    """The game database. Open with :meth:`Store.open`; close (or use ``with``) when done."""

    def __init__(self, conn: sqlite3.Connection, path: Path | None) -> None:
        self.conn = conn
        self.path = path
        self.db = sqlite_utils.Database(conn)

    # -- opening

    @classmethod
    def open(cls, path: str | Path) -> Store:
        """Open (creating if needed) the database at ``path``, migrating it forward.

        The file is created 0600: it holds the host's private messages (night moves).
        """
        memory = str(path) == ":memory:"
        p = None if memory else Path(path)
        if p is not None and not p.exists():
            p.parent.mkdir(parents=True, exist_ok=True)
            os.close(os.open(p, os.O_WRONLY | os.O_CREAT, 0o600))
        try:
            # Autocommit mode: transactions are explicit (see _tx), so that sqlite-utils'
            # own commits can never split a page write in two.
            conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA busy_timeout = 5000")
            if not memory:
                conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            store = cls(conn, p)
            store._migrate()
        except sqlite3.DatabaseError as e:
            raise StoreError(
                f"{path} is not a referee database ({e})",
                "point referee at the right file, or move this one away to start afresh",
            ) from None
        return store

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _migrate(self) -> None:
        found = self.schema_version()
        if found is not None and found > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer referee (schema {found}, "
                f"this one knows {SCHEMA_VERSION})",
                "upgrade referee (pip install -U referee)",
            )
        with self._tx():
            for name, (columns, pk) in _TABLES.items():
                table = self.db.table(name)
                if not table.exists():
                    table.create(columns, pk=pk)
                    continue
                have = set(table.columns_dict)
                for col, typ in columns.items():
                    if col not in have:
                        table.add_column(col, typ)
            for name, cols in _INDEXES:
                self.db.table(name).create_index(cols, if_not_exists=True)
            self.conn.execute(
                "INSERT INTO meta(key, value) VALUES('schema_version', ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (str(SCHEMA_VERSION),),
            )

    def schema_version(self) -> int | None:
        if not self.db.table("meta").exists():
            return None
        row = self.conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        return int(row[0]) if row else None

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One all-or-nothing write (a page, a PM, a decision)."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # -- meta

    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._tx() as c:
            c.execute(
                "INSERT INTO meta(key, value) VALUES(?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # -- topic pages and posts

    def save_topic_page(
        self, page: TopicPage, fetched_at: datetime | None = None, *, url: str = "",
        after: Post | None = None,
    ) -> PageSave:
        """Store one topic page in one transaction.

        New posts are added; a post whose text differs from every text seen before gets a
        new revision (V4: the first text is kept). A stored post that should lie on this
        page — its time falls between the page's first and last post (before the last post
        of page 1 / after the first post of the last page) — but is absent, is marked
        ``missing_since``. Posts that merely moved to a neighbouring page (because an
        earlier post was deleted) are outside that span and are left alone.

        ``after`` is the last post of the page before, read just before this one: the span
        then starts right after it, so a deleted post that was the first of this page (it
        lay between the two pages) is noticed too.
        """
        seen = _iso(fetched_at or _now())
        topic_id = page.topic_id if page.topic_id is not None else (
            page.posts[0].topic_id if page.posts and page.posts[0].topic_id is not None else 0
        )
        hashes = [body_hash(p.body_html) for p in page.posts]
        content_hash = hashlib.sha256(
            _dumps([
                [p.post_id, h, p.author_id, p.edit.count if p.edit else 0]
                for p, h in zip(page.posts, hashes, strict=True)
            ]).encode()
        ).hexdigest()
        ids = [p.post_id for p in page.posts]
        new = edited = missing = 0
        with self._tx() as c:
            prev = c.execute(
                "SELECT content_hash FROM pages WHERE topic_id=? AND page=?",
                (topic_id, page.page),
            ).fetchone()
            known: dict[int, str] = {}
            if ids:
                marks = ",".join("?" * len(ids))
                known = dict(c.execute(
                    f"SELECT post_id, body_hash FROM posts WHERE post_id IN ({marks})", ids
                ).fetchall())
            for pos, (p, h) in enumerate(zip(page.posts, hashes, strict=True), start=1):
                edit_count = p.edit.count if p.edit else 0
                row = (
                    topic_id, p.author, p.author_id, _iso(p.posted_at), page.page,
                    p.position or pos, p.body_html, p.body_text, h,
                    p.edit.editor if p.edit else None,
                    _iso(p.edit.edited_at) if p.edit and p.edit.edited_at else None,
                    edit_count,
                )
                if p.post_id not in known:
                    new += 1
                    c.execute(
                        "INSERT INTO posts(topic_id, author, author_id, posted_at, page, "
                        "position, body_html, body_text, body_hash, edit_editor, edit_at, "
                        "edit_count, post_id, first_seen, last_seen, missing_since) "
                        "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,NULL)",
                        (*row, p.post_id, seen, seen),
                    )
                else:
                    c.execute(
                        "UPDATE posts SET topic_id=?, author=?, author_id=?, posted_at=?, "
                        "page=?, position=?, body_html=?, body_text=?, body_hash=?, "
                        "edit_editor=?, edit_at=?, edit_count=?, last_seen=?, "
                        "missing_since=NULL WHERE post_id=?",
                        (*row, seen, p.post_id),
                    )
                cur = c.execute(
                    "INSERT OR IGNORE INTO post_revisions(post_id, body_hash, body_html, "
                    "body_text, edit_count, first_seen) VALUES(?,?,?,?,?,?)",
                    (p.post_id, h, p.body_html, p.body_text, edit_count, seen),
                )
                if cur.rowcount and p.post_id in known:
                    edited += 1
            if page.posts:
                missing = self._mark_missing(c, topic_id, page, ids, seen, after)
            c.execute(
                "INSERT INTO pages(topic_id, page, url, fetched_at, post_ids, content_hash, "
                "total_pages, per_page) VALUES(?,?,?,?,?,?,?,?) ON CONFLICT(topic_id, page) "
                "DO UPDATE SET url=excluded.url, fetched_at=excluded.fetched_at, "
                "post_ids=excluded.post_ids, content_hash=excluded.content_hash, "
                "total_pages=excluded.total_pages, per_page=excluded.per_page",
                (topic_id, page.page, url, seen, _dumps(ids), content_hash, page.total_pages,
                 _proven_per_page(page)),
            )
            if page.page >= page.total_pages:
                # The topic shrank (posts deleted): pages past the end are no cursor any more.
                c.execute("DELETE FROM pages WHERE topic_id=? AND page>?", (topic_id, page.page))
        return PageSave(
            topic_id=topic_id, page=page.page, new_posts=new, edited_posts=edited,
            missing_posts=missing, unchanged=prev is not None and prev[0] == content_hash,
        )

    @staticmethod
    def _mark_missing(
        c: sqlite3.Connection, topic_id: int, page: TopicPage, ids: list[int], seen: str,
        after: Post | None = None,
    ) -> int:
        first, last = page.posts[0], page.posts[-1]
        where = ["topic_id = ?", "missing_since IS NULL",
                 f"post_id NOT IN ({','.join('?' * len(ids))})"]
        params: list[Any] = [topic_id, *ids]
        if page.page > 1 and after is not None:
            where.append("(posted_at, post_id) > (?, ?)")
            params += [_iso(after.posted_at), after.post_id]
        elif page.page > 1:
            where.append("(posted_at, post_id) >= (?, ?)")
            params += [_iso(first.posted_at), first.post_id]
        if page.page < page.total_pages:
            where.append("(posted_at, post_id) <= (?, ?)")
            params += [_iso(last.posted_at), last.post_id]
        cur = c.execute(
            f"UPDATE posts SET missing_since = ? WHERE {' AND '.join(where)}", [seen, *params]
        )
        return cur.rowcount

    def has_post(self, post_id: int) -> bool:
        """Whether the post was ever stored (missing or not)."""
        return self.conn.execute(
            "SELECT 1 FROM posts WHERE post_id=?", (post_id,)
        ).fetchone() is not None

    def last_synced_page(self, topic_id: int) -> int | None:
        """The highest page of ``topic_id`` stored so far (where the next sync starts)."""
        row = self.conn.execute(
            "SELECT MAX(page) FROM pages WHERE topic_id=?", (topic_id,)
        ).fetchone()
        return row[0] if row and row[0] is not None else None

    def topic_per_page(self, topic_id: int) -> int | None:
        """Posts per page of the topic as last seen (needed to jump to a later page)."""
        row = self.conn.execute(
            "SELECT MAX(per_page) FROM pages WHERE topic_id=?", (topic_id,)
        ).fetchone()
        return row[0] if row and row[0] else None

    def page_info(self, topic_id: int, page: int) -> dict[str, Any] | None:
        """The stored cursor row of one page: url, fetched_at, post_ids, content_hash."""
        rows = list(self.db.query(
            "SELECT * FROM pages WHERE topic_id=? AND page=?", (topic_id, page)
        ))
        if not rows:
            return None
        row = rows[0]
        row["post_ids"] = json.loads(row["post_ids"])
        row["fetched_at"] = _dt(row["fetched_at"])
        return row

    def topic_ids(self) -> list[int]:
        return [r[0] for r in self.conn.execute("SELECT DISTINCT topic_id FROM pages ORDER BY 1")]

    def posts(
        self,
        since: datetime | None = None,
        until: datetime | None = None,
        *,
        topic_id: int | None = None,
        include_missing: bool = True,
    ) -> list[StoredPost]:
        """Posts with ``since <= posted_at < until`` in topic order, each with its revisions."""
        where, params = _window(since, until, topic_id)
        if not include_missing:
            where.append("missing_since IS NULL")
        sql = "SELECT * FROM posts" + (" WHERE " + " AND ".join(where) if where else "")
        rows = list(self.db.query(sql + " ORDER BY posted_at, post_id", params))
        revs: dict[int, list[Revision]] = {}
        if rows:
            rsql = (
                "SELECT r.* FROM post_revisions r JOIN posts p ON p.post_id = r.post_id"
                + (" WHERE " + " AND ".join("p." + w for w in where) if where else "")
                + " ORDER BY r.post_id, r.edit_count, r.first_seen, r.rowid"
            )
            for r in self.db.query(rsql, params):
                revs.setdefault(r["post_id"], []).append(Revision(
                    body_hash=r["body_hash"], body_html=r["body_html"],
                    body_text=r["body_text"], edit_count=r["edit_count"] or 0,
                    first_seen=_dt(r["first_seen"]) or _now(),
                ))
        return [self._stored_post(r, tuple(revs.get(r["post_id"], ()))) for r in rows]

    def post_digest(
        self, since: datetime | None = None, until: datetime | None = None, *,
        topic_id: int | None = None,
    ) -> str:
        """A digest of what a vote count reads from :meth:`posts` for the window: ids,
        authors, times, edit notices and every stored text (by its hash, with its edit
        count) in the order it was seen. Equal digests mean a count reads the same posts;
        no text is loaded."""
        where, params = _window(since, until, topic_id)
        cond = " WHERE " + " AND ".join("p." + w for w in where) if where else ""
        rows = self.conn.execute(
            "SELECT p.post_id, p.author, p.posted_at, p.edit_editor, p.edit_at, p.edit_count, "
            "ifnull(r.body_hash, p.body_hash), r.edit_count FROM posts p "
            f"LEFT JOIN post_revisions r ON r.post_id = p.post_id{cond} "
            "ORDER BY p.posted_at, p.post_id, r.edit_count, r.first_seen, r.rowid", params
        ).fetchall()
        return hashlib.sha256(repr(rows).encode()).hexdigest()

    def post_times(
        self, since: datetime | None = None, until: datetime | None = None,
    ) -> list[tuple[int, str, datetime]]:
        """(post id, author, time) of every post with ``since <= posted_at < until``, in
        topic order: who posted when, without loading any text (activity, A1)."""
        where, params = _window(since, until, None)
        cond = " WHERE " + " AND ".join(where) if where else ""
        return [
            (pid, author, _dt(at) or _now())
            for pid, author, at in self.conn.execute(
                f"SELECT post_id, author, posted_at FROM posts{cond} "
                "ORDER BY posted_at, post_id", params)
        ]

    def post(self, post_id: int) -> StoredPost | None:
        rows = list(self.db.query("SELECT topic_id FROM posts WHERE post_id=?", (post_id,)))
        if not rows:
            return None
        return next(
            (p for p in self.posts(topic_id=rows[0]["topic_id"]) if p.post_id == post_id), None
        )

    @staticmethod
    def _stored_post(r: Mapping[str, Any], revisions: tuple[Revision, ...]) -> StoredPost:
        edit = None
        if r["edit_editor"] is not None or (r["edit_count"] or 0) > 0:
            edit = EditNotice(
                editor=r["edit_editor"] or "", edited_at=_dt(r["edit_at"]),
                count=r["edit_count"] or 0,
            )
        return StoredPost(
            post_id=r["post_id"], topic_id=r["topic_id"], author=r["author"],
            author_id=r["author_id"], posted_at=_dt(r["posted_at"]) or _now(),
            page=r["page"], position=r["position"], body_html=r["body_html"],
            body_text=r["body_text"], edit=edit, first_seen=_dt(r["first_seen"]) or _now(),
            last_seen=_dt(r["last_seen"]) or _now(), missing_since=_dt(r["missing_since"]),
            revisions=revisions,
        )

    # -- private messages

    def save_pm(self, pm: PrivateMessage, fetched_at: datetime | None = None) -> bool:
        """Store one PM; returns True if it was not stored before."""
        with self._tx() as c:
            existed = c.execute("SELECT 1 FROM pms WHERE pm_id=?", (pm.pm_id,)).fetchone()
            c.execute(
                "INSERT INTO pms(pm_id, folder, sender, sender_id, recipients, sent_at, subject,"
                " body_html, body_text, fetched_at) VALUES(?,?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT(pm_id) DO UPDATE SET folder=excluded.folder, "
                "sender=excluded.sender, sender_id=excluded.sender_id, "
                "recipients=excluded.recipients, sent_at=excluded.sent_at, "
                "subject=excluded.subject, body_html=excluded.body_html, "
                "body_text=excluded.body_text, fetched_at=excluded.fetched_at",
                (
                    pm.pm_id, pm.folder, pm.sender, pm.sender_id, _dumps(list(pm.recipients)),
                    _iso(pm.sent_at), pm.subject, pm.body_html, pm.body_text,
                    _iso(fetched_at or _now()),
                ),
            )
        return existed is None

    def known_pm_ids(self) -> set[int]:
        return {r[0] for r in self.conn.execute("SELECT pm_id FROM pms")}

    def pms(
        self,
        folder: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[PrivateMessage]:
        """PMs with ``since <= sent_at < until``, oldest first."""
        where: list[str] = []
        params: list[Any] = []
        if folder is not None:
            where.append("folder = ?")
            params.append(folder)
        if since is not None:
            where.append("sent_at >= ?")
            params.append(_iso(since))
        if until is not None:
            where.append("sent_at < ?")
            params.append(_iso(until))
        sql = "SELECT * FROM pms" + (" WHERE " + " AND ".join(where) if where else "")
        return [
            PrivateMessage(
                pm_id=r["pm_id"], sender=r["sender"], sender_id=r["sender_id"],
                recipients=tuple(json.loads(r["recipients"] or "[]")),
                sent_at=_dt(r["sent_at"]) or _now(), subject=r["subject"] or "",
                body_html=r["body_html"] or "", body_text=r["body_text"] or "",
                folder=r["folder"] or "inbox",
            )
            for r in self.db.query(sql + " ORDER BY sent_at, pm_id", params)
        ]

    # -- host decisions

    def add_override(
        self,
        kind: str,
        subject: str,
        payload: Mapping[str, Any] | None = None,
        reason: str = "",
        recorded_at: datetime | None = None,
    ) -> Override:
        """Record a host decision (``vote.accept``, ``excuse``, ``action.add`` …).

        Decisions are appended, never edited: a later decision on the same subject wins
        when the rules read them, and the history stays for the game log.
        """
        if not _OVERRIDE_KIND.match(kind):
            raise StoreError(f"override kind {kind!r} is not a word like 'vote.accept'")
        at = recorded_at or _now()
        data = dict(payload or {})
        with self._tx() as c:
            cur = c.execute(
                "INSERT INTO overrides(kind, subject, payload, reason, recorded_at) "
                "VALUES(?,?,?,?,?)",
                (kind, subject, _dumps(data), reason, _iso(at)),
            )
            oid = cur.lastrowid
        assert oid is not None
        return Override(oid, kind, subject, json.loads(_dumps(data)), reason, _dt(_iso(at)) or at)

    def overrides(self, kind: str | None = None, subject: str | None = None) -> list[Override]:
        """Recorded decisions, oldest first; ``kind`` ending in ``.`` matches a family."""
        where: list[str] = []
        params: list[Any] = []
        if kind is not None:
            if kind.endswith("."):
                where.append("kind LIKE ?")
                params.append(kind + "%")
            else:
                where.append("kind = ?")
                params.append(kind)
        if subject is not None:
            where.append("subject = ?")
            params.append(subject)
        sql = "SELECT * FROM overrides" + (" WHERE " + " AND ".join(where) if where else "")
        return [
            Override(r["id"], r["kind"], r["subject"], json.loads(r["payload"] or "{}"),
                     r["reason"] or "", _dt(r["recorded_at"]) or _now())
            for r in self.db.query(sql + " ORDER BY id", params)
        ]

    # -- recorded results

    def record_result(
        self, phase: str, number: int, payload: Mapping[str, Any],
        recorded_at: datetime | None = None,
    ) -> RecordedResult:
        """Record the result of day/night ``number`` once; a second call returns the first
        result unchanged (a published result is not silently rewritten)."""
        if phase not in PHASES:
            raise StoreError(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")
        with self._tx() as c:
            c.execute(
                "INSERT OR IGNORE INTO results(phase, number, payload, recorded_at) "
                "VALUES(?,?,?,?)",
                (phase, number, _dumps(dict(payload)), _iso(recorded_at or _now())),
            )
        result = self.result(phase, number)
        assert result is not None
        return result

    def forget_result(self, phase: str, number: int) -> bool:
        """Drop a recorded result so the phase is counted anew: only after a host decision
        that changes its inputs (a vote override, a moved deadline, an edited request).
        The decision itself stays in ``overrides``, so the history is kept."""
        with self._tx() as c:
            cur = c.execute("DELETE FROM results WHERE phase=? AND number=?", (phase, number))
        return cur.rowcount > 0

    def result(self, phase: str, number: int) -> RecordedResult | None:
        rows = list(self.db.query(
            "SELECT * FROM results WHERE phase=? AND number=?", (phase, number)
        ))
        if not rows:
            return None
        r = rows[0]
        return RecordedResult(r["phase"], r["number"], json.loads(r["payload"]),
                              _dt(r["recorded_at"]) or _now())

    def results(self) -> list[RecordedResult]:
        out = []
        for r in self.db.query("SELECT phase, number FROM results ORDER BY number, phase"):
            res = self.result(r["phase"], r["number"])
            if res is not None:
                out.append(res)
        return out

    # -- sent posts and PMs

    def mark_sent(
        self,
        key: str,
        kind: str,
        recipient: str,
        body: str,
        forum_id: int | None = None,
        sent_at: datetime | None = None,
    ) -> SentRecord:
        """Remember that the post/PM with idempotency ``key`` was sent (first call wins)."""
        if kind not in SENT_KINDS:
            raise StoreError(f"sent kind must be 'post' or 'pm', not {kind!r}")
        with self._tx() as c:
            c.execute(
                "INSERT OR IGNORE INTO sent(key, kind, recipient, body, forum_id, sent_at) "
                "VALUES(?,?,?,?,?,?)",
                (key, kind, recipient, body, forum_id, _iso(sent_at or _now())),
            )
        record = self.was_sent(key)
        assert record is not None
        return record

    def was_sent(self, key: str) -> SentRecord | None:
        rows = list(self.db.query("SELECT * FROM sent WHERE key=?", (key,)))
        if not rows:
            return None
        r = rows[0]
        return SentRecord(r["key"], r["kind"], r["recipient"], r["body"], r["forum_id"],
                          _dt(r["sent_at"]) or _now())

    def sent(self, kind: str | None = None) -> list[SentRecord]:
        keys: Sequence[str] = [
            r[0] for r in self.conn.execute(
                "SELECT key FROM sent" + (" WHERE kind=?" if kind else "") + " ORDER BY sent_at",
                (kind,) if kind else (),
            )
        ]
        return [rec for k in keys if (rec := self.was_sent(k)) is not None]

"""The game topic in the store: pages as read, posts with every text they had (V4),
vanished posts marked, the sync cursor, and the reads the day's rules need."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from referee.core.kernel import EditNotice, Post, TopicPage
from referee.store.base import StoreBase
from referee.store.rows import (
    PageSave,
    Revision,
    StoredPost,
    _dt,
    _dumps,
    _iso,
    _now,
    _proven_per_page,
    _window,
    body_hash,
)


class TopicRecords(StoreBase):
    """Topic pages and posts."""

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
        new = edited = 0
        vanished: list[tuple[int, str]] = []
        with self._tx() as c:
            # Every post this save writes carries the save's number (``written``): a window
            # whose posts no save has touched since reads as its record says (window_mark).
            c.execute("INSERT INTO meta(key, value) VALUES('posts_written', '1') "
                      "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")
            (save,) = c.execute("SELECT CAST(value AS INTEGER) FROM meta "
                                "WHERE key='posts_written'").fetchone()
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
                is_new, is_edited = self._write_post(c, topic_id, page.page, pos, p, h,
                                                     known, seen, save)
                new += is_new
                edited += is_edited
            if page.posts:
                vanished = self._mark_missing(c, topic_id, page, ids, seen, save, after)
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
            missing_posts=len(vanished), unchanged=prev is not None and prev[0] == content_hash,
            vanished=tuple(vanished),
        )

    @staticmethod
    def _write_post(c: sqlite3.Connection, topic_id: int, page_no: int, pos: int, p: Post,
                    h: str, known: Mapping[int, str], seen: str, save: int
                    ) -> tuple[bool, bool]:
        """Insert or refresh one post and keep its text as a revision when it is new:
        (the post is new, the post's text changed)."""
        edit_count = p.edit.count if p.edit else 0
        row = (
            topic_id, p.author, p.author_id, _iso(p.posted_at), page_no,
            p.position or pos, p.body_html, p.body_text, h,
            p.edit.editor if p.edit else None,
            _iso(p.edit.edited_at) if p.edit and p.edit.edited_at else None,
            edit_count,
        )
        if p.post_id not in known:
            c.execute(
                "INSERT INTO posts(topic_id, author, author_id, posted_at, page, "
                "position, body_html, body_text, body_hash, edit_editor, edit_at, "
                "edit_count, post_id, first_seen, last_seen, missing_since, written) "
                "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,NULL,?)",
                (*row, p.post_id, seen, seen, save),
            )
        else:
            c.execute(
                "UPDATE posts SET topic_id=?, author=?, author_id=?, posted_at=?, "
                "page=?, position=?, body_html=?, body_text=?, body_hash=?, "
                "edit_editor=?, edit_at=?, edit_count=?, last_seen=?, "
                "missing_since=NULL, written=? WHERE post_id=?",
                (*row, seen, save, p.post_id),
            )
        cur = c.execute(
            "INSERT OR IGNORE INTO post_revisions(post_id, body_hash, body_html, "
            "body_text, edit_count, first_seen) VALUES(?,?,?,?,?,?)",
            (p.post_id, h, p.body_html, p.body_text, edit_count, seen),
        )
        return p.post_id not in known, bool(cur.rowcount) and p.post_id in known

    @staticmethod
    def _mark_missing(
        c: sqlite3.Connection, topic_id: int, page: TopicPage, ids: list[int], seen: str,
        save: int, after: Post | None = None,
    ) -> list[tuple[int, str]]:
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
        cond = " AND ".join(where)
        gone = c.execute(f"SELECT post_id, author FROM posts WHERE {cond} ORDER BY posted_at, "
                         "post_id", params).fetchall()
        c.execute(f"UPDATE posts SET missing_since = ?, written = ? WHERE {cond}",
                  [seen, save, *params])
        return [(pid, author) for pid, author in gone]

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

    def pages_holding(self, since: datetime | None, until: datetime | None, *,
                      topic_id: int) -> list[int]:
        """The pages of ``topic_id`` that hold posts with ``since <= posted_at < until``, as
        last read — and the page before them when the first of them starts inside the
        window: a deleted post that began that page lay between the two, and only reading
        both shows it gone."""
        where, params = _window(since, until, topic_id)
        pages = [n for (n,) in self.conn.execute(
            f"SELECT DISTINCT page FROM posts WHERE {' AND '.join(where)} "
            "AND missing_since IS NULL ORDER BY page", params)]
        if pages and pages[0] > 1:
            row = self.conn.execute("SELECT post_ids FROM pages WHERE topic_id=? AND page=?",
                                    (topic_id, pages[0])).fetchone()
            first = json.loads(row[0])[0] if row and row[0] != "[]" else None
            at = self.conn.execute("SELECT posted_at FROM posts WHERE post_id=?",
                                   (first,)).fetchone() if first is not None else None
            if at is not None and (since is None or at[0] >= _iso(since)):
                pages.insert(0, pages[0] - 1)
        return pages

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

    def page_rows(self, *, times: bool = True) -> list[dict[str, Any]]:
        """Every stored page's cursor row (topic, page, fetched_at, total_pages, first and
        last post time): what the store knows it holds of each topic (issue 26). Without
        ``times`` the posts are not read (``first_at`` and ``last_at`` are ``None``): the
        pages table alone, a few rows a day of the game."""
        if not times:
            rows = list(self.db.query(
                "SELECT topic_id, page, fetched_at, total_pages, NULL AS first_at, "
                "NULL AS last_at FROM pages ORDER BY topic_id, page"))
            for row in rows:
                row["fetched_at"] = _dt(row["fetched_at"])
            return rows
        # The posts grouped once, then joined: a join of every page to the posts table
        # scanned all posts per page (quadratic: ~1 s a call at 9 days of 1,000 posts).
        rows = list(self.db.query(
            "SELECT g.topic_id, g.page, g.fetched_at, g.total_pages, p.first_at, p.last_at "
            "FROM pages g LEFT JOIN (SELECT topic_id, page, MIN(posted_at) AS first_at, "
            "MAX(posted_at) AS last_at FROM posts GROUP BY topic_id, page) p "
            "ON p.topic_id = g.topic_id AND p.page = g.page ORDER BY g.topic_id, g.page"))
        for row in rows:
            for k in ("fetched_at", "first_at", "last_at"):
                row[k] = _dt(row[k])
        return rows

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

    def post_authors(self) -> list[str]:
        """Every author of the posts still in the topic, once, in the order they first
        posted: grouped by SQLite, no post loaded (the roster check, issue 26, costs the
        same at any game length)."""
        return [a for (a,) in self.conn.execute(
            "SELECT author FROM posts WHERE missing_since IS NULL GROUP BY author "
            "ORDER BY MIN(posted_at), MIN(post_id)")]

    def texts_by(self, author: str) -> list[str]:
        """The plain text of ``author``'s posts still in the topic, in topic order."""
        return [t for (t,) in self.conn.execute(
            "SELECT body_text FROM posts WHERE author = ? AND missing_since IS NULL "
            "ORDER BY posted_at, post_id", (author,))]

    def spoilt_posts(self, since: datetime | None = None,
                     until: datetime | None = None) -> list[tuple[int, str]]:
        """``(post_id, author)`` of the window's posts stored with «\ufffd» (bytes no
        encoding explained, issue 26), found by SQLite without loading every post."""
        where, params = _window(since, until, None)
        where.append("instr(body_text, ?) > 0")
        sql = ("SELECT post_id, author FROM posts WHERE " + " AND ".join(where)
               + " ORDER BY posted_at, post_id")
        return [(r["post_id"], r["author"]) for r in self.db.query(sql, [*params, "\ufffd"])]

    def post_digest(
        self, since: datetime | None = None, until: datetime | None = None, *,
        topic_id: int | None = None,
    ) -> str:
        """A digest of what a vote count reads from :meth:`posts` for the window: ids,
        authors, times, edit notices and every stored text (by its hash, with its edit
        count) in the order it was seen, and whether it has vanished since (deleted_vote).
        Equal digests mean a count reads the same posts;
        no text is loaded."""
        where, params = _window(since, until, topic_id)
        cond = " WHERE " + " AND ".join("p." + w for w in where) if where else ""
        rows = self.conn.execute(
            "SELECT p.post_id, p.author, p.posted_at, p.edit_editor, p.edit_at, p.edit_count, "
            "ifnull(r.body_hash, p.body_hash), r.edit_count, p.missing_since IS NOT NULL "
            "FROM posts p "
            f"LEFT JOIN post_revisions r ON r.post_id = p.post_id{cond} "
            "ORDER BY p.posted_at, p.post_id, r.edit_count, r.first_seen, r.rowid", params
        ).fetchall()
        return hashlib.sha256(repr(rows).encode()).hexdigest()

    def window_mark(
        self, since: datetime | None = None, until: datetime | None = None, *,
        topic_id: int | None = None,
    ) -> str:
        """A mark of the window's posts that changes whenever a save writes any of them (a
        re-read, an edit, a post gone or come back, a post moved in or out): how many, which,
        and the last save that wrote one. Equal marks mean :meth:`post_digest` is equal
        too; read from the posts' index and rows, no text (issue 30: a recorded day is
        checked without reading it)."""
        where, params = _window(since, until, topic_id)
        cond = " WHERE " + " AND ".join(where) if where else ""
        count, ids, last = self.conn.execute(
            f"SELECT COUNT(*), TOTAL(post_id), MAX(written) FROM posts{cond}", params
        ).fetchone()
        return f"{count}:{int(ids)}:{last}"

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


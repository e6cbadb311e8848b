"""What the game records besides the topic: the host's PMs, the host's decisions
(always appended, never rewritten), recorded results, and every message sent."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from referee.core.errors import StoreError
from referee.core.kernel import PrivateMessage
from referee.store.base import StoreBase
from referee.store.rows import (
    _OVERRIDE_KIND,
    PHASES,
    SENT_KINDS,
    Override,
    RecordedResult,
    SentRecord,
    _dt,
    _dumps,
    _iso,
    _now,
)


class GameRecords(StoreBase):
    """PMs, decisions, results, sent messages."""

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
            raise StoreError(f"вид решения {kind!r} — не слово вида 'vote.accept'")
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
            raise StoreError(f"фаза — одно из {', '.join(PHASES)}, а не {phase!r}")
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
        row = self._result_rows().get((phase, number))
        if row is None:
            return None
        payload, at = row
        return RecordedResult(phase, number, json.loads(payload), _dt(at) or _now())

    def results(self) -> list[RecordedResult]:
        out = []
        for phase, number in sorted(self._result_rows(), key=lambda pn: (pn[1], pn[0])):
            res = self.result(phase, number)
            if res is not None:
                out.append(res)
        return out

    def _result_rows(self) -> dict[tuple[str, int], tuple[str, str | None]]:
        """Every recorded result's row, read once while the database stands still: this
        connection's changes and ``PRAGMA data_version`` (another connection's commits)
        say when to read again. A command asks for the results hundreds of times at 40
        days (issue 30); each answer is decoded afresh, so no caller shares a payload."""
        mark = (self.conn.total_changes,
                self.conn.execute("PRAGMA data_version").fetchone()[0])
        cached = self.__dict__.get("_results_read")
        if cached is None or cached[0] != mark:
            rows = self.conn.execute(
                "SELECT phase, number, payload, recorded_at FROM results").fetchall()
            cached = (mark, {(ph, n): (payload, at) for ph, n, payload, at in rows})
            self.__dict__["_results_read"] = cached
        return cached[1]

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
            raise StoreError(f"вид отправки — 'post' или 'pm', а не {kind!r}")
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


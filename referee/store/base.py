"""Opening the game database: one writer at a time, the files 0600, WAL, the schema
migrated forward, one all-or-nothing transaction per write, and the small ``meta``
settings. What can go wrong with the files is in :mod:`referee.store.guard`."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Self

from referee.core.errors import StoreError
from referee.store import guard
from referee.store.rows import _INDEXES, _TABLES, SCHEMA_VERSION


class Rows:
    """Rows by column name, as sqlite-utils' ``query`` gives them. Reading needs no more
    than ``sqlite3``; sqlite-utils (and the numpy it loads where installed, ~45 ms) is
    imported only when the schema must be made or grown (issue 30 item 3)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def query(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
              ) -> Iterator[dict[str, Any]]:
        cursor = self.conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        for row in cursor:
            yield dict(zip(names, row, strict=True))


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _table_columns(conn: sqlite3.Connection, name: str) -> set[str]:
    """The table's columns; empty when there is no such table."""
    return {row[1] for row in conn.execute(f"PRAGMA table_info({_quoted(name)})")}


def _index_name(table: str, columns: tuple[str, ...]) -> str:
    """The name sqlite-utils gives an index it makes."""
    return f"idx_{table}_{'_'.join(columns)}"


def _schema_complete(conn: sqlite3.Connection) -> bool:
    """Every table, column and index of this version is there (the usual case: nothing to
    make, so sqlite-utils is not imported)."""
    for name, (columns, _pk) in _TABLES.items():
        if not set(columns) <= _table_columns(conn, name):
            return False
    indexes = {row[0] for row in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index'")}
    return all(_index_name(name, tuple(cols)) in indexes for name, cols in _INDEXES)


def _make_schema(conn: sqlite3.Connection) -> None:
    """The tables, columns and indexes that are missing, made by sqlite-utils."""
    import sqlite_utils  # noqa: PLC0415 — only when the schema must be made or grown

    db = sqlite_utils.Database(conn)
    for name, (columns, pk) in _TABLES.items():
        table = db.table(name)
        if not table.exists():
            table.create(columns, pk=pk)
            continue
        have = set(table.columns_dict)
        for col, typ in columns.items():
            if col not in have:
                table.add_column(col, typ)
    for name, cols in _INDEXES:
        db.table(name).create_index(list(cols), if_not_exists=True)


# --------------------------------------------------------------------------- the store

class StoreBase:
    """The game database. Open with :meth:`Store.open`; close (or use ``with``) when done."""

    def __init__(self, conn: sqlite3.Connection, path: Path | None) -> None:
        self.conn = conn
        self.path = path
        self.db = Rows(conn)
        self._lock: Path | None = None

    # -- opening

    @classmethod
    def open(cls, path: str | Path, *, lock_wait: float = guard.LOCK_WAIT) -> Self:
        """Open (creating if needed) the database at ``path``, migrating it forward.

        One writer at a time: the database's lock is held until :meth:`close` (a second
        process waits up to ``lock_wait`` seconds, :mod:`referee.store.guard`). The file
        and its WAL/SHM are 0600: they hold the host's private messages (night moves). A
        file-system failure is a :class:`StoreError` naming the file and what to do.
        """
        memory = str(path) == ":memory:"
        p = None if memory else Path(path)
        key: Path | None = None
        if p is not None:
            try:
                p.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise guard.fs_error(e, p.parent) from None
            key = guard.acquire(p, wait=lock_wait)
        try:
            if p is not None and not p.exists():
                os.close(os.open(p, os.O_WRONLY | os.O_CREAT, 0o600))
            # Autocommit mode: transactions are explicit (see _tx), so that sqlite-utils'
            # own commits can never split a page write in two.
            conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA busy_timeout = 5000")
            if not memory:
                conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            store = cls(conn, p)
            store._lock = key
            store._migrate()
        except (OSError, sqlite3.Error, StoreError) as e:
            if key is not None:
                guard.release(key)
            if isinstance(e, StoreError):
                raise
            raise (guard.fs_error(e, p or Path(str(path))) if isinstance(e, OSError)
                   else guard.sqlite_error(e, p)) from None
        if p is not None:
            guard.make_private(p)
            guard.last_opened = p
        return store

    def close(self) -> None:
        self.conn.close()
        if self._lock is not None:
            guard.release(self._lock)
            self._lock = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _migrate(self) -> None:
        found = self.schema_version()
        if found is not None and found > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} записан более новой версией referee (схема {found}, "
                f"эта версия знает {SCHEMA_VERSION})",
                "обновите referee (pip install -U referee)",
            )
        with self._tx():
            if not _schema_complete(self.conn):
                _make_schema(self.conn)
            self.conn.execute(
                "INSERT INTO meta(key, value) VALUES('schema_version', ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (str(SCHEMA_VERSION),),
            )

    def schema_version(self) -> int | None:
        if not _table_columns(self.conn, "meta"):
            return None
        row = self.conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        return int(row[0]) if row else None

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One all-or-nothing write (a page, a PM, a decision). A write the disk refuses
        (full, read-only) is undone whole and told as a :class:`StoreError`."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise guard.sqlite_error(e, self.path) from None
        try:
            yield self.conn
            self.conn.execute("COMMIT")
        except BaseException as e:
            with suppress(sqlite3.Error):
                self.conn.execute("ROLLBACK")
            if isinstance(e, sqlite3.Error):
                raise guard.sqlite_error(e, self.path) from None
            raise

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


    def forget_meta(self, key: str) -> None:
        with self._tx() as c:
            c.execute("DELETE FROM meta WHERE key=?", (key,))

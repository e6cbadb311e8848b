"""Issue 26 — a damaged game database is named by its file, with the fix in Russian.

A database whose pages were spoilt on disk (a crash of the disk, a copy cut short) opens,
then fails in the middle of a command with SQLite's «database disk image is malformed».
The host reads which file it is and what to do — never «:memory:», never SQLite's English.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from fault_helpers import Runner, referee, write_config
from support.phpbb.board import Board

from referee.store import guard

STORE_ERROR = 4


def spoil_middle(db: Path) -> None:
    """Overwrite the pages in the middle of the file: its header and schema stay, the
    posts' pages do not."""
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(db.read_bytes())
    page = 4096
    for at in range(3 * page, len(data) - page, page):
        data[at:at + page] = b"\xa5" * page
    db.write_bytes(bytes(data))


def test_a_damaged_database_is_named_by_its_file_with_the_fix_in_russian(
        board: Board, run: Runner, tmp_path: Path) -> None:
    run.all()
    spoil_middle(run.db)
    config = write_config(board, tmp_path)
    done = referee(config, "--now", "2026-11-21 23:00", "tally", "--offline", db=run.db)
    said = done.stderr
    assert done.returncode == STORE_ERROR, said
    assert str(run.db) in said
    assert ":memory:" not in said
    words = said.replace(str(run.db), "")
    assert "malformed" not in words and "database" not in words
    assert "повреждена" in said and "резервн" in said
    assert "Traceback" not in said


def test_the_damaged_database_words() -> None:
    error = sqlite3.DatabaseError("database disk image is malformed")
    error.sqlite_errorcode = guard.SQLITE_CORRUPT  # type: ignore[attr-defined]
    told = guard.sqlite_error(error, Path("/games/g1/game.db"))
    assert "/games/g1/game.db" in told.message and "malformed" not in str(told)

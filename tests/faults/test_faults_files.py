"""Issue 14 — the files: two processes on one database, read-only folders, full disks.

Two runs at once: one writes, the other waits (saying so) and then finds the first one's
work done, so no PM is opened twice; a run that waits too long stops with a clear error.
A read-only folder, a missing permission or a full disk gives a message that names the
file and what to do, a non-zero exit and never a traceback; the database stays as it was
before the write that failed.

Read-only folders and full disks are real where the tests may mount a small tmpfs (root,
as in CI); the same failures are also simulated in-process (SQLite's page limit, a refused
``os.write``), which runs everywhere.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from fault_helpers import (
    Runner,
    assert_db_is_the_truth,
    integrity,
    opened_pms,
    referee,
    stored_posts,
    true_posts,
    write_config,
)
from support.phpbb.board import ROOT, Board, make_pms, make_posts

import adapters.cookies as cookies
from adapters.base import HttpClient
from referee.core.errors import StoreError
from referee.store import Store

STORE_ERROR = 4


def content(db: Path) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT post_id, body_hash, page FROM posts ORDER BY post_id"
                            ).fetchall() + conn.execute(
            "SELECT topic_id, page, post_ids FROM pages ORDER BY page").fetchall()


def assert_told_in_words(run: subprocess.CompletedProcess[str], *words: str) -> None:
    assert run.returncode == STORE_ERROR, run.stderr
    assert "Traceback" not in run.stderr
    for w in words:
        assert w in run.stderr, run.stderr


# --------------------------------------------------------------------------- two processes

def test_two_syncs_at_once_open_each_pm_once_and_the_second_waits_its_turn(
    tmp_path: Path,
) -> None:
    board = Board(posts=make_posts(23), pms=make_pms(6), delay=0.03)
    with board.running():
        config = write_config(board, tmp_path)
        outcomes = []
        for _ in range(3):
            argv = [sys.executable, "-c", "import sys; from referee.cli import main; main()",
                    "--config", str(config), "sync"]
            env = {**os.environ, "REFEREE_PASSWORD": "faults-Пароль-8"}
            procs = [subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True) for _ in range(2)]
            outcomes += [(p.wait(60), p.stderr.read() if p.stderr else "") for p in procs]
    assert [code for code, _ in outcomes] == [0] * 6, outcomes
    assert not any("Traceback" in err for _, err in outcomes)
    assert sum("занят другим запуском referee" in err for _, err in outcomes) >= 1
    assert sorted(opened_pms(board)) == sorted(f"pm:{m.pm_id}" for m in board.pms)
    assert_db_is_the_truth(tmp_path / "referee.db", board)


HOLD = """
import sys, time
from referee.store import Store
store = Store.open(sys.argv[1])
print("held", flush=True)
time.sleep(60)
"""


@contextmanager
def held_by_another_process(db: Path) -> Iterator[subprocess.Popen[str]]:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        yield proc
    finally:
        proc.kill()
        proc.wait()


def test_a_run_that_waits_too_long_stops_with_a_clear_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "game.db"
    with held_by_another_process(db) as holder, caplog.at_level(logging.WARNING,
                                                                "referee.notice"):
        started = time.monotonic()
        with pytest.raises(StoreError) as caught:
            Store.open(db, lock_wait=0.6)
        assert 0.5 < time.monotonic() - started < 5
        assert f"pid {holder.pid}" in caught.value.message
        assert "не закончился за 1 с" in caught.value.message
        assert "один запуск за раз" in (caught.value.hint or "")
        assert any("жду, пока он закончит" in r.getMessage() for r in caplog.records)
    # The holder was killed: the system dropped its lock, nothing stale is left.
    started = time.monotonic()
    Store.open(db, lock_wait=5).close()
    assert time.monotonic() - started < 1


def test_stores_opened_twice_in_one_process_share_the_lock(tmp_path: Path) -> None:
    with Store.open(tmp_path / "game.db", lock_wait=0.1) as a, \
            Store.open(tmp_path / "game.db", lock_wait=0.1) as b:
        a.set_meta("k", "1")
        assert b.get_meta("k") == "1"


def test_cookie_files_saved_at_once_never_trip_over_each_other(tmp_path: Path) -> None:
    jar_file = tmp_path / "game.cookies"
    errors: list[BaseException] = []

    def save_many() -> None:
        client = HttpClient("http://127.0.0.1:9/", cookie_file=jar_file, rate_limit=None)
        client.cookies.set("phpbb3_x_sid", "1" * 32, domain="127.0.0.1")
        try:
            for _ in range(200):
                cookies.save_cookies(client.cookies.jar, jar_file, client.host)
        except BaseException as e:  # noqa: BLE001 - the failure is the finding
            errors.append(e)

    threads = [threading.Thread(target=save_many) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [c["name"] for c in json.loads(jar_file.read_text())] == ["phpbb3_x_sid"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.cookies"]


# --------------------------------------------------------------------------- small disks

@contextmanager
def tmpfs(size: str = "2m") -> Iterator[Path]:
    """A small file system of its own (skipped where this process may not mount one)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    where = Path(tempfile.mkdtemp(prefix="referee-tmpfs-"))
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0777",
                              "tmpfs", str(where)], capture_output=True)
    if mounted.returncode != 0:
        where.rmdir()
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr!r}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
        where.rmdir()


def remount(where: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(where)], check=True)


@pytest.mark.parametrize("synced_before", [True, False], ids=["database there", "no database"])
def test_a_read_only_folder_is_told_in_words_and_changes_nothing(
    board: Board, synced_before: bool
) -> None:
    with tmpfs() as folder:
        config = write_config(board, folder)
        db = folder / "referee.db"
        if synced_before:
            assert referee(config, "sync").returncode == 0
            before = content(db)
        remount(folder, "ro")
        for args in (["sync"], ["tally", "--offline"], ["votes"]):
            run = referee(config, *args)
            assert_told_in_words(run, str(folder), "только для чтения", "скопируйте папку игры")
            assert "move this one away" not in run.stderr
        remount(folder, "rw")
        if synced_before:
            assert content(db) == before
        else:
            assert not db.exists()


def test_a_disk_that_fills_up_mid_sync_keeps_whole_pages_and_the_next_run_completes(
    tmp_path: Path,
) -> None:
    board = Board(posts=make_posts(300), per_page=5)
    with board.running(), tmpfs("200k") as folder:
        config = write_config(board, folder)
        db = folder / "referee.db"
        run = referee(config, "sync")
        assert_told_in_words(run, str(db), "заполнен", "освободите место")
        assert integrity(db) == "ok"
        kept = stored_posts(db)
        assert 0 < len(kept) < len(board.posts)
        assert len(kept) % board.per_page == 0          # whole pages, as before the write
        assert kept == true_posts(board)[: len(kept)]
        remount(folder, "size=20m")
        assert referee(config, "sync").returncode == 0
        assert_db_is_the_truth(db, board)


def test_a_full_disk_at_open_is_not_called_a_wrong_file(tmp_path: Path) -> None:
    with tmpfs("64k") as folder:
        (folder / "ballast").write_bytes(b"\0" * 60_000)   # what is left: a few blocks
        db = folder / "referee.db"
        with pytest.raises(StoreError) as caught:
            for _ in range(50):        # the schema fits or not; the first write after fails
                with Store.open(db) as store:
                    store.set_meta("filler", "x" * 8000)
        assert "заполнен" in caught.value.message
        assert "не база referee" not in caught.value.message
        assert integrity(db) == "ok"


# --------------------------------------------------------------------------- simulated

def test_a_full_disk_mid_sync_in_process(
    board: Board, run: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite's page limit stands for the disk: the third page's write does not fit.
    real_open = Store.open.__func__  # type: ignore[attr-defined]

    def small_disk(cls: type[Store], path: str | Path, **kw: object) -> Store:
        store = real_open(cls, path, **kw)
        pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
        store.conn.execute(f"PRAGMA max_page_count = {pages + 1}")
        return store

    run.topic()                                     # a database with every page
    before = content(run.db)
    board.add_posts(40)                             # eight more pages to store
    monkeypatch.setattr(Store, "open", classmethod(small_disk))
    with pytest.raises(StoreError, match="заполнен") as caught:
        run.topic()
    assert str(run.db) in caught.value.message
    monkeypatch.undo()
    assert integrity(run.db) == "ok"
    kept = stored_posts(run.db)
    # Every page is one transaction: what is stored is the pages before the one that did
    # not fit, whole (page 5 held 3 posts before, 5 once its write went through).
    assert len(kept) == 23 or len(kept) % board.per_page == 0
    assert kept == true_posts(board)[: len(kept)]
    if len(kept) == 23:
        assert content(run.db) == before
    run.topic()
    assert_db_is_the_truth(run.db, board, pms=False)


def test_a_cookie_file_the_disk_refuses_is_a_notice_and_the_old_file_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    jar_file = tmp_path / "game.cookies"
    jar_file.write_text("[]")

    def no_space(fd: int, data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    client = HttpClient("http://127.0.0.1:9/", cookie_file=jar_file, rate_limit=None)
    client.cookies.set("phpbb3_x_sid", "1" * 32, domain="127.0.0.1")
    monkeypatch.setattr(cookies.os, "write", no_space)
    with caplog.at_level(logging.WARNING, "referee.notice"):
        client.close()                                   # no traceback
    monkeypatch.undo()
    assert jar_file.read_text() == "[]"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.cookies"]
    assert any(str(jar_file) in r.getMessage() and "No space left" in r.getMessage()
               for r in caplog.records)


def test_a_file_that_is_not_a_database_is_still_called_so(tmp_path: Path) -> None:
    db = tmp_path / "game.db"
    db.write_bytes(b"these are the host's notes, not a database" * 100)
    with pytest.raises(StoreError, match="не база referee"):
        Store.open(db)


def test_the_database_and_its_wal_and_shm_are_private_on_every_open(tmp_path: Path) -> None:
    db = tmp_path / "game.db"
    with Store.open(db) as store:
        store.set_meta("k", "v")
        files = [db, db.with_name("game.db-wal"), db.with_name("game.db-shm")]
        for f in files:
            os.chmod(f, 0o644)                       # a host's chmod, or a copy
    with Store.open(db) as store:
        assert store.get_meta("k") == "v"
        assert {f.name: stat.S_IMODE(f.stat().st_mode) for f in files if f.exists()} == {
            f.name: 0o600 for f in files if f.exists()}

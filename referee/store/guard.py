"""What stands between the game database and the file system (issue 14): one writer at a
time, private files, and a file-system failure told in words with what to do.

- **One writer per database.** A lock file beside it (``game.db.lock``) is held, with the
  operating system's lock, for as long as a store is open. A second process waits for it
  — saying so once — up to a limit, then stops with a clear error. The system drops the
  lock when its process ends, however it ends, so a killed sync never leaves a stale one.
  Stores opened twice in one process share the lock.
- **Private files.** The database holds the host's private messages: it and its WAL/SHM
  files are 0600 on every open, whoever widened them.
- **No traceback.** A read-only folder, a missing permission or a full disk becomes a
  :class:`~referee.core.errors.StoreError` naming the file and what to do; a transaction that
  fails is rolled back, so the database stays as it was before it.
"""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
import stat
import sys
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from referee.core.errors import StoreError

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

POSIX_MODES = os.name == "posix"
"""File modes mean something only on POSIX (see :data:`adapters.cookies.POSIX_MODES`)."""

notices = logging.getLogger("referee.notice")
"""The lines the CLI shows while they happen (the library prints nothing itself)."""

LOCK_WAIT = 300.0
"""Seconds a second process waits for the database before it gives up (a first sync of a
long topic at the polite rate takes minutes)."""

_held: dict[Path, list[int]] = {}
"""Locks this process holds: database → [lock file descriptor, stores using it]."""
_held_guard = threading.Lock()

last_opened: Path | None = None
"""The game database this process opened last: what a SQLite failure outside the store's
own calls (a read deep in a command) is named by, never «:memory:» (issue 26)."""


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


def try_lock(fd: int) -> bool:
    """Take the operating system's lock on ``fd`` without waiting; False: another holds it."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:  # pragma: no cover - Windows
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except (BlockingIOError, PermissionError):
        return False
    except OSError as e:
        if e.errno in (errno.EAGAIN, errno.EACCES, errno.EDEADLK):
            return False
        raise
    return True


def holder(path: Path) -> str:
    """Who holds the lock, as it wrote itself into the file (best effort)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""
    return text.splitlines()[0][:200] if text else ""


def acquire(db: Path, *, wait: float = LOCK_WAIT,
            sleep: Callable[[float], None] = time.sleep) -> Path:
    """Hold the database's lock (waiting up to ``wait`` seconds); returns the key that
    :func:`release` takes."""
    key = db.resolve()
    with _held_guard:
        if key in _held:
            _held[key][1] += 1
            return key
    path = lock_path(db)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as e:
        raise fs_error(e, path) from None
    deadline = time.monotonic() + wait
    told = False
    while not try_lock(fd):
        held_by = holder(path)
        if not told:
            notices.warning("%s занят другим запуском referee%s; жду, пока он закончит "
                            "(до %.0f с)…", db.name, f" ({held_by})" if held_by else "", wait)
            told = True
        if time.monotonic() >= deadline:
            os.close(fd)
            raise StoreError(
                f"{db} занят другим запуском referee"
                + (f" ({held_by})" if held_by else "")
                + f", который не закончился за {wait:.0f} с",
                "дайте ему закончить (или остановите) и запустите команду снова: базу игры "
                "пишет один запуск за раз",
            )
        sleep(0.2)
    try:
        os.ftruncate(fd, 0)
        started = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S")
        command = " ".join(os.path.basename(a) if i == 0 else a
                           for i, a in enumerate(sys.argv[:3]))
        os.write(fd, f"pid {os.getpid()}: {command}, с {started}\n".encode())
    except OSError:
        pass  # the note is a courtesy to the next run; the lock itself is held
    with _held_guard:
        _held[key] = [fd, 1]
    return key


def release(key: Path) -> None:
    with _held_guard:
        entry = _held.get(key)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] > 0:
            return
        del _held[key]
    try:
        os.ftruncate(entry[0], 0)
    except OSError:
        pass
    os.close(entry[0])  # closing drops the lock


def make_private(db: Path) -> None:
    """The database and its WAL/SHM files: 0600, whatever they were."""
    for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        try:
            if POSIX_MODES and path.exists() and stat.S_IMODE(path.stat().st_mode) & 0o077:
                os.chmod(path, 0o600)
        except OSError:
            pass  # not ours to change (another owner, a read-only disk): reading goes on


# --------------------------------------------------------------------------- words

def _read_only(path: Path) -> bool:
    folder = path if path.is_dir() else path.parent
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def _full(path: Path) -> bool:
    try:
        return os.statvfs(path.parent).f_bavail == 0
    except (OSError, AttributeError):
        return False


def fs_error(e: OSError, path: Path) -> StoreError:
    """A file-system failure on ``path`` in words, with what to do."""
    where = Path(e.filename) if isinstance(e.filename, str) else path
    code = e.errno
    if code == errno.EROFS or (code in (errno.EACCES, errno.EPERM) and _read_only(where)):
        return read_only(where)
    if code in (errno.EACCES, errno.EPERM):
        return StoreError(
            f"нет прав на запись: {where}",
            f"дайте себе право записи в файл и папку (chmod u+rw «{where}») или "
            "укажите другой файл через --db",
        )
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return disk_full(where)
    return StoreError(f"не удаётся записать {where}: {e.strerror or e}",
                      "проверьте диск и папку и запустите команду снова")


def read_only(where: Path) -> StoreError:
    return StoreError(
        f"{where} на диске или в папке только для чтения: referee пишет базу игры, а рядом "
        "её файлы -wal/-shm и .lock",
        "скопируйте папку игры туда, где можно писать, и запустите referee там (или укажите "
        "--db в доступном месте); ничего не изменено",
    )


def disk_full(where: Path) -> StoreError:
    return StoreError(
        f"диск, на котором {where}, заполнен",
        "освободите место и запустите команду снова: база такая же, как до записи, "
        "которая не поместилась (уже сохранённые страницы остаются)",
    )


SQLITE_PERM, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY = 3, 5, 6, 8
SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOTADB = 10, 11, 13, 14, 26


def sqlite_error(e: sqlite3.Error, db: Path | None) -> StoreError:
    """A SQLite failure on the game database in words: what it means for the host's files."""
    code = (getattr(e, "sqlite_errorcode", 0) or 0) & 0xFF
    if not code and "malformed" in str(e):
        code = SQLITE_CORRUPT
    name = db or last_opened or Path("база игры")
    if db is not None and db.is_dir():  # --db given a folder: SQLite says «unable to open»
        return StoreError(f"{db} — это папка, а не файл базы игры",
                          f"укажите файл, например --db {db / 'игра.db'}")
    if code == SQLITE_FULL or (code == SQLITE_IOERR and db is not None and _full(db)):
        return disk_full(name)
    if code in (SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR) and db:
        if _read_only(db):
            return read_only(db)
        if not os.access(db.parent, os.W_OK) or (db.exists() and not os.access(db, os.W_OK)):
            return fs_error(OSError(errno.EACCES, "Permission denied", str(db)), db)
    if code == SQLITE_NOTADB:
        return StoreError(
            f"{name} — не база referee (файл не похож на базу SQLite)",
            "укажите нужный файл через --db или уберите этот, чтобы начать заново",
        )
    if code == SQLITE_CORRUPT:
        # SQLite's own words («database disk image is malformed») tell the host nothing.
        return StoreError(
            f"база игры {name} повреждена (часть её страниц на диске испорчена)",
            f"восстановите {name.name} из резервной копии; если её нет — переименуйте "
            "файл (не удаляйте: решения ведущего в нём) и запустите referee sync: тема и "
            "ЛС прочитаются с форума заново, а решения ведущего придётся повторить",
        )
    if code in (SQLITE_BUSY, SQLITE_LOCKED):
        return StoreError(f"{name} занят: его держит другая программа",
                          "закройте другую программу (просмотрщик баз?) и запустите снова")
    return StoreError(f"сбой базы игры {name} (код SQLite {code})",
                      "проверьте диск и файл и запустите команду снова; последняя "
                      "запись отменена")


__all__ = ["LOCK_WAIT", "acquire", "disk_full", "fs_error", "lock_path", "make_private",
           "read_only", "release", "sqlite_error"]

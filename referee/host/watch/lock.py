"""One ``referee watch`` per game database (issue 21).

Two watches on one database would both post the deadline's count — the message keys of
:mod:`referee.host.publish` stop the second copy only after the first one is recorded, and
two watches racing at 22:01 can both be before that. So a watch holds a lock file beside
the database (``game.db.watch``) with the operating system's lock for as long as it runs;
a second one is refused at once with who holds it. The system drops the lock when the
process ends, however it ends, so a killed watch never leaves a stale one.

This is not the database's writer lock (issue 14, :mod:`referee.store.guard`), which every
command holds while its store is open and which a second command waits for: the watch
takes that one too, but only for a round (it opens the store per round), so that the
host's own commands (``vote accept``, ``hang``…) run between rounds. Held for the whole
watch it would keep them waiting for days; waited for, it would not refuse a second watch.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from types import TracebackType

from referee.core.errors import GameError
from referee.store.guard import holder, try_lock


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".watch")


class WatchLock:
    """Held with ``with``; :class:`GameError` when another watch holds it."""

    def __init__(self, db: Path) -> None:
        self.path = lock_path(db)
        self.fd: int | None = None

    def __enter__(self) -> WatchLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            raise GameError(f"не могу создать {self.path}: {e.strerror}",
                            "проверьте права на папку с базой игры") from None
        try:
            locked = try_lock(fd)
        except OSError:
            locked = False  # a lock the system refuses for another reason: not ours either
        if not locked:
            held_by = holder(self.path)
            os.close(fd)
            raise GameError(
                f"для этой базы уже запущен referee watch{f' ({held_by})' if held_by else ''}",
                "одна база — одно наблюдение: остановите то (Ctrl-C) или смотрите его вывод",
            )
        os.ftruncate(fd, 0)
        since = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M")
        os.write(fd, f"pid {os.getpid()}, с {since}\n".encode())
        self.fd = fd
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.fd is not None:
            try:
                os.ftruncate(self.fd, 0)
            except OSError:
                pass  # the note is a courtesy; closing drops the lock either way
            os.close(self.fd)
            self.fd = None


__all__ = ["WatchLock", "lock_path"]

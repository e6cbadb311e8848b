"""Helpers of the fault tests: a forum client with small timeouts whose back-off sleeps are
recorded instead of waited, a sync runner, and the comparison of a game database with the
board's truth."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from support.phpbb.board import HOST, PASSWORD, PLAYERS, ROOT, Board

from adapters.base import Secret
from adapters.phpbb.client import PhpbbForum
from referee.config.game import Config, ForumConfig
from referee.core.forum_settings import ForumSettings
from referee.store import Store
from referee.store.sync import PmSyncReport, SyncReport, sync_pms, sync_topic


@dataclass
class Naps:
    """The client's sleep: back-off and Retry-After waits are recorded, not waited."""

    taken: list[float] = field(default_factory=list)

    def __call__(self, seconds: float) -> None:
        self.taken.append(round(seconds, 2))


def forum_config(board: Board, **kw: Any) -> ForumConfig:
    """The host's ``[forum]`` for ``board``: small timeout and retries, no rate limit."""
    kw.setdefault("timeout", 5.0)
    kw.setdefault("retries", 2)
    kw.setdefault("rate_limit", 0)
    return ForumConfig(ForumSettings(url=board.topic_url, timezone="Europe/Moscow",
                                     username=HOST[0], **kw))


@dataclass
class Runner:
    """Syncs ``board`` into one game database, the way ``referee sync`` does."""

    board: Board
    db: Path
    naps: Naps = field(default_factory=Naps)
    forum: ForumConfig | None = None

    def open(self) -> PhpbbForum:
        settings = (self.forum or forum_config(self.board)).settings(
            self.db.with_suffix(".cookies"))
        forum = PhpbbForum(settings, password=lambda user: Secret(PASSWORD))
        forum.http.sleep = self.naps
        forum.http.random = lambda: 0.0
        return forum

    def config(self) -> Config:
        return Config(path=self.db.with_suffix(".toml"), host=HOST[0],
                      forum=self.forum or forum_config(self.board), players=())

    def topic(self, *, full: bool = False) -> SyncReport:
        with Store.open(self.db) as store, self.open() as forum:
            return sync_topic(self.config(), store, forum, full=full)

    def pms(self) -> PmSyncReport:
        with Store.open(self.db) as store, self.open() as forum:
            return sync_pms(self.config(), store, forum)

    def all(self) -> None:
        self.topic()
        self.pms()


# --------------------------------------------------------------------------- checks

def integrity(db: Path) -> str:
    with closing(sqlite3.connect(db)) as conn:  # closed: a connection left open holds files
        return conn.execute("PRAGMA integrity_check").fetchone()[0]


def stored_posts(db: Path) -> list[tuple[Any, ...]]:
    """Visible posts as (id, author, author id, time, text, texts ever seen)."""
    with Store.open(db) as store:
        return [
            (p.post_id, p.author, p.author_id, p.posted_at, p.body_text,
             tuple(r.body_text for r in p.revisions))
            for p in store.posts() if p.missing_since is None
        ]


def true_posts(board: Board) -> list[tuple[Any, ...]]:
    return [(p.post_id, p.author, p.author_id, p.posted_at, p.text, (p.text,))
            for p in board.posts]


def missing_posts(db: Path) -> list[int]:
    with Store.open(db) as store:
        return [p.post_id for p in store.posts() if p.missing_since is not None]


def stored_pms(db: Path) -> list[tuple[Any, ...]]:
    with Store.open(db) as store:
        return [(m.pm_id, m.sender, m.sender_id, m.sent_at, m.subject, m.body_text)
                for m in store.pms()]


def true_pms(board: Board) -> list[tuple[Any, ...]]:
    return [(m.pm_id, m.sender, m.sender_id, m.sent_at, m.subject, m.text)
            for m in sorted(board.pms, key=lambda m: (m.sent_at, m.pm_id))]


def assert_db_is_the_truth(db: Path, board: Board, *, pms: bool = True) -> None:
    """Consistent, and every post and PM of the board stored once with its own text."""
    assert integrity(db) == "ok"
    assert stored_posts(db) == true_posts(board)
    assert sorted(missing_posts(db)) == sorted(p.post_id for p in board.deleted)
    if pms:
        assert stored_pms(db) == true_pms(board)


def opened_pms(board: Board) -> list[str]:
    """PM views the board answered in full (a fault is no view: nothing was shown)."""
    return [k for k in board.log if k.startswith("pm:") and "!" not in k]


# --------------------------------------------------------------------------- the CLI

CLI = "import sys; from referee.cli import main; sys.argv[0] = 'referee'; main()"


def write_config(board: Board, folder: Path, *, timeout: float = 5.0, retries: int = 2,
                 deadline: str = "2026-11-21 22:00") -> Path:
    """A ``referee.toml`` for the game on ``board``: day 1 holds every post of the board
    (Moscow time; the board's posts start 2026-11-20 18:00)."""
    roles = ["mafia"] + ["citizen"] * (len(PLAYERS) - 1)
    players = "\n".join(
        f'"{nick}" = ' + ('{ role = "mafia", clan = "Клан" }' if role == "mafia"
                          else f'"{role}"')
        for (nick, _), role in zip(PLAYERS, roles, strict=True))
    path = folder / "referee.toml"
    path.write_text(f"""
[game]
host = "{HOST[0]}"
[forum]
url = "{board.topic_url}"
timezone = "Europe/Moscow"
username = "{HOST[0]}"
rate_limit = 1000
timeout = {timeout}
retries = {retries}
[[schedule.days]]
day = 1
start = "2026-11-20 17:00"
deadline = "{deadline}"
night_deadline = "2026-11-22 10:00"
[players]
{players}
""", encoding="utf-8")
    return path


def referee(config: Path, *args: str, db: Path | None = None, timeout: float = 60,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``referee --config CONFIG [--db DB] ARGS`` in a process of its own, as the host runs
    it (the password from the environment)."""
    argv = [sys.executable, "-c", CLI, "--config", str(config)]
    argv += ["--db", str(db)] if db else []
    return subprocess.run(
        [*argv, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, "REFEREE_PASSWORD": PASSWORD, **(env or {})},
    )

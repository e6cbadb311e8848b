"""Shared by the issue-12 tests: the demo game synced once, the CLI run on a copy of its
database, and the whole database as text, to show a refused command changed nothing."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from click.testing import Result
from typer.testing import CliRunner

from referee.cli import app
from referee.core.errors import RefereeError

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "fixtures/demo/referee.toml"
DEMO_TEXT = DEMO.read_text(encoding="utf-8")
NOW = "2026-11-22 10:30"
"""After day 1 and night 1 of the demo: both are over."""


def cli(config: Path, db: Path, *args: str, now: str = NOW) -> Result:
    return CliRunner().invoke(app, ["--config", str(config), "--db", str(db), "--now", now,
                                    *args])


def exit_code(res: Result) -> int:
    """The exit code ``referee`` gives (its errors leave through :func:`referee.cli.main`)."""
    if isinstance(res.exception, RefereeError):
        return res.exception.exit_code
    return res.exit_code


def refused(res: Result) -> str:
    """The message of a command refused with exit code 2."""
    assert exit_code(res) == 2, res.output
    return str(res.exception)


def dump(db: Path) -> str:
    """Every row of the database, as SQL text."""
    if not db.exists():
        return ""
    with sqlite3.connect(db) as conn:
        return "\n".join(conn.iterdump())


def synced_demo(tmp: Path, cache: Path) -> Path:
    """A copy of the demo database, synced once per session into ``cache``."""
    db = cache / "demo.db"
    if not db.exists():
        res = cli(DEMO, db, "sync")
        assert res.exit_code == 0, res.output
        # A first tally after the deadlines records day 1 (as a host's first run would).
        res = cli(DEMO, db, "tally", "--day", "1", "--offline")
        assert res.exit_code == 0, res.output
    copy = tmp / "game.db"
    with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    for suffix in ("-wal", "-shm"):
        shutil.rmtree(copy.with_name(copy.name + suffix), ignore_errors=True)
    return copy


def write_config(tmp: Path, text: str, name: str = "referee.toml") -> Path:
    """``text`` as a referee.toml whose relative snapshot points at the demo's pages."""
    path = tmp / name
    path.write_text(text.replace('snapshot = "pages"',
                                 f'snapshot = "{ROOT / "fixtures/demo/pages"}"'),
                    encoding="utf-8")
    return path

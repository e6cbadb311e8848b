"""Issue 8 — crash safety: a sync killed with SIGKILL at random points loses nothing.

``referee sync`` runs in a child process (``Game.sync``, as the CLI calls it) against a
slow board; the test kills it at seeded random moments — while it waits for a page, while
it parses one, while it writes one — runs it again, and kills it again. After every kill
the database must be consistent (``PRAGMA integrity_check``), and the run that is finally
let finish must leave exactly what a sync that was never interrupted leaves.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from fault_helpers import assert_db_is_the_truth, integrity
from support.phpbb.board import HOST, PASSWORD, ROOT, Board, make_pms, make_posts

SEED = 8
MAX_KILLS = 8
BUDGET_S = 20.0

SYNC = """
import sys
from pathlib import Path
from referee.config.game import Config, ForumConfig
from referee.core.forum_settings import ForumSettings
from referee.game import Game
from referee.store import Store
url, db, user = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
forum = ForumConfig(ForumSettings(url=url, timezone="Europe/Moscow", username=user,
                                  rate_limit=0, timeout=10, retries=1))
config = Config(path=db.with_suffix(".toml"), host=user, forum=forum, players=())
with Store.open(db) as store:
    for line in Game(config, store).sync():
        print(line)
"""


def start_sync(board: Board, db: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "REFEREE_PASSWORD": PASSWORD}
    return subprocess.Popen(
        [sys.executable, "-c", SYNC, board.topic_url, str(db), HOST[0]],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


def content(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """What a sync stored, without the moments it stored it at."""
    queries = {
        "posts": "SELECT post_id, topic_id, author, author_id, posted_at, page, position, "
                 "body_html, body_text, body_hash, edit_editor, edit_at, edit_count, "
                 "missing_since FROM posts ORDER BY post_id",
        "revisions": "SELECT post_id, body_hash, body_html, body_text, edit_count "
                     "FROM post_revisions ORDER BY post_id, body_hash",
        "pms": "SELECT pm_id, folder, sender, sender_id, recipients, sent_at, subject, "
               "body_html, body_text FROM pms ORDER BY pm_id",
        "pages": "SELECT topic_id, page, post_ids, content_hash, total_pages, per_page "
                 "FROM pages ORDER BY topic_id, page",
    }
    with sqlite3.connect(db) as conn:
        return {name: conn.execute(sql).fetchall() for name, sql in queries.items()}


def test_a_sync_killed_at_random_points_resumes_to_what_an_uninterrupted_sync_stores(
    tmp_path: Path,
) -> None:
    board = Board(posts=make_posts(32), pms=make_pms(9), per_page=4, delay=0.02)
    with board.running():
        reference = tmp_path / "never_killed.db"
        proc = start_sync(board, reference)
        assert proc.wait(30) == 0, proc.stderr.read().decode() if proc.stderr else ""
        requests = len(board.log)          # 8 pages, login, 3 inbox pages, 9 PMs

        rng = random.Random(SEED)
        db = tmp_path / "killed.db"
        kills: list[tuple[int, float]] = []
        deadline = time.monotonic() + BUDGET_S
        while len(kills) < MAX_KILLS and time.monotonic() < deadline:
            served = len(board.log)
            # Kill once the board has answered `at` requests of this run, `jitter` later:
            # in the board's delay, in parsing, or in the middle of storing the page.
            at, jitter = rng.randint(1, 6), rng.uniform(0.0, 0.05)
            proc = start_sync(board, db)
            while len(board.log) - served < at and proc.poll() is None:
                time.sleep(0.002)
            time.sleep(jitter)
            if proc.poll() is not None:
                # The sync finished before the kill: nothing is left to interrupt.
                assert proc.returncode == 0, proc.stderr.read().decode() if proc.stderr else ""
                break
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            kills.append((at, round(jitter, 3)))
            assert integrity(db) == "ok", f"after kills {kills}"

        proc = start_sync(board, db)
        assert proc.wait(30) == 0, proc.stderr.read().decode() if proc.stderr else ""

    assert len(kills) >= 4, f"too few kills landed in time: {kills}"
    assert requests >= 22
    assert integrity(db) == "ok"
    assert content(db) == content(reference)
    assert_db_is_the_truth(db, board)

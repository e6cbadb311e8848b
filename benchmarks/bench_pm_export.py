"""Requests of a first PM sync of an inbox of N pages (3 PMs a page) on the respx fake
phpBB board of tests/sync, with a stock export (one page an answer, ``xml``) and an export
that goes on past its page (``folder``): ``python benchmarks/bench_pm_export.py`` (issue 30)."""

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "sync"), str(ROOT / "tests"), str(ROOT)]
import respx  # noqa: E402
from support.clock import FakeTime  # noqa: E402
from support.phpbb.respx_board import FakeBoard, inbox_page  # noqa: E402
from sync_helpers import PASSWORD, TOPIC_URL  # noqa: E402

from adapters.base import HttpClient, Secret  # noqa: E402
from adapters.phpbb.client import PhpbbForum  # noqa: E402
from referee.config.game import Config, ForumConfig, Player  # noqa: E402
from referee.core.forum_settings import ForumSettings  # noqa: E402
from referee.store import Store  # noqa: E402
from referee.store.sync import sync_pms  # noqa: E402

for n in (1, 4, 10):
    for mode in ("xml", "folder"):
        tmp = Path(tempfile.mkdtemp())
        clock = FakeTime()
        board = FakeBoard(time=clock, export=mode)
        ids = list(range(3 * n + 100, 100, -1))
        pages = [ids[i:i + 3] for i in range(0, len(ids), 3)]
        board.inbox = [inbox_page(p, k, len(pages)) for k, p in enumerate(pages, start=1)]
        forum_cfg = ForumConfig(ForumSettings(url=TOPIC_URL, timezone="Europe/Moscow",
                                              username="Ведущий"))
        config = Config(path=tmp / "referee.toml", host="Ведущий", forum=forum_cfg,
                        players=(Player("Лиса", "mafia", "mafia"),))
        store = Store.open(tmp / "g.sqlite")
        with respx.mock(assert_all_called=False) as router:
            board.install(router)
            http = HttpClient("https://forum.test/", rate_limit=1e9, retries=0,
                              cookie_file=tmp / "c", sleep=clock.sleep, clock=clock.clock,
                              random_=lambda: 0.0)
            forum = PhpbbForum(forum_cfg.settings(), http=http,
                               password=lambda u: Secret(PASSWORD))
            report = sync_pms(config, store, forum)
        kinds = {k: sum(1 for x in board.log if x.startswith(k)) for k in
                 ("folder:", "export:", "pm:", "POST login")}
        print(f"pages={n:2} export={mode:6} requests={report.requests:3} {kinds} "
              f"new={report.new_pms}")

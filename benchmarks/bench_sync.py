"""Sync benchmark: a synthetic 400-page phpBB 3.3 topic served from 127.0.0.1.

The pages are real phpBB 3.3.10 markup: page 2 of the fixture topic
(``fixtures/phpbb33-ru/topic_p2_host.html``) is the template, its post blocks are
replicated with new ids and times, and the pagination is rebuilt the way phpBB's
``pagination.html`` renders it. Pages are generated on request (nothing pre-built in
memory, so the memory figure is the sync's own).

Measured:

- full sync of an empty database (requests, seconds, posts/s);
- re-sync of the unchanged topic (target: exactly 1 request);
- extraction throughput (decode + ``parse_topic_page``) beside selectolax alone building
  the same trees — the floor (target: within 2x);
- peak memory: ``resource`` max RSS of the process after the sync, and the tracemalloc
  peak of Python objects during a second full sync (target: under 200 MB).

Run: ``python benchmarks/bench_sync.py --pages 400``
"""

from __future__ import annotations

import argparse
import re
import resource
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from selectolax.lexbor import LexborHTMLParser  # noqa: E402

from adapters.base import HttpClient  # noqa: E402
from adapters.phpbb import parse  # noqa: E402
from adapters.phpbb.client import PhpbbForum  # noqa: E402
from referee.config import ForumConfig  # noqa: E402
from referee.store import Store  # noqa: E402
from referee.sync import sync_topic  # noqa: E402

TEMPLATE = ROOT / "fixtures" / "phpbb33-ru" / "topic_p2_host.html"
MOSCOW = ZoneInfo("Europe/Moscow")
RU_MONTHS = "янв фев мар апр май июн июл авг сен окт ноя дек".split()
TOPIC = 3
_POST_START = re.compile(r'[ \t]*<div id="p(\d+)" class="post')
_PAGINATION = re.compile(r'<div class="pagination">.*?</div>', re.S)
_TIME = re.compile(r'<time datetime="[^"]+">[^<]+</time>')


def _plural_posts(n: int) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} сообщение"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return f"{n} сообщения"
    return f"{n} сообщений"


class SyntheticTopic:
    """A topic of ``pages`` pages × ``per_page`` posts in phpBB 3.3 prosilver markup."""

    def __init__(self, pages: int, per_page: int = 25) -> None:
        html = TEMPLATE.read_text(encoding="utf-8")
        starts = [m.start() for m in _POST_START.finditer(html)]
        end = html.index('<div class="action-bar bar-bottom">')
        # Each block runs to the next post; the last one to the closing of #page-body area.
        bounds = [*starts[1:], html.rindex("</div>", starts[-1], end) + len("</div>")]
        self.blocks = [self._template(html[a:b]) for a, b in zip(starts, bounds, strict=True)]
        tail_cut = bounds[-1]
        self.head = html[: starts[0]]
        self.tail = html[tail_cut:]
        self.per_page = per_page
        self.n_posts = pages * per_page
        self.deleted: set[int] = set()
        """Numbers of posts a moderator deleted: later posts slide back, as on phpBB."""
        self.base_time = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)
        self.requests = 0

    @property
    def visible(self) -> list[int]:
        return [k for k in range(self.n_posts) if k not in self.deleted]

    @property
    def total(self) -> int:
        return self.n_posts - len(self.deleted)

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))

    @staticmethod
    def _template(block: str) -> str:
        pid = _POST_START.match(block)
        assert pid is not None
        n = pid.group(1)
        block = block.replace("{", "{{").replace("}", "}}")
        block = re.sub(
            rf"(id=\"p|profile|post_content|p=|#p|post/|sig|post_hidden){n}\b", r"\1{pid}", block
        )
        return _TIME.sub('<time datetime="{iso}">{shown}</time>', block, count=1)

    def _pagination(self, page: int) -> str:
        def link(n: int) -> str:
            start = "" if n == 1 else f"&amp;start={(n - 1) * self.per_page}"
            return f"./viewtopic.php?t={TOPIC}{start}"

        items: list[str] = []
        if self.pages == 1:
            return (f'<div class="pagination">\n\t\t\t{_plural_posts(self.total)}\n'
                    "&bull; Страница <strong>1</strong> из <strong>1</strong>\n</div>")
        if page > 1:
            items.append(f'<li class="arrow previous"><a class="button button-icon-only" '
                         f'href="{link(page - 1)}" rel="prev" role="button">Пред.</a></li>')
        shown = sorted({1, self.pages, *range(max(1, page - 1), min(self.pages, page + 1) + 1)})
        prev = 0
        for n in shown:
            if n - prev > 1:
                items.append('<li class="ellipsis" role="separator"><span>…</span></li>')
            if n == page:
                items.append(f'<li class="active"><span>{n}</span></li>')
            else:
                items.append(f'<li><a class="button" href="{link(n)}" role="button">{n}</a></li>')
            prev = n
        if page < self.pages:
            items.append(f'<li class="arrow next"><a class="button button-icon-only" '
                         f'href="{link(page + 1)}" rel="next" role="button">След.</a></li>')
        return (f'<div class="pagination">\n\t\t\t{_plural_posts(self.total)}\n<ul>\n'
                + "\n".join(items) + "\n</ul>\n</div>")

    def page(self, page: int) -> bytes:
        page = min(max(1, page), self.pages)  # phpBB clamps start= to the last page
        start = (page - 1) * self.per_page
        posts = []
        visible = self.visible if self.deleted else range(self.n_posts)
        for k in visible[start:start + self.per_page]:
            when = self.base_time + timedelta(minutes=7 * k)
            local = when.astimezone(MOSCOW)
            posts.append(self.blocks[k % len(self.blocks)].format(
                pid=1000 + k, iso=when.isoformat(),
                shown=f"{local.day:02d} {RU_MONTHS[local.month - 1]} {local.year}, "
                      f"{local:%H:%M}",
            ))
        start_q = "" if page == 1 else f"&amp;start={start}"
        head = _PAGINATION.sub(lambda m: self._pagination(page), self.head)
        head = head.replace("Страница 2 -", f"Страница {page} -").replace(
            "t=3&amp;start=20", f"t=3{start_q}")
        tail = _PAGINATION.sub(lambda m: self._pagination(page), self.tail)
        tail = tail.replace("t=3&amp;start=20", f"t=3{start_q}")
        return (head + "".join(posts) + tail).encode("utf-8")

    def serve(self) -> tuple[ThreadingHTTPServer, str]:
        def route(path: str, q: dict[str, str]) -> bytes | None:
            if path != "/viewtopic.php" or q.get("t") != str(TOPIC):
                return None
            self.requests += 1
            return self.page(int(q.get("start", "0")) // self.per_page + 1)

        return serve_on_loopback(route)


def serve_on_loopback(
    route: Callable[[str, dict[str, str]], bytes | None],
) -> tuple[ThreadingHTTPServer, str]:
    """A threaded HTTP server on 127.0.0.1 answering GETs with ``route(path, query)``
    (``None`` → 404); returns the server and its base URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            url = urlsplit(self.path)
            body = route(url.path, {k: v[0] for k, v in parse_qs(url.query).items()})
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=UTF-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def _sync(base: str, db: Path, rate: float | None) -> tuple[float, int, object]:
    forum = ForumConfig(url=f"{base}viewtopic.php?t={TOPIC}", timezone="Europe/Moscow")
    config = SimpleNamespace(forum=forum)
    http = HttpClient(base, rate_limit=rate, retries=1)
    adapter = PhpbbForum(forum.settings(), http=http)
    with Store.open(db) as store:
        t0 = time.perf_counter()
        report = sync_topic(config, store, adapter)  # type: ignore[arg-type]
        elapsed = time.perf_counter() - t0
    adapter.close()
    return elapsed, adapter.requests, report


def _timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=400)
    ap.add_argument("--per-page", type=int, default=25)
    ap.add_argument("--rate-limit", type=float, default=0.0,
                    help="requests per second (0 = unlimited; the real default is 2)")
    args = ap.parse_args(argv)

    topic = SyntheticTopic(args.pages, args.per_page)
    server, base = topic.serve()
    rate = args.rate_limit or None
    n_posts = topic.total
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        full_s, full_req, report = _sync(base, db, rate)
        rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        stored = len(Store.open(db).posts())
        resync_s, resync_req, _ = _sync(base, db, rate)

        tracemalloc.start()
        _sync(base, Path(tmp) / "bench2.db", rate)
        _, traced_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    server.shutdown()

    # Extraction vs the floor, in batches of 50 pages (a batch in memory at a time); each
    # figure is the best of three passes, so other load on the machine hits both alike.
    tz, now = MOSCOW, datetime.now(UTC)
    floor_s = extract_s = 0.0
    for first in range(1, args.pages + 1, 50):
        batch = [(topic.page(p), f"{base}viewtopic.php?t=3&start={(p - 1) * args.per_page}")
                 for p in range(first, min(args.pages, first + 49) + 1)]

        def floor(batch: list[tuple[bytes, str]] = batch) -> None:
            for raw, _ in batch:
                LexborHTMLParser(raw.decode("utf-8"))

        def extract(batch: list[tuple[bytes, str]] = batch) -> None:
            for raw, url in batch:
                parse.parse_topic_page(parse.decode_page(raw, "text/html; charset=UTF-8"),
                                       url=url, tz=tz, now=now)

        floor_s += min(_timed(floor) for _ in range(3))
        extract_s += min(_timed(extract) for _ in range(3))

    ratio = extract_s / floor_s if floor_s else float("inf")
    rows = [
        ("topic", f"{args.pages} pages × {args.per_page} posts = {n_posts} posts", ""),
        ("full sync", f"{full_s:.2f} s, {full_req} requests, {n_posts / full_s:,.0f} posts/s",
         f"stored {stored} posts"),
        ("re-sync, unchanged", f"{resync_s * 1000:.0f} ms, {resync_req} request(s)",
         "target 1: " + ("OK" if resync_req == 1 else "MISSED")),
        ("selectolax alone (floor)",
         f"{floor_s:.2f} s, {n_posts / floor_s:,.0f} posts/s", ""),
        ("extraction (decode+parse)",
         f"{extract_s:.2f} s, {n_posts / extract_s:,.0f} posts/s",
         f"{ratio:.2f}x the floor, target ≤ 2x: " + ("OK" if ratio <= 2 else "MISSED")),
        ("peak memory", f"max RSS {rss_mb:.0f} MB; Python heap peak "
         f"{traced_peak / 2**20:.1f} MB", "target < 200 MB: " + (
             "OK" if rss_mb < 200 else "MISSED")),
    ]
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    print(f"{'measure':<{w0}}  {'result':<{w1}}  note")
    print(f"{'-' * w0}  {'-' * w1}  ----")
    for a, b, c in rows:
        print(f"{a:<{w0}}  {b:<{w1}}  {c}")
    if report is not None and getattr(report, "pages_fetched", 0) != args.pages:
        print(f"warning: the full sync read {report.pages_fetched} pages", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

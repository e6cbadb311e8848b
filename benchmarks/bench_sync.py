"""Sync benchmark: a synthetic 400-page phpBB 3.3 topic on a board of its own process.

The pages are real phpBB 3.3.10 markup: page 2 of the fixture topic
(``fixtures/phpbb33-ru/topic_p2_host.html``) is the template, its post blocks are
replicated with new ids and times, and the pagination is rebuilt the way phpBB's
``pagination.html`` renders it. The board (:mod:`board`) renders every page before it is
asked for, in its own process, so the sync measured here shares nothing with it.

Measured, in one run of the script:

- full sync of an empty database: requests, seconds, posts/s, and the wall time it takes
  at the default rate limit (2 requests/s) worked out from the requests;
- re-sync of the unchanged topic (target: exactly 1 request);
- extraction (decode + ``parse_topic_page``) against two floors on the same pages: the
  bare tree (selectolax/lexbor builds the DOM, nothing read) and a minimal extractor (id,
  author, time, body and its text per post, :func:`minimal_extract`, 20 lines) — each
  ratio the median of ``--runs`` paired passes (at least 5), order alternating;
- peak memory: ``ru_maxrss`` of the process after the sync, the tracemalloc peak of a
  second full sync (target: under 200 MB).

Run: ``python benchmarks/bench_sync.py --pages 400``
"""

from __future__ import annotations

import argparse
import re
import resource
import sys
import tempfile
import tracemalloc
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from board import HTML, BoardProcess  # noqa: E402
from selectolax.lexbor import LexborHTMLParser  # noqa: E402
from timing import RUNS, Took, load, median, ratio, rounds, timed  # noqa: E402

from adapters.base import HttpClient  # noqa: E402
from adapters.phpbb.client import PhpbbForum  # noqa: E402
from adapters.phpbb.page import decode_page  # noqa: E402
from adapters.phpbb.topic import parse_topic_page  # noqa: E402
from referee.config.game import ForumConfig  # noqa: E402
from referee.core.forum_settings import ForumSettings  # noqa: E402
from referee.store import Store  # noqa: E402
from referee.store.sync import sync_topic  # noqa: E402

TEMPLATE = ROOT / "fixtures" / "phpbb33-ru" / "topic_p2_host.html"
MOSCOW = ZoneInfo("Europe/Moscow")
RU_MONTHS = "янв фев мар апр май июн июл авг сен окт ноя дек".split()
TOPIC = 3
DEFAULT_RATE = 2.0
"""``[forum] rate_limit``'s default: requests per second."""
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


class TopicSite:
    """:class:`SyntheticTopic` as a :class:`board.Site`: its pages by ``topic:N``."""

    def __init__(self, topic: SyntheticTopic) -> None:
        self.topic = topic

    def key(self, method: str, path: str, query: Mapping[str, str],
            form: Mapping[str, str]) -> str | None:
        if path != "/viewtopic.php" or query.get("t") != str(TOPIC):
            return None
        page = int(query.get("start", "0")) // self.topic.per_page + 1
        return f"topic:{min(max(1, page), self.topic.pages)}"

    def render(self) -> dict[str, tuple[dict[str, str], bytes]]:
        return {f"topic:{n}": (HTML, self.topic.page(n)) for n in range(1, self.topic.pages + 1)}

    def control(self, name: str) -> None:
        raise ValueError(name)


def minimal_extract(html: str) -> list[tuple[int, str, str, str, str]]:
    """The least a topic reader must do: for every post its id, author, time, body and the
    body's text — selectolax and nothing else (the yardstick for ``parse_topic_page``)."""
    out = []
    for post in LexborHTMLParser(html).css("div.post"):
        pid = (post.attributes.get("id") or "p0")[1:]
        author = post.css_first(".author .username, .author .username-coloured")
        when = post.css_first("time")
        body = post.css_first("div.content")
        if body is None or not pid.isdigit():
            continue
        out.append((
            int(pid),
            author.text() if author is not None else "",
            (when.attributes.get("datetime") or "") if when is not None else "",
            body.html or "",
            body.text(separator="\n"),
        ))
    return out


def first_sync_wall(requests: int, rate: float = DEFAULT_RATE, waits: float = 0.0) -> float:
    """Seconds a first sync takes at ``rate`` requests/s: requests start 1/rate apart
    (:class:`adapters.base.HttpClient`); ``waits`` are the form-key waits on top."""
    return requests / rate + waits


def _sync(base: str, db: Path, rate: float | None) -> tuple[float, int, object]:
    forum = ForumConfig(ForumSettings(url=f"{base}viewtopic.php?t={TOPIC}",
                                      timezone="Europe/Moscow"))
    config = SimpleNamespace(forum=forum)
    http = HttpClient(base, rate_limit=rate, retries=1)
    adapter = PhpbbForum(forum.settings(), http=http)
    reports: list[object] = []
    with Store.open(db) as store:
        took = timed(lambda: reports.append(
            sync_topic(config, store, adapter)))  # type: ignore[arg-type]
    adapter.close()
    return took.wall, adapter.requests, reports[0]


def parse_times(topic: SyntheticTopic, base: str, runs: int) -> dict[str, list[Took]]:
    """Seconds of each pass over every page of ``topic``, ``runs`` rounds: the bare tree,
    the minimal extractor, the decode (bytes → text, with its charset checks), the parse
    of decoded text, and the extraction as a sync does it (decode + parse)."""
    pages = [(topic.page(p), f"{base}viewtopic.php?t=3&start={(p - 1) * topic.per_page}")
             for p in range(1, topic.pages + 1)]
    texts = [(raw.decode("utf-8"), url) for raw, url in pages]
    now = datetime.now(UTC)

    # Each pass keeps nothing it made: one page's tree or result alive at a time.
    def tree() -> None:
        for raw, _ in pages:
            LexborHTMLParser(raw.decode("utf-8"))

    def minimal() -> None:
        for raw, _ in pages:
            minimal_extract(raw.decode("utf-8"))

    def decode() -> None:
        for raw, _ in pages:
            decode_page(raw, "text/html; charset=UTF-8")

    def parse_only() -> None:
        for text, url in texts:
            parse_topic_page(text, url=url, tz=MOSCOW, now=now)

    def extract() -> None:
        for raw, url in pages:
            parse_topic_page(decode_page(raw, "text/html; charset=UTF-8"),
                                   url=url, tz=MOSCOW, now=now)

    passes = {"tree": tree, "minimal": minimal, "decode": decode, "parse": parse_only,
              "extract": extract}
    return rounds({k: (lambda f=f: timed(f)) for k, f in passes.items()}, runs)


def parse_rows(times: dict[str, list[Took]], n_posts: int, runs: int
               ) -> list[tuple[str, str, str]]:
    """The parse against its floors: medians of the passes, ratios within rounds (CPU
    time, the wall clock's beside)."""
    rows = []
    for key, label, note in (
        ("tree", "bare tree (floor)", "selectolax builds the DOM, nothing read"),
        ("minimal", "minimal extractor", "id, author, time, body, text per post"),
        ("decode", "decode alone", "bytes → text with the charset checks"),
        ("parse", "parse alone", "parse_topic_page of decoded text"),
        ("extract", "extraction (decode+parse)", "what a sync does per page"),
    ):
        s = median(times[key])
        rows.append((label, f"{s:.2f} s, {n_posts / s:,.0f} posts/s", note))
    for a, b, label in (("tree", "extract", "extraction ÷ bare tree"),
                        ("minimal", "extract", "extraction ÷ minimal extractor"),
                        ("minimal", "parse", "parse alone ÷ minimal extractor")):
        r, w = ratio(times[a], times[b]), ratio(times[a], times[b], "wall")
        rows.append((label, f"{r.ratio:.2f}× (wall {w.ratio:.2f}×)",
                     f"median of {runs} rounds, CPU {r.spread()}, wall {w.spread()}"))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=400)
    ap.add_argument("--per-page", type=int, default=25)
    ap.add_argument("--runs", type=int, default=RUNS, help="paired passes behind each ratio")
    args = ap.parse_args(argv)
    runs = max(RUNS, args.runs)

    topic = SyntheticTopic(args.pages, args.per_page)
    n_posts = topic.total
    print(f"# {load()} (before)")
    with BoardProcess(TopicSite(topic)) as board, tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        full_s, full_req, report = _sync(board.url, db, None)
        served = board.stats()
        rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        stored = len(Store.open(db).posts())
        resync_s, resync_req, _ = _sync(board.url, db, None)
        tracemalloc.start()
        _sync(board.url, Path(tmp) / "bench2.db", None)
        _, traced_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        times = parse_times(topic, board.url, runs)
    rows = [
        ("topic", f"{args.pages} pages × {args.per_page} posts = {n_posts} posts", ""),
        ("full sync", f"{full_s:.2f} s, {full_req} requests, {n_posts / full_s:,.0f} posts/s",
         f"stored {stored} posts; the board served {served.get('topic', 0)} pages"),
        ("full sync at 2 req/s", f"{first_sync_wall(full_req) / 60:.1f} min",
         f"{full_req} requests / {DEFAULT_RATE:g} per s"),
        ("re-sync, unchanged", f"{resync_s * 1000:.0f} ms, {resync_req} request(s)",
         "target 1: " + ("OK" if resync_req == 1 else "MISSED")),
        *parse_rows(times, n_posts, runs),
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
    print(f"# {load()} (after)")
    if report is not None and getattr(report, "pages_fetched", 0) != args.pages:
        print(f"warning: the full sync read {report.pages_fetched} pages", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

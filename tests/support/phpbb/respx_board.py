"""A phpBB 3.3 board for respx (the sync tests'): serves the real fixture pages (or a
synthetic topic) and keeps a session the way phpBB does, so the client's login and paging
can be counted."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs

import httpx
import respx

from support.clock import FakeTime
from support.phpbb import export as fake_export

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "phpbb33-ru"
BOARD = "https://forum.test/"

sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_sync import SyntheticTopic  # noqa: E402

PREFIX = "phpbb3_k3x9q"
"""A cookie prefix unlike the default: the client must read it from Set-Cookie."""
HOST_ID = "58"

_ROW = re.compile(r'[ \t]*<li class="row bg\d">.*?</li>\n', re.S)
_PAGE_OF = "Страница <strong>1</strong> из <strong>1</strong>"


def fixture_bytes(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


class FixtureTopic:
    """The fixture topic «Мафия: игра 2»: 4 pages of 20 posts, as the host saw it."""

    per_page = 20

    def __init__(self, pages: dict[int, bytes] | None = None) -> None:
        self.by_page = pages or {n: fixture_bytes(f"topic_p{n}_host.html") for n in range(1, 5)}

    @property
    def pages(self) -> int:
        return max(self.by_page)

    def page(self, n: int) -> bytes:
        return self.by_page[min(max(1, n), self.pages)]


def inbox_page(pm_ids: list[int], page: int = 1, total: int = 1) -> bytes:
    """The fixture inbox listing re-cut to hold ``pm_ids`` as page ``page`` of ``total``."""
    html = fixture_bytes("pm_inbox.html").decode("utf-8")
    rows = {int(re.search(r'value="(\d+)"', r.group(0)).group(1)): r.group(0)  # type: ignore[union-attr]
            for r in _ROW.finditer(html)}
    first = _ROW.search(html)
    assert first is not None
    template = rows[8]

    def row(i: int) -> str:
        if i in rows:
            return rows[i]
        return template.replace('p=8"', f'p={i}"').replace('value="8"', f'value="{i}"')

    body = "".join(row(i) for i in pm_ids)
    start = first.start()
    end = max(r.end() for r in _ROW.finditer(html))
    out = html[:start] + body + html[end:]
    return out.replace(_PAGE_OF, f"Страница <strong>{page}</strong> из <strong>{total}</strong>"
                       ).encode("utf-8")


def pm_page(pm_id: int) -> bytes:
    """An opened PM: the fixture page if there is one, else PM 8's page renumbered."""
    try:
        return fixture_bytes(f"pm_{pm_id}.html")
    except FileNotFoundError:
        return fixture_bytes("pm_8.html").replace(b'id="post-8"', f'id="post-{pm_id}"'.encode())


@dataclass
class FakeBoard:
    """Routes every request of the client; records them for request counting."""

    time: FakeTime
    topic: FixtureTopic | SyntheticTopic = field(default_factory=FixtureTopic)
    require_login: bool = False
    """Guests get the login form instead of any page (a closed game forum)."""
    login_answers: list[Callable[[], httpx.Response]] = field(default_factory=list)
    """What the next login POSTs get, in turn; when used up: success (302, a session)."""
    expire_on: set[str] = field(default_factory=set)
    """Request keys (e.g. ``topic:3``) where the session expires once, mid-run."""
    inbox: list[bytes] = field(default_factory=lambda: [inbox_page([18, 17, 16])])
    sentbox: list[bytes] = field(default_factory=lambda: [fixture_bytes("pm_sent.html")])
    topic_status: dict[int, httpx.Response] = field(default_factory=dict)
    """Page number → a canned answer (errors); others are served normally."""
    export: str = "xml"
    """How the folder export answers: ``xml`` (phpBB's), ``none`` (the pages offer no XML
    export), ``html`` (an HTML page instead), ``broken`` (XML cut short), ``cut_once`` (cut
    short once, then whole), ``shifted`` (a PM arrived between the listing and the
    export)."""
    export_posts: list[dict[str, str]] = field(default_factory=list)
    form_key_served_at: float | None = None
    log: list[str] = field(default_factory=list)
    login_posts: list[dict[str, str]] = field(default_factory=list)
    login_form_served_at: list[float] = field(default_factory=list)
    login_posted_at: list[float] = field(default_factory=list)
    cookie_headers: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    sessions: int = 0

    # -- plumbing

    def install(self, router: respx.MockRouter) -> None:
        self.router = router
        router.route(host="forum.test").mock(side_effect=lambda r: self.handle(r))

    def _session_ok(self, request: httpx.Request) -> bool:
        return f"{PREFIX}_u={HOST_ID}" in request.headers.get("cookie", "")

    def _guest(self, body: bytes) -> httpx.Response:
        self.login_form_served_at.append(self.time.clock())
        return httpx.Response(200, content=body, headers=[
            ("content-type", "text/html; charset=UTF-8"),
            ("set-cookie", f"{PREFIX}_u=1; path=/; domain=forum.test; HttpOnly"),
            ("set-cookie", f"{PREFIX}_sid={'0' * 32}; path=/; domain=forum.test; HttpOnly"),
        ])

    @staticmethod
    def html(body: bytes, status: int = 200) -> httpx.Response:
        return httpx.Response(status, content=body,
                              headers={"content-type": "text/html; charset=UTF-8"})

    def handle(self, request: httpx.Request) -> httpx.Response:
        q = {k: v[0] for k, v in parse_qs(request.url.query.decode()).items()}
        path = request.url.path.rsplit("/", 1)[-1]
        self.cookie_headers.append(request.headers.get("cookie", ""))
        self.urls.append(str(request.url))
        if request.method == "POST" and path == "ucp.php" and q.get("mode") == "login":
            self.log.append("POST login")
            return self._login(request)
        if request.method == "POST" and path == "ucp.php" and q.get("i") == "pm":
            return self._export(request, q)
        if path == "ucp.php" and q.get("mode") == "login":
            self.log.append("GET login")
            return self._guest(fixture_bytes("login.html"))
        if path == "viewtopic.php":
            per = self.topic.per_page
            n = int(q.get("start", "0")) // per + 1
            key = f"topic:{n}"
            self.log.append(key)
            if n in self.topic_status:
                return self.topic_status[n]
        elif path == "ucp.php" and q.get("i") == "pm":
            key = self._pm_key(q)
            self.log.append(key)
        else:
            self.log.append(f"other:{request.url}")
            return self.html(b"<html><body>Not Found</body></html>", 404)
        logged_in = self._session_ok(request)
        if key in self.expire_on and logged_in:
            self.expire_on.discard(key)
            return self._guest(fixture_bytes("login_required.html"))
        if (self.require_login or key.startswith(("pm", "folder"))) and not logged_in:
            return self._guest(fixture_bytes("login_required.html"))
        if key.startswith("topic:"):
            return self.html(self.topic.page(int(key.split(":")[1])))
        body = self._pm_body(key)
        if key.startswith("folder:"):
            if self.form_key_served_at is None:
                self.form_key_served_at = self.time.clock()
            if self.export == "none":
                body = body.replace(b'<option value="XML">', b'<option value="X" disabled>')
        return self.html(body)

    def _export(self, request: httpx.Request, q: dict[str, str]) -> httpx.Response:
        """phpBB's answer to the folder form posted with ``submit_export``."""
        form = {k: v[0] for k, v in parse_qs(request.content.decode()).items()}
        self.export_posts.append(form)
        key = self._pm_key({**q, **{k: v for k, v in form.items() if k == "start"}})
        self.log.append(key.replace("folder:", "export:"))
        if not self._session_ok(request):
            return self._guest(fixture_bytes("login_required.html"))
        served = self.form_key_served_at
        if "submit_export" not in form or form.get("export_option") != "XML" \
                or not form.get("form_token") or served is None \
                or self.time.clock() - served < 1.0 or self.export == "html":
            return self.html(fake_export.FORM_INVALID)
        page = self._pm_body(key)
        if self.export == "shifted":
            new = ('<li class="row bg1">x p=999" class="topictitle">Новое</a> '
                   'class="username">Лиса</a> &raquo; 22 ноя 2026, 02:10</li>\n')
            page = page.replace(b'<li class="row bg', new.encode() + b'<li class="row bg', 1)
        if self.export == "folder":
            _, folder, number = key.split(":")
            pages = {"inbox": self.inbox, "sentbox": self.sentbox}.get(folder) or []
            page = b"".join(pages[int(number) - 1:])
        content, headers = fake_export.answer(page)
        if self.export in ("broken", "cut_once"):
            content = content[: len(content) // 2]
            self.export = "xml" if self.export == "cut_once" else self.export
        return httpx.Response(200, content=content, headers=headers)

    @staticmethod
    def _pm_key(q: dict[str, str]) -> str:
        if "p" in q:
            return f"pm:{q['p']}"
        folder = {"0": "inbox", "-1": "sentbox", "-2": "outbox"}.get(
            q.get("f", ""), q.get("folder", "inbox"))
        page = int(q.get("start", "0")) // 3 + 1
        return f"folder:{folder}:{page}"

    def _pm_body(self, key: str) -> bytes:
        kind, _, rest = key.partition(":")
        if kind == "pm":
            return pm_page(int(rest))
        folder, _, page = rest.partition(":")
        pages = {"inbox": self.inbox, "sentbox": self.sentbox}.get(folder)
        if not pages:
            return inbox_page([])
        return pages[min(int(page), len(pages)) - 1]

    def _login(self, request: httpx.Request) -> httpx.Response:
        self.login_posted_at.append(self.time.clock())
        form = {k: v[0] for k, v in parse_qs(request.content.decode()).items()}
        self.login_posts.append(form)
        if self.login_answers:
            return self.login_answers.pop(0)()
        self.sessions += 1
        return httpx.Response(302, headers=[
            ("location", "./index.php"),
            ("set-cookie", f"{PREFIX}_u={HOST_ID}; path=/; domain=forum.test; HttpOnly"),
            ("set-cookie", f"{PREFIX}_k={'k' * 16}; path=/; domain=forum.test; HttpOnly"),
            ("set-cookie", f"{PREFIX}_sid={'1' * 32}; path=/; domain=forum.test; HttpOnly"),
        ])


def failed_login(page: bytes) -> Callable[[], httpx.Response]:
    """A login POST answered with ``page`` (phpBB re-shows the form) and a guest session."""
    def answer() -> httpx.Response:
        return httpx.Response(200, content=page, headers=[
            ("content-type", "text/html; charset=UTF-8"),
            ("set-cookie", f"{PREFIX}_u=1; path=/; domain=forum.test; HttpOnly"),
        ])
    return answer


def login_page_with_error(error_html: str, *, captcha: bool = False) -> bytes:
    """``login_failed.html`` with another phpBB error text (and a CAPTCHA box)."""
    html = fixture_bytes("login_failed.html").decode("utf-8")
    html = re.sub(r'<div class="error">.*?</div>', f'<div class="error">{error_html}</div>',
                  html, count=1, flags=re.S)
    if captcha:
        html = html.replace(
            '<input type="hidden" name="creation_time"',
            '<fieldset class="fields2"><input type="text" name="confirm_code" /></fieldset>'
            '<input type="hidden" name="creation_time"', 1)
    return html.encode("utf-8")


__all__ = ["BOARD", "FakeBoard", "FixtureTopic", "SyntheticTopic", "failed_login",
           "inbox_page", "login_page_with_error", "pm_page"]

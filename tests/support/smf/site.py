"""An SMF 2.1 board on 127.0.0.1 at SMF's own URL patterns, for the engine's live tests.

:class:`SmfSite` does what every such board shares: the PHP session cookie, the login
form with its two random token names (a fresh login token per form, the session token per
session), ``action=login2`` (a 302 through ``login2;sa=check;member=N`` and the
``SMFCookieNNN`` login cookie; «подождать около 2 секунд» when two logins come within 2 s;
«Неверный пароль»), the logged-in member, and a log of every request. Pages come from
the subclass: :class:`RealBoard` serves the real saved pages of fixtures/smf21-ru (the
board's address in them rewritten to this server's), ``support.smf.live.LiveBoard`` renders pages
from posts and PMs it holds.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, unquote_plus, urlsplit

from support.server import QuietHandler, serving

ROOT = Path(__file__).resolve().parents[3]
REAL = ROOT / "fixtures" / "smf21-ru"
SAVED_BOARD = "http://127.0.0.1:8080"
HOST_NAME, HOST_ID, HOST_PASSWORD = "Ведущий", 2, "HostPass123"
LOGIN_COOKIE = "SMFCookie956"
REAL_GUEST_VAR = "dd4892be132"
REAL_HOST_VAR = "d1fabad3"
ZERO_TOKEN = "0" * 32
WAIT_TEXT = "Вам придется подождать около 2 секунд перед повторной авторизацией."


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    form: dict[str, str]
    cookies: dict[str, str]

    @property
    def action(self) -> str | None:
        return self.query.get("action")


@dataclass
class Reply:
    status: int
    body: bytes = b""
    headers: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Session:
    sid: str
    var: str
    token: str
    member: int = 0
    login_tokens: dict[str, str] = field(default_factory=dict)


def smf_query(query: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in re.split(r"[;&]", query):
        if part:
            key, _, value = part.partition("=")
            out.setdefault(unquote_plus(key), unquote_plus(value))
    return out


class SmfSite:
    """The shared half of a test SMF board; subclasses answer the pages."""

    guest_var = REAL_GUEST_VAR
    host_var = REAL_HOST_VAR
    random_tokens = False
    """The real pages' session token is all zeros; a live board makes real ones."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.base = SAVED_BOARD
        self.log: list[str] = []
        self.sessions: dict[str, Session] = {}
        self.login_posts: list[float] = []
        self.generation = 0
        self.lock = threading.Lock()

    # -- helpers for the pages

    def real(self, name: str) -> str:
        return (REAL / name).read_text(encoding="utf-8")

    def out(self, page: str, session: Session, status: int = 200) -> Reply:
        page = page.replace(SAVED_BOARD, self.base.rstrip("/"))
        if 'id="frmLogin"' in page:  # every login form gets a login token of its own
            token_name, token = secrets.token_hex(4), secrets.token_hex(16)
            session.login_tokens = {token_name: token}
            page = re.sub(r'name="(a2c0de2|aadb5accd5|edebe163d866)" value="[0-9a-f]+"',
                          f'name="{token_name}" value="{token}"', page)
        if session.member:
            page = page.replace(REAL_HOST_VAR, session.var).replace(ZERO_TOKEN, session.token)
        else:
            page = page.replace(REAL_GUEST_VAR, session.var).replace(ZERO_TOKEN, session.token)
        return Reply(status, page.encode("utf-8"),
                     [("Content-Type", "text/html; charset=UTF-8")])

    def login_page(self, session: Session, name: str = "login_page.html",
                   error: str | None = None) -> Reply:
        page = self.real(name)
        if error:
            page = re.sub(r'<div class="errorbox">[^<]*</div>',
                          f'<div class="errorbox">{error}</div>', page)
        return self.out(page, session)

    # -- the request cycle

    def handle(self, req: Request) -> Reply:
        with self.lock:
            self.log.append(f"{req.method} {req.path}" + (
                "?" + ";".join(f"{k}={v}" if v else k for k, v in req.query.items())
                if req.query else ""))
            session, fresh = self._session(req)
            reply = self._login(req, session) or self.page(req, session)
            if fresh:
                reply.headers.append(("Set-Cookie", f"PHPSESSID={session.sid}; path=/; "
                                      "HttpOnly"))
            return reply

    def _session(self, req: Request) -> tuple[Session, bool]:
        sid = req.cookies.get("PHPSESSID", "")
        if sid in self.sessions:
            return self.sessions[sid], False
        member = 0
        login = req.cookies.get(LOGIN_COOKIE)
        if login == f"{HOST_ID}-{self.generation}":
            member = HOST_ID  # the login cookie outlives the PHP session
        s = Session(secrets.token_hex(13), self.host_var if member else self.guest_var,
                    self._token(), member)
        self.sessions[s.sid] = s
        return s, True

    def _login(self, req: Request, s: Session) -> Reply | None:
        if req.action == "login" and req.method == "GET":
            return self.login_page(s)
        if req.action == "login2" and req.query.get("sa") == "check":
            return Reply(302, headers=[("Location", f"{self.base}index.php")])
        if req.action != "login2" or req.method != "POST":
            return None
        now = self.clock()
        recent = bool(self.login_posts) and now - self.login_posts[-1] < 2
        self.login_posts.append(now)
        if recent:
            return self.login_page(s, "login_failed.html", WAIT_TEXT)
        tokens_ok = req.form.get(s.var) == s.token and any(
            req.form.get(k) == v for k, v in s.login_tokens.items())
        s.login_tokens = {}
        if not tokens_ok:
            return self.login_page(s, "login_failed.html",
                                   "Ваша сессия истекла. Пожалуйста, попробуйте заново.")
        if req.form.get("user") != HOST_NAME or req.form.get("passwrd") != HOST_PASSWORD:
            return self.login_page(s, "login_failed.html", "Неверный пароль")
        s.member, s.var, s.token = HOST_ID, self.host_var, self._token()
        return Reply(302, headers=[
            ("Location", f"{self.base}index.php?action=login2;sa=check;member={HOST_ID}"),
            ("Set-Cookie", f"{LOGIN_COOKIE}={HOST_ID}-{self.generation}; path=/; HttpOnly"),
        ])

    def _token(self) -> str:
        return secrets.token_hex(16) if self.random_tokens else ZERO_TOKEN

    def expire(self) -> None:
        """Every session and login cookie forgotten (as after a board restart)."""
        with self.lock:
            self.sessions.clear()
            self.generation += 1

    def page(self, req: Request, s: Session) -> Reply:
        raise NotImplementedError

    def requests(self, prefix: str = "") -> list[str]:
        return [r for r in self.log if prefix in r]

    # -- serving

    @contextmanager
    def running(self) -> Iterator[SmfSite]:
        site = self

        class Handler(QuietHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                self._answer()

            def do_POST(self) -> None:  # noqa: N802
                self._answer()

            def _answer(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8") if length else ""
                cookies = dict(c.strip().split("=", 1) for c in
                               (self.headers.get("Cookie") or "").split(";") if "=" in c)
                req = Request(self.command, parts.path.lstrip("/"), smf_query(parts.query),
                              dict(parse_qsl(body, keep_blank_values=True)), cookies)
                reply = site.handle(req)
                self.send_response(reply.status)
                for name, value in reply.headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)

        with serving(Handler) as origin:
            self.base = f"{origin}/"
            yield self


class RealBoard(SmfSite):
    """The real board of fixtures/smf21-ru: its topic «Мафия: игра 1» (topic 2, 3 pages of
    25), the members-only topic 3 and the host's PM folders, each page as SMF sent it."""

    def page(self, req: Request, s: Session) -> Reply:
        who = "host" if s.member else "guest"
        topic = req.query.get("topic")
        if topic:
            number, _, start = topic.partition(".")
            if number == "3":
                return self.out(self.real(f"closed_topic_{who}.html"), s)
            if number != "2":
                return self.out(self.real("closed_topic_guest.html"), s)
            first = int(start) if start.isdigit() else 0
            return self.out(self.real(f"topic_p{min(first // 25, 2) + 1}_{who}.html"), s)
        if req.action == "pm":
            if not s.member:
                return self.out(self.real("pm_inbox_guest.html"), s)
            if req.query.get("f") == "sent":
                return self.out(self.real("pm_sentbox_host.html"), s)
            start = req.query.get("start")
            name = {"0": "pm_inbox_p1_host.html", "25": "pm_inbox_p2_host.html"}.get(
                start or "", "pm_inbox_host.html")
            return self.out(self.real(name), s)
        if not req.query:
            return self.out(self.real("login_success.html" if s.member
                                      else "forum_index_guest.html"), s)
        return Reply(404, b"not here", [("Content-Type", "text/plain")])

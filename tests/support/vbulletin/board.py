"""A vBulletin 4 board on 127.0.0.1 for the engine's tests: a thread, the host's PMs, login,
the reply and PM forms, at vBulletin's own addresses (``/forum/showthread.php?t=63&page=2``,
``showthread.php/63-slug/page2``, ``threads/63-slug/page2``, ``login.php?do=login``,
``private.php?folderid=0``, ``private.php?do=showpm&pmid=N``, ``newreply.php``), serving
``windows-1251`` pages from :mod:`support.vbulletin.pages` and reading forms in that encoding.

Requests are logged by key (``thread:2``, ``login``, ``folder:0:1``, ``pm:101``,
``newreply``, ``postreply``, ``newpm``, ``insertpm``) so tests can count them.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, quote, urlsplit

from support.server import QuietHandler, serving
from support.vbulletin import pages
from support.vbulletin.pages import VbPm, VbPost, encode

HOST = ("Ведущий", 58)
PASSWORD = "Пароль-ведущего 7"
TOPIC = 63
SLUG = "Форумная-мафия-63"
_PATH_PAGE = re.compile(r"/(?:showthread\.php|threads)/(\d+)(?:-[^/]*)?(?:/page(\d+))?/?$")


def md5_of(password: str) -> str:
    """What the browser's md5hash() posts for the host's password (Cyrillic as ``&#N;``)."""
    ent = "".join(c if ord(c) <= 255 else f"&#{ord(c)};" for c in password.strip(" "))
    return hashlib.md5(ent.encode("latin-1")).hexdigest()


@dataclass
class VbBoard:
    """The board's truth and its behaviour; tests change both between requests."""

    posts: list[VbPost] = field(default_factory=list)
    pms: list[VbPm] = field(default_factory=list)
    title: str = "Форумная мафия №63"
    per_page: int = 10
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    guests_read: bool = True
    canonical: str | None = None
    """``"threads"``: every other thread address answers 301 to ``threads/63-slug/pageK``."""
    reject_token_once: bool = False
    flood_once: int = 0
    hits: list[str] = field(default_factory=list)
    unread: set[int] = field(default_factory=set)
    sent: list[dict[str, str]] = field(default_factory=list)
    logins: list[dict[str, str]] = field(default_factory=list)
    token: str = "1764000000-0d9f8e7a6b5c"

    def hit_count(self, prefix: str) -> int:
        return sum(1 for h in self.hits if h.startswith(prefix))

    # ------------------------------------------------------------------ serving

    @contextmanager
    def serve(self) -> Iterator[str]:
        """Run the board; yields its root, ``http://127.0.0.1:PORT/forum/``."""
        board = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:  # noqa: N802
                board._answer(self, "GET", b"")

            def do_POST(self) -> None:  # noqa: N802
                size = int(self.headers.get("Content-Length") or 0)
                board._answer(self, "POST", self.rfile.read(size))

        with serving(Handler) as origin:
            yield f"{origin}/forum/"

    def _answer(self, h: BaseHTTPRequestHandler, method: str, body: bytes) -> None:
        parts = urlsplit(h.path)
        query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        form = {k: v[0] for k, v in parse_qs(body.decode("ascii"), encoding="cp1251",
                                             keep_blank_values=True).items()}
        user = HOST if f"bbuserid={HOST[1]}" in (h.headers.get("Cookie") or "") else None
        status, headers, page = self._route(method, parts.path, query, form, user)
        data = encode(page) if page else b""
        h.send_response(status)
        h.send_header("Content-Type", "text/html; charset=windows-1251")
        h.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            h.send_header(name, value)
        h.end_headers()
        h.wfile.write(data)

    def _route(self, method: str, path: str, query: dict[str, str],
               form: dict[str, str], user: tuple[str, int] | None
               ) -> tuple[int, list[tuple[str, str]], str]:
        now = self.clock()
        name = path.rsplit("/", 1)[-1]
        if name == "login.php" and method == "POST":
            return self._login(form, now)
        if "showthread.php" in path or "/threads/" in path:
            return self._thread(path, query, user, now)
        if user is None and name in ("private.php", "newreply.php"):
            self.hits.append(f"denied:{name}")
            return 200, [], pages.message_page(
                "Вы не зарегистрированы или у вас нет доступа к этой странице.", now=now,
                user=None, login=True)
        if name == "private.php" and user is not None:
            return self._private(method, query, form, user, now)
        if name == "newreply.php" and user is not None:
            return self._reply(method, query, form, user, now)
        return 404, [], "<html><body>Not Found</body></html>"

    def _thread(self, path: str, query: dict[str, str],
                user: tuple[str, int] | None, now: datetime
                ) -> tuple[int, list[tuple[str, str]], str]:
        match = _PATH_PAGE.search(path)
        if match:
            topic, page = int(match.group(1)), int(match.group(2) or 1)
        else:
            topic, page = int(query.get("t", "0") or 0), int(query.get("page", "1") or 1)
        if self.canonical == "threads" and not path.startswith("/forum/threads/"):
            self.hits.append(f"redirect:{page}")
            suffix = f"/page{page}" if page > 1 else ""
            # A windows-1251 board's slug, percent-encoded in its own bytes.
            slug = quote(SLUG.encode("cp1251"))
            return 301, [("Location", f"/forum/threads/{topic}-{slug}{suffix}")], ""
        self.hits.append(f"thread:{page}")
        if topic != TOPIC:
            return 200, [], pages.message_page(
                "Неверно указана тема. Если вы перешли по верной ссылке, пожалуйста, "
                "сообщите администратору.", now=now, user=user)
        if user is None and not self.guests_read:
            return 200, [], pages.message_page(
                "Вы не зарегистрированы или у вас нет доступа к этой странице.", now=now,
                user=None, login=True)
        return 200, [], pages.thread_page(TOPIC, self.title, self.posts, page, self.per_page,
                                          now=now, user=user)

    def _login(self, form: dict[str, str], now: datetime
               ) -> tuple[int, list[tuple[str, str]], str]:
        self.hits.append("login")
        self.logins.append(form)
        ok = (form.get("vb_login_username") == HOST[0]
              and form.get("vb_login_md5password") == md5_of(PASSWORD)
              and form.get("vb_login_password") == "")
        if not ok:
            return 200, [("Set-Cookie", "bbsessionhash=guest1; path=/")], pages.message_page(
                "Вы ввели неправильное имя пользователя или пароль. Вы использовали 1 из 5 "
                "попыток входа.", now=now, user=None, login=True)
        cookies = [("Set-Cookie", f"bbuserid={HOST[1]}; path=/; HttpOnly"),
                   ("Set-Cookie", "bbpassword=5f4dcc3b; path=/; HttpOnly"),
                   ("Set-Cookie", "bbsessionhash=4b1d; path=/; HttpOnly")]
        return 200, cookies, pages.redirect_page(
            f"Спасибо, что зашли, {HOST[0]}.", "index.php", now=now, user=HOST)

    def _private(self, method: str, query: dict[str, str], form: dict[str, str],
                 user: tuple[str, int], now: datetime
                 ) -> tuple[int, list[tuple[str, str]], str]:
        if query.get("do") == "showpm":
            pm_id = int(query.get("pmid", "0"))
            self.hits.append(f"pm:{pm_id}")
            pm = next((p for p in self.pms if p.pm_id == pm_id), None)
            if pm is None:
                return 200, [], pages.message_page(
                    "Неверно указано сообщение. Если вы перешли по верной ссылке, сообщите "
                    "администратору.", now=now, user=user)
            self.unread.discard(pm_id)
            return 200, [], pages.pm_page(pm, now=now, user=user)
        if query.get("do") == "newpm":
            self.hits.append("newpm")
            return 200, [], pages.pm_form(now=now, user=user, token=self.token)
        if method == "POST" and query.get("do") == "insertpm":
            self.hits.append("insertpm")
            if form.get("securitytoken") != self.token:
                return 200, [], pages.message_page(
                    "Your submission could not be processed because a security token was "
                    "missing or has expired.", now=now, user=user)
            self.sent.append(form)
            return 302, [("Location", "private.php?folderid=0")], ""
        folder = query.get("folderid", "0")
        self.hits.append(f"folder:{folder}:{query.get('page', '1')}")
        shown = self.pms if folder == "0" else []
        return 200, [], pages.pm_folder_page(shown, now=now, user=user, unread=self.unread)

    def _reply(self, method: str, query: dict[str, str], form: dict[str, str],
               user: tuple[str, int], now: datetime
               ) -> tuple[int, list[tuple[str, str]], str]:
        if method == "GET":
            self.hits.append("newreply")
            return 200, [], pages.reply_form(TOPIC, now=now, user=user, token=self.token)
        self.hits.append("postreply")
        if self.reject_token_once or form.get("securitytoken") != self.token:
            self.reject_token_once = False
            return 200, [], pages.message_page(
                "Your submission could not be processed because a security token was missing "
                "or has expired. Please return to the previous page and try again.",
                now=now, user=user)
        if self.flood_once:
            wait, self.flood_once = self.flood_once, 0
            return 200, [], pages.message_page(
                f"This forum requires that you wait 30 seconds between posts. Please try "
                f"again in {wait} seconds.", now=now, user=user)
        new_id = max([p.post_id for p in self.posts], default=1000) + 1
        self.posts.append(VbPost(new_id, user[0], user[1], now, pages.esc(
            form.get("message", "")).replace("\n", "<br />\n")))
        self.sent.append(form)
        return 302, [("Location", f"showthread.php?p={new_id}#post{new_id}")], ""


__all__ = ["HOST", "PASSWORD", "SLUG", "TOPIC", "VbBoard", "md5_of"]

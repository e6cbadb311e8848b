"""A XenForo 2 board on 127.0.0.1 for the engine's tests: it holds the truth (threads,
conversations, members) and serves it at XenForo's own URL patterns in XenForo 2 markup
(:mod:`support.xenforo.pages`, :mod:`support.xenforo.conversations`).

Routes (the prefix is ``/forum/`` with friendly URLs, or ``/index.php?`` without):
``threads/{slug}.{id}/[page-N]`` (a stale slug and a page past the end redirect),
``threads/…/reply`` + POST ``threads/…/add-reply``, ``posts/P/``, ``login/`` + POST
``login/login``, ``conversations/[page-N]``, ``conversations/{slug}.{id}/[page-N]``,
``conversations/add`` (GET and POST). Guests get HTTP 403 with the login form where XenForo
asks to log in. Every POST is checked against the ``xf_csrf`` cookie's token.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, unquote, urlsplit

from support.server import QuietHandler, serving
from support.xenforo.conversations import (
    XfConversation,
    XfMessage,
    conversation_list_page,
    conversation_page,
)
from support.xenforo.pages import (
    XfPost,
    XfThread,
    conversation_add_page,
    error_page,
    login_page,
    reply_page,
    thread_page,
)

_THREAD = re.compile(r"^threads/(?:(?P<slug>[^/]*)\.)?(?P<id>\d+)/(?P<rest>.*)$")
_CONVERSATION = re.compile(r"^conversations/(?:(?P<slug>[^/]*)\.)?(?P<id>\d+)/(?P<rest>.*)$")
_PAGE = re.compile(r"^page-(\d+)$")
SECURITY = ("Произошла ошибка безопасности. Пожалуйста, вернитесь назад, обновите страницу и "
            "попробуйте ещё раз.")
MUST_LOGIN = "Вы должны войти для выполнения этого действия."


@dataclass
class Member:
    name: str
    user_id: int
    password: str = "пароль"


@dataclass
class XfBoard:
    """The truth, and how the board answers."""

    members: dict[str, Member]
    threads: dict[int, XfThread] = field(default_factory=dict)
    conversations: dict[int, XfConversation] = field(default_factory=dict)
    per_page: int = 15
    """«Messages per page»: thread posts and conversation messages alike."""
    list_per_page: int = 20
    version: str = "2.2"
    """XenForo's version (2.0–2.3), or a style shape of xf_variants («uix», «xf20»…)."""
    pin_first: bool = False
    """The first post above every page (XF 2.2+ question, suggestion, article threads)."""
    prefix: str = "/forum/"
    guests_see_threads: bool = True
    flood_once: bool = False
    reject_token_once: bool = False
    drop_next_post: bool = False
    """Close the connection on the next reply/conversation POST after storing it."""
    now: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    log: list[tuple[str, str, int]] = field(default_factory=list)
    origin: str = ""
    _next_id: int = 900_000
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # -- truth helpers

    def member(self, name: str) -> Member:
        return self.members[name]

    def next_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def requests(self, method: str | None = None) -> list[tuple[str, str, int]]:
        return [r for r in self.log if method is None or r[0] == method]

    @property
    def base(self) -> str:
        return self.origin + self.prefix

    # -- running

    @contextmanager
    def running(self) -> Iterator[XfBoard]:
        board = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                board._handle(self, "GET")

            def do_POST(self) -> None:  # noqa: N802
                board._handle(self, "POST")

        with serving(Handler) as self.origin:
            yield self

    # -- requests

    def _route(self, target: str) -> str | None:
        parts = urlsplit(target)
        if self.prefix.endswith("?"):
            return unquote(parts.query.split("&", 1)[0]) if parts.path == self.prefix[:-1] \
                else None
        return unquote(parts.path[len(self.prefix):]) if parts.path.startswith(self.prefix) \
            else None

    def _handle(self, h: BaseHTTPRequestHandler, method: str) -> None:
        route = self._route(h.path)
        cookies = _cookies(h.headers.get("Cookie", ""))
        form: dict[str, str] = {}
        if method == "POST":
            length = int(h.headers.get("Content-Length") or 0)
            raw = h.rfile.read(length).decode("utf-8")
            form = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        if method == "POST" and self.drop_next_post and route != "login/login":
            self.drop_next_post = False
            with self._lock:
                self._answer(method, route, cookies, form)  # stored, and no answer
            self.log.append((method, route or h.path, 0))
            h.close_connection = True
            return
        with self._lock:
            fresh = "xf_csrf" not in cookies
            if fresh:  # the page is rendered with the token of the cookie it sets
                cookies["xf_csrf"] = self._new_csrf()
            reply = self._answer(method, route, cookies, form)
        status, headers, body = reply
        # Logged before answering: the client may look at the log as soon as it has the answer.
        self.log.append((method, route or h.path, status))
        data = body.encode("utf-8")
        h.send_response(status)
        if fresh:
            h.send_header("Set-Cookie", f"xf_csrf={cookies['xf_csrf']}; path=/; HttpOnly")
        for name, value in headers:
            h.send_header(name, value)
        h.send_header("Content-Type", "text/html; charset=utf-8")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    def _new_csrf(self) -> str:
        return hashlib.sha1(str(self.next_id()).encode()).hexdigest()[:16]

    @staticmethod
    def token(csrf: str | None) -> str:
        return f"1700000000,{hashlib.md5((csrf or 'none').encode()).hexdigest()}"

    def _user(self, cookies: dict[str, str]) -> Member | None:
        uid, _, secret = cookies.get("xf_user", "").partition(",")
        for m in self.members.values():
            if str(m.user_id) == uid and secret == _secret(m):
                return m
        return None

    def _page(self, html: str, status: int = 200,
              headers: list[tuple[str, str]] | None = None) -> tuple[int, list, str]:
        return status, headers or [], html

    def _redirect(self, route: str, status: int = 303,
                  headers: list[tuple[str, str]] | None = None) -> tuple[int, list, str]:
        return status, [("Location", self.base + route), *(headers or [])], ""

    def _error(self, message: str, status: int, cookies: dict[str, str],
               login: bool = False) -> tuple[int, list, str]:
        csrf = self.token(cookies.get("xf_csrf"))
        user = self._user(cookies)
        return self._page(error_page(message, prefix=self.prefix, csrf=csrf, login=login
                                     and user is None, logged_in=user is not None), status)

    def _answer(self, method: str, route: str | None, cookies: dict[str, str],
                form: dict[str, str]) -> tuple[int, list, str]:
        if route is None:
            return self._error("Страница не найдена.", 404, cookies)
        user = self._user(cookies)
        token = self.token(cookies.get("xf_csrf"))
        if method == "POST" and (form.get("_xfToken") != token or (
                self.reject_token_once and route != "login/login")):
            self.reject_token_once = False
            return self._error(SECURITY, 400, cookies)
        if route == "login/":
            return self._page(login_page(self.prefix, token))
        if route == "login/login" and method == "POST":
            return self._login(form, token)
        match = _THREAD.match(route)
        if match:
            return self._thread(method, match, user, cookies, form)
        if route.startswith("posts/"):
            pid = int(route.split("/")[1])
            for t in self.threads.values():
                if any(p.post_id == pid for p in t.posts):
                    return self._redirect(f"{t.route}post-{pid}", 301)
            return self._error("Запрашиваемое сообщение не найдено.", 404, cookies)
        if route.startswith("conversations"):
            if user is None:
                return self._error(MUST_LOGIN, 403, cookies, login=True)
            return self._conversations(method, route, user, token, form, cookies)
        return self._error("Страница не найдена.", 404, cookies)

    def _login(self, form: dict[str, str], token: str) -> tuple[int, list, str]:
        m = self.members.get(form.get("login", ""))
        if m is None:
            return self._page(login_page(self.prefix, token,
                                         f"Запрашиваемый пользователь '{form.get('login')}' "
                                         "не найден."))
        if form.get("password") != m.password:
            return self._page(login_page(self.prefix, token,
                                         "Неверный пароль. Пожалуйста, попробуйте ещё раз."))
        cookie = f"xf_user={m.user_id},{_secret(m)}; path=/; HttpOnly"
        return self._redirect("", 303, [("Set-Cookie", cookie)])

    def _thread(self, method: str, match: re.Match[str], user: Member | None,
                cookies: dict[str, str], form: dict[str, str]) -> tuple[int, list, str]:
        t = self.threads.get(int(match["id"]))
        if t is None:
            return self._error("Запрашиваемая тема не найдена.", 404, cookies)
        rest = match["rest"]
        if (match["slug"] or "") != t.slug and method == "GET":
            return self._redirect(t.route + rest, 301)
        if rest in ("reply", "add-reply"):
            if user is None:
                return self._error(MUST_LOGIN, 403, cookies, login=True)
            if method == "GET":
                return self._page(reply_page(t, self.prefix, self.token(cookies.get("xf_csrf"))))
            return self._add_reply(t, user, form, cookies)
        if not self.guests_see_threads and user is None:
            return self._error(MUST_LOGIN, 403, cookies, login=True)
        page_match = _PAGE.match(rest)
        page = int(page_match.group(1)) if page_match else 1
        last = max(1, -(-len(t.posts) // self.per_page))
        if page > last:
            return self._redirect(t.route + (f"page-{last}" if last > 1 else ""), 301)
        return self._page(thread_page(
            t, page, self.per_page, prefix=self.prefix, origin=self.origin, now=self.now(),
            logged_in=user is not None, csrf=self.token(cookies.get("xf_csrf")),
            version=self.version, pin_first=self.pin_first))

    def _add_reply(self, t: XfThread, user: Member, form: dict[str, str],
                   cookies: dict[str, str]) -> tuple[int, list, str]:
        if self.flood_once:
            self.flood_once = False
            return self._error("Вы должны подождать не менее 2 секунд перед выполнением этого "
                               "действия.", 200, cookies)
        pid = self.next_id()
        t.posts.append(XfPost(pid, user.name, user.user_id, self.now(),
                              _bbcode_html(form.get("message", ""))))
        return self._redirect(f"posts/{pid}/")

    def _conversations(self, method: str, route: str, user: Member, token: str,
                       form: dict[str, str], cookies: dict[str, str]) -> tuple[int, list, str]:
        mine = [c for c in self.conversations.values()
                if any(n == user.name for n, _ in c.people)]
        if route == "conversations/add":
            if method == "GET":
                return self._page(conversation_add_page(self.prefix, token))
            return self._start(user, form, cookies)
        if route in ("conversations/", "conversations") or route.startswith("conversations/page-"):
            page = int(route.rsplit("-", 1)[1].strip("/")) if "page-" in route else 1
            return self._page(conversation_list_page(
                mine, page, self.list_per_page, prefix=self.prefix, origin=self.origin,
                now=self.now(), csrf=token))
        match = _CONVERSATION.match(route)
        c = self.conversations.get(int(match["id"])) if match else None
        if c is None or c not in mine:
            return self._error("Запрашиваемая переписка не найдена.", 404, cookies)
        page_match = _PAGE.match(match["rest"]) if match else None
        page = int(page_match.group(1)) if page_match else 1
        last = max(1, -(-len(c.messages) // self.per_page))
        if page > last:
            return self._redirect(c.route + f"page-{last}", 301)
        return self._page(conversation_page(c, page, self.per_page, prefix=self.prefix,
                                            origin=self.origin, now=self.now(), csrf=token))

    def _start(self, user: Member, form: dict[str, str],
               cookies: dict[str, str]) -> tuple[int, list, str]:
        people = [(user.name, user.user_id)]
        for name in (n.strip() for n in form.get("recipients", "").split(",")):
            if name not in self.members:
                return self._error(f"Следующие получатели не найдены: {name}.", 200, cookies)
            people.append((name, self.members[name].user_id))
        cid = self.next_id()
        c = XfConversation(cid, "rezultat", form.get("title", ""), people)
        c.messages.append(XfMessage(self.next_id(), user.name, user.user_id, self.now(),
                                    _bbcode_html(form.get("message", ""))))
        self.conversations[cid] = c
        return self._redirect(c.route)


def _secret(m: Member) -> str:
    return hashlib.md5(f"{m.user_id}:{m.password}".encode()).hexdigest()[:12]


def _cookies(header: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in header.split(";"):
        name, _, value = part.strip().partition("=")
        if name:
            out[name] = value
    return out


def _bbcode_html(text: str) -> str:
    """Enough of XenForo's BBCode renderer for the host's own messages."""
    from html import escape

    html = escape(text).replace("\n", "<br />\n")
    html = re.sub(r"\[b\](.*?)\[/b\]", r"<b>\1</b>", html, flags=re.S | re.I)
    return re.sub(r"\[color=([^\]]+)\](.*?)\[/color\]", r'<span style="color: \1">\2</span>',
                  html, flags=re.S | re.I)

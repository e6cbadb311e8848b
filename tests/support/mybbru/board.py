"""A MyBB.ru board on 127.0.0.1 for the engine's tests: the JSON API as
``../shared/fixtures/mybbru/README.md`` documents it, the topic's HTML pages (windows-1251),
and the reply and PM forms.

The board holds the truth (posts, dialogs) and renders it per request; it records every
request so tests count them. Switches make it misbehave the ways a real board may: the API
closed (``api = "404"`` or ``"error"``), a plain FluxBB instead of MyBB.ru (``punbb``), a
topic hidden from guests (``hidden``).
"""

from __future__ import annotations

import html
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

from support.mybbru import pages as mybb_pages
from support.mybbru.pages import PageStyle, post_html, topic_html
from support.server import QuietHandler, serving

HASH = "MnwxfDAxMjM0NTY3ODlhYmNkZWYwMTIzNDU2Nzg5YWJjZGVmMDEyMzQ1Njc="
"""board.auth's session key (the shared fixture's fake one)."""
API_CAP = 100


@dataclass
class BoardPost:
    id: int
    user_id: int
    username: str
    posted: int
    message: str
    edited: int = 0
    edited_by: str = ""


@dataclass
class BoardPm:
    id: int
    partner_id: int
    partner: str
    mine: bool
    subject: str
    message: str
    posted: int


@dataclass(frozen=True)
class Seen:
    method: str
    path: str
    query: dict[str, str]
    cookie: str
    body: bytes

    @property
    def api(self) -> str | None:
        return self.query.get("method") if self.path.endswith("api.php") else None


@dataclass
class MybbBoard:
    topic_id: int = 317
    subject: str = "Мафия: партия 7"
    posts: list[BoardPost] = field(default_factory=list)
    pms: list[BoardPm] = field(default_factory=list)
    host: tuple[str, int] = ("Ведущий_Макс", 2)
    password: str = "пароль-Макса"
    api: str = "open"
    """``open``; ``404`` (api.php is not there); ``error`` (every method answers an error)."""
    punbb: bool = False
    hidden: bool = False
    """Guests see no topic (``topic.get`` and ``post.get`` answer ``[]``)."""
    per_page: int = 25
    style: PageStyle = field(default_factory=PageStyle)
    """How the topic pages print their posts (support/mybbru/pages.py)."""
    refuse: dict[str, str] = field(default_factory=dict)
    """API methods answered with ``{"error": {"message": …}}`` (method → message)."""
    seen: list[Seen] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    # -- bookkeeping

    def count(self, api: str | None = None) -> int:
        return len([s for s in self.seen if api is None or s.api == api])

    def authed(self, cookie: str) -> bool:
        return f"mybb_ru={HASH}" in cookie

    def answer(self, method: str, path: str, query: dict[str, str], cookie: str,
               body: bytes) -> tuple[int, dict[str, str], bytes]:
        with self.lock:
            self.seen.append(Seen(method, path, query, cookie, body))
            if path.endswith("api.php"):
                return self._api(method, query, cookie, body)
            if path.endswith("viewtopic.php"):
                return self._topic_page(query, cookie)
            if path.endswith("post.php"):
                return self._reply(method, query, cookie, body)
            if path.endswith("messages.php"):
                return self._pm(method, query, cookie, body)
            return 404, {}, b"<html><body>Not found</body></html>"

    # -- the API

    def _api(self, method: str, query: dict[str, str], cookie: str,
             body: bytes) -> tuple[int, dict[str, str], bytes]:
        if self.api == "404" or self.punbb:
            return 404, {"Content-Type": "text/html"}, b"<html><body>404 Not Found</body></html>"
        if self.api == "error":
            return _json({"error": {"message": "API отключено администратором форума."}})
        form = {k: v[0] for k, v in parse_qs(body.decode("utf-8")).items()} if body else {}
        name = query.get("method", "")
        if name in self.refuse:
            return _json({"error": {"message": self.refuse[name]}})
        handler = {
            "board.get": lambda: {"board_id": "1700", "title": "Мафия на Рольке"},
            "board.auth": lambda: self._auth(form),
            "topic.get": lambda: self._topics(query, cookie),
            "post.get": lambda: self._post_rows(query, cookie),
            "message.getRecent": lambda: self._dialogs(cookie),
            "message.get": lambda: self._messages(query, cookie),
        }.get(name)
        if handler is None:
            return _json({"error": {"message": "Метод не найден."}})
        result = handler()
        if isinstance(result, Exception):
            return _json({"error": {"message": str(result)}})
        return _json({"response": result})

    def _auth(self, form: dict[str, str]) -> object:
        if form.get("login") == self.host[0] and form.get("password") == self.password:
            return {"hash": HASH}
        return ValueError("Неверное имя пользователя или пароль.")

    def _visible(self, query: dict[str, str], cookie: str) -> bool:
        return str(self.topic_id) in query.get("topic_id", "").split(",") and (
            not self.hidden or self.authed(cookie))

    def _topics(self, query: dict[str, str], cookie: str) -> object:
        if not self._visible(query, cookie) or not self.posts:
            return []
        first, last = self.posts[0], self.posts[-1]
        return [{"id": str(self.topic_id), "subject": self.subject, "forum_id": "5",
                 "num_replies": str(len(self.posts) - 1), "last_post_id": str(last.id),
                 "last_post_date": str(last.posted), "init_id": str(first.id), "closed": "0"}]

    def _post_rows(self, query: dict[str, str], cookie: str) -> object:
        if not self._visible(query, cookie):
            return []
        rows = sorted(self.posts, key=lambda p: p.id,
                      reverse=query.get("sort_dir") == "desc")
        skip, limit = int(query.get("skip", "0")), min(API_CAP, int(query.get("limit", "50")))
        out = []
        for p in rows[skip:skip + limit]:
            row = {"id": str(p.id), "topic_id": str(self.topic_id), "forum_id": "5",
                   "user_id": str(p.user_id), "username": p.username,
                   "posted": str(p.posted), "message": p.message}
            if p.edited:
                row |= {"edited": str(p.edited), "edited_by": p.edited_by}
            out.append(row)
        return out

    def _dialogs(self, cookie: str) -> object:
        if not self.authed(cookie):
            return PermissionError("Для этого действия нужно войти на форум.")
        last: dict[int, BoardPm] = {}
        for pm in sorted(self.pms, key=lambda m: m.posted):
            last[pm.partner_id] = pm
        ordered = sorted(last.values(), key=lambda m: m.posted, reverse=True)
        return [{"id": str(m.id), "user_id": str(m.partner_id), "username": m.partner,
                 "posted": str(m.posted)} for m in ordered]

    def _messages(self, query: dict[str, str], cookie: str) -> object:
        if not self.authed(cookie):
            return PermissionError("Для этого действия нужно войти на форум.")
        if "id" in query:
            chosen = [m for m in self.pms if str(m.id) in query["id"].split(",")]
        else:
            chosen = [m for m in self.pms if str(m.partner_id) == query.get("user_id")]
        chosen.sort(key=lambda m: m.id, reverse=query.get("sort_dir") == "desc")
        skip, limit = int(query.get("skip", "0")), min(API_CAP, int(query.get("limit", "20")))
        return [{"id": str(m.id), "subject": m.subject, "message": m.message,
                 "user_id": str(m.partner_id), "username": m.partner,
                 "status": "1" if m.mine else "0", "showed": "1", "received": "1",
                 "posted": str(m.posted)} for m in chosen[skip:skip + limit]]

    # -- pages

    def _topic_page(self, query: dict[str, str], cookie: str) -> tuple[int, dict[str, str],
                                                                      bytes]:
        if query.get("id") != str(self.topic_id):
            return _page("<p>Неверная ссылка.</p>")
        if self.punbb:
            return _page(PUNBB_PAGE, charset="utf-8")
        pages = max(1, -(-len(self.posts) // self.per_page))
        page = int(query.get("p", "1") or 1)
        page = page if 1 <= page <= pages else 1  # PunBB shows page 1 for a page out of range
        start = (page - 1) * self.per_page
        chunk = self.posts[start: start + self.per_page]
        blocks = [post_html(post_id=p.id, user_id=p.user_id, username=p.username,
                            posted=p.posted, message=p.message, number=start + i,
                            topic_id=self.topic_id, edited=p.edited, edited_by=p.edited_by,
                            style=self.style)
                  for i, p in enumerate(chunk, 1)]
        body = topic_html(topic_id=self.topic_id, subject=self.subject, posts=blocks,
                          page=page, pages=pages, first=start + 1, total=len(self.posts))
        text = mybb_pages.page(body, title=f"{self.subject} - Мафия на Рольке")
        return 200, {"Content-Type": "text/html; charset=windows-1251"}, text.encode(
            "cp1251", "xmlcharrefreplace")

    def _reply(self, method: str, query: dict[str, str], cookie: str,
               body: bytes) -> tuple[int, dict[str, str], bytes]:
        if not self.authed(cookie):
            return _page(LOGIN_FORM)
        if method == "GET":
            return _page(REPLY_FORM.format(tid=query.get("tid", "")))
        form = {k: v[0] for k, v in parse_qs(body.decode("ascii"), encoding="cp1251").items()}
        if form.get("form_sent") != "1" or form.get("csrf_hash") != "c5f1":
            return _page('<div id="posterror"><p>Форма устарела, отправьте её ещё раз.</p></div>'
                         + REPLY_FORM.format(tid=query.get("tid", "")))
        new_id = self.posts[-1].id + 1
        self.posts.append(BoardPost(new_id, self.host[1], self.host[0], self.posts[-1].posted + 60,
                                    "<p>" + html.escape(form.get("req_message", "")) + "</p>"))
        return 302, {"Location": f"viewtopic.php?pid={new_id}#p{new_id}"}, b""

    def _pm(self, method: str, query: dict[str, str], cookie: str,
            body: bytes) -> tuple[int, dict[str, str], bytes]:
        if not self.authed(cookie):
            return _page(LOGIN_FORM)
        if method == "GET":
            return _page(PM_FORM)
        form = {k: v[0] for k, v in parse_qs(body.decode("ascii"), encoding="cp1251").items()}
        new_id = max([m.id for m in self.pms] or [9000]) + 1
        self.pms.append(BoardPm(new_id, 0, form.get("req_username", ""), True,
                                form.get("req_subject", ""), form.get("req_message", ""), 0))
        return _json({"response": {"id": str(new_id), "subject": form.get("req_subject", "")}})


def _json(payload: object) -> tuple[int, dict[str, str], bytes]:
    return 200, {"Content-Type": "application/json; charset=utf-8"}, json.dumps(
        payload, ensure_ascii=False).encode("utf-8")


def _page(body: str, *, title: str = "Мафия на Рольке",
          charset: str = "windows-1251") -> tuple[int, dict[str, str], bytes]:
    page = (f'<!DOCTYPE html><html><head><meta charset="{charset}"><title>{title}</title>'
            f'<script>var BoardID = 1700, UserID = 1;</script></head>'
            f'<body><div id="pun-viewtopic" class="punbb"><div id="pun-main">{body}</div>'
            f'</div></body></html>')
    if charset == "utf-8":
        page = page.replace('id="pun-viewtopic" class="punbb"', 'id="punviewtopic"') \
            .replace("var BoardID = 1700, UserID = 1;", "")
    return 200, {"Content-Type": f"text/html; charset={charset}"}, page.encode(
        "cp1251" if charset != "utf-8" else "utf-8", "xmlcharrefreplace")


LOGIN_FORM = ('<form id="login" method="post" action="/login.php?action=in">'
              '<input id="fld1" name="req_username"><input id="fld2" type="password" '
              'name="req_password"><input type="submit" name="login" value="Войти"></form>')
REPLY_FORM = ('<form id="post" method="post" action="/post.php?tid={tid}">'
              '<input type="hidden" name="form_sent" value="1">'
              '<input type="hidden" name="form_user" value="Ведущий_Макс">'
              '<input type="hidden" name="csrf_hash" value="c5f1">'
              '<textarea id="main-reply" name="req_message"></textarea>'
              '<input class="submit" type="submit" name="submit" value="Отправить"></form>')
PM_FORM = ('<form id="post" method="post" action="/messages.php?action=new">'
           '<fieldset id="post-new"><input type="hidden" name="form_sent" value="1">'
           '<input type="text" name="req_username" value="">'
           '<input type="text" name="req_subject" value="">'
           '<textarea id="main-reply" name="req_message"></textarea>'
           '<input type="checkbox" name="savemessage" value="1" checked></fieldset>'
           '<input type="submit" name="submit" value="Отправить"></form>')
PUNBB_PAGE = ('<div id="punwrap"><div class="blockpost rowodd firstpost" id="p1"><h2>'
              '<span>20.11.2026 18:00</span></h2><div class="box"><div class="postbody">'
              '<div class="postleft"><dl><dt><strong>Ведущий</strong></dt></dl></div>'
              '<div class="postright"><div class="postmsg"><p>Игра</p></div></div></div></div>'
              '</div><p>Powered by <a href="https://fluxbb.org/">FluxBB</a></p></div>')


class _Handler(QuietHandler):
    board: MybbBoard

    def _serve(self, method: str) -> None:
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        status, headers, content = self.board.answer(
            method, parts.path, query, self.headers.get("Cookie") or "", body)
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)

    def do_GET(self) -> None:  # noqa: N802 - http.server's names
        self._serve("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._serve("POST")


@contextmanager
def serve(board: MybbBoard) -> Iterator[str]:
    """The board on a free port of 127.0.0.1; yields its root ``http://127.0.0.1:PORT/``."""
    with serving(type("BoardHandler", (_Handler,), {"board": board})) as origin:
        yield f"{origin}/"

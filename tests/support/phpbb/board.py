"""A misbehaving phpBB 3.3 board on 127.0.0.1, for the fault tests (issue 8).

The board holds the truth — the topic's posts and the host's PMs — and renders them on
request in real phpBB 3.3.10 prosilver markup: the post blocks of
``fixtures/phpbb33-ru/topic_p2_host.html`` (through the benchmark's ``SyntheticTopic``,
which rebuilds phpBB's pagination), the rows of ``pm_inbox.html`` and the message of
``pm_9.html``, each with generated ids, authors, times and texts.

It can be told to misbehave on a given request (:class:`Fault`), to change its truth
between two requests (:meth:`Board.before`), and to answer slowly (``delay``), so that a
sync can be killed mid-run. Requests are named by keys: ``topic:2`` (page 2 as phpBB
clamps it), ``folder:inbox:1``, ``pm:104``, ``login``.
"""

from __future__ import annotations

import gzip
import html
import re
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

from support.server import QuietHandler, serving

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "phpbb33-ru"
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_sync import RU_MONTHS, TOPIC, SyntheticTopic  # noqa: E402

MOSCOW = ZoneInfo("Europe/Moscow")
PREFIX = "phpbb3_f4u1t"
"""The board's cookie prefix; the client reads it from Set-Cookie."""
HOST = ("Ведущий", 58)
PASSWORD = "faults-Пароль-8"
FORM_SID = "4dd5a1220f642fdd95804df967fce0d7"
"""The session id of the login fixture's hidden field (and, with ``sid_in_forms``, of its
form address, as phpBB prints both)."""
DAY1 = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)
PLAYERS = (("Шерлок", 60), ("Мисс Марпл", 61), ("Kotik", 62), ("Лиса", 63), ("Ёжик", 64),
           ("Тень_Ночи", 65), ("Полковник", 67), ("Nika-77", 68), ("Гроза", 69),
           ("Снежок", 71), ("Mr. Smith", 72), ("Ира-Ира", 73))


# --------------------------------------------------------------------------- the truth

@dataclass(frozen=True, slots=True)
class BoardPost:
    """A post as the board holds it; ``text`` is what the referee should read from it."""

    post_id: int
    author: str
    author_id: int
    posted_at: datetime
    html: str
    text: str


@dataclass(frozen=True, slots=True)
class BoardPm:
    pm_id: int
    sender: str
    sender_id: int
    sent_at: datetime
    subject: str
    html: str
    text: str


def make_post(post_id: int, minute: int) -> BoardPost:
    """Post ``post_id``, written ``minute`` minutes into day 1 by a player, with a vote."""
    author, uid = PLAYERS[post_id % len(PLAYERS)]
    target = PLAYERS[(post_id * 7 + 3) % len(PLAYERS)][0]
    words = f"Пост {post_id} от {author}: подозреваю <{target}> & его друзей."
    return BoardPost(
        post_id=post_id, author=author, author_id=uid,
        posted_at=DAY1 + timedelta(minutes=minute),
        html=f'{html.escape(words, quote=False)}<br>\nМой голос – '
             f'<span style="color:red">{html.escape(target)}</span>',
        text=f"{words}\nМой голос – {target}",
    )


def make_posts(n: int, first_id: int = 1000) -> list[BoardPost]:
    return [make_post(first_id + k, 7 * k) for k in range(n)]


def make_pm(pm_id: int, hour: int) -> BoardPm:
    sender, uid = PLAYERS[pm_id % len(PLAYERS)]
    target = PLAYERS[(pm_id * 5 + 1) % len(PLAYERS)][0]
    words = f"Ночной ход {pm_id}: проверяю {target}"
    return BoardPm(
        pm_id=pm_id, sender=sender, sender_id=uid,
        sent_at=DAY1 + timedelta(hours=hour, minutes=pm_id % 60),
        subject=f"Ход {pm_id}", html=html.escape(words, quote=False), text=words,
    )


def make_pms(n: int, first_id: int = 100) -> list[BoardPm]:
    return [make_pm(first_id + k, 8 + k) for k in range(n)]


def shown(when: datetime) -> str:
    """A time as this board prints it (``d M Y, H:i`` in Moscow time)."""
    local = when.astimezone(MOSCOW)
    return f"{local.day:02d} {RU_MONTHS[local.month - 1]} {local.year}, {local:%H:%M}"


# --------------------------------------------------------------------------- pages

class TopicPages(SyntheticTopic):
    """The benchmark's synthetic topic, drawn from a list of posts instead of a count."""

    def __init__(self, posts: list[BoardPost], per_page: int) -> None:
        super().__init__(1, per_page)
        self.posts = posts
        block = self.blocks[0]  # post p96 by «Снежок» (u=71)
        block = block.replace("Снежок", "{author}")
        block = re.sub(r"\b(u|author_id)=71\b", r"\1={uid}", block)
        self.block = re.sub(r'<div class="content">.*?</div>',
                            '<div class="content">{body}</div>', block, count=1, flags=re.S)

    @property
    def total(self) -> int:  # type: ignore[override]
        return len(self.posts)

    def page(self, page: int, *, swapped: bool = False) -> bytes:
        page = min(max(1, page), self.pages)  # phpBB clamps start= to the last page
        start = (page - 1) * self.per_page
        blocks = [
            self.block.format(pid=p.post_id, iso=p.posted_at.isoformat(),
                              shown=shown(p.posted_at), author=html.escape(p.author),
                              uid=p.author_id, body=p.html)
            for p in self.posts[start:start + self.per_page]
        ]
        if swapped:
            blocks[:2] = blocks[1::-1]
        start_q = "" if page == 1 else f"&amp;start={start}"
        pagination = self._pagination(page)
        head = re.sub(r'<div class="pagination">.*?</div>', lambda m: pagination, self.head,
                      flags=re.S)
        head = head.replace("Страница 2 -", f"Страница {page} -").replace(
            "t=3&amp;start=20", f"t={TOPIC}{start_q}")
        tail = re.sub(r'<div class="pagination">.*?</div>', lambda m: pagination, self.tail,
                      flags=re.S)
        tail = tail.replace("t=3&amp;start=20", f"t={TOPIC}{start_q}")
        return (head + "".join(blocks) + tail).encode("utf-8")


_ROW = re.compile(r'[ \t]*<li class="row bg\d">.*?</li>\n', re.S)


class PmPages:
    """The inbox listing (newest first, as phpBB lists it) and the opened PMs."""

    def __init__(self) -> None:
        inbox = (FIXTURES / "pm_inbox.html").read_text(encoding="utf-8")
        rows = list(_ROW.finditer(inbox))
        self.inbox_head, self.inbox_tail = inbox[: rows[0].start()], inbox[rows[-1].end():]
        row = rows[0].group(0)  # PM 7 «Ночь 2» from «Лиса» (u=63)
        self.row = (row.replace("p=7", "p={pm_id}").replace('value="7"', 'value="{pm_id}"')
                    .replace("Ночь 2", "{subject}").replace("u=63", "u={uid}")
                    .replace("Лиса", "{sender}").replace("29 ноя 2026, 02:10", "{shown}"))
        pm = (FIXTURES / "pm_9.html").read_text(encoding="utf-8")
        pm = pm.replace("{", "{{").replace("}", "}}")
        pm = re.sub(r'id="post-9"|profile9\b|\bp=9\b|/pm/9/|value="9"',
                    lambda m: m.group(0).replace("9", "{pm_id}"), pm)
        pm = (pm.replace("Полковник", "{sender}").replace("u=67", "u={uid}")
              .replace("author_id=67", "author_id={uid}")
              .replace("Ход комиссара", "{subject}")
              .replace("<strong>Отправлено:</strong> 21 ноя 2026, 22:20",
                       "<strong>Отправлено:</strong> {shown}"))
        self.pm = re.sub(r'<div class="content">.*?</div>', '<div class="content">{body}</div>',
                         pm, count=1, flags=re.S)

    def inbox(self, pms: list[BoardPm], page: int, per_page: int) -> bytes:
        newest_first = sorted(pms, key=lambda p: (p.sent_at, p.pm_id), reverse=True)
        pages = max(1, -(-len(pms) // per_page))
        page = min(max(1, page), pages)
        rows = "".join(
            self.row.format(pm_id=p.pm_id, subject=html.escape(p.subject), uid=p.sender_id,
                            sender=html.escape(p.sender), shown=shown(p.sent_at))
            for p in newest_first[(page - 1) * per_page: page * per_page]
        )
        head = self.inbox_head.replace(
            "17 сообщений", f"{len(pms)} сообщений").replace(
            "Страница <strong>1</strong> из <strong>1</strong>",
            f"Страница <strong>{page}</strong> из <strong>{pages}</strong>")
        return (head + rows + self.inbox_tail).encode("utf-8")

    def message(self, p: BoardPm) -> bytes:
        return self.pm.format(pm_id=p.pm_id, sender=html.escape(p.sender), uid=p.sender_id,
                              subject=html.escape(p.subject), shown=shown(p.sent_at),
                              body=p.html).encode("utf-8")


# --------------------------------------------------------------------------- faults

FaultKind = Literal["drop", "drop_unframed", "status", "stall", "truncate", "login_form",
                    "bad_gzip", "bad_bytes", "swapped", "foreign_redirect"]


@dataclass(frozen=True, slots=True)
class Fault:
    """One misbehaviour, used up by the request it hits.

    - ``drop``: headers announce the whole page, half of it is sent, the connection closes;
    - ``drop_unframed``: the same without a Content-Length, so the half looks complete;
    - ``status``: an error status (``retry_after`` adds a Retry-After header);
    - ``stall``: no answer for ``seconds`` (past the client's timeout);
    - ``truncate``: a well-framed answer whose HTML stops after a whole post or row;
    - ``login_form``: the login form with a guest cookie (the session expired);
    - ``bad_gzip``: ``Content-Encoding: gzip`` over bytes that are not gzip (a PHP warning
      printed before phpBB's compressed output: the browser's «Content Encoding Error»);
    - ``bad_bytes``: a byte that no encoding of the page explains, in the middle of a post
      (a proxy or a broken mod spoiling the page) — with a wrong header charset the page
      then reads right under no encoding (issue 14);
    - ``swapped``: the page's first two posts in the wrong order (issue 14);
    - ``foreign_redirect``: a redirect to another host (``localhost`` for ``127.0.0.1``),
      which sets a cookie of its own and sends the reader back (issue 14).
    """

    kind: FaultKind
    status: int = 0
    retry_after: str | None = None
    seconds: float = 0.0


DROP = Fault("drop")
DROP_UNFRAMED = Fault("drop_unframed")
TRUNCATE = Fault("truncate")
LOGIN_FORM = Fault("login_form")
BAD_GZIP = Fault("bad_gzip")
BAD_BYTES = Fault("bad_bytes")
SWAPPED = Fault("swapped")
FOREIGN_REDIRECT = Fault("foreign_redirect")


def status(code: int, retry_after: str | None = None) -> Fault:
    return Fault("status", status=code, retry_after=retry_after)


def stall(seconds: float) -> Fault:
    return Fault("stall", seconds=seconds)


# --------------------------------------------------------------------------- the board

@dataclass
class Board:
    """The truth and the rules of misbehaviour; :meth:`running` serves it on 127.0.0.1."""

    posts: list[BoardPost] = field(default_factory=lambda: make_posts(23))
    pms: list[BoardPm] = field(default_factory=lambda: make_pms(7))
    per_page: int = 5
    pms_per_page: int = 3
    require_login: bool = False
    """Guests get the login form for topic pages too (a closed game forum)."""
    delay: float = 0.0
    """Seconds every answer waits (a slow board, to kill a sync mid-run)."""
    faults: dict[str, list[Fault]] = field(default_factory=dict)
    hooks: dict[str, list[Callable[[Board], None]]] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    """Every request key in order; a fault is noted as ``key!kind``."""
    logins: int = 0
    deleted: list[BoardPost] = field(default_factory=list)
    header_charset: str = "UTF-8"
    """The charset the HTTP header claims (issue 14: a host panel stamping the wrong one)."""
    encoding: str = "utf-8"
    """What the pages are written in; their ``<meta charset>`` says it truly."""
    sid_in_forms: bool = False
    """Form actions carry ``&sid=`` (phpBB does so until it has seen the reader's cookie)."""
    paths: list[str] = field(default_factory=list)
    """Every request line's path, as the board's access log has it."""
    bodies: list[dict[str, str]] = field(default_factory=list)
    """Every POSTed form, in order."""

    def __post_init__(self) -> None:
        self.topic = TopicPages(self.posts, self.per_page)
        self.pm_pages = PmPages()
        self.lock = threading.RLock()
        self.released = threading.Event()
        self.url = ""

    # -- telling it what to do

    def inject(self, key: str, *faults: Fault) -> None:
        """The next requests for ``key`` get ``faults``, one each, in order."""
        self.faults.setdefault(key, []).extend(faults)

    def before(self, key: str, change: Callable[[Board], None]) -> None:
        """Run ``change`` once, right before the next request for ``key`` is answered."""
        self.hooks.setdefault(key, []).append(change)

    def add_posts(self, n: int) -> list[BoardPost]:
        """``n`` new posts at the end of the topic (players keep writing during a sync)."""
        with self.lock:
            last = self.posts[-1] if self.posts else None
            first_id = last.post_id + 1 if last else 1000
            minute = int((last.posted_at - DAY1).total_seconds() // 60) + 7 if last else 0
            new = [make_post(first_id + k, minute + 7 * k) for k in range(n)]
            self.posts.extend(new)
            return new

    def delete_post(self, post_id: int) -> BoardPost:
        """A moderator deletes a post: later posts slide back by one, as on phpBB."""
        with self.lock:
            post = next(p for p in self.posts if p.post_id == post_id)
            self.posts.remove(post)
            self.deleted.append(post)
            return post

    def edit_post(self, post_id: int, target: str) -> BoardPost:
        """The author edits his vote to ``target`` (phpBB keeps the post's id and time)."""
        with self.lock:
            at = next(i for i, p in enumerate(self.posts) if p.post_id == post_id)
            old = self.posts[at]
            words = "Передумал, вот мои доводы по итогам дня."
            self.posts[at] = BoardPost(
                old.post_id, old.author, old.author_id, old.posted_at,
                f'{words}<br>\nМой голос – <span style="color:red">{html.escape(target)}</span>',
                f"{words}\nМой голос – {target}")
            return self.posts[at]

    def add_pm(self) -> BoardPm:
        with self.lock:
            pm = make_pm(max(p.pm_id for p in self.pms) + 1, 8 + len(self.pms))
            self.pms.append(pm)
            return pm

    @property
    def topic_url(self) -> str:
        return f"{self.url}viewtopic.php?t={TOPIC}"

    @property
    def pages(self) -> int:
        return self.topic.pages

    def requests(self, prefix: str = "") -> list[str]:
        return [k for k in self.log if k.startswith(prefix)]

    # -- serving

    @contextmanager
    def running(self) -> Iterator[Board]:
        board = self

        class Handler(QuietHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                board.answer(self)

            def do_POST(self) -> None:  # noqa: N802
                board.answer(self)

            def handle(self) -> None:
                try:
                    super().handle()
                except (ConnectionError, TimeoutError):
                    pass  # the client gave up on a stalled answer: nobody to answer

        with serving(Handler) as origin:
            self.url = f"{origin}/"
            try:
                yield self
            finally:
                self.released.set()  # stalled answers end now

    def _key(self, h: BaseHTTPRequestHandler) -> str:
        url = urlsplit(h.path)
        q = {k: v[0] for k, v in parse_qs(url.query).items()}
        path = url.path.rsplit("/", 1)[-1]
        if path == "viewtopic.php" and q.get("t") == str(TOPIC):
            page = int(q.get("start", "0")) // self.per_page + 1
            return f"topic:{min(page, self.topic.pages)}"
        if path == "ucp.php" and q.get("mode") == "login":
            return "login"
        if path == "ucp.php" and q.get("i") == "pm":
            if "p" in q:
                return f"pm:{q['p']}"
            page = int(q.get("start", "0")) // self.pms_per_page + 1
            return f"folder:inbox:{page}"
        return f"other:{h.path}"

    def answer(self, h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        form = {k: v[0] for k, v in parse_qs(h.rfile.read(length).decode()).items()}
        key = self._key(h)
        if key.startswith("other:/bounce"):
            self._bounce(h)
            return
        with self.lock:
            self.paths.append(h.path)
            if h.command == "POST":
                self.bodies.append(form)
            for change in self.hooks.pop(key, []):
                change(self)
            queue = self.faults.get(key)
            fault = queue.pop(0) if queue else None
            self.log.append(key + (f"!{fault.kind}" if fault else ""))
            if fault is None or fault.kind in ("drop", "drop_unframed", "truncate",
                                               "bad_gzip", "bad_bytes", "swapped"):
                code, headers, body = self._page(h, key, form, fault)
        if self.delay:
            self.released.wait(self.delay)
        if fault is None or fault.kind == "swapped":
            self._send(h, code, headers, body)
        elif fault.kind == "status":
            extra = [("Retry-After", fault.retry_after)] if fault.retry_after else []
            self._send(h, fault.status, extra, b"<html><body>busy</body></html>")
        elif fault.kind == "stall":
            self.released.wait(fault.seconds)
            self._send(h, 503, [], b"")
        elif fault.kind == "login_form":
            self._send(h, 200, self._guest_cookies(), _fixture("login_required.html"))
        elif fault.kind == "truncate":
            self._send(h, code, headers, _cut_between(body))
        elif fault.kind == "bad_bytes":
            self._send(h, code, headers, _spoil(body))
        elif fault.kind == "foreign_redirect":
            there = f"http://localhost:{h.server.server_address[1]}/bounce?to={h.path}"
            self._send(h, 302, [("Location", there)], b"")
        elif fault.kind == "bad_gzip":
            self._send(h, code, [*headers, ("Content-Encoding", "gzip")],
                       b"PHP Warning: headers already sent\n" + gzip.compress(body))
        else:
            self._drop(h, code, headers, body, framed=fault.kind == "drop")

    def _bounce(self, h: BaseHTTPRequestHandler) -> None:
        """The foreign host of ``foreign_redirect``: a cookie of its own, and back."""
        back = parse_qs(urlsplit(h.path).query).get("to", ["/"])[0]
        with self.lock:
            self.log.append("bounce")
        self._send(h, 302, [("Set-Cookie", "tracker=foreign-1; path=/"),
                            ("Location", f"http://127.0.0.1:{h.server.server_address[1]}{back}")],
                   b"")

    def _page(self, h: BaseHTTPRequestHandler, key: str, form: dict[str, str],
              fault: Fault | None = None) -> tuple[int, list[tuple[str, str]], bytes]:
        logged_in = f"{PREFIX}_u={HOST[1]}" in (h.headers.get("Cookie") or "")
        kind, _, rest = key.partition(":")
        if kind == "login":
            if h.command != "POST":
                return 200, self._guest_cookies(), self._login_form("login.html")
            if form.get("password") != PASSWORD or form.get("username") != HOST[0]:
                return 200, self._guest_cookies(), _fixture("login_failed.html")
            self.logins += 1
            return 302, [("Location", "./index.php"), *self._session_cookies()], b""
        if kind == "other":
            return 404, [], b"<html><body>Not Found</body></html>"
        if not logged_in and (kind != "topic" or self.require_login):
            return 200, self._guest_cookies(), self._login_form("login_required.html")
        if kind == "topic":
            return 200, [], self._written(self.topic.page(int(rest), swapped=fault == SWAPPED))
        if kind == "folder":
            return 200, [], self._written(self.pm_pages.inbox(
                self.pms, int(rest.split(":")[1]), self.pms_per_page))
        pm = next((p for p in self.pms if p.pm_id == int(rest)), None)
        if pm is None:
            return 404, [], b"<html><body>Not Found</body></html>"
        return 200, [], self._written(self.pm_pages.message(pm))

    def _written(self, page: bytes) -> bytes:
        """A page in the board's own encoding, its ``<meta charset>`` saying so (characters
        the encoding lacks become references, as phpBB writes them)."""
        if self.encoding == "utf-8":
            return page
        text = page.decode("utf-8").replace('<meta charset="utf-8" />',
                                            f'<meta charset="{self.encoding}" />')
        return text.encode(self.encoding, "xmlcharrefreplace")

    def _login_form(self, name: str) -> bytes:
        page = _fixture(name)
        if self.sid_in_forms:
            page = page.replace(b'action="./ucp.php?mode=login"',
                                b'action="./ucp.php?mode=login&amp;sid=' + FORM_SID.encode()
                                + b'"')
        return page

    @staticmethod
    def _guest_cookies() -> list[tuple[str, str]]:
        return [("Set-Cookie", f"{PREFIX}_u=1; path=/; HttpOnly"),
                ("Set-Cookie", f"{PREFIX}_sid={'0' * 32}; path=/; HttpOnly")]

    @staticmethod
    def _session_cookies() -> list[tuple[str, str]]:
        return [("Set-Cookie", f"{PREFIX}_u={HOST[1]}; path=/; HttpOnly"),
                ("Set-Cookie", f"{PREFIX}_k={'k' * 16}; path=/; HttpOnly"),
                ("Set-Cookie", f"{PREFIX}_sid={'1' * 32}; path=/; HttpOnly")]

    def _send(self, h: BaseHTTPRequestHandler, code: int, headers: list[tuple[str, str]],
              body: bytes) -> None:
        h.send_response(code)
        h.send_header("Content-Type", f"text/html; charset={self.header_charset}")
        for name, value in headers:
            h.send_header(name, value)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    @staticmethod
    def _drop(h: BaseHTTPRequestHandler, code: int, headers: list[tuple[str, str]],
              body: bytes, *, framed: bool) -> None:
        h.send_response(code)
        h.send_header("Content-Type", "text/html; charset=UTF-8")
        for name, value in headers:
            h.send_header(name, value)
        if framed:
            h.send_header("Content-Length", str(len(body)))
        else:
            h.send_header("Connection", "close")
        h.end_headers()
        h.wfile.write(_cut(body))
        h.wfile.flush()
        h.close_connection = True
        h.connection.shutdown(socket.SHUT_RDWR)


def _spoil(body: bytes) -> bytes:
    """The page with a stray byte inside its middle post's text (0xFF: in no UTF-8 text,
    and cp1251's «я» there would still leave the rest of the page mojibake)."""
    middle = body.rfind(b'<div class="content">', 0, len(body) // 2 + 1)
    at = middle + len(b'<div class="content">') if middle > 0 else len(body) // 2
    return body[:at] + b"\xff\x98" + body[at:]


def _cut(body: bytes) -> bytes:
    """The page up to the middle of its middle post (inside the post's text when it can)."""
    middle = body.rfind(b'<div class="content">', 0, len(body) // 2 + 1)
    if middle < 0:
        return body[: len(body) // 2]
    return body[: middle + len(b'<div class="content">') + 12]


def _cut_between(body: bytes) -> bytes:
    """The page up to a whole post or listing row past its middle: what is left parses as a
    page with fewer posts, and nothing in it says that it was cut."""
    for marker in (b'<div id="p', b'<li class="row'):
        at = body.find(marker, len(body) // 2)
        if at > 0:
            return body[:at]
    return _cut(body)


def _fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


__all__ = ["BAD_BYTES", "BAD_GZIP", "DROP", "DROP_UNFRAMED", "FOREIGN_REDIRECT", "LOGIN_FORM",
           "PASSWORD", "SWAPPED", "TRUNCATE", "Board", "BoardPm", "BoardPost", "Fault",
           "make_pms", "make_posts", "stall", "status"]

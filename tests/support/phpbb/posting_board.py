"""A phpBB 3.3 board for respx that takes replies and PMs the way phpBB does.

It serves the real form pages of fixtures/phpbb33-ru (README «Forms»): the reply form of the
game topic, the PM compose form, the login page. Each form served gets its own
``creation_time``/``form_token`` (phpBB makes a new pair per page view), so a test can tell
which form a POST came from. What the board answers to a POST is scripted per test
(:attr:`PostingBoard.reply_answers`, :attr:`PostingBoard.pm_answers`); by default it stores
the message like phpBB: a reply answers 302 to ``viewtopic.php?p=N#pN``, a PM answers the
«message sent» panel with a refresh to ``ucp.php?i=pm&mode=view&p=N``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import respx

from adapters.base import HttpClient, Secret
from adapters.phpbb.client import PhpbbForum
from adapters.phpbb.posting import PhpbbPoster
from referee.config.game import ForumConfig
from referee.core.forum_settings import ForumSettings
from support.clock import FakeTime

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "phpbb33-ru"
BOARD = "https://forum.test/"
TOPIC_URL = BOARD + "viewtopic.php?t=3"
PREFIX = "phpbb3_p7q2z"
HOST_ID = "58"
PASSWORD = "s3cret-Пароль-42"
"""Must never show up anywhere but in the login POST body."""

# Texts of phpBB's Russian pack (rxu/Olympusrupack, language/ru/common.php, posting.php,
# ucp.php) as phpBB prints them in the form's error box.
FORM_INVALID = "Ошибка отправки формы. Попробуйте ещё раз."
FLOOD_ERROR = ("Вы не можете отправить следующее сообщение сразу после предыдущего. "
               "Пожалуйста, попробуйте чуть позже.")
PM_NO_USERS = "Запрашиваемые для добавления пользователи не существуют."
TOPIC_LOCKED = "Эта тема закрыта, вы не можете редактировать и оставлять сообщения в ней."

Answer = Callable[[dict[str, str]], httpx.Response]


def page(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def html_response(body: str, status: int = 200) -> httpx.Response:
    return httpx.Response(status, content=body.encode("utf-8"),
                          headers={"content-type": "text/html; charset=UTF-8"})


def with_form_error(form_page: str, text: str) -> str:
    """A form page with phpBB's ``{ERROR}`` box (posting_editor.html: ``p.error`` at the top
    of the posting box's first fieldset)."""
    at = form_page.index('<fieldset class="fields1">', form_page.index('id="postingbox"'))
    end = at + len('<fieldset class="fields1">')
    return form_page[:end] + f'\n\t\t<p class="error">{text}</p>' + form_page[end:]


def message_page(text: str, refresh: str | None = None) -> str:
    """phpBB's information panel (``trigger_error``) on the host's real inbox page, with
    ``meta_refresh`` as phpBB adds it after a stored post or PM."""
    base = page("pm_inbox.html")
    start = base.index('<div id="page-body"')
    end = base.index('<div id="page-footer"')
    panel = ('<div id="page-body" class="page-body" role="main">\n<div class="panel" '
             'id="message" role="main">\n\t<div class="inner">\n\t<h2 class="message-title">'
             f'Информация</h2>\n\t<p>{text}</p>\n\t</div>\n</div>\n</div>\n')
    out = base[:start] + panel + base[end:]
    if refresh:
        out = out.replace('<meta charset="utf-8" />', '<meta charset="utf-8" />\n'
                          f'<meta http-equiv="refresh" content="3; url={refresh}" />', 1)
    return out


@dataclass
class PostingBoard:
    """Routes every request of the poster; records what was posted and when."""

    time: FakeTime
    users: dict[str, int] = field(default_factory=lambda: {
        "Полковник": 67, "Ира-Ира": 74, "Лиса": 63, "Kotik": 61})
    """Forum names the «Добавить получателей» button knows."""
    reply_answers: list[Answer] = field(default_factory=list)
    """Answers to the next reply POSTs, in turn; when used up, the reply is stored."""
    pm_answers: list[Answer] = field(default_factory=list)
    reply_form_page: str = field(default_factory=lambda: page("posting_reply_form.html"))
    guest_forms: bool = False
    """Guests get the reply form itself (a board where guests may reply)."""
    log: list[str] = field(default_factory=list)
    served: list[tuple[str, float, str]] = field(default_factory=list)
    """(form kind, time, form_token) of every form page served."""
    replies: list[dict[str, str]] = field(default_factory=list)
    pms: list[dict[str, str]] = field(default_factory=list)
    add_to: list[dict[str, str]] = field(default_factory=list)
    posted_at: list[float] = field(default_factory=list)
    login_posts: list[dict[str, str]] = field(default_factory=list)
    stored_replies: list[str] = field(default_factory=list)
    stored_pms: list[tuple[int, str]] = field(default_factory=list)
    next_post_id: int = 147
    next_pm_id: int = 30

    def install(self, router: respx.MockRouter) -> None:
        router.route(host="forum.test").mock(side_effect=self.handle)

    # -- plumbing

    def _logged_in(self, request: httpx.Request) -> bool:
        return f"{PREFIX}_u={HOST_ID}" in request.headers.get("cookie", "")

    def _form(self, kind: str, body: str) -> httpx.Response:
        n = len(self.served) + 1
        token = f"{n:040x}"
        created = str(1795971700 + n)
        body = re.sub(r'name="creation_time" value="\d+"',
                      f'name="creation_time" value="{created}"', body)
        body = re.sub(r'name="form_token" value="[0-9a-f]+"',
                      f'name="form_token" value="{token}"', body)
        self.served.append((kind, self.time.clock(), token))
        return html_response(body)

    def serve_reply_form(self, body: str | None = None) -> httpx.Response:
        return self._form("reply", body or self.reply_form_page)

    def serve_compose_form(self, body: str | None = None) -> httpx.Response:
        return self._form("compose", body or page("pm_compose_form.html"))

    def _guest_login(self) -> httpx.Response:
        return httpx.Response(200, content=page("login_required.html").encode("utf-8"), headers=[
            ("content-type", "text/html; charset=UTF-8"),
            ("set-cookie", f"{PREFIX}_u=1; path=/; HttpOnly"),
            ("set-cookie", f"{PREFIX}_sid={'0' * 32}; path=/; HttpOnly"),
        ])

    def handle(self, request: httpx.Request) -> httpx.Response:
        q = {k: v[0] for k, v in parse_qs(request.url.query.decode()).items()}
        path = request.url.path.rsplit("/", 1)[-1]
        form = {k: v[0] for k, v in
                parse_qs(request.content.decode(), keep_blank_values=True).items()}
        post = request.method == "POST"
        if path == "ucp.php" and q.get("mode") == "login":
            if not post:
                self.log.append("GET login")
                return self._form("login", page("login.html"))
            self.log.append("POST login")
            self.login_posts.append(form)
            return httpx.Response(302, headers=[
                ("location", "./index.php"),
                ("set-cookie", f"{PREFIX}_u={HOST_ID}; path=/; HttpOnly"),
                ("set-cookie", f"{PREFIX}_sid={'1' * 32}; path=/; HttpOnly"),
            ])
        logged_in = self._logged_in(request)
        if path == "posting.php" and q.get("mode") == "reply":
            if not post:
                self.log.append("GET reply")
                if not logged_in and not self.guest_forms:
                    return self._guest_login()
                body = self.reply_form_page
                if not logged_in:
                    # The same form without the logged-in header (guest posting allowed).
                    body = re.sub(r'<li id="username_logged_in".*?</li>', "", body, flags=re.S)
                    body = body.replace("mode=logout", "mode=nologout")
                return self.serve_reply_form(body)
            self.log.append("POST reply")
            self.posted_at.append(self.time.clock())
            self.replies.append(form)
            if self.reply_answers:
                return self.reply_answers.pop(0)(form)
            return self.store_reply(form)
        if path == "ucp.php" and q.get("i") == "pm" and q.get("mode") == "compose":
            if not logged_in:
                self.log.append("GET compose (guest)")
                return self._guest_login()
            if not post:
                self.log.append("GET compose")
                return self.serve_compose_form()
            self.posted_at.append(self.time.clock())
            if "add_to" in form:
                self.log.append("POST add_to")
                self.add_to.append(form)
                return self.added_recipient(form)
            self.log.append("POST pm")
            self.pms.append(form)
            if self.pm_answers:
                return self.pm_answers.pop(0)(form)
            return self.store_pm(form)
        self.log.append(f"other:{request.method} {request.url}")
        return html_response("<html><body>Not Found</body></html>", 404)

    # -- phpBB's answers

    def store_reply(self, form: dict[str, str]) -> httpx.Response:
        pid = self.next_post_id
        self.next_post_id += 1
        self.stored_replies.append(form["message"])
        return httpx.Response(302, headers={"location": f"./viewtopic.php?p={pid}#p{pid}"})

    def store_pm(self, form: dict[str, str]) -> httpx.Response:
        ids = [int(m.group(1)) for k in form if (m := re.match(r"address_list\[u\]\[(\d+)\]", k))]
        if not ids:
            return self.serve_compose_form(with_form_error(page("pm_compose_form.html"),
                                                           "Получатель сообщения не выбран."))
        mid = self.next_pm_id
        self.next_pm_id += 1
        self.stored_pms.append((ids[0], form["message"]))
        return html_response(message_page(
            'Сообщение успешно отправлено.<br /><br /><a href="./ucp.php?i=pm&amp;mode=view'
            f'&amp;p={mid}">Просмотреть сообщение</a>',
            refresh=f"./ucp.php?i=pm&amp;mode=view&amp;p={mid}"))

    def added_recipient(self, form: dict[str, str]) -> httpx.Response:
        """The compose form again: with S_HIDDEN_ADDRESS_FIELD for a known name, with
        PM_NO_USERS for an unknown one (ucp_pm_compose.php, handle_message_list_actions)."""
        body = page("pm_compose_form.html")
        uid = self.users.get(form.get("username_list", "").strip())
        if uid is None:
            return self.serve_compose_form(with_form_error(body, PM_NO_USERS))
        at = body.index(">", body.index('<form id="postform"')) + 1
        body = (body[:at] + f'<input type="hidden" name="address_list[u][{uid}]" value="to" />'
                + body[at:])
        return self.serve_compose_form(body)

    def form_again(self, error: str, kind: str = "reply") -> Answer:
        """An answer: the form handed back with phpBB's error box (fresh tokens)."""
        def answer(form: dict[str, str]) -> httpx.Response:
            if kind == "reply":
                return self.serve_reply_form(with_form_error(self.reply_form_page, error))
            return self.serve_compose_form(with_form_error(page("pm_compose_form.html"), error))
        return answer

    def new_posts_review(self, topic: int = 3) -> Answer:
        """The real answer of phpBB when posts arrived since the form was made
        (posting_reply_form_invalid.html, saved from topic 1; here for topic ``topic``)."""
        body = page("posting_reply_form_invalid.html").replace(
            "posting.php?mode=reply&amp;t=1", f"posting.php?mode=reply&amp;t={topic}")

        def answer(form: dict[str, str]) -> httpx.Response:
            return self.serve_reply_form(body)
        return answer

    def panel(self, text: str) -> Answer:
        def answer(form: dict[str, str]) -> httpx.Response:
            return html_response(message_page(text))
        return answer

    def raw(self, response: httpx.Response | Callable[[], httpx.Response]) -> Answer:
        def answer(form: dict[str, str]) -> httpx.Response:
            return response() if callable(response) else response
        return answer


# -- helpers the tests import by name (not from conftest: several test folders have one)

def forum_config(**kw: Any) -> ForumConfig:
    kw.setdefault("url", TOPIC_URL)
    kw.setdefault("timezone", "Europe/Moscow")
    kw.setdefault("username", "Ведущий")
    kw.setdefault("rate_limit", 0)
    return ForumConfig(ForumSettings(**kw))


def make_poster_for(forum: ForumConfig, clock: FakeTime, *, logged_in: bool = True,
                    cookie_file: Path | None = None) -> PhpbbPoster:
    """A poster on the fake board; ``logged_in`` starts with the host's session cookies
    (as after an earlier ``referee sync``)."""
    http = HttpClient(BOARD, rate_limit=forum.board.rate_limit, retries=forum.board.retries,
                      cookie_file=cookie_file, sleep=clock.sleep, clock=clock.clock,
                      random_=lambda: 0.0)
    if logged_in:
        http.cookies.set(f"{PREFIX}_u", HOST_ID, domain="forum.test", path="/")
        http.cookies.set(f"{PREFIX}_sid", "1" * 32, domain="forum.test", path="/")
    forum_ = PhpbbForum(forum.settings(), http=http, password=lambda user: Secret(PASSWORD))
    return PhpbbPoster(forum_)



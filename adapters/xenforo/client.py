"""A live XenForo board over HTTP (implements :class:`referee.core.kernel.Forum`): the skeleton's
hooks for thread pages (a stale slug is followed to the canonical address, so the next sync
costs one request again), the login (``login/login``; success is the ``{prefix}user``
cookie or a redirect away from the login pages) and the host's conversations (a PM per
message place, a conversation page read once per run). Facts and their sources: README.md
(«Conversations as the host's private messages», «Thread pages», «Login and errors»).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

import httpx
from selectolax.lexbor import LexborHTMLParser

from adapters.address import no_topic
from adapters.board import cookies_set
from adapters.form import HtmlForm
from adapters.login import FormLogin
from adapters.xenforo import forms
from adapters.xenforo.page import cookie_prefix, raise_for_page, reads_as_xenforo
from adapters.xenforo.pms import (
    ConversationPage,
    ConversationRow,
    conversation_pms,
    inbox_page,
    parse_conversation_list,
    parse_conversation_page,
    split_key,
)
from adapters.xenforo.topic import DEFAULT_PER_PAGE, read_thread_page
from adapters.xenforo.urls import EXAMPLE, Board, ThreadAddress, parse_thread_url
from referee.core.errors import ConfigError, LoginFailed, PmRemoved
from referee.core.kernel import PmFolderPage, PmListEntry, PrivateMessage, TopicPage

T = TypeVar("T")

_TWO_STEP = re.compile(r'<form[^>]+action="[^"]*login/two-step', re.IGNORECASE)


class XenforoForum(FormLogin):
    """A live XenForo 1/2 board (implements :class:`referee.core.kernel.Forum`)."""

    engine = "xenforo"
    reads_right = staticmethod(reads_as_xenforo)

    remember_me = True
    """Ask for XenForo's long-lived ``{prefix}user`` cookie (the next run needs no login)."""
    refusals = {
        "two_step": ("для «{username}» включена двухэтапная проверка входа",
                     "referee её не проходит: отключите её для учётной записи ведущего или "
                     "войдите в браузере и скопируйте ссылки вручную"),
    }
    refusal_hints = {
        "wrong_password": "после нескольких неудачных попыток XenForo просит капчу",
    }

    def read_address(self, url: str) -> str:
        self.board: Board
        self.thread: ThreadAddress | None
        self.board, self.thread = parse_thread_url(url)
        self.topic_id = self.thread.thread_id if self.thread else None
        return self.board.host_root

    def start(self) -> None:
        self.per_page: int | None = None
        self.prefix = "xf_"
        self._rows: dict[int, ConversationRow] = {}
        self._messages: dict[int, PrivateMessage] = {}

    # -- fetching (hooks)

    def parse_answer(self, r: httpx.Response, html: str, read: Callable[[str], T],
                     what: str) -> T:
        if r.status_code >= 400:
            raise_for_page(LexborHTMLParser(html), str(r.url), what, r.status_code)
        return read(html)

    # -- the thread

    def _thread(self) -> ThreadAddress:
        if self.thread is None:
            raise no_topic("threads/…номер/", EXAMPLE)
        return self.thread

    def topic_page_url(self, page: int) -> str:
        return self._thread().page_url(page)

    def fetch_topic_page(self, page: int) -> TopicPage:
        """One thread page as the board numbers it (lower than ``page`` when clamped)."""
        url = self.topic_page_url(page)
        view = self.read(url, lambda html: read_thread_page(
            html, url=url, tz=self.tz, now=self.now()), what=f"тема {self.topic_id}, "
                                                          f"страница {page}")
        self._follow_canonical(view.canonical)
        tp = view.page
        if tp.page < tp.total_pages and tp.posts:
            self.per_page = len(tp.posts)
        elif tp.page > 1 and self.per_page is None:
            self.per_page = tp.per_page
        return tp

    def _follow_canonical(self, canonical: str | None) -> None:
        # A renamed thread keeps its number and gets a new slug: asking by the old one costs
        # a redirect on every page.
        if not canonical or self.thread is None:
            return
        try:
            _, seen = parse_thread_url(canonical)
        except ConfigError:
            return
        if seen is not None and seen.thread_id == self.thread.thread_id \
                and seen.slug and seen.slug != self.thread.slug:
            self.thread = self.thread.with_slug(seen.slug)

    # -- login (hooks): the form just served or ``login/``, posted to ``login/login``

    def login_form(self, form_html: str | None, form_url: str | None) -> HtmlForm:
        form = forms.parse_login_form(form_html, form_url or self.board.url("login/")) \
            if form_html else None
        if form is None:
            r, form_html = self.fetch(self.board.url("login/"), "страница входа")
            form = forms.parse_login_form(form_html, str(r.url))
        self.prefix = cookie_prefix(LexborHTMLParser(form_html or ""))
        if form is None:
            raise LoginFailed("на странице входа нет формы, которую понимает referee",
                              f"откройте {self.board.url('login/')} в браузере")
        if form.has_captcha:
            raise self.refused("captcha_required", self.forum.username or "")
        return form

    def post_login(self, form: HtmlForm, username: str) -> httpx.Response:
        data = form.sends(*forms.SENT)
        data[form.first("text", "email") or "login"] = username
        data[form.first("password") or "password"] = self._secret(username).reveal()
        if self.remember_me and ("remember" in form.named or "login/login" in form.action):
            data["remember"] = "1"
        r = self.post_form(form.action, username=username, data=data,
                           headers={"Referer": self.board.url("login/")})
        del data
        return r

    def login_succeeded(self, r: httpx.Response, html: str) -> bool:
        if any(v and v != "deleted"
               for v in cookies_set(r, lambda name: name == f"{self.prefix}user")):
            return True
        location = r.headers.get("Location", "")
        # Without «remember me» XenForo sets no user cookie: a redirect away from the login
        # pages is the success.
        return r.is_redirect and bool(location) and "login" not in location \
            and "two-step" not in location

    def login_reason(self, r: httpx.Response, html: str) -> str | None:
        if "two-step" in r.headers.get("Location", "") or _TWO_STEP.search(html):
            return "two_step"
        return forms.login_error(html)

    # -- conversations (the host's private messages)

    def fetch_pm_folder(self, folder: str = "inbox", page: int = 1) -> PmFolderPage:
        """The conversation list as PM listing entries: one per message place, newest
        conversation first. XenForo keeps one list (no sent folder): the host's own
        messages are in the same conversations, so ``sentbox``/``outbox`` are empty."""
        if folder != "inbox":
            return PmFolderPage(folder, 1, 1, ())
        url = self.board.url("conversations/" + (f"page-{page}" if page > 1 else ""))
        listing = self.read(url, lambda html: parse_conversation_list(
            html, url=url, tz=self.tz, now=self.now()), what="список переписок")
        self._rows.update((row.conversation_id, row) for row in listing.rows)
        return inbox_page(listing, self.board.url)

    def fetch_pm(self, entry: PmListEntry | int, folder: str = "inbox") -> PrivateMessage:
        """One conversation message: the conversation page that holds its place is read
        (once per run, whatever number of its messages are new)."""
        pm_id = entry.pm_id if isinstance(entry, PmListEntry) else int(entry)
        if pm_id in self._messages:
            return self._messages[pm_id]
        conversation_id, place = split_key(pm_id)
        row = self._rows.get(conversation_id)
        page, tried = (place - 1) // (self.per_page or DEFAULT_PER_PAGE) + 1, set()
        while page not in tried:
            tried.add(page)
            shown = self._conversation_page(conversation_id, row, page)
            if pm_id in self._messages:
                return self._messages[pm_id]
            # The board's page size was not the one guessed: the page read tells it.
            page = min((place - 1) // (self.per_page or DEFAULT_PER_PAGE) + 1,
                       shown.total_pages)
        raise PmRemoved(
            f"в переписке {conversation_id} нет сообщения №{place}: его удалили",
            "откройте переписку в браузере и проверьте")

    def _conversation_page(self, conversation_id: int, row: ConversationRow | None,
                           page: int) -> ConversationPage:
        route = row.route if row is not None else f"conversations/{conversation_id}/"
        url = self.board.url(route + (f"page-{page}" if page > 1 else ""))
        title = row.title if row is not None else str(conversation_id)
        shown = self.read(url, lambda html: parse_conversation_page(
            html, url=url, tz=self.tz, now=self.now()), what=f"переписка «{title}»")
        if shown.page < shown.total_pages and shown.messages:
            self.per_page = len(shown.messages)
        self._messages.update((pm.pm_id, pm) for pm in conversation_pms(
            conversation_id, shown, row, self.per_page, self.forum.username or ""))
        return shown


__all__ = ["XenforoForum"]

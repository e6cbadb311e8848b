"""phpBB 3.x over HTTP: topic pages, login, PM folders and PMs (issue 2), the hooks of
:class:`adapters.board.BoardClient`. The forum facts this relies on (gotchas 8–12): README.md,
«The live board»."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

import httpx
from selectolax.lexbor import LexborHTMLParser

from adapters.address import no_topic
from adapters.board import cookies_set, walk_pages
from adapters.form import HtmlForm
from adapters.login import FormLogin
from adapters.phpbb.forms import is_logged_in, login_error, parse_login_form
from adapters.phpbb.page import _message_panel, reads_as_phpbb
from adapters.phpbb.pm_export import PmExport
from adapters.phpbb.pms import parse_pm, read_pm_folder
from adapters.phpbb.topic import parse_topic_page
from adapters.phpbb.urls import EXAMPLE, parse_topic_url, sid_in_body
from referee.core.errors import LoginFailed, MalformedPage
from referee.core.kernel import (
    FIRST_PAGE,
    PageCursor,
    PmFolderPage,
    PmListEntry,
    PrivateMessage,
    TopicPage,
)

T = TypeVar("T")

DEFAULT_POSTS_PER_PAGE = 10
"""phpBB's board default; only a fallback, the page itself tells the real value."""
DEFAULT_PMS_PER_PAGE = 25
LOGIN_WAIT = 1.05
"""Seconds between receiving the login form and posting it (gotcha 11, plus a margin)."""


def learned_per_page(tp: TopicPage) -> int | None:
    """The board's posts-per-page as this page shows it: a page before the last is full;
    the last page's own figure (from its links) never overstates it, so jumping with it can
    land early but never skip a page. A full page may show fewer posts than it holds (a
    soft-deleted post the parser leaves out): its links' figure then tells the size."""
    if tp.page < tp.total_pages and tp.posts:
        return max(len(tp.posts), tp.per_page)
    return tp.per_page or None


class PhpbbForum(PmExport, FormLogin):
    """A live phpBB 3.x board (implements :class:`referee.core.kernel.Forum` and
    :class:`referee.core.kernel.PmFolderExport`)."""

    refusal_hints = {"wrong_password": "после 3 неверных попыток phpBB начинает спрашивать "
                                       "капчу"}

    engine = "phpbb"
    pm_folders = {"inbox": 0, "sentbox": -1, "outbox": -2}
    pm_folders_hint = "бывают inbox, sentbox или outbox"

    remember_me = True
    """Tick «Запомнить меня» at login (phpBB's autologin key: the next run needs no login)."""

    def read_address(self, url: str) -> str:
        self.root: str
        self.topic_id: int | None
        self.root, self.topic_id = parse_topic_url(url)
        return self.root

    def start(self) -> None:
        self.per_page: int | None = None
        self._pm_per_page: dict[str, int] = {}
        self.start_export()
        self._received: float | None = None
        """When the last page (a login form, maybe) arrived: gotcha 11."""

    # -- urls

    def topic_page_url(self, page: int, per_page: int | None = None) -> str:
        """Page ``page`` of the game topic, oldest first, nothing filtered (gotcha 8)."""
        if self.topic_id is None:
            raise no_topic("t=…", EXAMPLE)
        url = f"{self.root}viewtopic.php?t={self.topic_id}&sk=t&sd=a&st=0"
        if page > 1:
            url += f"&start={(page - 1) * (per_page or self.per_page or DEFAULT_POSTS_PER_PAGE)}"
        return url

    def login_url(self) -> str:
        return f"{self.root}ucp.php?mode=login"

    def pm_folder_url(self, folder: str, page: int = 1) -> str:
        fid = self.folder_id(folder)
        # Newest first, whatever the host's own sort: the PM sync stops at the first page
        # it already knows (referee.store.sync.sync_pms).
        if page <= 1:
            return f"{self.root}ucp.php?i=pm&folder={folder}&sk=t&sd=d"
        per = self._pm_per_page.get(folder, DEFAULT_PMS_PER_PAGE)
        return (f"{self.root}ucp.php?i=pm&mode=view&action=view_folder&f={fid}"
                f"&sk=t&sd=d&start={(page - 1) * per}")

    def pm_url(self, pm_id: int, folder: str = "inbox") -> str:
        return f"{self.root}ucp.php?i=pm&mode=view&f={self.folder_id(folder)}&p={pm_id}"

    # -- fetching

    reads_right = staticmethod(reads_as_phpbb)

    def fetch(self, url: str, what: str | None = None) -> tuple[httpx.Response, str]:
        r, html = super().fetch(url, what)
        self._received = self.http.clock()
        return r, html

    def parse_answer(self, r: httpx.Response, html: str, read: Callable[[str], T],
                     what: str) -> T:
        if r.status_code >= 400:
            panel = _message_panel(LexborHTMLParser(html)) if r.status_code == 403 else None
            raise self.status_error(r.status_code, what, panel[1][:200] if panel else "")
        return read(html)

    def fetch_topic_page(self, page: int, per_page: int | None = None) -> TopicPage:
        """One topic page as the forum numbers it (may be lower than ``page`` if clamped)."""
        url = self.topic_page_url(page, per_page)
        tp = self.read(
            url, lambda html: parse_topic_page(html, url=url, tz=self.tz, now=self.now()),
            what=f"страницу {page} темы t={self.topic_id}",
        )
        learned = learned_per_page(tp)
        if learned:
            self.per_page = learned
        return tp

    def fetch_topic_pages(
        self, cursor: PageCursor = FIRST_PAGE, *, max_pages: int | None = None
    ) -> Iterator[TopicPage]:
        """Pages ``cursor.page`` … last. ``cursor.per_page`` (known from an earlier sync) is
        needed to jump straight to a later page; without it page 1 is read first to learn
        it."""
        if cursor.per_page:
            self.per_page = cursor.per_page
        page_no = max(1, cursor.page)
        if page_no > 1 and self.per_page is None:
            first = self.fetch_topic_page(1)
            if first.page >= first.total_pages or page_no == 2:
                # The topic is a single page, or page 1 is needed anyway.
                yield first
            if first.page >= first.total_pages:
                return
        yield from walk_pages(self.fetch_topic_page, page_no, max_pages=max_pages,
                              resizes=True)

    # -- login

    def login_succeeded(self, r: httpx.Response, html: str) -> bool:
        """Judged by the session the forum gave us, not by the page text: the answer to
        the POST sets ``{prefix}_u`` to the user id (1 = still a guest)."""
        # ``{prefix}_u`` as set by this very answer (the prefix differs per board).
        users = cookies_set(r, lambda name: name.endswith("_u"))
        if users:
            return users[0] != "1"
        if html:
            return is_logged_in(html)
        return self.logged_in()

    def logged_in(self) -> bool:
        """Whether the session cookie ``{prefix}_u`` names a user (``"1"`` = guest); the
        prefix differs per board and is read from the ``{prefix}_sid`` cookie."""
        for name in self.http.cookie_names():
            if name.endswith("_sid"):
                user = self.http.cookie_value(name.removesuffix("_sid") + "_u")
                if user is not None:
                    return user != "1"
        return False

    def login(self, form_html: str | None = None, form_url: str | None = None, *,
              received_at: float | None = None) -> None:
        """Log in as ``[forum] username`` (research 3.2): the login form the forum just
        served (``form_html``, arrived at ``received_at``, else with the last page fetched) or
        ``ucp.php?mode=login``; waits ≥1 s after the form arrived; judged by the session
        cookie. Failure names the reason (wrong password, CAPTCHA, banned/inactive), never
        the password."""
        if received_at is not None:
            self._received = received_at
        super().login(form_html, form_url)

    def login_form(self, form_html: str | None, form_url: str | None) -> HtmlForm:
        if form_html is None:
            _, form_html = self.fetch(self.login_url())
        try:
            form = parse_login_form(form_html, url=self.login_url())
        except MalformedPage:
            raise LoginFailed("на странице входа форума нет понятной referee формы входа",
                              f"откройте {self.login_url()} в браузере") from None
        if form.has_captcha:
            raise self.refused("captcha_required", self.forum.username or "")
        return form

    def post_login(self, form: HtmlForm, username: str) -> httpx.Response:
        action, data = sid_in_body(form.action, self._login_data(form, username))
        # Gotcha 11: a form posted in the second it was made is refused (FORM_INVALID).
        since = self.http.clock() - self._received if self._received is not None else 0.0
        if since < LOGIN_WAIT:
            self.http.sleep(LOGIN_WAIT - since)
        r = self.post_form(action, username=username, data=data,
                           headers={"Referer": self.login_url()})
        del data
        self._received = None
        return r

    def login_reason(self, r: httpx.Response, html: str) -> str | None:
        return login_error(html) if html else None

    def _login_data(self, form: HtmlForm, username: str) -> dict[str, str]:
        """The fields a browser would post: hidden ones (creation_time, form_token, sid,
        redirect), the name, the password, «Запомнить меня» and the ``login`` button."""
        data = dict(form.hidden)
        data[form.first("text") or "username"] = username
        data[form.first("password") or "password"] = self._secret(username).reveal()
        data.update([form.press("login", "Вход")])
        if self.remember_me and form.named.get("autologin") == "checkbox":
            data["autologin"] = "on"
        return data

    # -- private messages

    def fetch_pm_folder(self, folder: str = "inbox", page: int = 1) -> PmFolderPage:
        url = self.pm_folder_url(folder, page)
        fp, form = self.read(
            url, lambda html: read_pm_folder(html, url=url, tz=self.tz, now=self.now()),
            what=f"папку ЛС «{folder}»",
        )
        self._remember_export(folder, page, url, form)
        if page == 1 and fp.total_pages > 1 and fp.entries:
            # A full first page tells the board's page size (topics_per_page).
            self._pm_per_page[folder] = len(fp.entries)
        return fp

    def fetch_pm(self, entry: PmListEntry | int, folder: str = "inbox") -> PrivateMessage:
        """Open one PM (this marks it read for the host on the forum): only for what the
        folder export could not give (:meth:`export_pm_folder_page`)."""
        pm_id = entry.pm_id if isinstance(entry, PmListEntry) else int(entry)
        url = self.pm_url(pm_id, folder)
        return self.read(
            url, lambda html: parse_pm(html, url=url, tz=self.tz, now=self.now(),
                                             folder=folder),
            what=f"личное сообщение {pm_id}",
        )


__all__ = ["PhpbbForum", "parse_topic_url"]

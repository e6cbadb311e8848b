"""SMF over HTTP (implements :class:`referee.core.kernel.Forum`): the skeleton's hooks for SMF's
addresses (pages by their first post's offset), its login (the form's two random tokens,
logins 2.5 s apart, the redirect through ``sa=check`` as the proof) and its PM folders (read
in date order, so SMF's last page is the kernel's page 1; the display mode decides what a
folder page shows). Facts and their sources: README.md («Addresses and pages», «Login»,
«Personal messages»).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import httpx

from adapters.address import no_topic
from adapters.board import walk_pages
from adapters.form import HtmlForm
from adapters.login import FormLogin
from adapters.smf import forms, pms, topic
from adapters.smf.page import SmfPage, looks_like_smf, reads_as_smf
from adapters.smf.urls import (
    EXAMPLE,
    parse_topic_url,
    query_params,
    strip_session,
    topic_page_address,
)
from referee.core.errors import (
    ForumError,
    LoginFailed,
    LoginRequired,
    NetworkError,
    PmRemoved,
    TopicNotFound,
)
from referee.core.kernel import (
    FIRST_PAGE,
    PageCursor,
    PmFolderPage,
    PmListEntry,
    PrivateMessage,
    TopicPage,
)

log = logging.getLogger("referee.smf")

DEFAULT_PER_PAGE = 15
"""SMF's ``defaultMaxMessages``; only a fallback, the page index tells the real value."""
LOGIN_SPACING = 2.5
"""Seconds between two login POSTs (SMF refuses a login within ~2 s of the last one)."""
SMF_FOLDERS = {"inbox": "inbox", "sentbox": "sent"}


class SmfForum(FormLogin):
    """A live SMF 2.1 board."""

    engine = "smf"
    reads_right = staticmethod(reads_as_smf)

    def read_address(self, url: str) -> str:
        self.script, self.topic_id = parse_topic_url(url)
        return self.script

    def start(self) -> None:
        self.per_page: int | None = None
        self._last_login: float | None = None
        self._landing_url = ""
        self._folders: dict[str, pms.SmfFolder] = {}
        self.marked_read = 0
        """The host's PMs this run made SMF mark read by showing them (sync_pms says it)."""
        self._pms: dict[tuple[str, int], PrivateMessage] = {}

    # -- fetching

    def topic_page_url(self, page: int) -> str:
        if self.topic_id is None:
            raise no_topic("topic=…", EXAMPLE)
        per = self.per_page or DEFAULT_PER_PAGE
        return topic_page_address(self.script, self.topic_id, (max(1, page) - 1) * per)

    def fetch(self, url: str, what: str | None = None) -> tuple[httpx.Response, str]:
        r, html = super().fetch(url, what or strip_session(url))
        if r.status_code >= 500:
            raise NetworkError(f"форум ответил HTTP {r.status_code} на {strip_session(url)}",
                               "форум может быть перегружен; повторите команду позже")
        if r.status_code == 404 and not looks_like_smf(html):
            raise TopicNotFound(f"адреса {strip_session(url)} на форуме нет (HTTP 404)",
                                "проверьте [forum] url: откройте его в браузере")
        return r, html

    def guest_refused(self, asked: LoginRequired) -> LoginRequired:
        # SMF says the same to a guest for a closed board and a missing topic.
        return LoginRequired(asked.message, "проверьте [forum] url; если тема или ЛС видны "
                             "только участникам, укажите [forum] username ведущего")

    def fetch_topic_page(self, page: int) -> TopicPage:
        """Page ``page`` as the board numbers it; asked for by its first post's offset, so
        a later page asked for before the page size is known costs page 1 first (which
        ends the walk when it is the only page)."""
        if page > 1 and self.per_page is None:
            first = self._topic_page(1)
            if first.page >= first.total_pages:
                return first
        return self._topic_page(page)

    def _topic_page(self, page: int) -> TopicPage:
        url = self.topic_page_url(page)
        tp = self.read(url, lambda html: topic.parse_topic_page(
            html, url=url, tz=self.tz, now=self.now()), what=f"тему {self.topic_id}, страницу "
            f"{page}")
        if tp.per_page and tp.total_pages > 1:  # a single page only bounds the size
            self.per_page = tp.per_page
        return tp

    def fetch_topic_pages(self, cursor: PageCursor = FIRST_PAGE, *,
                          max_pages: int | None = None) -> Iterator[TopicPage]:
        """Pages ``cursor.page`` … last (:func:`walk_pages`, by offsets: a changed page size
        is asked for again with the size the page shows)."""
        if cursor.per_page:
            self.per_page = self.per_page or cursor.per_page
        return walk_pages(self.fetch_topic_page, cursor.page, max_pages=max_pages,
                          resizes=True)

    # -- login

    def login_url(self) -> str:
        return f"{self.script}?action=login"

    def login_form(self, form_html: str | None, form_url: str | None) -> HtmlForm:
        if not form_html or SmfPage(form_html, "").login_form() is None:
            _, form_html = self.fetch(self.login_url(), "страницу входа")
        return forms.parse_login_form(form_html, url=self.login_url())

    def post_login(self, form: HtmlForm, username: str) -> httpx.Response:
        """The form's two randomly named tokens, the name and the password; SMF refuses a
        login within ~2 s of the last one (:data:`LOGIN_SPACING`)."""
        data = form.sends("hidden", "select")
        data[form.first("text") or "user"] = username
        data[form.first("password") or "passwrd"] = self._secret(username).reveal()
        if self._last_login is not None:
            wait = self._last_login + LOGIN_SPACING - self.http.clock()
            if wait > 0:
                self.http.sleep(wait)
        try:
            return self.post_form(form.action, username=username, data=data,
                                  headers={"Referer": self.login_url()})
        finally:
            self._last_login = self.http.clock()
            del data

    def answer_html(self, r: httpx.Response) -> str:
        """The page the login answer ends on. SMF redirects an accepted login through
        ``login2;sa=check;member=N`` to the index; when that redirect is the proof already
        (:meth:`_checked`) neither is followed (issue 30: the page that asked for the login
        is read next anyway), else the redirects are followed to the page they end on."""
        self._landing_url = str(r.url)
        if r.is_redirect:
            self._landing_url = strip_session(str(r.url.join(r.headers.get("Location", ""))))
            return "" if self._checked(r) else self.fetch(self._landing_url)[1]
        return self.decoded(r)

    def _checked(self, r: httpx.Response) -> bool:
        """Whether a login answer proves the login: SMF sends to ``sa=check;member=N`` only
        a member whose password it accepted (``DoLogin``), and ``sa=check`` only checks
        that the cookies it set come back — which they do when the jar holds every one."""
        query = query_params(self._landing_url.partition("?")[2])
        if (query.get("action"), query.get("sa")) != ("login2", "check") or \
                not query.get("member", "").isdigit() or not int(query["member"]):
            return False
        cookies = [header.split(";", 1)[0].partition("=")
                   for header in r.headers.get_list("set-cookie")]
        return bool(cookies) and all(
            self.http.cookie_value(name.strip()) == value.strip() for name, _, value in cookies)

    def login_succeeded(self, r: httpx.Response, html: str) -> bool:
        return (r.is_redirect and self._checked(r)) or \
            SmfPage(html, self._landing_url).logged_in

    def login_again(self, r: httpx.Response, html: str) -> str | None:
        kind, _ = forms.login_error(html)
        if kind in ("wait", "token"):
            log.info("login refused (%s); trying once more", kind)
            return html
        return None

    def login_failure(self, r: httpx.Response, html: str, username: str) -> LoginFailed:
        kind, said = forms.login_error(html)
        return self.refused(kind, username, said)

    # -- private messages

    def folder_url(self, folder: str, start: int | None = None) -> str:
        url = f"{self.script}?action=pm;f={_smf_folder(folder)};sort=date"
        return url if start is None else f"{url};start={start}"

    def _folder(self, url: str, folder: str) -> pms.SmfFolder:
        got = self.read(url, lambda html: pms.parse_folder(
            html, url=url, folder=folder, tz=self.tz, now=self.now()),
            what=f"папку личных сообщений «{folder}»")
        if got.mode == pms.MODE_CONVERSATION:
            raise ForumError(
                "личные сообщения ведущего показываются диалогами: в этом виде SMF "
                "показывает только последнее сообщение каждого диалога",
                "переключите вид на «Все сразу»: значок «Изменить вид» над списком "
                "сообщений (или Личные сообщения → Изменить настройки)",
            )
        for pm in got.messages.values():
            self._pms[(folder, pm.pm_id)] = pm
        if folder == "inbox":
            # SMF 2.1 (MessageFolder) marks read what the page showed: in mode «все сразу»
            # every unread PM of the inbox, else the one message shown. It has no way to show
            # a PM's text and leave it unread (no «mark unread» for PMs; the PM search shows
            # texts but is not read here): the sync line says how many it marked.
            unread = {e.pm_id for e in got.entries if e.unread}
            self.marked_read += got.inbox_unread if got.mode == pms.MODE_ALL else \
                len(unread & set(got.messages))
        return got

    def fetch_pm_folder(self, folder: str = "inbox", page: int = 1) -> PmFolderPage:
        """Page ``page`` of a folder, newest first: page 1 is SMF's last page."""
        if folder == "outbox":
            return PmFolderPage(folder, 1, 1, ())  # SMF keeps no outbox
        _smf_folder(folder)
        last = self._folders.get(folder)
        if page <= 1 or last is None:
            got = self._folder(self.folder_url(folder), folder)
            if got.page < got.total_pages:
                # The host's «newest first» preference opened page 1; the newest are on
                # the last page of the date order.
                got = self._folder(self._folder_page_url(folder, got, got.total_pages), folder)
            self._folders[folder] = last = got
            if page <= 1:
                return pms.newest_first(got, 1)
        number = last.total_pages - page + 1
        if number < 1:
            return PmFolderPage(folder, page, last.total_pages, ())
        got = self._folder(self._folder_page_url(folder, last, number), folder)
        return pms.newest_first(got, last.total_pages - got.page + 1, last.total_pages)

    def _folder_page_url(self, folder: str, known: pms.SmfFolder, number: int) -> str:
        start = known.starts.get(number)
        if start is None:
            per = known.per_page or self.per_page or DEFAULT_PER_PAGE
            start = (number - 1) * per
        return self.folder_url(folder, start)

    def fetch_pm(self, entry: PmListEntry | int, folder: str = "inbox") -> PrivateMessage:
        """The PM as its folder page showed it (no request), else opened by its link."""
        pm_id = entry.pm_id if isinstance(entry, PmListEntry) else int(entry)
        shown = self._pms.get((folder, pm_id))
        if shown is not None:
            return shown
        url = entry.url if isinstance(entry, PmListEntry) and "pmid=" in entry.url else (
            f"{self.script}?action=pm;f={_smf_folder(folder)};pmid={pm_id};sort=date")
        self._folder(url.split("#", 1)[0], folder)
        shown = self._pms.get((folder, pm_id))
        if shown is None:
            raise PmRemoved(f"личного сообщения {pm_id} больше нет в папке «{folder}»",
                            "его удалили; referee продолжает без него")
        return shown


def _smf_folder(folder: str) -> str:
    try:
        return SMF_FOLDERS[folder]
    except KeyError:
        raise ForumError(f"в SMF нет папки личных сообщений {folder!r}",
                         "используйте inbox или sentbox") from None


__all__ = ["SmfForum"]

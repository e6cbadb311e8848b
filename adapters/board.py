"""The board client template every live engine fills in (issue 28), as gallery-dl's
``extractor/common.py`` does for its sites: the skeleton is written once here — the topic
page walk (:func:`walk_pages`), fetch + status + one re-login (:meth:`BoardClient.read`),
the login flow (:meth:`BoardClient.login`: the password never sent to another site nor
shown), PM folder paging (:func:`folder_pages`) — and an engine writes only its hooks
(addresses, parsers, the login form and its markers), listed in ``adapters/README.md``."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import httpx

from adapters.base import (
    ForumSettings,
    HttpClient,
    Secret,
    ends_with_html,
    get_password,
    same_site,
)
from adapters.charset import decode_lenient
from adapters.http_client import Closing
from adapters.registry import engines
from referee.core.errors import (
    AccessDenied,
    ConfigError,
    ForumError,
    LoginFailed,
    LoginRequired,
    MalformedPage,
    NetworkError,
    TopicNotFound,
)
from referee.core.kernel import FIRST_PAGE, PageCursor, PmFolderPage, TopicPage

log = logging.getLogger("referee.board")
T = TypeVar("T")

MAX_PAGES = 100_000
"""A guard against a board that never says «last page» (no real topic comes near it)."""

USERNAME_HINT = ('добавьте в [forum] username = "Ник ведущего"; пароль спросят (или возьмут '
                 "из REFEREE_PASSWORD)")


def walk_pages(fetch_page: Callable[[int], TopicPage], start: int = 1, *,
               max_pages: int | None = None, resizes: bool = False) -> Iterator[TopicPage]:
    """Topic pages ``start`` … last, oldest first, each fetched by the number the board
    gives it (``fetch_page`` may answer a lower page when the board clamps).

    A page the board numbers no higher than one already read: when it is the topic's last
    page, posts were deleted while the topic was read (the page asked for is gone) and the
    walk ends with it — the caller sees the smaller count and re-reads what moved;
    otherwise the board is lying about its pages. ``resizes``: pages are asked for by
    their first post's offset (phpBB, SMF), so a page numbered higher than asked means the
    page size changed, and the page is asked for once more with the size it showed."""
    page_no, last_seen, count = max(1, start), 0, 0
    while True:
        tp = fetch_page(page_no)
        if resizes and tp.page > page_no:
            # The board's page size shrank since the cursor was saved: ask again with the
            # size this page shows, rather than skip the pages in between.
            resizes = False
            log.info("page size changed: asked for page %s, got %s", page_no, tp.page)
            continue
        if tp.page <= last_seen:
            if tp.page >= tp.total_pages:
                yield tp
                return
            raise MalformedPage(
                f"форум показал страницу {tp.page}, когда просили страницу {page_no}",
                "запустите синхронизацию ещё раз")
        yield tp
        count += 1
        last_seen = tp.page
        if tp.page >= tp.total_pages or (max_pages and count >= max_pages):
            return
        if count >= MAX_PAGES:  # pragma: no cover - a guard against a looping board
            raise MalformedPage("у темы, похоже, нет последней страницы")
        page_no = tp.page + 1


def folder_pages(fetch: Callable[[int], PmFolderPage]) -> Iterator[PmFolderPage]:
    """Every page of one PM folder listing, first to last (:data:`MAX_PAGES` bounds it)."""
    page = 1
    while True:
        fp = fetch(page)
        yield fp
        if fp.page >= fp.total_pages or page >= MAX_PAGES:
            return
        page = fp.page + 1


class BoardClient(Closing):
    """A live board over HTTP (implements :class:`referee.core.kernel.Forum` with the engine's
    hooks). Subclasses set :attr:`engine` (the registry name) and write
    :meth:`fetch_topic_page`, :meth:`fetch_pm_folder`, :meth:`fetch_pm`, and the hooks
    below that their board needs."""

    engine = ""
    pm_folders: dict[str, int] = {}
    """The board's numbers of the kernel's PM folders (``inbox``, ``sentbox``, …)."""
    pm_folders_hint = "бывают inbox и sentbox"
    whole_answer = staticmethod(ends_with_html)
    """Whether a GET's answer reached its end (a cut one is asked for again)."""

    http: HttpClient
    forum: ForumSettings
    tz: ZoneInfo
    now: Callable[[], datetime]
    topic_id: int | None

    def __init__(self, forum: ForumSettings, *, http: HttpClient | None = None,
                 password: Callable[[str], Secret] | None = None,
                 now: Callable[[], datetime] | None = None, max_logins: int = 2) -> None:
        """The default constructor: ``[forum] url`` read by :meth:`read_address`, the
        session opened at the site root it names (``http``: one made already, as tests
        pass), the board's time zone, the clock, the login budget, then the engine's own
        run state (:meth:`start`)."""
        forum = ForumSettings.of(forum)  # the core's plain values get the client's builder
        if not forum.url:
            raise ConfigError("[forum] url не задан: referee не знает, какую тему читать",
                              f'добавьте в [forum] url = "{engines()[self.engine].example}"')
        root = self.read_address(forum.url)
        self.forum = forum
        try:
            self.tz = ZoneInfo(forum.timezone)
            """The board's time zone: pages that do not say theirs show times in it."""
        except (ZoneInfoNotFoundError, ValueError):
            raise ConfigError(f"[forum] timezone {forum.timezone!r} — неизвестный часовой "
                              "пояс", 'пример: timezone = "Europe/Moscow"') from None
        self.http = http or forum.http_client(root)
        if self.http.complete is None:
            self.http.complete = self.whole_answer
        self._password_source = password or (lambda user: get_password(user))
        self._password: Secret | None = None
        self.now = now or (lambda: datetime.now(UTC))
        self.max_logins = max_logins
        self.logins = 0
        self.charset = "utf-8"
        """The board's encoding, learnt from the pages read (forms are sent in it)."""
        self.start()

    def read_address(self, url: str) -> str:
        """Hook: read ``[forum] url`` into the engine's address (:attr:`topic_id`, …) and
        return the site root the session is opened at."""
        raise NotImplementedError  # pragma: no cover - abstract

    def start(self) -> None:
        """Hook: the engine's own run state (caches, learnt page sizes), once the session
        is open."""

    @property
    def requests(self) -> int:
        return self.http.requests

    def close(self) -> None:
        """Saves the session cookies and releases the connection."""
        self.http.close()

    def _secret(self, username: str) -> Secret:
        """The host's password, asked for once and only when a login needs it."""
        if self._password is None:
            self._password = self._password_source(username)
        return self._password

    def folder_id(self, folder: str) -> int:
        """The board's number of a PM folder: a kernel name or a number the host gave."""
        if folder in self.pm_folders:
            return self.pm_folders[folder]
        try:
            return int(folder)
        except ValueError:
            raise ForumError(f"на форуме нет папки личных сообщений {folder!r}",
                             self.pm_folders_hint) from None

    # -- fetching

    def reads_right(self, html: str) -> bool:
        """Hook: whether a page decoded under a charset reads as this engine's markup."""
        return True

    def fetch(self, url: str, what: str | None = None) -> tuple[httpx.Response, str]:
        """GET ``url``; the page's text, decoded for sure (a page that reads right under no
        encoding is asked for again, then a NetworkError names it: issue 14), and its
        encoding remembered: the forms are posted in it."""
        r, html, self.charset = self.http.get_text(url, reads_right=self.reads_right,
                                                   what=what)
        return r, html

    def parse_answer(self, r: httpx.Response, html: str, read: Callable[[str], T],
                     what: str) -> T:
        """Hook: the status check, then ``read(html)``. A page that asks the visitor to log
        in raises :class:`LoginRequired`."""
        return read(html)

    def status_error(self, status: int, what: str, said: str = "") -> ForumError:
        """The error for a page the board answered with an HTTP error status (``said``:
        the board's own words on it, when the engine found them)."""
        if status == 404:
            return TopicNotFound(f"{what}: такой страницы нет (HTTP 404 от {self.http.host})",
                                 "проверьте [forum] url: откройте его в браузере; тему могли "
                                 "удалить или перенести")
        if status == 403:
            return AccessDenied(f"форум не показывает {what} (HTTP 403)"
                                + (f": «{said}»" if said else ""),
                                "учётную запись могли заблокировать, или у неё нет прав "
                                "читать этот раздел; проверьте в браузере, войдя тем же "
                                "пользователем")
        return ForumError(f"форум ответил HTTP {status} (запрос: {what})",
                          "откройте страницу в браузере и посмотрите, что пишет форум")

    def guest_refused(self, asked: LoginRequired) -> LoginRequired:
        """Hook: the error for a page that wants a login when ``[forum] username`` is not
        set (the board's own words, when they say more)."""
        return LoginRequired("форум просит войти, а [forum] username не задан", USERNAME_HINT)

    def relogin(self, r: httpx.Response, html: str) -> None:
        """Hook: log in after ``r`` asked for it (the page's own login form may be used)."""
        self.login()

    def read(self, url: str, read: Callable[[str], T], *, what: str,
             seen: Callable[[httpx.Response], None] | None = None) -> T:
        """GET ``url`` and parse it with ``read``; a page that asks to log in leads to one
        login and one more try (a second one means this account may not read it).
        ``seen`` is shown each answer first (a board's canonical address, a charset)."""
        r, html = self.fetch(url, what)
        if seen is not None:
            seen(r)
        try:
            return self.parse_answer(r, html, read, what)
        except LoginRequired as asked:
            if not self.forum.username:
                raise self.guest_refused(asked) from None
        self.relogin(r, html)
        r, html = self.fetch(url, what)
        try:
            return self.parse_answer(r, html, read, what)
        except LoginRequired:
            raise LoginRequired(
                f"форум всё ещё показывает форму входа ({what}) сразу после входа как "
                f"«{self.forum.username}»",
                "проверьте в браузере, что эта учётная запись может открыть страницу") from None

    # -- the topic

    def fetch_topic_page(self, page: int) -> TopicPage:  # pragma: no cover - abstract
        raise NotImplementedError

    def fetch_topic_pages(self, cursor: PageCursor = FIRST_PAGE, *,
                          max_pages: int | None = None) -> Iterator[TopicPage]:
        """Pages ``cursor.page`` … last (:func:`walk_pages`)."""
        return walk_pages(self.fetch_topic_page, cursor.page, max_pages=max_pages)

    # -- login

    def begin_login(self) -> str:
        """The username to log in as, once the run's login budget allows one more."""
        username = self.forum.username
        if not username:
            raise LoginRequired("форум просит войти, а [forum] username не задан",
                                USERNAME_HINT)
        if self.logins >= self.max_logins:
            raise LoginFailed(f"форум снова и снова просит войти под «{username}» "
                              f"({self.logins} входа за запуск)",
                              "возможно, сессии сразу истекают; проверьте форум в браузере")
        self.logins += 1
        return username

    def post_form(self, action: str, *, username: str, **request: Any) -> httpx.Response:
        """POST a login form once (never retried: a login is not idempotent); a 5xx is a
        :class:`NetworkError` that names the login."""
        r = self.http.request("POST", action, retry_unsafe=False, follow_redirects=False,
                              **request)
        if r.status_code >= 500:
            raise NetworkError(f"форум ответил HTTP {r.status_code} при входе под «{username}»",
                               "форум может быть перегружен; запустите команду позже")
        return r

    def login_form(self, form_html: str | None, form_url: str | None) -> Any:
        """Hook: the login form (the one just served, or the board's login page)."""
        raise NotImplementedError  # pragma: no cover - abstract

    def post_login(self, form: Any, username: str) -> httpx.Response:
        """Hook: fill the form with the name and the password and post it
        (:meth:`post_form`); the password is dropped as soon as it is sent."""
        raise NotImplementedError  # pragma: no cover - abstract

    def login_succeeded(self, r: httpx.Response, html: str) -> bool:
        """Hook: the board's success marker (a session cookie, a redirect, a greeting)."""
        raise NotImplementedError  # pragma: no cover - abstract

    def login_failure(self, r: httpx.Response, html: str, username: str) -> LoginFailed:
        """Hook: the host-readable reason for a refused login (never the password)."""
        return LoginFailed(f"вход под «{username}» не удался, а форум не объяснил почему",
                           "попробуйте войти в браузере с тем же именем и паролем")

    def decoded(self, r: httpx.Response) -> str:
        """An answer's text for what is never stored (a form's answer, an error page):
        decoded by :meth:`reads_right` (:func:`adapters.charset.decode_lenient`); pages that
        are parsed come through :meth:`fetch`."""
        return decode_lenient(r.content, r.headers.get("content-type"),
                              reads_right=self.reads_right) if r.content else ""

    def answer_html(self, r: httpx.Response) -> str:
        """Hook: the text of a login's answer (:meth:`decoded`), or of the page it leads to."""
        return self.decoded(r)

    def login_again(self, r: httpx.Response, html: str) -> str | None:
        """Hook: a refused login worth one more go (the form's token was refused, not the
        password): the page whose login form to use, ``""`` for a fresh one; None: no."""
        return None

    def login(self, form_html: str | None = None, form_url: str | None = None) -> None:
        """Log in as ``[forum] username``: the template of every engine's login. Failure
        raises :class:`LoginFailed` with the board's reason, never the password."""
        username = self.begin_login()
        for attempt in range(2):  # a second go only with a fresh form (:meth:`login_again`)
            form = self.login_form(form_html, form_url)
            host = httpx.URL(form.action).host
            if not same_site(host, self.http.host):  # never the password to another site
                raise LoginFailed(f"форма входа отправила бы пароль на другой сайт ({host}); "
                                  "referee отказывается",
                                  "проверьте [forum] url: он должен вести на сам форум")
            r = self.post_login(form, username)
            html = self.answer_html(r)
            if self.login_succeeded(r, html):
                log.info("%s: logged in as %s", self.engine, username)
                self.http.save_cookies()
                return
            again = None if attempt else self.login_again(r, html)
            if again is None:
                raise self.login_failure(r, html, username)
            form_html, form_url = again or None, None


def cookies_set(r: httpx.Response, accepts: Callable[[str], bool]) -> list[str]:
    """The values of the cookies ``r`` sets whose name ``accepts`` (a board's session
    marker), in the answer's order."""
    found = []
    for header in r.headers.get_list("set-cookie"):
        name, _, rest = header.partition("=")
        if accepts(name.strip()):
            found.append(rest.split(";", 1)[0].strip())
    return found


__all__ = ["MAX_PAGES", "BoardClient", "cookies_set", "folder_pages", "walk_pages"]

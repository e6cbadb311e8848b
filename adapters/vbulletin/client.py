"""vBulletin 3.8 / 4.x over HTTP: thread pages, login, PM folders and PMs (issue 20).

What this relies on (README.md has the source of each):

- A thread page is asked for in the form of the host's link (:mod:`.urls`); when the board
  redirects to its canonical form, that form is used from then on (no redirect per page).
- A page past the end is clamped by vBulletin to the last page, so the page number the page
  reports is the truth.
- A page that needs a login says so in its message box and shows the login form; every
  guest page of vB 4 has the navbar login form, so the form alone proves nothing.
- Login (``login.php?do=login``) posts the navbar form's fields with the password only as
  its two md5 hashes (``vbulletin_md5.js``); success is judged by the ``…userid`` cookie
  vBulletin sets (``bbuserid`` with the default prefix).
- Forms are sent in the page's encoding (``windows-1251`` boards): the login name must
  match the board's bytes.
- Opening a PM marks it read for the host: every PM is opened once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import TypeVar
from zoneinfo import ZoneInfo

import httpx
from selectolax.lexbor import LexborHTMLParser

from adapters.base import BoardSession, ForumSettings, HttpClient, Secret, same_site
from adapters.vbulletin import forms, mail, parse
from adapters.vbulletin.urls import ThreadAddress, parse_thread_url
from adapters.vbulletin.when import Order
from referee.errors import (
    ConfigError,
    ForumError,
    LoginFailed,
    LoginRequired,
    MalformedPage,
    NetworkError,
    TopicNotFound,
)
from referee.kernel import (
    FIRST_PAGE,
    PageCursor,
    PmFolderPage,
    PmListEntry,
    PrivateMessage,
    TopicPage,
)

log = logging.getLogger("referee.vbulletin")
T = TypeVar("T")

PM_FOLDER_IDS = {"inbox": 0, "sentbox": -1}
"""vBulletin's folders: 0 the inbox, -1 «Sent Items»; it has no outbox (an unread sent PM
stays in «Sent Items» and in message tracking)."""
MAX_PAGES = 100_000



class VbulletinForum(BoardSession):
    """A live vBulletin 3.8/4.x board (implements :class:`referee.kernel.Forum`)."""

    engine = "vbulletin"

    def __init__(
        self,
        forum: ForumSettings,
        *,
        http: HttpClient | None = None,
        password: Callable[[str], Secret] | None = None,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        max_logins: int = 2,
    ) -> None:
        if not forum.url:
            raise ConfigError(
                "[forum] url не задан: referee не знает, какой форум читать",
                'добавьте в [forum] url = "https://forum.example.com/showthread.php?t=123"')
        self.forum = forum
        self.address: ThreadAddress = parse_thread_url(forum.url)
        self.topic_id = self.address.topic_id
        self.root = self.address.root
        self.tz = ZoneInfo(forum.timezone)
        self._init_session(http or forum.http_client(self.root), password)
        self.now = now
        self.max_logins = max_logins
        self.logins = 0
        self.charset = "utf-8"
        """The board's encoding, learnt from the pages read (forms are sent in it)."""
        self.order: Order | None = None
        """The numeric date order learnt from the pages read (``d.m.Y`` or ``m-d-Y``)."""


    # -- addresses

    def topic_page_url(self, page: int) -> str:
        return self.address.page_url(page)

    def pm_folder_url(self, folder: str, page: int = 1) -> str:
        url = f"{self.root}private.php?folderid={self._folder_id(folder)}&sort=date&order=desc"
        return url + (f"&page={page}" if page > 1 else "")

    def pm_url(self, pm_id: int) -> str:
        return f"{self.root}private.php?do=showpm&pmid={pm_id}"

    @staticmethod
    def _folder_id(folder: str) -> int:
        if folder in PM_FOLDER_IDS:
            return PM_FOLDER_IDS[folder]
        try:
            return int(folder)
        except ValueError:
            raise ForumError(f"у vBulletin нет папки личных сообщений {folder!r}",
                             "папки: inbox (входящие) и sentbox (отправленные)") from None

    # -- fetching

    def fetch(self, url: str, what: str | None = None) -> tuple[httpx.Response, str]:
        """GET ``url``; the page's text, decoded for sure (a page that reads right under no
        encoding is asked for again, then a NetworkError names it: issue 14), and its
        encoding remembered: the forms are posted in it."""
        r, html, self.charset = self.http.get_text(url, reads_right=parse.reads_as_vbulletin,
                                                   what=what)
        return r, html

    def read(self, url: str, read: Callable[[str], T], *, what: str,
             thread: bool = False) -> T:
        """GET ``url`` and parse it with ``read``; a page that asks to log in leads to one
        login and one more try (a second one means this account may not read it).
        ``thread``: a redirect to the board's canonical thread address is kept."""
        r, html = self.fetch(url, what)
        self._check_status(r, what=what)
        if thread:
            self._adopt(r, url)
        try:
            return self._parsed(r, html, read, what)
        except LoginRequired:
            if not self.forum.username:
                raise
        self.login(form_html=html, form_url=str(r.url))
        r, html = self.fetch(url, what)
        self._check_status(r, what=what)
        try:
            return self._parsed(r, html, read, what)
        except LoginRequired:
            raise LoginRequired(
                f"форум и после входа под «{self.forum.username}» не показывает {what}",
                "проверьте в браузере, что эта учётная запись может открыть страницу") from None

    @staticmethod
    def _parsed(r: httpx.Response, html: str, read: Callable[[str], T], what: str) -> T:
        try:
            return read(html)
        except MalformedPage:
            if r.status_code == 404:  # a web server's own «Not Found», not vBulletin's
                raise TopicNotFound(f"{what}: форум ответил HTTP 404",
                                    "проверьте [forum] url: откройте его в браузере") from None
            raise

    def _check_status(self, r: httpx.Response, *, what: str) -> None:
        # vBulletin's own error pages (403/404 included) are read by the parser, which
        # names the reason; a status without a vBulletin page is reported here.
        if r.status_code < 400 or b"<html" in r.content[:4096].lower():
            return
        if r.status_code == 404:
            raise TopicNotFound(f"{what}: форум ответил HTTP 404",
                                "проверьте [forum] url: откройте его в браузере")
        raise ForumError(f"форум ответил HTTP {r.status_code} на запрос «{what}»",
                         "откройте страницу в браузере и посмотрите, что пишет форум")

    def _adopt(self, r: httpx.Response, asked: str) -> None:
        """The board's canonical thread address, when it redirected us to one."""
        if r.url == httpx.URL(asked):
            return
        try:
            moved = parse_thread_url(str(r.url))
        except ConfigError:
            return
        if moved.topic_id == self.topic_id and moved.topic_id is not None:
            self.address = moved

    def fetch_topic_page(self, page: int) -> TopicPage:
        """One thread page as the board numbers it (lower than ``page`` when clamped)."""
        url = self.topic_page_url(page)

        def reader(html: str) -> TopicPage:
            tp, self.order = parse.read_topic_page(
                html, url=url, tz=self.tz, now=self.now(), topic_id=self.topic_id,
                order=self.order)
            return tp

        return self.read(url, reader, what=f"тема t={self.topic_id}, страница {page}",
                         thread=True)

    def fetch_topic_pages(self, cursor: PageCursor = FIRST_PAGE) -> Iterator[TopicPage]:
        """Pages ``cursor.page`` … last, oldest first. vBulletin numbers pages itself
        (``page=K``), so the page size is not needed to jump to a page."""
        page_no = max(1, cursor.page)
        last_seen = 0
        for _ in range(MAX_PAGES):
            tp = self.fetch_topic_page(page_no)
            if tp.page <= last_seen:
                if tp.page >= tp.total_pages:
                    # The topic shrank while it was read: the page asked for is gone and
                    # the board shows its new last page again.
                    yield tp
                    return
                raise MalformedPage(
                    f"форум показал страницу {tp.page}, когда просили {page_no}",
                    "запустите синхронизацию ещё раз")
            yield tp
            last_seen = tp.page
            if tp.page >= tp.total_pages:
                return
            page_no = tp.page + 1
        raise MalformedPage("у темы, похоже, нет последней страницы")  # pragma: no cover

    # -- login


    def _session_user(self, r: httpx.Response | None = None) -> str | None:
        """The ``…userid`` cookie (``bbuserid``; the prefix differs per board)."""
        if r is not None:
            for header in r.headers.get_list("set-cookie"):
                name, _, rest = header.partition("=")
                if name.strip().lower().endswith("userid"):
                    return rest.split(";", 1)[0].strip()
        for name in self.http.cookie_names():
            if name.lower().endswith("userid"):
                return self.http.cookie_value(name)
        return None

    def logged_in(self) -> bool:
        user = self._session_user()
        return user not in (None, "", "0", "deleted")

    def login(self, form_html: str | None = None, form_url: str | None = None) -> None:
        """Log in as ``[forum] username`` with the navbar form vBulletin shows (or its
        documented fields). Failure raises :class:`LoginFailed` with the board's reason,
        never the password."""
        username = self.forum.username
        if not username:
            raise LoginRequired(
                "форум просит войти, а [forum] username не задан",
                'добавьте в [forum] username = "Ник ведущего"; пароль спросят (или возьмут '
                "из REFEREE_PASSWORD)")
        if self.logins >= self.max_logins:
            raise LoginFailed(f"форум снова и снова просит войти под «{username}» "
                              f"({self.logins} входа за запуск)",
                              "сессии сбрасываются; проверьте форум в браузере")
        if self.address.form == "vb5":
            raise LoginFailed("vBulletin 5: вход referee пока не умеет (у vB 5 нет login.php)",
                              "откройте тему для гостей или читайте её с vB 3/4")
        self.logins += 1
        form = forms.login_form(form_html, form_url or self.root) if form_html else None
        action = form.action if form is not None else f"{self.root}login.php?do=login"
        if not same_site(httpx.URL(action).host, self.http.host):
            raise LoginFailed(f"форма входа отправила бы пароль на другой сайт "
                              f"({httpx.URL(action).host}); referee отказывается",
                              "проверьте [forum] url: он должен вести на сам форум")
        data = {"s": "", "securitytoken": "guest"}
        data.update(form.fields if form is not None else {})
        data.pop("vb_login_password_hint", None)
        md5, md5_utf = forms.md5_fields(self._secret(username).reveal())
        data.update({"do": "login", "vb_login_username": username, "vb_login_password": "",
                     "vb_login_md5password": md5, "vb_login_md5password_utf": md5_utf,
                     "cookieuser": "1"})
        r = self.http.request("POST", action, content=forms.form_body(data, self.charset),
                              retry_unsafe=False, follow_redirects=False,
                              headers={**forms.FORM_TYPE, "Referer": form_url or self.root})
        del data, md5, md5_utf
        if r.status_code >= 500:
            raise NetworkError(f"форум ответил HTTP {r.status_code} на вход под «{username}»",
                               "форум может быть перегружен; запустите команду позже")
        html = parse.decode_page(r.content, r.headers.get("content-type")) if r.content else ""
        user = self._session_user(r)
        outcome = forms.login_outcome(html) if html else "unknown"
        if (user not in (None, "", "0", "deleted")) or (user is None and outcome == "ok"):
            log.info("logged in as %s", username)
            self.http.save_cookies()
            return
        raise self._failure(outcome, username)

    @staticmethod
    def _failure(outcome: str, username: str) -> LoginFailed:
        if outcome == "strikes":
            return LoginFailed(
                f"форум временно не пускает «{username}»: исчерпаны попытки входа",
                "подождите 15 минут и проверьте пароль, войдя в браузере")
        if outcome == "wrong_password":
            return LoginFailed(f"форум отверг имя или пароль «{username}»",
                               "проверьте [forum] username и REFEREE_PASSWORD; после 5 "
                               "неудач vBulletin закрывает вход на 15 минут")
        return LoginFailed(f"вход под «{username}» не удался, а форум не объяснил почему",
                           "попробуйте войти в браузере с тем же именем и паролем")

    # -- private messages

    def fetch_pm_folder(self, folder: str = "inbox", page: int = 1) -> PmFolderPage:
        if folder == "outbox":
            return PmFolderPage(folder=folder, page=1, total_pages=1)
        if self.address.form == "vb5":
            raise ForumError("vBulletin 5: личные сообщения referee пока не читает",
                             "ночные ходы можно внести файлом заявок (requests.toml)")
        url = self.pm_folder_url(folder, page)
        return self.read(url, lambda html: self._folder_page(html, url, folder),
                         what=f"папка личных сообщений «{folder}»")

    def _folder_page(self, html: str, url: str, folder: str) -> PmFolderPage:
        fp = mail.parse_pm_folder(html, url=url, folder=folder, tz=self.tz, now=self.now())
        if not fp.entries and not parse.is_logged_in(LexborHTMLParser(html)):
            raise LoginRequired("форум показал папку личных сообщений гостю", "")
        return fp

    def fetch_pm(self, entry: PmListEntry | int, folder: str = "inbox") -> PrivateMessage:
        """Open one PM (this marks it read for the host)."""
        pm_id = entry.pm_id if isinstance(entry, PmListEntry) else int(entry)
        url = self.pm_url(pm_id)
        me = (self.forum.username,) if folder == "inbox" and self.forum.username else ()
        return self.read(url, lambda html: mail.parse_pm(
            html, url=url, pm_id=pm_id, folder=folder, tz=self.tz, now=self.now(),
            recipients=me), what=f"личное сообщение {pm_id}")


__all__ = ["VbulletinForum"]

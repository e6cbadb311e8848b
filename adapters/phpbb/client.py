"""phpBB 3.x over HTTP: topic pages, login, PM folders and PMs (issue 2).

Forum facts used here (research/phpbb.md, gotchas 8–12, sections 1.1, 1.8, 3.1–3.3):

- Topic pages are always asked for with ``sk=t&sd=a&st=0`` (the host's own sort/filter
  preferences would otherwise reorder or hide posts) and ``start=(page-1)*per_page``;
  ``sid`` is never put into a URL. ``start=`` past the end is clamped by phpBB to the last
  page, so the page number *reported* by the page is the truth.
- A page that needs a login answers HTTP 200 with the login form; only a logged-in reader
  who may not read gets 403.
- The login POST must not fall in the same second as the form's ``creation_time``
  (phpBB 3.2.6+ ``check_form_key``), so we wait at least one second after receiving the form.
- Success is judged by the session cookie ``{prefix}_u`` (1 = guest); the prefix differs
  per board and is read from ``Set-Cookie``.
- Opening a PM marks it read for the host: new PMs are read from the folder page's XML
  export instead (:mod:`adapters.phpbb.pm_export`), and opened once each only when the
  board cannot export.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar
from urllib.parse import parse_qs, parse_qsl, urlencode, urlsplit, urlunsplit
from zoneinfo import ZoneInfo

import httpx

from adapters.base import (
    BoardSession,
    ForumSettings,
    HttpClient,
    Secret,
    same_site,
    strip_sid,
)
from adapters.phpbb import parse
from adapters.phpbb.pm_export import PmExport
from referee.errors import (
    AccessDenied,
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

log = logging.getLogger("referee.phpbb")
T = TypeVar("T")

DEFAULT_POSTS_PER_PAGE = 10
"""phpBB's board default; only a fallback, the page itself tells the real value."""
DEFAULT_PMS_PER_PAGE = 25
PM_FOLDER_IDS = {"inbox": 0, "sentbox": -1, "outbox": -2}
LOGIN_WAIT = 1.05
"""Seconds between receiving the login form and posting it (gotcha 11, plus a margin)."""
MAX_PAGES = 100_000


def parse_topic_url(url: str) -> tuple[str, int | None]:
    """``(board_root, topic_id)`` from ``[forum] url``; the root ends with ``/``.

    Accepts ``viewtopic.php?t=N`` with any extra parameters (``f=``, ``start=``, ``sid=``,
    ``#p123``) or a bare board address (PM-only use).
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(
            f"[forum] url {strip_sid(url)!r} — не веб-адрес",
            'запишите его так: "https://forum.example.com/viewtopic.php?t=123"',
        )
    path = parts.path or "/"
    root_path = path if path.endswith("/") else path.rsplit("/", 1)[0] + "/"
    root = urlunsplit((parts.scheme, parts.netloc, root_path, "", ""))
    query = parse_qs(parts.query)
    topic: int | None = None
    if "t" in query:
        try:
            topic = int(query["t"][0])
        except ValueError:
            raise ConfigError(
                f"в [forum] url t={query['t'][0]!r} — это не номер темы",
                'скопируйте ссылку на тему с форума: "…/viewtopic.php?t=123"',
            ) from None
    elif "p" in query and path.endswith("viewtopic.php"):
        raise ConfigError(
            "[forum] url ведёт на одно сообщение (p=…), а не на тему",
            "откройте первую страницу темы и скопируйте её ссылку (в ней есть t=…)",
        )
    return root, topic


def sid_in_body(url: str, data: dict[str, str]) -> tuple[str, dict[str, str]]:
    """A form's address without the session id, which goes into the posted fields instead.

    phpBB prints ``sid=`` into form actions for a reader whose cookie it has not seen yet;
    a URL ends up in the board's access log (and any proxy's), the body does not. phpBB
    reads ``sid`` from the request, GET and POST alike (``request_var('sid')`` reads
    ``$_POST + $_GET``), so the form works the same (research 3.3)."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    sids = [v for k, v in query if k == "sid"]
    if not sids:
        return url, data
    if sids[0] and "sid" not in data:
        data = {**data, "sid": sids[0]}
    kept = urlencode([(k, v) for k, v in query if k != "sid"])
    return urlunsplit(parts._replace(query=kept)), data



def learned_per_page(tp: TopicPage) -> int | None:
    """The board's posts-per-page as this page shows it: a page before the last is full;
    the last page's own figure (from its links) never overstates it, so jumping with it can
    land early but never skip a page. A full page may show fewer posts than it holds (a
    soft-deleted post the parser leaves out): its links' figure then tells the size."""
    if tp.page < tp.total_pages and tp.posts:
        return max(len(tp.posts), tp.per_page)
    return tp.per_page or None


class PhpbbForum(PmExport, BoardSession):
    """A live phpBB 3.x board (implements :class:`referee.kernel.Forum` and
    :class:`referee.kernel.PmFolderExport`)."""

    engine = "phpbb"

    def __init__(
        self,
        forum: ForumSettings,
        *,
        http: HttpClient | None = None,
        cookie_file: Path | None = None,
        password: Callable[[str], Secret] | None = None,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        max_logins: int = 2,
        remember_me: bool = True,
    ) -> None:
        if not forum.url:
            raise ConfigError(
                "не задан [forum] url: referee не знает, какой форум читать",
                'добавьте в [forum]: url = "https://forum.example.com/viewtopic.php?t=123"',
            )
        self.forum = forum
        self.root, self.topic_id = parse_topic_url(forum.url)
        self.tz = ZoneInfo(forum.timezone)
        self._init_session(http or forum.http_client(
            self.root, cookie_file=cookie_file), password)
        self.now = now
        self.max_logins = max_logins
        self.remember_me = remember_me
        self.logins = 0
        self.per_page: int | None = None
        self._pm_per_page: dict[str, int] = {}
        self._exports: dict[tuple[str, int], parse.ExportForm] = {}
        self._form_key = None
        self.export_off = ""

    # -- urls

    def topic_page_url(self, page: int, per_page: int | None = None) -> str:
        """Page ``page`` of the game topic, oldest first, nothing filtered (gotcha 8)."""
        if self.topic_id is None:
            raise ConfigError(
                "в [forum] url нет номера темы (t=…)",
                'укажите ссылку на тему, например "https://forum.example.com/viewtopic.php?t=123"',
            )
        url = f"{self.root}viewtopic.php?t={self.topic_id}&sk=t&sd=a&st=0"
        if page > 1:
            url += f"&start={(page - 1) * (per_page or self.per_page or DEFAULT_POSTS_PER_PAGE)}"
        return url

    def login_url(self) -> str:
        return f"{self.root}ucp.php?mode=login"

    def pm_folder_url(self, folder: str, page: int = 1) -> str:
        fid = self._folder_id(folder)
        # Newest first, whatever the host's own sort: the PM sync stops at the first page
        # it already knows (referee.sync.sync_pms).
        if page <= 1:
            return f"{self.root}ucp.php?i=pm&folder={folder}&sk=t&sd=d"
        per = self._pm_per_page.get(folder, DEFAULT_PMS_PER_PAGE)
        return (f"{self.root}ucp.php?i=pm&mode=view&action=view_folder&f={fid}"
                f"&sk=t&sd=d&start={(page - 1) * per}")

    def pm_url(self, pm_id: int, folder: str = "inbox") -> str:
        return f"{self.root}ucp.php?i=pm&mode=view&f={self._folder_id(folder)}&p={pm_id}"

    @staticmethod
    def _folder_id(folder: str) -> int:
        if folder in PM_FOLDER_IDS:
            return PM_FOLDER_IDS[folder]
        try:
            return int(folder)
        except ValueError:
            raise ForumError(
                f"неизвестная папка ЛС {folder!r}", "бывают inbox, sentbox или outbox"
            ) from None

    # -- fetching

    def _fetch(self, url: str, what: str | None = None) -> tuple[httpx.Response, str, float]:
        """GET a page and its text, decoded for sure (a page that reads right under no
        encoding is asked for again, then a NetworkError names it: issue 14)."""
        r, html, _ = self.http.get_text(url, reads_right=parse.reads_as_phpbb, what=what)
        return r, html, self.http.clock()

    def _read(self, url: str, read: Callable[[str], T], *, what: str) -> T:
        """GET ``url`` and parse it with ``read`` (which raises :class:`LoginRequired` on a
        login form), parsing each answer once.

        A login form in the answer (a guest, or a session that expired mid-run) leads to one
        login and one more try; a second login form means the account may not read it.
        """
        r, html, received = self._fetch(url, what)
        self._check_status(r, html, what=what)
        try:
            return read(html)
        except LoginRequired:
            pass
        self.login(form_html=html, received_at=received)
        r, html, _ = self._fetch(url, what)
        self._check_status(r, html, what=what)
        try:
            return read(html)
        except LoginRequired:
            raise LoginRequired(
                f"форум всё ещё показывает форму входа ({what}) сразу после входа "
                f"как «{self.forum.username}»",
                "проверьте в браузере, что эта учётная запись может открыть страницу",
            ) from None

    def _check_status(self, r: httpx.Response, html: str, *, what: str) -> None:
        status = r.status_code
        if status < 400:
            return
        if status == 404:
            raise TopicNotFound(
                f"{what}: такой страницы нет (HTTP 404 от {self.http.host})",
                "проверьте [forum] url: откройте его в браузере; тему могли удалить "
                "или перенести",
            )
        if status == 403:
            detail = self._message_text(html)
            raise AccessDenied(
                f"форум не показывает {what} (HTTP 403)"
                + (f": «{detail}»" if detail else ""),
                "учётную запись могли заблокировать, или у неё нет прав читать этот раздел; "
                "проверьте в браузере, войдя тем же пользователем",
            )
        raise ForumError(
            f"форум ответил HTTP {status} (запрос: {what})",
            "откройте страницу в браузере и посмотрите, что пишет форум",
        )

    @staticmethod
    def _message_text(html: str) -> str:
        try:
            from selectolax.lexbor import LexborHTMLParser

            node = LexborHTMLParser(html).css_first("#message p, #message .inner")
            return " ".join(node.text().split())[:200] if node else ""
        except Exception:  # pragma: no cover - only decorates an error message
            return ""

    def fetch_topic_page(self, page: int, per_page: int | None = None) -> TopicPage:
        """One topic page as the forum numbers it (may be lower than ``page`` if clamped)."""
        url = self.topic_page_url(page, per_page)
        tp = self._read(
            url, lambda html: parse.parse_topic_page(html, url=url, tz=self.tz, now=self.now()),
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
                page_no = 2
        count = 0
        last_seen = 0
        resized = False
        while True:
            tp = self.fetch_topic_page(page_no)
            if tp.page > page_no and not resized:
                # The board's page size shrank since the cursor was saved: ask again with
                # the size this page shows, rather than skip the pages in between.
                resized = True
                log.info("page size changed: asked for page %s, got %s", page_no, tp.page)
                continue
            if tp.page <= last_seen and page_no > tp.page >= tp.total_pages:
                # The topic shrank while it was read (posts deleted): the page asked for is
                # gone and the forum shows its new last page again. The caller sees the
                # smaller post count and re-reads what moved.
                log.info("asked for page %s, the topic now ends on page %s", page_no, tp.page)
                yield tp
                return
            if tp.page <= last_seen:
                raise MalformedPage(
                    f"форум прислал страницу {tp.page}, а просили страницу {page_no}",
                    "в теме могло поменяться число сообщений на странице; запустите sync снова",
                )
            if tp.page != page_no:
                log.info("asked for page %s, forum shows page %s of %s",
                         page_no, tp.page, tp.total_pages)
            yield tp
            count += 1
            last_seen = tp.page
            if tp.page >= tp.total_pages or (max_pages and count >= max_pages):
                return
            if count >= MAX_PAGES:  # pragma: no cover - a guard against a looping forum
                raise MalformedPage("у темы, похоже, нет последней страницы")
            page_no = tp.page + 1

    # -- login

    def _session_user(self) -> str | None:
        """The ``{prefix}_u`` cookie value (``"1"`` = guest), prefix read from Set-Cookie."""
        for name in self.http.cookie_names():
            if name.endswith("_sid"):
                value = self.http.cookie_value(name[: -len("_sid")] + "_u")
                if value is not None:
                    return value
        return None

    @staticmethod
    def _session_cookie_user(r: httpx.Response) -> str | None:
        """``{prefix}_u`` as set by this very answer (the prefix differs per board)."""
        for header in r.headers.get_list("set-cookie"):
            name, _, rest = header.partition("=")
            if name.strip().endswith("_u"):
                return rest.split(";", 1)[0].strip()
        return None

    def _login_succeeded(self, r: httpx.Response, html: str) -> bool:
        """Judged by the session the forum gave us, not by the page text: the answer to
        the POST sets ``{prefix}_u`` to the user id (1 = still a guest)."""
        user = self._session_cookie_user(r)
        if user is not None:
            return user != "1"
        if html:
            return parse.is_logged_in(html)
        return self.logged_in()

    def logged_in(self) -> bool:
        user = self._session_user()
        return user is not None and user != "1"


    def login(self, form_html: str | None = None, *, received_at: float | None = None) -> None:
        """Log in as ``[forum] username`` (research 3.2).

        Reuses a login form the forum just served (``form_html``) or GETs
        ``ucp.php?mode=login``; waits ≥1 s after the form arrived; posts it; judges success
        by the session cookie. Failure raises :class:`LoginFailed` naming the reason
        (wrong password, CAPTCHA, banned/inactive) and never the password.
        """
        username = self.forum.username
        if not username:
            raise LoginRequired(
                "форум просит войти, а [forum] username не задан",
                'добавьте в [forum]: username = "ВашНик"; пароль спросится '
                "(или возьмётся из REFEREE_PASSWORD)",
            )
        if self.logins >= self.max_logins:
            raise LoginFailed(
                f"форум снова и снова просит войти как «{username}» "
                f"(входов за этот запуск: {self.logins})",
                "сессии, похоже, сразу истекают; проверьте форум в браузере",
            )
        self.logins += 1
        for attempt in range(2):  # a second go only after an expired form token
            if form_html is None:
                _, form_html, received_at = self._fetch(self.login_url())
            try:
                form = parse.parse_login_form(form_html, url=self.login_url())
            except MalformedPage:
                raise LoginFailed(
                    "на странице входа форума нет понятной referee формы входа",
                    f"откройте {self.login_url()} в браузере",
                ) from None
            if form.has_captcha:
                raise self._failure("captcha_required", username)
            action = form.action or self.login_url()
            if not same_site(httpx.URL(action).host, self.http.host):
                raise LoginFailed(
                    f"форма входа отправила бы пароль на другой сайт "
                    f"({httpx.URL(action).host}); referee отказывается",
                    "проверьте [forum] url: он должен вести на сам форум",
                )
            action, data = sid_in_body(action, self._login_data(form, username))
            # Gotcha 11: a form posted in the second it was made is refused (FORM_INVALID).
            since = self.http.clock() - received_at if received_at is not None else 0.0
            if since < LOGIN_WAIT:
                self.http.sleep(LOGIN_WAIT - since)
            r = self.http.request(
                "POST", action, data=data, headers={"Referer": self.login_url()},
                retry_unsafe=False, follow_redirects=False,
            )
            if r.status_code >= 500:
                # Not a refusal of the password: the forum broke (a refused login is an
                # HTTP 200 page with the form and a reason).
                raise NetworkError(
                    f"форум ответил HTTP {r.status_code} при входе как "
                    f"«{username}»",
                    "форум, возможно, лежит или перегружен; запустите команду позже "
                    "(уже прочитанные страницы сохранены)",
                )
            html = parse.decode_page(r.content, r.headers.get("content-type")) if r.content else ""
            del data
            if self._login_succeeded(r, html):
                log.info("logged in as %s", username)
                self.http.save_cookies()
                return
            kind = parse.login_error(html) if html else None
            if kind == "form_invalid" and attempt == 0:
                form_html, received_at = None, None
                continue
            raise self._failure(kind, username)
        raise self._failure("form_invalid", username)  # pragma: no cover - loop always returns

    def _login_data(self, form: parse.LoginForm, username: str) -> dict[str, str]:
        """The fields a browser would post: hidden ones (creation_time, form_token, sid,
        redirect), the name, the password, «Запомнить меня» and the ``login`` button."""
        data = dict(form.hidden)
        data[form.username_field] = username
        data[form.password_field] = self._secret(username).reveal()
        name, value = form.submit or ("login", "")
        data[name or "login"] = value or "Вход"
        if self.remember_me and form.autologin_field:
            data[form.autologin_field] = "on"
        return data

    @staticmethod
    def _failure(kind: str | None, username: str) -> LoginFailed:
        """The host-readable reason for a refused login (never the password)."""
        reasons: dict[str, tuple[str, str]] = {
            "wrong_password": (
                f"форум не принял пароль для «{username}»",
                "проверьте REFEREE_PASSWORD (или что вы ввели); после 3 неверных попыток "
                "phpBB начинает спрашивать CAPTCHA",
            ),
            "wrong_username": (
                f"на форуме нет пользователя «{username}»",
                "проверьте [forum] username: это имя для входа точно как на форуме",
            ),
            "captcha_required": (
                f"форум теперь требует CAPTCHA для входа как «{username}» "
                "(слишком много неудачных входов)",
                "войдите один раз в браузере (пройдя CAPTCHA) с верным паролем, "
                "затем запустите referee с этим паролем",
            ),
            "banned": (
                f"учётная запись «{username}» заблокирована на этом форуме",
                "обратитесь к администраторам форума: заблокированным referee читать не может",
            ),
            "inactive": (
                f"учётная запись «{username}» не активирована",
                "активируйте её по письму форума или попросите администратора",
            ),
            "form_invalid": (
                "форум дважды отклонил форму входа (не принят ключ безопасности формы)",
                "запустите команду снова; если повторится, проверьте часы компьютера",
            ),
        }
        message, hint = reasons.get(str(kind or ""), (
            f"вход как «{username}» не удался, и форум не назвал понятной referee причины",
            "попробуйте войти с теми же именем и паролем в браузере",
        ))
        return LoginFailed(message, hint)

    # -- private messages

    def fetch_pm_folder(self, folder: str = "inbox", page: int = 1) -> PmFolderPage:
        url = self.pm_folder_url(folder, page)
        fp, form = self._read(
            url, lambda html: parse.read_pm_folder(html, url=url, tz=self.tz, now=self.now()),
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
        return self._read(
            url, lambda html: parse.parse_pm(html, url=url, tz=self.tz, now=self.now(),
                                             folder=folder),
            what=f"личное сообщение {pm_id}",
        )


__all__ = ["PhpbbForum", "parse_topic_url"]

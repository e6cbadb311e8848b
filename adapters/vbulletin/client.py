"""vBulletin 3.8 / 4.x over HTTP: thread pages, login, PM folders and PMs (issue 20), the
hooks of :class:`adapters.board.BoardClient`: the thread asked for in the form of the host's
link (a canonical redirect is adopted), a clamped page's own number believed, a login asked
for by the page's message box (not by the navbar form), the md5 login judged by the
``…userid`` cookie, forms sent in the page's encoding. Facts and sources: README.md,
«Login and posting»."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import httpx
from selectolax.lexbor import LexborHTMLParser

from adapters.address import or_none
from adapters.board import cookies_set
from adapters.form import HtmlForm
from adapters.login import FormLogin
from adapters.poster import FORM_TYPE, form_body
from adapters.vbulletin import forms, pms, topic
from adapters.vbulletin.dates import Order
from adapters.vbulletin.urls import ThreadAddress, parse_thread_url
from referee.core.errors import (
    ForumError,
    LoginFailed,
    LoginRequired,
    MalformedPage,
)
from referee.core.kernel import PmFolderPage, PmListEntry, PrivateMessage, TopicPage

T = TypeVar("T")

_NO_USER = (None, "", "0", "deleted")


class VbulletinForum(FormLogin):
    """A live vBulletin 3.8/4.x board (implements :class:`referee.core.kernel.Forum`)."""

    engine = "vbulletin"
    pm_folders = {"inbox": 0, "sentbox": -1}
    """vBulletin's folders: 0 the inbox, -1 «Sent Items»; it has no outbox (an unread sent
    PM stays in «Sent Items» and in message tracking)."""
    pm_folders_hint = "папки: inbox (входящие) и sentbox (отправленные)"
    reads_right = staticmethod(topic.reads_as_vbulletin)
    refusals = {
        "strikes": ("форум временно не пускает «{username}»: исчерпаны попытки входа",
                    "подождите 15 минут и проверьте пароль, войдя в браузере"),
        "wrong_password": ("форум отверг имя или пароль «{username}»",
                           "проверьте [forum] username и REFEREE_PASSWORD; после 5 неудач "
                           "vBulletin закрывает вход на 15 минут"),
    }

    def read_address(self, url: str) -> str:
        self.address: ThreadAddress = parse_thread_url(url)
        self.topic_id = self.address.topic_id
        self.root = self.address.root
        return self.root

    def start(self) -> None:
        self.order: Order | None = None
        """The numeric date order learnt from the pages read (``d.m.Y`` or ``m-d-Y``)."""
        self._charset_learnt = False
        """Whether :attr:`charset` comes from a page yet (it is ``utf-8`` until then)."""

    # -- addresses

    def topic_page_url(self, page: int) -> str:
        return self.address.page_url(page)

    # -- fetching (hooks)

    def parse_answer(self, r: httpx.Response, html: str, read: Callable[[str], T],
                     what: str) -> T:
        # vBulletin's own error pages (403/404 included) are read by the parser, which
        # names the reason; a status without a vBulletin page is reported here.
        if r.status_code >= 400 and b"<html" not in r.content[:4096].lower():
            raise self.status_error(r.status_code, what)
        try:
            return read(html)
        except MalformedPage:
            if r.status_code == 404:  # a web server's own «Not Found», not vBulletin's
                raise self.status_error(404, what) from None
            raise

    def _adopt(self, r: httpx.Response, asked: str) -> None:
        """The board's canonical thread address, when it redirected us to one."""
        if r.url == httpx.URL(asked):
            return
        moved = or_none(parse_thread_url, str(r.url))
        if moved is not None and moved.topic_id == self.topic_id:
            self.address = moved

    def fetch_topic_page(self, page: int) -> TopicPage:
        """One thread page as the board numbers it (lower than ``page`` when clamped)."""
        url = self.topic_page_url(page)

        def reader(html: str) -> TopicPage:
            tp, self.order = topic.read_topic_page(
                html, url=url, tz=self.tz, now=self.now(), topic_id=self.topic_id,
                order=self.order)
            return tp

        return self.read(url, reader, what=f"тема t={self.topic_id}, страница {page}",
                         seen=lambda r: self._adopt(r, url))

    # -- login (hooks)

    def _session_user(self, r: httpx.Response) -> str | None:
        """The ``…userid`` cookie (``bbuserid``; the prefix differs per board): as ``r``
        sets it, else as the session holds it."""
        if users := cookies_set(r, _userid):
            return users[0]
        for name in self.http.cookie_names():
            if _userid(name):
                return self.http.cookie_value(name)
        return None

    def fetch(self, url: str, what: str | None = None) -> tuple[httpx.Response, str]:
        r, html = super().fetch(url, what)
        self._charset_learnt = True
        return r, html

    def login_form(self, form_html: str | None, form_url: str | None) -> HtmlForm:
        """The navbar form vBulletin shows, or its documented fields. Before any page was
        read the board's encoding is unknown, and vBulletin takes the login name in it: the
        PM inbox is read first (a guest gets the no-permission page and its login form)."""
        if self.address.form == "vb5":
            raise LoginFailed("vBulletin 5: вход referee пока не умеет (у vB 5 нет login.php)",
                              "откройте тему для гостей или читайте её с vB 3/4")
        if form_html is None and not self._charset_learnt:
            form_url = f"{self.root}private.php"
            form_html = self.fetch(form_url, "форма входа")[1]
        form = forms.login_form(form_html, form_url or self.root) if form_html else None
        self._login_referer = form_url or self.root
        return form or HtmlForm(f"{self.root}login.php?do=login")

    def post_login(self, form: HtmlForm, username: str) -> httpx.Response:
        data = {"s": "", "securitytoken": "guest", **form.fields}
        data.pop("vb_login_password_hint", None)
        md5, md5_utf = forms.md5_fields(self._secret(username).reveal())
        data.update({"do": "login", "vb_login_username": username, "vb_login_password": "",
                     "vb_login_md5password": md5, "vb_login_md5password_utf": md5_utf,
                     "cookieuser": "1"})
        r = self.post_form(form.action, username=username,
                           content=form_body(data, self.charset),
                           headers={**FORM_TYPE, "Referer": self._login_referer})
        del data, md5, md5_utf
        return r

    def login_succeeded(self, r: httpx.Response, html: str) -> bool:
        user = self._session_user(r)
        return user not in _NO_USER or (user is None and bool(html)
                                        and forms.login_outcome(html) == "ok")

    def login_reason(self, r: httpx.Response, html: str) -> str | None:
        return forms.login_outcome(html) if html else None

    # -- private messages

    def fetch_pm_folder(self, folder: str = "inbox", page: int = 1) -> PmFolderPage:
        if folder == "outbox":
            return PmFolderPage(folder=folder, page=1, total_pages=1)
        if self.address.form == "vb5":
            raise ForumError("vBulletin 5: личные сообщения referee пока не читает",
                             "ночные ходы можно внести файлом заявок (requests.toml)")
        url = f"{self.root}private.php?folderid={self.folder_id(folder)}&sort=date&order=desc"
        url += f"&page={page}" if page > 1 else ""
        return self.read(url, lambda html: self._folder_page(html, url, folder),
                         what=f"папка личных сообщений «{folder}»")

    def _folder_page(self, html: str, url: str, folder: str) -> PmFolderPage:
        fp = pms.parse_pm_folder(html, url=url, folder=folder, tz=self.tz, now=self.now())
        if not fp.entries and not topic.is_logged_in(LexborHTMLParser(html)):
            raise LoginRequired("форум показал папку личных сообщений гостю", "")
        return fp

    def fetch_pm(self, entry: PmListEntry | int, folder: str = "inbox") -> PrivateMessage:
        """Open one PM (this marks it read for the host)."""
        pm_id = entry.pm_id if isinstance(entry, PmListEntry) else int(entry)
        url = f"{self.root}private.php?do=showpm&pmid={pm_id}"
        return self.read(url, lambda html: pms.parse_pm(
            html, url=url, pm_id=pm_id, folder=folder, tz=self.tz, now=self.now(),
            host=self.forum.username), what=f"личное сообщение {pm_id}")


def _userid(name: str) -> bool:
    return name.lower().endswith("userid")


__all__ = ["VbulletinForum"]

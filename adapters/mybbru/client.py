"""A MyBB.ru-family board over HTTP: the game topic and the host's private messages through
the board's JSON API, the topic's HTML pages when a board has closed its API. A page here
is 100 posts in id order whatever the board shows, so one numbering serves the API and the
HTML fallback alike, and a sync resumes on the last stored page in one request. How and
why, and the facts with their sources: README.md («How topic pages map to the API»).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import httpx

from adapters import post_parts
from adapters.address import no_topic
from adapters.base import strip_sid
from adapters.board import BoardClient
from adapters.mybbru import api
from adapters.mybbru import page as pages
from adapters.mybbru import topic as topic_page
from adapters.mybbru.api import PER_PAGE, ApiRefused, ApiUnavailable, TopicInfo
from adapters.mybbru.urls import EXAMPLE, parse_topic_url
from adapters.paging import Place
from referee.core.errors import (
    AccessDenied,
    ForumError,
    LoginFailed,
    MalformedPage,
    PmRemoved,
    TopicNotFound,
)
from referee.core.kernel import (
    FIRST_PAGE,
    PageCursor,
    PmFolderPage,
    PmListEntry,
    Post,
    PrivateMessage,
    TopicPage,
)

log = logging.getLogger("referee.mybbru")

SESSION_COOKIE = "mybb_ru"
"""Where ``board.auth``'s hash travels, to the API and to the pages alike."""
PM_BATCH = 20
"""Messages per ``message.get`` call: what the board's own messenger asks for."""
PM_FIELDS = "id,subject,message,user_id,username,status,showed,received,posted"
POST_FIELDS = "id,topic_id,user_id,username,posted,edited,edited_by,message"
TOPIC_FIELDS = "id,subject,forum_id,num_replies,last_post_id,last_post_date,init_post,closed"
MAX_BATCHES = 10_000


def whole_answer(r: httpx.Response) -> bool:
    """Whether an answer reached its end: JSON that parses, HTML that closes ``</html>``
    (a cut answer is asked for again, never read as a short page or a closed API)."""
    head = r.content[:2048].lstrip()
    if head.startswith((b"{", b"[", b"\xef\xbb\xbf")):
        try:
            json.loads(r.content.decode("utf-8-sig"))
        except ValueError:
            return False
        return True
    if b"<html" in head.lower():
        return b"</html" in r.content[-65536:].lower()
    return True


class _ApiClosed(Exception):
    """The board does not answer the API: read its pages instead (its text: why)."""


def punbb_error(host: str) -> ForumError:
    return ForumError(
        f"форум {host} — обычный PunBB/FluxBB без API MyBB.ru (api.php не отвечает, у "
        "страниц нет разметки MyBB.ru): referee читает только форумы семейства MyBB.ru "
        "(mybb.ru, rusff.me, rolka.me, hutt.ru…) и phpBB",
        "проверьте [forum] url; движка для PunBB/FluxBB в referee пока нет",
    )


def _closed_login(why: str) -> LoginFailed:
    return LoginFailed(f"API форума закрыт ({why}): войти через board.auth нельзя",
                       "откройте тему гостю или попросите администратора открыть API")


def _no_pms(why: str) -> ForumError:
    return ForumError(
        f"личные сообщения referee читает только через API, а API форума закрыт ({why})",
        "внесите ночные заявки файлом заявок ведущего или уберите [forum] username, "
        "чтобы sync читал только тему; либо попросите администратора открыть API",
    )


class MybbForum(BoardClient):
    """A live MyBB.ru board (implements :class:`referee.core.kernel.Forum`)."""

    engine = "mybbru"

    whole_answer = staticmethod(whole_answer)
    reads_right = staticmethod(pages.reads_as_mybb)

    def read_address(self, url: str) -> str:
        self.root, self.topic_id = parse_topic_url(url)
        return self.root

    def start(self) -> None:
        self.mode: str | None = None
        """``"api"`` once the API answered, ``"html"`` once it proved closed."""
        self.notes: list[str] = []
        """What the host should hear once after a sync (the API is closed: pages are read)."""
        self.closed_because: str | None = None
        self.topic: TopicInfo | None = None
        self._first_ids: dict[int, int] = {}
        self._messages: dict[int, PrivateMessage] | None = None

    # -- urls

    def _topic(self) -> int:
        if self.topic_id is None:
            raise no_topic("id=…", EXAMPLE)
        return self.topic_id

    def html_page_url(self, page: int) -> str:
        url = f"{self.root}viewtopic.php?id={self._topic()}"
        return f"{url}&p={page}" if page > 1 else url

    def topic_page_url(self, page: int) -> str:
        """Page ``page`` (of 100 posts) as a link: to its first post, which the board opens
        on the right HTML page whatever its page size."""
        first = self._first_ids.get(page)
        if page <= 1 or first is None:
            return self.html_page_url(1)
        return f"{self.root}viewtopic.php?pid={first}#p{first}"

    # -- the API

    def call(self, method: str, params: dict[str, str] | None = None, *,
             form: dict[str, str] | None = None) -> Any:
        """One API call (a POST when ``form`` is given: the password never goes in a URL)."""
        if form is None:
            # httpx replaces a URL's query by ``params``: the method goes in with them.
            r = self.http.get(f"{self.root}api.php", params={"method": method, **(params or {})})
        else:
            r = self.http.post(f"{self.root}api.php?method={method}", data=form, retry=True)
        if r.status_code >= 400:
            raise ApiUnavailable(f"api.php ответил HTTP {r.status_code}")
        response = api.response_of(r.content, method)
        self.mode = self.mode or "api"
        return response

    def _api(self, method: str, params: dict[str, str]) -> Any:
        """A topic or PM call. The run's first one decides whether the API is open (an
        error answer counts as «closed» only when ``board.get`` fails too); a refusal
        leads to one login when the host's name is set."""
        try:
            return self._decided(method, params)
        except ApiRefused:
            if not self._may_login():
                raise
        self.login()
        return self._decided(method, params)

    def _decided(self, method: str, params: dict[str, str]) -> Any:
        try:
            return self.call(method, params)
        except ApiUnavailable as e:
            if self.mode == "api":
                raise
            raise _ApiClosed(e.message) from None
        except ApiRefused as e:
            if self._api_answers():
                raise
            raise _ApiClosed(f"на {method}: «{e.api_message}»") from None

    def _api_answers(self) -> bool:
        """Whether the API is open: it answered this run already, or ``board.get`` answers
        (a refusal of the run's first call is a closed API only when that fails too)."""
        if self.mode == "api":
            return True
        try:
            self.call("board.get", {"fields": "board_id"})
        except (ApiUnavailable, ApiRefused):
            return False
        return True

    def _may_login(self) -> bool:
        return bool(self.forum.username) and self.logins == 0

    # -- login

    def logged_in(self) -> bool:
        return self.http.cookie_value(SESSION_COOKIE) is not None

    def login(self) -> None:
        """``board.auth`` as ``[forum] username``; its hash becomes the ``mybb_ru`` cookie of
        this board only (kept in the 0600 cookie file)."""
        username = self.begin_login()
        try:
            secret = self._secret(username)
            response = self.call("board.auth",
                                 form={"login": username, "password": secret.reveal()})
        except ApiRefused as e:
            if self._api_answers():
                raise LoginFailed(f"форум не пустил «{username}»: «{e.api_message}»",
                                  "проверьте ник и пароль (REFEREE_PASSWORD) — войдите с ними "
                                  "в браузере") from None
            raise _closed_login(e.api_message) from None
        except ApiUnavailable as e:
            raise _closed_login(e.message) from None
        token = api.auth_hash(response)
        if token is None:
            raise LoginFailed(f"форум ответил на вход «{username}» без ключа сессии (hash)",
                              "войдите в браузере и проверьте, не нужна ли капча")
        self.http.cookies.set(SESSION_COOKIE, token, domain=self.http.host, path="/")
        self.http.save_cookies()
        log.info("logged in as %s", username)

    # -- the topic

    def fetch_topic_pages(self, cursor: PageCursor = FIRST_PAGE) -> Iterator[TopicPage]:
        """Pages of 100 posts from ``cursor.page`` on (a cursor kept with another page size
        is turned into the page holding its first post): through the API, or the topic's
        HTML pages once the API proved closed."""
        topic = self._topic()
        per = cursor.per_page or PER_PAGE
        start = ((max(1, cursor.page) - 1) * per) // PER_PAGE + 1
        if self.mode != "html":
            # Only the run's first API call finds the API closed, before any page is handed
            # on: the pages are then read from where the API would have begun.
            try:
                yield from self._hundreds(topic, self._api_posts(topic, start,
                                                                 learn=cursor.per_page is None))
                return
            except _ApiClosed as e:
                self.mode, self.closed_because = "html", str(e)
                note = (f"API форума закрыт ({str(e)}): тема читается по HTML-страницам "
                        "viewtopic.php — медленнее, время правок не видно")
                self.notes.append(note)
                log.info(note)
        yield from self._hundreds(topic, self._html_posts(topic, start))

    def _hundreds(self, topic: int, posts: Iterator[tuple[int, Post, str]]
                  ) -> Iterator[TopicPage]:
        """``posts`` (each with its place in the topic, from 0, and the topic's title) as
        pages of 100, the API's and the HTML pages' alike. A page is handed on once the post
        after it is seen (then it is not the last) or the posts end (then it is)."""
        page, held, title = 0, [], ""
        for at, post, title in posts:
            if len(held) == PER_PAGE:
                yield self._page(topic, page, held, title, last=False)
                held = []
            if not held:
                page = page + 1 if page else at // PER_PAGE + 1
            held.append(post)
        if held:
            yield self._page(topic, page, held, title, last=True)

    def _page(self, topic: int, page: int, posts: list[Post], title: str, *,
              last: bool) -> TopicPage:
        self._first_ids[page] = posts[0].post_id
        known = -(-self.topic.posts // PER_PAGE) if self.topic else 0
        return post_parts.topic_page(
            Place(page, page if last else max(page + 1, known)), posts, topic_id=topic,
            title=title, per_page=PER_PAGE,
            total_posts=(page - 1) * PER_PAGE + len(posts) if last else None)

    # -- the topic through the API

    def _topic_info(self, topic: int) -> TopicInfo:
        ask = {"topic_id": str(topic), "fields": TOPIC_FIELDS}
        info = api.topic_info(self._api("topic.get", ask), topic)
        if info is None and self._may_login():
            self.login()
            info = api.topic_info(self._api("topic.get", ask), topic)
        if info is None:
            raise TopicNotFound(
                f"тема {topic} не найдена на {self.http.host} (API topic.get её не знает)",
                "проверьте [forum] url; если тема скрыта от гостей, укажите [forum] username "
                "ведущего, которому она видна",
            )
        self.topic = info
        return info

    def _post_page(self, topic: int, page: int) -> list[Post]:
        response = self._api("post.get", {
            "topic_id": str(topic), "fields": POST_FIELDS, "sort_by": "id", "sort_dir": "asc",
            "skip": str((page - 1) * PER_PAGE), "limit": str(PER_PAGE)})
        return api.posts_of(response, page=page, topic_id=topic)

    def _api_posts(self, topic: int, start: int, *, learn: bool
                   ) -> Iterator[tuple[int, Post, str]]:
        """The topic's posts from page ``start`` on, one ``post.get`` of 100 after another
        (the next one asked only when a page is full)."""
        if learn and self.topic is None:
            self._topic_info(topic)
        page, posts = start, self._post_page(topic, start)
        if not posts:
            page, posts = self._nothing_at(topic, page)
        last_id = 0
        while posts:
            if posts[0].post_id <= last_id:
                raise MalformedPage(
                    f"API post.get отдаёт сообщения не по порядку (страница {page})",
                    "запустите sync ещё раз; если повторится — форум не держит сортировку",
                )
            title = self.topic.subject if self.topic else ""
            yield from (((page - 1) * PER_PAGE + i, p, title) for i, p in enumerate(posts))
            if len(posts) < PER_PAGE:
                return
            last_id, page = posts[-1].post_id, page + 1
            posts = self._post_page(topic, page)

    def _nothing_at(self, topic: int, page: int) -> tuple[int, list[Post]]:
        """``post.get`` has nothing where the store ended: posts were deleted (the topic
        ends on an earlier page now), the topic is hidden from this reader, or gone."""
        if page > 1:
            posts = self._post_page(topic, page - 1)
            if posts:
                return page - 1, posts
        logins = self.logins
        info = self._topic_info(topic)
        last = min(page, max(1, -(-info.posts // PER_PAGE)))
        if self.logins > logins or last < page - 1:
            posts = self._post_page(topic, last)
            if posts:
                return last, posts
        raise AccessDenied(
            f"API показывает тему {topic} ({info.posts} сообщ.), но не отдаёт её сообщения",
            "тема, видимо, скрыта от гостей: укажите [forum] username ведущего, которому "
            "она видна",
        )

    # -- the topic's HTML pages (the API closed)

    def _html_page(self, topic: int, page: int) -> topic_page.HtmlTopicPage:
        r, html = self.fetch(self.html_page_url(page), f"страница {page} темы {topic}")
        if r.status_code == 404:
            raise TopicNotFound(f"тема {topic} не найдена (HTTP 404 от {self.http.host})",
                                "проверьте [forum] url")
        if r.status_code >= 400:
            raise AccessDenied(f"форум не показывает тему {topic} (HTTP {r.status_code})",
                               "проверьте в браузере, видна ли тема этой учётной записи")
        if pages.is_punbb_page(html):
            raise punbb_error(self.http.host)
        if not pages.is_mybb_page(html):
            raise MalformedPage(
                f"страница {strip_sid(self.html_page_url(page))} не похожа на тему MyBB.ru, "
                "а API форума не отвечает",
                "проверьте [forum] url (ссылка на тему форума MyBB.ru)",
            )
        return topic_page.parse_topic_page(html, topic_id=topic, page=page, tz=self.tz,
                                           now=self.http.wall())

    def _html_posts(self, topic: int, start: int) -> Iterator[tuple[int, Post, str]]:
        """The topic's posts from page ``start`` (of 100) on, read from the board's own
        pages. Page 1 is read first: a full page 1 tells the board's page size."""
        offset = (start - 1) * PER_PAGE
        here = self._html_page(topic, 1)
        size = len(here.posts)
        if offset and here.last_page > 1:
            wanted = min(offset // size + 1, here.last_page)
            here = here if wanted == 1 else self._html_page(topic, wanted)
        # The posts' own numbers place them in the topic; counting by page 1's size is
        # what is left on a page that does not number them.
        first = here.first_number
        index = first - 1 if first is not None else (here.page - 1) * size
        while True:
            for post in here.posts:
                if index >= offset:
                    yield index, post, here.title
                index += 1
            if here.page >= here.last_page:
                break
            here = self._html_page(topic, here.page + 1)
        if 0 < index <= offset:
            # Posts were deleted: the topic no longer reaches page ``start``.
            yield from self._html_posts(topic, min(start - 1, -(-index // PER_PAGE)))

    # -- private messages

    def _pm_call(self, method: str, params: dict[str, str]) -> Any:
        if self.mode == "html":
            raise _no_pms(self.closed_because or "")
        if not self.logged_in():
            self.login()
        try:
            return self._api(method, params)
        except _ApiClosed as e:
            raise _no_pms(str(e)) from None

    def _batches(self, method: str, params: dict[str, str]) -> Iterator[list[Any]]:
        for n in range(MAX_BATCHES):
            rows = api.rows_of(self._pm_call(method, {
                **params, "skip": str(n * PM_BATCH), "limit": str(PM_BATCH)}), method)
            if rows:
                yield rows
            if len(rows) < PM_BATCH:
                return

    def _all_messages(self) -> dict[int, PrivateMessage]:
        """Every message of the host's dialogs (``message.getRecent``, then
        ``message.get`` per partner), read once per run."""
        if self._messages is None:
            host = self.forum.username or ""
            found: dict[int, PrivateMessage] = {}
            recent = [row for rows in self._batches("message.getRecent", {"sort_dir": "desc"})
                      for row in rows]
            for uid, _ in api.partners_of(recent):
                for rows in self._batches("message.get", {"user_id": str(uid),
                                                          "fields": PM_FIELDS,
                                                          "sort_dir": "desc"}):
                    for row in rows:
                        pm = api.message_of(row, host)
                        found.setdefault(pm.pm_id, pm)
            self._messages = found
        return self._messages

    def fetch_pm_folder(self, folder: str = "inbox", page: int = 1) -> PmFolderPage:
        """``inbox``: what players wrote to the host; ``sentbox``: what the host wrote (the
        dialogs hold both). The API has no outbox; one listing page holds everything."""
        if folder not in ("inbox", "sentbox", "outbox"):
            raise ForumError(f"нет такой папки ЛС: {folder!r}", "inbox, sentbox или outbox")
        if folder == "outbox" or page > 1:
            return PmFolderPage(folder, page, 1)
        entries = api.listing_of(list(self._all_messages().values()), folder,
                                 f"{self.root}messages.php?id=")
        return PmFolderPage(folder, 1, 1, entries)

    def fetch_pm(self, entry: PmListEntry | int, folder: str = "inbox") -> PrivateMessage:
        pm_id = entry.pm_id if isinstance(entry, PmListEntry) else int(entry)
        if self._messages and pm_id in self._messages:
            return self._messages[pm_id]
        rows = api.rows_of(self._pm_call("message.get", {"id": str(pm_id),
                                                         "fields": PM_FIELDS}), "message.get")
        for row in rows:
            pm = api.message_of(row, self.forum.username or "")
            if pm.pm_id == pm_id:
                return pm
        raise PmRemoved(f"личного сообщения {pm_id} больше нет",
                        "его удалили до того, как referee его прочёл")


__all__ = ["MybbForum", "punbb_error"]

"""The polite HTTP client every engine fetches through (moved out of :mod:`adapters.base`,
which re-exports it).

Politeness (issue 2): one clear User-Agent, at most ``[forum] rate_limit`` requests a
second, bounded retries with exponential backoff and jitter on network errors, timeouts,
5xx and 429 (a ``Retry-After`` is honoured). Cookies never travel to another site, and a
foreign site's are never kept.

Issue 14: a page whose posts are stored is decoded for sure (:meth:`HttpClient.get_text`,
:mod:`adapters.charset`), never as a guess; while the forum keeps the host waiting (5 s
without an answer, every retry) a «жду ответа форума…» line goes to :data:`notices`, which
the CLI shows; a host name that does not resolve is named.
"""

from __future__ import annotations

import contextlib
import email.utils
import logging
import random
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Self
from urllib.parse import urlsplit

import httpx

from adapters.bounded import ACCEPT_ENCODING, DEFAULT_MAX_ANSWER, read_bounded
from adapters.charset import ReadsRight, Undecodable, decide, decide_lenient, salvage
from adapters.cookies import load_cookies, own_cookie, same_origin, save_cookies
from referee.core.errors import ForumError, NetworkError

log = logging.getLogger("referee.http")
notices = logging.getLogger("referee.notice")
"""What the host should see while it happens, without ``--verbose`` (a forum that keeps
him waiting, a cookie file that cannot be saved): the CLI shows this logger's lines as
they are; the library prints nothing itself."""

try:
    VERSION = metadata.version("referee")
except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
    VERSION = "0.0.0"

USER_AGENT = f"referee/{VERSION} (+forum mafia referee)"

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
"""Statuses worth asking again: the forum is busy or briefly broken, not refusing us."""

NOTICE_AFTER = 5.0
"""Seconds without an answer before the host is told that the forum is being waited for."""

MAX_RETRY_AFTER = 300.0
"""A ``Retry-After`` longer than this is not waited out: the host is told to come back later."""

_SID = re.compile(r"([?&])sid=[0-9a-fA-F]{32}(&?)")


# --------------------------------------------------------------------------- urls

def strip_sid(url: str) -> str:
    """``url`` without phpBB's ``sid=`` session parameter (it is a session secret too)."""
    def repl(m: re.Match[str]) -> str:
        return m.group(1) if m.group(2) else ""

    out = _SID.sub(repl, url)
    return out[:-1] if out.endswith(("?", "&")) else out


# --------------------------------------------------------------------------- http client

@dataclass(frozen=True, slots=True)
class Backoff:
    """Delay before retry ``attempt`` (0-based): ``base·2^attempt`` capped, times 1..1+jitter."""

    base: float = 1.0
    cap: float = 60.0
    jitter: float = 0.5

    def delay(self, attempt: int, rnd: float) -> float:
        return min(self.cap, self.base * 2**attempt) * (1.0 + self.jitter * rnd)


def retry_after_seconds(value: str | None, now: datetime) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - now).total_seconds())


class Closing:
    """What ``with`` does to a session (a client, a board, a poster): :meth:`close` on the
    way out."""

    def close(self) -> None:
        """Hook: release what the session holds."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class HttpClient(Closing):
    """httpx with the project's manners; every engine adapter fetches through one of these.

    ``sleep``, ``clock`` (monotonic seconds), ``wall`` (aware now) and ``random`` are
    injectable so tests never wait. ``requests`` counts every HTTP request actually sent,
    retries and redirects included, for tests and benchmarks.
    """

    def __init__(
        self,
        base_url: str,
        *,
        rate_limit: float | None = 2.0,
        timeout: float = 20.0,
        retries: int = 4,
        user_agent: str | None = None,
        cookie_file: Path | None = None,
        backoff: Backoff | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], datetime] = lambda: datetime.now(UTC),
        random_: Callable[[], float] = random.random,
        transport: httpx.BaseTransport | None = None,
        max_redirects: int = 10,
        complete: Callable[[httpx.Response], bool] | None = None,
        notice_after: float = NOTICE_AFTER,
        max_answer: int = DEFAULT_MAX_ANSWER,
    ) -> None:
        self.base_url = base_url
        self.max_answer = max_answer
        """The cap on an answer's decoded size, in bytes (``[forum] max_answer_mib``):
        reading stops past it (:mod:`adapters.bounded`)."""
        self.complete = complete
        """Whether a GET's 200 answer is the whole page (an engine knows how its pages end);
        one that is not is asked for again like a dropped connection."""
        self.host = urlsplit(base_url).hostname or ""
        self.min_interval = 1.0 / rate_limit if rate_limit and rate_limit > 0 else 0.0
        self.retries = max(0, int(retries))
        self.timeout = timeout
        self.notice_after = notice_after
        """Seconds a request may go unanswered before the host is told (a notice line)."""
        self.cookie_file = cookie_file
        self.backoff = backoff or Backoff()
        self.sleep = sleep
        self.clock = clock
        self.wall = wall
        self.random = random_
        self.max_redirects = max_redirects
        self.requests = 0
        self._last_start: float | None = None
        self._client = httpx.Client(
            headers={"User-Agent": user_agent or USER_AGENT,
                     "Accept-Encoding": ACCEPT_ENCODING},
            timeout=timeout,
            follow_redirects=False,  # followed by hand: a foreign host never sees our cookies
            transport=transport,
        )
        if cookie_file is not None:
            load_cookies(self._client.cookies.jar, cookie_file)

    # -- lifecycle

    def close(self) -> None:
        self.save_cookies()
        self._client.close()

    # -- cookies

    @property
    def cookies(self) -> httpx.Cookies:
        return self._client.cookies

    def cookie_names(self) -> list[str]:
        return [c.name for c in self._client.cookies.jar]

    def cookie_value(self, name: str) -> str | None:
        for c in self._client.cookies.jar:
            if c.name == name:
                return c.value
        return None

    def save_cookies(self) -> None:
        """Keep the session for the next run. A cookie file that cannot be written (a full
        disk, a read-only folder) is said and passed over: the next run logs in again."""
        if self.cookie_file is None:
            return
        try:
            save_cookies(self._client.cookies.jar, self.cookie_file, self.host)
        except OSError as e:
            notices.warning(
                "не удалось сохранить сессию форума в %s (%s); следующий запуск войдёт заново",
                self.cookie_file, e.strerror or type(e).__name__)

    def _drop_foreign_cookies(self) -> None:
        """Forget cookies a foreign site set (a redirect followed without our cookies):
        they would travel in the cookie file and never back to that site."""
        jar = self._client.cookies.jar
        for c in [c for c in jar if not own_cookie(c.domain, self.host)]:
            jar.clear(c.domain, c.path, c.name)

    def get_text(self, url: str, *, reads_right: ReadsRight | None = None,
                 what: str | None = None) -> tuple[httpx.Response, str, str]:
        """GET a page and decode it for sure (:func:`adapters.charset.decide`): (the answer,
        its text, its codec: its forms' charset). A 200 page that reads right under no
        encoding is asked for again like a broken one, then a :class:`NetworkError` names it:
        never stored as a guess. Other statuses are decoded as well as they can be."""
        attempt = 0
        while True:
            r = self.get(url)
            content_type = r.headers.get("content-type")
            if r.status_code != 200:
                return r, *decide_lenient(r.content, content_type, reads_right=reads_right)
            try:
                return r, *decide(r.content, content_type, reads_right=reads_right)
            except Undecodable as e:
                shown = what or strip_sid(url)
                if attempt >= self.retries:
                    saved = salvage(r.content, content_type, reads_right=reads_right)
                    if saved is not None:
                        # One spoilt post must not stop every later sync at this page
                        # (issue 26): the rest is read, the host checks the «�».
                        notices.warning(
                            "форум прислал %s с %d байт(ами), которых не объясняет ни одна "
                            "кодировка; они сохранены как «�» — ведущему проверить это "
                            "сообщение на форуме (%s)", shown, saved[2], strip_sid(url))
                        return r, saved[0], saved[1]
                    raise NetworkError(
                        f"форум {attempt + 1} раз(а) прислал страницу в кодировке, которая "
                        f"не читается ни одним из вариантов (запрос: {shown}; {e})",
                        "ничего из неё не сохранено; запустите команду позже, а если повторится — "
                        "сохраните страницу из браузера и сообщите о ней",
                    ) from None
                delay = self.backoff.delay(attempt, self.random())
                notices.warning("жду ответа форума… %s: страница не читается наверняка; "
                                "попытка %d из %d через %.0f с", shown, attempt + 2,
                                self.retries + 1, delay)
                self.sleep(delay)
                attempt += 1

    # -- requests

    def get(self, url: str, *, params: Mapping[str, str] | None = None) -> httpx.Response:
        return self.request("GET", url, params=params)

    def post(self, url: str, *, data: Mapping[str, str], referer: str | None = None,
             retry: bool = False) -> httpx.Response:
        """POST a form. Not retried after the request may have reached the forum (a reply
        must not be posted twice) unless ``retry``; a refused connection or 429/503 is."""
        headers = {"Referer": referer} if referer else None
        return self.request("POST", url, data=data, headers=headers, retry_unsafe=retry)

    def request(
        self,
        method: str,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        data: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        retry_unsafe: bool = True,
        follow_redirects: bool = True,
        content: bytes | None = None,
    ) -> httpx.Response:
        """Send one logical request, following same-site redirects by hand.

        A redirect to another site is followed only without cookies and only when we hold
        no session; with a session it is refused (:class:`ForumError`), because phpBB never
        sends a logged-in reader elsewhere and the redirect may be a trap.

        ``content`` is a body already encoded (a form in the page's own charset, e.g.
        windows-1251, which ``data`` — always UTF-8 — cannot express).
        """
        target = httpx.URL(url, params=params) if params else httpx.URL(url)
        response = self._send(method, target, data=data, headers=headers,
                              retry_unsafe=retry_unsafe or method == "GET", cookies=True,
                              content=content)
        for _ in range(self.max_redirects):
            if not response.is_redirect or not follow_redirects:
                return response
            location = response.headers.get("Location", "")
            nxt = response.url.join(location)
            if nxt.scheme not in ("http", "https"):
                raise ForumError(f"форум перенаправил на неподдерживаемый адрес ({nxt.scheme}:)")
            # Origin, not host (issue 26): another port of the same machine is another site.
            foreign = not same_origin(self.base_url, str(nxt))
            if foreign and len(self._client.cookies.jar):
                raise ForumError(
                    f"форум перенаправил на другой сайт ({nxt.host}); referee не идёт туда с "
                    "входом на форум, чтобы не отдать чужому сайту сессию",
                    "проверьте [forum] url: он должен вести на сам форум",
                )
            # 301/302/303 turn a POST into a GET (what browsers and phpBB expect).
            method = "GET" if response.status_code in (301, 302, 303) else method
            data = None if method == "GET" else data
            content = None if method == "GET" else content
            response = self._send(method, nxt, data=data, headers=headers,
                                  retry_unsafe=True, cookies=not foreign, content=content)
        raise ForumError(f"форум перенаправил больше {self.max_redirects} раз",
                         "откройте тему в браузере и посмотрите, куда она ведёт")

    def _pace(self) -> None:
        if self.min_interval and self._last_start is not None:
            wait = self._last_start + self.min_interval - self.clock()
            if wait > 0:
                self.sleep(wait)
        self._last_start = self.clock()

    def _send(
        self,
        method: str,
        url: httpx.URL,
        *,
        data: Mapping[str, str] | None,
        headers: Mapping[str, str] | None,
        retry_unsafe: bool,
        cookies: bool,
        content: bytes | None = None,
    ) -> httpx.Response:
        shown = strip_sid(str(url))
        attempt = 0
        while True:
            request = self._client.build_request(method, url, data=data, headers=headers,
                                                 content=content)
            if not cookies:
                request.headers.pop("Cookie", None)
            self._pace()
            self.requests += 1
            try:
                with self._slow_notice(shown, attempt), self._jar_kept(not cookies):
                    response = read_bounded(self._client, request, self.max_answer, shown)
            except (httpx.TransportError, httpx.DecodingError) as e:
                # Only a failed connect proves the forum never saw an unsafe request.
                safe = retry_unsafe or isinstance(e, httpx.ConnectError | httpx.ConnectTimeout)
                if attempt >= self.retries or not safe or _unknown_name(e) == socket.EAI_NONAME:
                    raise _unreachable(e, shown, attempt) from None
                delay, why = self.backoff.delay(attempt, self.random()), type(e).__name__
                log.info("%s %s failed (%s); retry in %.1fs", method, shown, why, delay)
            else:
                self._drop_foreign_cookies()
                log.debug("%s %s -> %s", method, shown, response.status_code)
                retry = self._retry_delay(method, response, shown, attempt, retry_unsafe)
                if retry is None:
                    return response
                delay, why = retry
            notices.warning("жду ответа форума… %s: %s; попытка %d из %d через %.0f с "
                            "(таймаут %g с)", shown, why, attempt + 2, self.retries + 1,
                            delay, self.timeout)
            self.sleep(delay)
            attempt += 1

    @contextlib.contextmanager
    def _jar_kept(self, keep: bool) -> Iterator[None]:
        """With ``keep``, the cookie jar as it was before a request to another site: what
        that site sets is never ours — even for the same host name on another port, which a
        cookie's domain cannot tell apart (issue 26)."""
        if not keep:
            yield
            return
        jar = self._client.cookies.jar
        before = list(jar)
        try:
            yield
        finally:
            jar.clear()
            for c in before:
                jar.set_cookie(c)

    @contextlib.contextmanager
    def _slow_notice(self, shown: str, attempt: int) -> Iterator[None]:
        """Tell the host when the forum keeps him waiting: a stall of a whole timeout must
        not pass with nothing on the screen."""
        if self.notice_after <= 0 or self.notice_after >= self.timeout:
            yield
            return
        timer = threading.Timer(self.notice_after, notices.warning, args=(
            "жду ответа форума… %s: нет ответа %g с (попытка %d из %d, таймаут %g с)",
            shown, self.notice_after, attempt + 1, self.retries + 1, self.timeout))
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()

    def _retry_delay(self, method: str, response: httpx.Response, shown: str, attempt: int,
                     retry_unsafe: bool) -> tuple[float, str] | None:
        """None when ``response`` is the answer; else how long to wait before asking again
        and why (a :class:`NetworkError` when the attempts are used up)."""
        status = response.status_code
        retryable = status in RETRY_STATUSES and (retry_unsafe or status in (429, 503))
        if not retryable and (
            status != 200 or method != "GET" or self.complete is None
            or self.complete(response)
        ):
            return None
        if not retryable:
            # A page cut short in a well-framed answer (PHP or a proxy dying mid-page, a
            # connection closed without Content-Length) would be read as a page with fewer
            # posts; it is asked for again instead.
            if attempt >= self.retries:
                raise NetworkError(
                    f"форум {attempt + 1} раз(а) прислал неполную страницу (она обрывается "
                    f"до конца; запрос: {shown})",
                    "форум или соединение обрезают страницы; запустите "
                    "команду позже (уже прочитанные страницы сохранены)",
                )
            delay = self.backoff.delay(attempt, self.random())
            log.info("%s %s -> an incomplete page; retry in %.1fs", method, shown, delay)
            return delay, "страница пришла не целиком"
        response.read()
        wait = retry_after_seconds(response.headers.get("Retry-After"), self.wall())
        if wait is not None and wait > MAX_RETRY_AFTER:
            raise NetworkError(
                f"форум занят (HTTP {status}) и просит подождать "
                f"{int(wait)} с до следующего запроса",
                "запустите команду позже",
            )
        if attempt >= self.retries:
            raise NetworkError(
                f"форум ответил HTTP {status} (запрос: {shown}), "
                f"попыток: {attempt + 1}",
                "форум, возможно, лежит или перегружен; запустите команду позже "
                "(уже прочитанные страницы сохранены)",
            )
        delay = wait if wait is not None else self.backoff.delay(attempt, self.random())
        log.info("%s %s -> HTTP %s; retry in %.1fs", method, shown, status, delay)
        return delay, f"ответ HTTP {status}"


def _unknown_name(e: BaseException) -> int | None:
    """The resolver's error code when ``e`` comes from a host name that did not resolve."""
    seen: BaseException | None = e
    chain: set[int] = set()
    while seen is not None and id(seen) not in chain:
        if isinstance(seen, socket.gaierror):
            return seen.errno if isinstance(seen.errno, int) else socket.EAI_FAIL
        chain.add(id(seen))
        seen = seen.__cause__ or seen.__context__
    text = str(e).lower()
    if any(s in text for s in ("name or service not known", "nodename nor servname",
                               "getaddrinfo failed", "no address associated")):
        return socket.EAI_NONAME
    if "temporary failure in name resolution" in text:
        return socket.EAI_AGAIN
    return None


def _unreachable(e: Exception, shown: str, attempt: int) -> NetworkError:
    """The error for a request that got no answer, after ``attempt`` retries."""
    tries = f", попыток: {attempt + 1}" if attempt else ""
    code = _unknown_name(e)
    if code is not None:
        host = httpx.URL(shown).host
        gone = code == socket.EAI_NONAME
        return NetworkError(
            f"адрес форума «{host}» не находится: "
            + ("такого имени нет в DNS" if gone else "DNS-сервер не ответил")
            + f" (запрос: {shown})" + tries,
            "проверьте написание адреса в [forum] url" if gone else
            "проверьте подключение к интернету (DNS) и запустите команду снова",
        )
    if isinstance(e, httpx.DecodingError):
        # gzip output spoilt by text printed before it: the browser's «Content Encoding
        # Error»; often gone on the next request.
        return NetworkError(
            "форум прислал страницу, которую не распаковать (сломан "
            f"Content-Encoding; запрос: {shown})" + tries,
            "у форума сбоит сжатие; запустите команду позже "
            "(уже прочитанные страницы сохранены)",
        )
    return NetworkError(
        f"не удаётся связаться с форумом ({type(e).__name__}; запрос: {shown})" + tries,
        "проверьте подключение к интернету и [forum] url; "
        "запустите команду позже (уже прочитанные страницы сохранены)",
    )

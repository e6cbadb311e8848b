"""What every forum engine shares: a polite HTTP client (:mod:`adapters.http_client`,
re-exported here), the session cookie file, the password prompt, and the plain settings
every engine receives (:class:`ForumSettings`). The interface engines implement is
:class:`referee.core.kernel.Forum`.

Politeness (issue 2): one clear User-Agent, at most ``[forum] rate_limit`` requests a
second, bounded retries with exponential backoff and jitter on network errors, timeouts,
5xx and 429 (a ``Retry-After`` is honoured). The session lives in a cookie file beside the
game database (:mod:`adapters.cookies`), created 0600 from the first byte; cookies never
travel to another host, and a foreign host's are never kept.

Issue 14: a page whose posts are stored is decoded for sure (:meth:`HttpClient.get_text`,
:mod:`adapters.charset`), never as a guess; while the forum keeps the host waiting (5 s
without an answer, every retry) a «жду ответа форума…» line goes to :data:`notices`, which
the CLI shows; a host name that does not resolve is named.

Secrets (docs/rules.md: credentials never in the config): the password comes from
``REFEREE_PASSWORD`` or an interactive prompt, is held in a :class:`Secret` whose ``repr``
is masked (so tracebacks with locals cannot show it), and is never logged, stored, or put
into an exception message.
"""

from __future__ import annotations

import getpass
import logging
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import fields
from pathlib import Path
from typing import Self

import httpx

from adapters.cookies import (  # noqa: F401 - cookie_path_for, same_site: re-exported
    cookie_path_for,
    load_cookies,
    own_cookie,
    same_site,
    save_cookies,
)
from adapters.http_client import (  # noqa: F401 - the client's names: re-exported
    MAX_RETRY_AFTER,
    NOTICE_AFTER,
    RETRY_STATUSES,
    USER_AGENT,
    VERSION,
    Backoff,
    HttpClient,
    retry_after_seconds,
    strip_sid,
)
from referee.core.errors import LoginRequired
from referee.core.forum_settings import ForumSettings as PlainSettings

log = logging.getLogger("referee.http")
notices = logging.getLogger("referee.notice")
"""What the host should see while it happens, without ``--verbose`` (a forum that keeps
him waiting, a cookie file that cannot be saved): the CLI shows this logger's lines as
they are; the library prints nothing itself."""

PASSWORD_ENV = "REFEREE_PASSWORD"


# --------------------------------------------------------------------------- secrets

class Secret:
    """A password that does not show itself: ``str``/``repr`` print ``***``."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__

    def __bool__(self) -> bool:
        return bool(self._value)

    def __reduce__(self) -> tuple[object, ...]:  # never pickled into a cache by accident
        raise TypeError("a Secret cannot be pickled")


def get_password(
    username: str,
    *,
    env: Mapping[str, str] | None = None,
    prompt: Callable[[str], str] | None = None,
    interactive: bool | None = None,
) -> Secret:
    """The forum password of ``username``: ``REFEREE_PASSWORD`` or a ``getpass`` prompt.

    Never read from the config (config.py refuses secret keys). Without a terminal and
    without the variable, :class:`LoginRequired` explains how to provide it.
    """
    env = os.environ if env is None else env
    value = env.get(PASSWORD_ENV)
    if value:
        return Secret(value)
    if interactive is None:
        interactive = sys.stdin.isatty()
    if not interactive and prompt is None:
        raise LoginRequired(
            f"форуму нужен пароль «{username}», а спросить его негде (нет терминала)",
            f"задайте переменную окружения {PASSWORD_ENV} перед запуском referee",
        )
    ask = prompt or getpass.getpass
    value = ask(f"Пароль на форуме для {username}: ")
    if not value:
        raise LoginRequired(
            "пароль не введён", f"введите его в ответ на вопрос или задайте {PASSWORD_ENV}"
        )
    return Secret(value)


# --------------------------------------------------------------------------- settings

class ForumSettings(PlainSettings):
    """The core's plain settings (:class:`referee.core.forum_settings.ForumSettings`) with the
    polite client built from them; :meth:`of` turns the config's plain value into this."""

    __slots__ = ()

    @classmethod
    def of(cls, plain: PlainSettings) -> ForumSettings:
        """``plain`` as engine settings (the same values; engines may then build clients)."""
        if isinstance(plain, cls):
            return plain
        return cls(**{f.name: getattr(plain, f.name) for f in fields(plain)})

    def http_client(self, base_url: str, cookie_file: Path | None = None) -> HttpClient:
        """The polite client for this board, with the session cookie file."""
        return HttpClient(base_url, rate_limit=self.rate_limit, timeout=self.timeout,
                          retries=self.retries, user_agent=self.user_agent,
                          cookie_file=cookie_file or self.cookie_file,
                          max_answer=int(self.max_answer_mib * (1 << 20)))


# --------------------------------------------------------------------------- live boards

def ends_with_html(r: httpx.Response) -> bool:
    """Whether an HTML answer reached its end: every engine's pages close with ``</html>``.
    A page cut short after a whole post would parse as a page with fewer posts, and the
    posts after the cut would never be read again (:attr:`HttpClient.complete`)."""
    if "html" not in r.headers.get("content-type", ""):
        return True
    return b"</html" in r.content[-65536:].lower()


class BoardSession:
    """What every live engine shares over its :class:`HttpClient`: the request count, the
    lifecycle (closing saves the session cookies) and the host's password, asked for once
    and only when a login needs it."""

    http: HttpClient

    def _init_session(self, http: HttpClient,
                      password: Callable[[str], Secret] | None) -> None:
        self.http = http
        if self.http.complete is None:
            self.http.complete = ends_with_html
        self._password_source = password or (lambda user: get_password(user))
        self._password: Secret | None = None

    @property
    def requests(self) -> int:
        return self.http.requests

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _secret(self, username: str) -> Secret:
        if self._password is None:
            self._password = self._password_source(username)
        return self._password

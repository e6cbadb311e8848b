"""What every forum engine shares besides the board-client template (:mod:`adapters.board`):
the plain settings every engine receives (:class:`ForumSettings`) with the polite client
built from them (:mod:`adapters.http_client`, its names re-exported here, and the cookie
file of :mod:`adapters.cookies`), the password prompt, and a complete page's check.

Secrets (docs/rules.md: credentials never in the config): the password comes from
``REFEREE_PASSWORD`` or an interactive prompt, is held in a :class:`Secret` whose ``repr``
is masked (so tracebacks with locals cannot show it), and is never logged, stored, or put
into an exception message."""

from __future__ import annotations

import getpass
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import fields
from pathlib import Path

import httpx

from adapters.cookies import (  # noqa: F401 - cookie_path_for, same_site: re-exported
    cookie_path_for,
    same_site,
)
from adapters.http_client import (  # noqa: F401 - the client's names: re-exported
    USER_AGENT,
    Backoff,
    HttpClient,
    retry_after_seconds,
    strip_sid,
)
from referee.core.errors import LoginRequired
from referee.core.forum_settings import ForumSettings as PlainSettings

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

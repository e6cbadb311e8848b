"""Topic addresses, the part every engine shares: whether ``[forum] url`` is a web address at
all, a topic number read from its query, the board's folder, the errors for an address that
names no topic (each with the engine's own example), and the marks an engine's pages carry
(its registry entry's ``claims_page``). Each engine's address rules stay in its ``urls.py``.

Pure and without HTML parsing: the registry imports the engines' addresses to choose one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar
from urllib.parse import SplitResult, urlsplit, urlunsplit

from adapters.base import strip_sid
from referee.core.errors import ConfigError

__all__ = ["board_root", "no_number", "no_topic", "one_post", "or_none", "page_marks",
           "query_number", "topic_hint", "web_address"]

T = TypeVar("T")


def web_address(url: str, example: str, *,
                shown: Callable[[str], str] = strip_sid) -> SplitResult:
    """``url`` split, when it is an http(s) address with a host; otherwise a
    :class:`ConfigError` showing it through ``shown`` (without the session secret the
    engine's addresses may carry) and the engine's ``example``."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(f"[forum] url {shown(url)!r} — не адрес в интернете",
                          f'запишите его так: "{example}"')
    return parts


def board_root(parts: SplitResult, path: str | None = None) -> str:
    """The board's root on the site of ``parts``: ``path`` (the address's own by default) up
    to its last ``/`` — the folder a script such as ``viewtopic.php`` lives in."""
    path = (parts.path if path is None else path) or "/"
    if not path.endswith("/"):
        path = path.rsplit("/", 1)[0] + "/"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def topic_hint(example: str) -> str:
    """Where a host gets a topic's address, with the engine's example of one."""
    return f'скопируйте ссылку на тему с форума, например "{example}"'


def no_number(said: str, example: str) -> ConfigError:
    """The error for a topic parameter (``said``: ``t='abc'``) that holds no number."""
    return ConfigError(f"в [forum] url {said} — не номер темы", topic_hint(example))


def query_number(query: Mapping[str, Sequence[str]], key: str, example: str) -> int | None:
    """The topic number ``key=`` of a parsed query (``parse_qs``), None without one; a
    :class:`ConfigError` naming the value when it is no number."""
    if key not in query:
        return None
    try:
        return int(query[key][0])
    except ValueError:
        raise no_number(f"{key}={query[key][0]!r}", example) from None


def no_topic(mark: str, example: str) -> ConfigError:
    """The error for a bare board address (no ``mark``: ``t=…``) where a topic is needed."""
    return ConfigError(f"в [forum] url нет номера темы ({mark})", topic_hint(example))


def one_post(post: str, topic: str) -> ConfigError:
    """The error for the address of one post (``post``: ``p=…``) where the topic's (whose
    mark is ``topic``: ``t=…``) belongs."""
    return ConfigError(f"[forum] url ведёт на одно сообщение ({post}), а не на тему",
                       f"откройте первую страницу темы и скопируйте её адрес (в нём {topic})")


def or_none(read: Callable[[str], T], url: str) -> T | None:
    """``read(url)``, or None for an address ``read`` refuses (its :class:`ConfigError`):
    addresses found on pages and in redirects need not be a topic's, nor web addresses."""
    try:
        return read(url)
    except ConfigError:
        return None


def page_marks(pattern: str, *, head: int | None = None) -> Callable[[str], bool]:
    """A ``claims_page``: whether a page carries one of the engine's markup marks (a regular
    expression, any case), looked for in its first ``head`` characters when given."""
    marks = re.compile(pattern, re.IGNORECASE)

    def claims_page(html: str) -> bool:
        return marks.search(html, 0, len(html) if head is None else head) is not None

    return claims_page

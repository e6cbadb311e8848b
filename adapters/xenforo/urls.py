"""XenForo addresses: where the board lives and which thread is the game. Every address is
one prefix (the board folder with friendly URLs, ``…/index.php?`` without them) and a route
(``threads/{slug}.{id}/page-N``, ``posts/P/``, ``login/login``, ``conversations/…``), in
XenForo 1 and 2 alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlunsplit

from adapters.address import board_root, one_post, or_none, topic_hint, web_address
from adapters.base import strip_sid
from referee.core.errors import ConfigError

_THREAD = re.compile(r"(?:^|/)threads/(?:(?P<slug>[^/?#]*?)\.)?(?P<id>\d+)(?=/|$)")
_ANY_ROUTE = re.compile(r"(?:^|/)(?P<route>threads|forums|conversations|direct-messages|members"
                        r"|posts|login|account|search|whats-new)(?:/|$)")
EXAMPLE = "https://forum.example/threads/mafija.123/"


@dataclass(frozen=True, slots=True)
class Board:
    """A XenForo board: the prefix every route is appended to."""

    prefix: str
    """``https://host/forum/`` (friendly URLs) or ``https://host/forum/index.php?``."""

    def url(self, route: str) -> str:
        return self.prefix + route.lstrip("/")

    @property
    def host_root(self) -> str:
        """The board's address without the ``index.php?`` part (for the HTTP client)."""
        return self.prefix[: -len("index.php?")] if self.prefix.endswith("index.php?") \
            else self.prefix


@dataclass(frozen=True, slots=True)
class ThreadAddress:
    """The game thread: its board, number and (optional) slug."""

    board: Board
    thread_id: int
    slug: str = ""

    @property
    def route(self) -> str:
        return f"threads/{self.slug}.{self.thread_id}/" if self.slug \
            else f"threads/{self.thread_id}/"

    def page_url(self, page: int) -> str:
        return self.board.url(self.route + (f"page-{page}" if page > 1 else ""))

    def reply_url(self) -> str:
        return self.board.url(self.route + "reply")

    def with_slug(self, slug: str) -> ThreadAddress:
        return ThreadAddress(self.board, self.thread_id, slug)


def board_and_route(url: str) -> tuple[Board, str]:
    """The board an address belongs to (any page of it: a thread, the index, the PM list) and
    its route (``threads/x.1/page-2``, '' for the index): what follows the board's prefix, in
    the path or (``index.php?…``) the query's first part."""
    parts = web_address(url, EXAMPLE)
    path = parts.path or "/"
    first = parts.query.split("&", 1)[0]
    query_route = "" if "=" in first else unquote(first)
    match = _ANY_ROUTE.search(path)
    if path.endswith("index.php") and (query_route or not match):
        return Board(urlunsplit((parts.scheme, parts.netloc, path, "", "")) + "?"), query_route
    if match is None:
        return Board(board_root(parts)), ""
    return Board(board_root(parts, path[: match.start("route")])), path[match.start("route"):]


def route_of(url: str) -> str:
    """The route part of a board address (``threads/x.1/page-2``), '' for the index."""
    return board_and_route(url)[1]


def parse_thread_url(url: str) -> tuple[Board, ThreadAddress | None]:
    """``[forum] url`` → the board and the game thread (None for a bare board address,
    used to read only the conversations)."""
    board, route = board_and_route(url)
    match = _THREAD.search(route)
    if match:
        return board, ThreadAddress(board, int(match["id"]), match["slug"] or "")
    if route.startswith("posts/"):
        raise one_post("posts/…", "…/threads/название.номер/")
    if route.startswith("threads/"):
        raise ConfigError(f"[forum] url {strip_sid(url)!r}: в адресе темы нет её номера",
                          topic_hint(EXAMPLE))
    return board, None


def claims_url(url: str) -> bool:
    """Whether an address has XenForo's shape: a ``…/threads/{slug}.{id}/`` route (under
    any folder, friendly or in the ``index.php?`` query) or a conversations page."""
    route = or_none(route_of, url) or ""
    return bool(_THREAD.search(route)) or route.startswith(
        ("conversations/", "direct-messages/"))


def post_url(topic_url: str, post_id: int) -> str:
    """A post's address (``posts/P/`` redirects to the post in its thread)."""
    return board_and_route(topic_url)[0].url(f"posts/{post_id}/")


__all__ = ["EXAMPLE", "Board", "ThreadAddress", "board_and_route", "claims_url", "parse_thread_url",
           "post_url", "route_of"]

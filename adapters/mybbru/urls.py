"""MyBB.ru addresses: a topic is ``viewtopic.php?id=N`` under the board's root. Pure."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit, urlunsplit

from adapters.base import strip_sid
from referee.core.errors import ConfigError


def claims_url(url: str) -> bool:
    """``…/viewtopic.php?id=N`` (a topic) or ``?pid=N`` (one post of one)."""
    parts = urlsplit(url.strip())
    query = parse_qs(parts.query)
    return parts.path.endswith("viewtopic.php") and ("id" in query or "pid" in query)


def parse_topic_url(url: str) -> tuple[str, int | None]:
    """``(board_root, topic_id)`` of ``…/viewtopic.php?id=N`` (any ``p=``, ``#pN``); the
    root ends with ``/``. A bare board address reads only PMs."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(f"[forum] url {strip_sid(url)!r} — не адрес в интернете",
                          'пример: "https://mafia.rolka.me/viewtopic.php?id=149"')
    path = parts.path or "/"
    root = urlunsplit((parts.scheme, parts.netloc,
                       path if path.endswith("/") else path.rsplit("/", 1)[0] + "/", "", ""))
    query = parse_qs(parts.query)
    if not path.endswith("viewtopic.php"):
        return root, None
    if "id" in query:
        try:
            return root, int(query["id"][0])
        except ValueError:
            raise ConfigError(f"в [forum] url id={query['id'][0]!r} — не номер темы",
                              'скопируйте ссылку на тему: "…/viewtopic.php?id=149"') from None
    raise ConfigError("[forum] url ведёт на одно сообщение (pid=…), а не на тему",
                      "откройте первую страницу темы и скопируйте её адрес (в нём id=…)")

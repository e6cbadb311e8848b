"""MyBB.ru addresses: a topic is ``viewtopic.php?id=N`` under the board's root. Pure."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from adapters.address import board_root, one_post, query_number, web_address

EXAMPLE = "https://mafia.rolka.me/viewtopic.php?id=149"


def claims_url(url: str) -> bool:
    """``…/viewtopic.php?id=N`` (a topic) or ``?pid=N`` (one post of one)."""
    parts = urlsplit(url.strip())
    query = parse_qs(parts.query)
    return parts.path.endswith("viewtopic.php") and ("id" in query or "pid" in query)


def parse_topic_url(url: str) -> tuple[str, int | None]:
    """``(board_root, topic_id)`` of ``…/viewtopic.php?id=N`` (any ``p=``, ``#pN``); the
    root ends with ``/``. A bare board address reads only PMs."""
    parts = web_address(url, EXAMPLE)
    query = parse_qs(parts.query)
    if not parts.path.endswith("viewtopic.php"):
        return board_root(parts), None
    if "id" not in query:
        raise one_post("pid=…", "id=…")
    return board_root(parts), query_number(query, "id", EXAMPLE)

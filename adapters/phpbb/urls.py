"""phpBB addresses: a topic is ``viewtopic.php?t=N`` under the board's root; the session
id never goes into a URL. Pure."""

from __future__ import annotations

from urllib.parse import parse_qs, parse_qsl, urlencode, urlsplit, urlunsplit

from adapters.address import board_root, one_post, query_number, web_address

EXAMPLE = "https://forum.example.com/viewtopic.php?t=123"
_BOARD_PAGES = ("", "index.php", "ucp.php", "viewforum.php")
_OTHER_ENGINES_TOPIC = frozenset({"topic", "id", "threads", "tid"})


def claims_url(url: str) -> bool:
    """``…/viewtopic.php?t=N`` (``p=``, ``f=`` too), or a bare board address (PMs only)."""
    parts = urlsplit(url.strip())
    if "threads/" in parts.path or parts.query.startswith("threads/"):
        return False  # XenForo's thread routes (…/threads/x.1/, index.php?threads/x.1/)
    name = parts.path.rsplit("/", 1)[-1]
    query = parse_qs(parts.query)
    if name == "viewtopic.php":
        # ?id= is PunBB's (MyBB.ru's), whose p= is a page number, not a phpBB post.
        return "t" in query or "id" not in query
    return name in _BOARD_PAGES and not (_OTHER_ENGINES_TOPIC & set(query))


def parse_topic_url(url: str) -> tuple[str, int | None]:
    """``(board_root, topic_id)`` from ``[forum] url``; the root ends with ``/``.

    Accepts ``viewtopic.php?t=N`` with any extra parameters (``f=``, ``start=``, ``sid=``,
    ``#p123``) or a bare board address (PM-only use).
    """
    parts = web_address(url, EXAMPLE)
    query = parse_qs(parts.query)
    if "t" not in query and "p" in query and parts.path.endswith("viewtopic.php"):
        raise one_post("p=…", "t=…")
    return board_root(parts), query_number(query, "t", EXAMPLE)


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

"""SMF addresses: the script URL, topic addresses (``topic=T.S``, queryless
``index.php/topic,T.S.html``) and SMF's own query syntax (``;`` as well as ``&``), with the
session id (``PHPSESSID``, a secret) taken out of every address referee keeps or sends.
Facts: README.md («Addresses and pages»).

No HTML parsing here: the registry imports this module to recognise SMF addresses.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus, urlsplit, urlunsplit

from adapters.address import no_number, one_post, web_address

__all__ = [
    "EXAMPLE",
    "claims_url",
    "post_url",
    "query_params",
    "parse_topic_url",
    "strip_session",
    "topic_start",
    "topic_page_address",
]

_QUERYLESS_TOPIC = re.compile(r"/topic,(\d+)(?:\.(\w+))?(?:\.html)?$")
SESSION = re.compile(r"(?<=[?&;])PHPSESSID=[^&;#\"'\s]*(?:&amp;|[&;])?", re.IGNORECASE)
"""SMF's session parameter in an address (a secret: it stands for the login)."""
_TOPIC_VALUE = re.compile(r"^(\d+)(?:\.(\w+))?$")

EXAMPLE = "https://forum.example.com/index.php?topic=123.0"


def query_params(query: str) -> dict[str, str]:
    """SMF's query string as a dict (``;`` and ``&`` both separate; the first value wins;
    a key without ``=`` — ``action=pm;view`` — maps to ``""``)."""
    out: dict[str, str] = {}
    for part in re.split(r"[;&]", query.replace("&amp;", "&")):
        if not part:
            continue
        key, _, value = part.partition("=")
        out.setdefault(unquote_plus(key), unquote_plus(value))
    return out


def strip_session(url: str) -> str:
    """``url`` without SMF's ``PHPSESSID=`` parameter (a session secret)."""
    out = SESSION.sub("", url)
    return out[:-1] if out.endswith(("?", "&", ";")) else out


def topic_start(url: str) -> tuple[int | None, str | None]:
    """``(topic, start)`` of a topic address: ``topic=2.25`` → ``(2, "25")``; the start may
    be ``msg12``, ``new`` or absent (None); ``topic=2;start=25`` (SMF's QueryString.php
    takes a separate ``start`` too) → ``(2, "25")``."""
    parts = urlsplit(url.strip())
    params = query_params(parts.query)
    value = params.get("topic")
    if value is None:
        found = _QUERYLESS_TOPIC.search(parts.path)
        return (int(found.group(1)), found.group(2)) if found else (None, None)
    found = _TOPIC_VALUE.match(value)
    if not found:
        return None, None
    return int(found.group(1)), found.group(2) or params.get("start")


def _script_url(url: str) -> str:
    """The board's ``index.php`` address (what every SMF link starts with)."""
    parts = urlsplit(url.strip())
    path = parts.path or "/"
    queryless = _QUERYLESS_TOPIC.search(path)
    if queryless:
        path = path[: queryless.start()]
    if not path.endswith(".php"):
        path = (path if path.endswith("/") else path + "/") + "index.php"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def parse_topic_url(url: str) -> tuple[str, int | None]:
    """``(script_url, topic_id)`` from ``[forum] url``: a topic address
    (``index.php?topic=123.0``, ``…topic=123.msg456#msg456``, ``index.php/topic,123.0.html``)
    or a bare board address (PMs only)."""
    parts = web_address(url, EXAMPLE, shown=strip_session)
    params = query_params(parts.query)
    topic, _ = topic_start(url)
    if topic is None and "topic" in params:
        raise no_number(f"topic={params['topic']!r}", EXAMPLE)
    if topic is None and "msg" in params:
        raise one_post("msg=…", "topic=…")
    return _script_url(url), topic


def claims_url(url: str) -> bool:
    """``…/index.php?topic=N.S`` (``;``-separated parameters too) and the queryless
    ``…/index.php/topic,N.S.html``. A bare ``index.php`` is phpBB's as much as SMF's: it
    is left to ``[forum] engine`` or the first page."""
    parts = urlsplit(url.strip())
    if topic_start(url)[0] is not None:
        return parts.path.endswith(".php") or ".php/" in parts.path
    params = query_params(parts.query)
    return parts.path.endswith(".php") and "topic" in params


def topic_page_address(script: str, topic: int, start: int) -> str:
    """Page of ``topic`` that begins with post number ``start`` (0-based)."""
    return f"{script}?topic={topic}.{max(0, start)}"


def post_url(topic_url: str, post_id: int) -> str:
    """A post's permalink: ``index.php?msg=N`` (the subject and time links of every post
    on the real pages)."""
    return f"{parse_topic_url(topic_url)[0]}?msg={post_id}"

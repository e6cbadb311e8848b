"""SMF 2.1 and 2.0 (Simple Machines Forum): the registry entry, which opens the engine's
modules lazily (finding the engines costs no parser import). The modules, and every markup
fact they rely on with where it was verified: README.md beside this file.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from adapters.registry import lazy_engine
from adapters.smf.urls import parse_topic_url, post_url, query_params, topic_start


def claims_url(url: str) -> bool:
    """``…/index.php?topic=N.S`` (``;``-separated parameters too) and the queryless
    ``…/index.php/topic,N.S.html``. A bare ``index.php`` is phpBB's as much as SMF's: it
    is left to ``[forum] engine`` or the first page."""
    parts = urlsplit(url.strip())
    if topic_start(url)[0] is not None:
        return parts.path.endswith(".php") or ".php/" in parts.path
    params = query_params(parts.query)
    return parts.path.endswith(".php") and "topic" in params


def claims_page(html: str) -> bool:
    from adapters.smf.page import looks_like_smf

    return looks_like_smf(html)


def topic_id(url: str) -> int | None:
    return parse_topic_url(url)[1]


ENGINE = lazy_engine(
    "smf", "SMF 2.1/2.0", claims_url=claims_url, topic_id=topic_id, claims_page=claims_page,
    forum="client:SmfForum", poster="posting:SmfPoster", pages="snapshot:SmfPages",
    post_url=post_url,
    example="https://forum.example.com/index.php?topic=123.0")

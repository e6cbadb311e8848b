"""SMF 2.1 and 2.0 (Simple Machines Forum; themes Curve2 and Curve, Russian and English packs).

Page parsers in :mod:`.topic` (topics) and :mod:`.pms` (personal messages), forms in
:mod:`.forms`, the live board in :mod:`.client`, replies and PMs in :mod:`.posting`, saved
pages in :mod:`.snapshot`; every markup fact they rely on and where it was verified:
``adapters/smf/README.md``. The registry entry below opens each lazily, so finding the
engines costs no parser import.
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

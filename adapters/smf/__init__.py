"""SMF 2.1 and 2.0 (Simple Machines Forum; themes Curve2 and Curve, Russian and English packs).

Page parsers in :mod:`.parse` (topics) and :mod:`.parse_pm` (personal messages), forms in
:mod:`.forms`, the live board in :mod:`.client`, replies and PMs in :mod:`.posting`, saved
pages in :mod:`.snapshot`; every markup fact they rely on and where it was verified:
``adapters/smf/README.md``. The registry entry below opens each lazily, so finding the
engines costs no parser import.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from adapters.base import ForumSettings
from adapters.registry import Engine, PasswordSource
from adapters.smf.urls import parse_topic_url, post_url, query_params, topic_start
from referee.kernel import Forum, Poster


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


def open_forum(settings: ForumSettings, password: PasswordSource | None) -> Forum:
    from adapters.smf.client import SmfForum

    return SmfForum(settings, password=password)


def open_snapshot(settings: ForumSettings) -> Forum:
    from adapters.smf.snapshot import SmfPages
    from adapters.snapshot import open_saved

    return open_saved(settings, SmfPages)


def open_poster(settings: ForumSettings, password: PasswordSource | None) -> Poster:
    from adapters.smf.client import SmfForum
    from adapters.smf.posting import SmfPoster

    return SmfPoster(SmfForum(settings, password=password))


ENGINE = Engine(
    name="smf",
    title="SMF 2.1/2.0",
    claims_url=claims_url,
    topic_id=topic_id,
    open_forum=open_forum,
    claims_page=claims_page,
    open_snapshot=open_snapshot,
    open_poster=open_poster,
    post_url=post_url,
)

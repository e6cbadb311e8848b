"""XenForo 2 (and the thread pages of XenForo 1): the engine most Russian forum Mafia is
played on today (issue 18). The registry entry opens the engine's modules lazily; what each
does, and every fact it relies on with where it was verified: README.md beside this file.
"""

from __future__ import annotations

import re

from adapters.registry import lazy_engine
from adapters.xenforo.urls import looks_like_xenforo, parse_thread_url, post_url

_MARKUP = re.compile(r'<html[^>]+id="(?:XF|XenForo)"', re.IGNORECASE)


def claims_url(url: str) -> bool:
    """``…/threads/{slug}.{id}/`` (under any folder, or ``index.php?threads/…``), or a
    conversations page."""
    return looks_like_xenforo(url)


def claims_page(html: str) -> bool:
    """``<html id="XF">`` (XenForo 2) or ``<html id="XenForo">`` (XenForo 1)."""
    return bool(_MARKUP.search(html[:5000]))


def topic_id(url: str) -> int | None:
    _, thread = parse_thread_url(url)
    return thread.thread_id if thread is not None else None


ENGINE = lazy_engine(
    "xenforo", "XenForo", claims_url=claims_url, topic_id=topic_id, claims_page=claims_page,
    forum="client:XenforoForum", poster="posting:XenforoPoster", pages="snapshot:XenforoPages",
    post_url=post_url,
    example="https://forum.example/threads/mafija.123/")

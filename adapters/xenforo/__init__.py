"""XenForo 2 (and the thread pages of XenForo 1): the engine most Russian forum Mafia is
played on today (issue 18). The registry entry opens the engine's modules lazily; what each
does, and every fact it relies on with where it was verified: README.md beside this file.
"""

from __future__ import annotations

from adapters.address import page_marks
from adapters.registry import lazy_engine
from adapters.xenforo.urls import EXAMPLE, claims_url, parse_thread_url, post_url

claims_page = page_marks(r'<html[^>]+id="(?:XF|XenForo)"', head=5000)
"""``<html id="XF">`` (XenForo 2) or ``<html id="XenForo">`` (XenForo 1)."""


def topic_id(url: str) -> int | None:
    _, thread = parse_thread_url(url)
    return thread.thread_id if thread is not None else None


ENGINE = lazy_engine(
    "xenforo", "XenForo", claims_url=claims_url, topic_id=topic_id, claims_page=claims_page,
    forum="client:XenforoForum", poster="posting:XenforoPoster", pages="snapshot:XenforoPages",
    post_url=post_url, example=EXAMPLE)

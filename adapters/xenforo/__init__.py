"""XenForo 2 (and the thread pages of XenForo 1): the engine most Russian forum Mafia is
played on today (issue 18).

Addresses in :mod:`.address`, thread pages in :mod:`.topic` (post bodies made readable by
the engine-neutral vote reader in :mod:`.body`), conversations in :mod:`.conversations`,
forms in :mod:`.forms`, the live board in :mod:`.client`, replies and new conversations in
:mod:`.posting`, saved pages (``[forum] snapshot``) in :mod:`.snapshot`. What each relies
on, and where it was verified, is in ``README.md`` beside this file. The registry entry
below opens each lazily.
"""

from __future__ import annotations

import re

from adapters.base import ForumSettings
from adapters.registry import Engine, PasswordSource
from adapters.xenforo.address import looks_like_xenforo, parse_thread_url, post_url
from referee.kernel import Forum, Poster

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


def open_forum(settings: ForumSettings, password: PasswordSource | None) -> Forum:
    from adapters.xenforo.client import XenforoForum

    return XenforoForum(settings, password=password)


def open_snapshot(settings: ForumSettings) -> Forum:
    from adapters.snapshot import open_saved
    from adapters.xenforo.snapshot import XenforoPages

    return open_saved(settings, XenforoPages)


def open_poster(settings: ForumSettings, password: PasswordSource | None) -> Poster:
    from adapters.xenforo.client import XenforoForum
    from adapters.xenforo.posting import XenforoPoster

    return XenforoPoster(XenforoForum(settings, password=password))


ENGINE = Engine(
    name="xenforo",
    title="XenForo",
    claims_url=claims_url,
    topic_id=topic_id,
    open_forum=open_forum,
    claims_page=claims_page,
    open_snapshot=open_snapshot,
    open_poster=open_poster,
    post_url=post_url,
)

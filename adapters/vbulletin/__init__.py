"""vBulletin 3.8 and 4.x (and vB 5 thread pages): Russian and English language packs.

Thread pages in :mod:`.parse` (bodies :mod:`.body`, dates :mod:`.when`, addresses
:mod:`.urls`), PMs in :mod:`.mail`, forms in :mod:`.forms`, the live board in
:mod:`.client`, replies and PMs in :mod:`.posting`, saved pages in :mod:`.snapshot`. Every
markup and protocol fact, with its source and whether it is verified, is in ``README.md``
beside this file. The registry entry below opens each lazily.
"""

from __future__ import annotations

import re

from adapters.base import ForumSettings
from adapters.registry import Engine, PasswordSource
from adapters.vbulletin.urls import claims, parse_thread_url
from referee.kernel import Forum, Poster

_MARKUP = re.compile(
    r'<meta name="generator" content="vBulletin|Powered by <a[^>]+vbulletin\.com'
    r'|Powered by vBulletin|var SECURITYTOKEN\s*=|vbulletin_global\.js', re.IGNORECASE)


def claims_url(url: str) -> bool:
    """``showthread.php?t=N`` and vBulletin's friendly forms (``showthread.php/N-title``,
    ``threads/N-title``, vB 5's ``…/N-title``), not XenForo's ``threads/title.N/``."""
    return claims(url)


def claims_page(html: str) -> bool:
    """vBulletin's generator meta (verified on all three saved pages) or its scripts."""
    return bool(_MARKUP.search(html))


def topic_id(url: str) -> int | None:
    return parse_thread_url(url).topic_id


def open_forum(settings: ForumSettings, password: PasswordSource | None) -> Forum:
    from adapters.vbulletin.client import VbulletinForum

    return VbulletinForum(settings, password=password)


def open_snapshot(settings: ForumSettings) -> Forum:
    from adapters.snapshot import open_saved
    from adapters.vbulletin.snapshot import VbulletinPages

    return open_saved(settings, VbulletinPages)


def open_poster(settings: ForumSettings, password: PasswordSource | None) -> Poster:
    from adapters.vbulletin.client import VbulletinForum
    from adapters.vbulletin.posting import VbulletinPoster

    return VbulletinPoster(VbulletinForum(settings, password=password))


ENGINE = Engine(
    name="vbulletin",
    title="vBulletin 3.8/4.x",
    claims_url=claims_url,
    topic_id=topic_id,
    open_forum=open_forum,
    claims_page=claims_page,
    open_snapshot=open_snapshot,
    open_poster=open_poster,
)

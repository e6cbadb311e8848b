"""phpBB 3.0–3.3 (prosilver and subsilver2, Russian and English packs).

Page parsers in :mod:`.parse` (topic pages :mod:`.topic`, PMs :mod:`.pms`, forms
:mod:`.forms`, bodies :mod:`.body`), the live board in :mod:`.client`, replies and PMs in
:mod:`.posting`, saved pages in :mod:`.snapshot`. The registry entry below opens each lazily,
so finding the engines costs no parser import.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from adapters.base import ForumSettings
from adapters.registry import lazy_engine
from referee.kernel import Forum

_BOARD_PAGES = ("", "index.php", "ucp.php", "viewforum.php")
_OTHER_ENGINES_TOPIC = frozenset({"topic", "id", "threads", "tid"})
_MARKUP = re.compile(r'<body[^>]+id="phpbb"|Powered by <a[^>]+phpbb\.com|phpBB Limited',
                     re.IGNORECASE)


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


def claims_page(html: str) -> bool:
    return bool(_MARKUP.search(html))


def topic_id(url: str) -> int | None:
    from adapters.phpbb.client import parse_topic_url

    return parse_topic_url(url)[1]


def open_snapshot(settings: ForumSettings) -> Forum:
    from adapters.phpbb.snapshot import SnapshotForum

    assert settings.snapshot is not None
    return SnapshotForum(settings.snapshot, forum=settings)


ENGINE = lazy_engine(
    "phpbb", "phpBB 3.x", claims_url=claims_url, topic_id=topic_id, claims_page=claims_page,
    forum="client:PhpbbForum", poster="posting:PhpbbPoster", open_snapshot=open_snapshot)

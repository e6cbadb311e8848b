"""vBulletin 3.8 and 4.x (and vB 5 thread pages): Russian and English language packs.

Thread pages in :mod:`.topic` (bodies :mod:`.body`, dates :mod:`.dates`, addresses
:mod:`.urls`), PMs in :mod:`.pms`, forms in :mod:`.forms`, the live board in
:mod:`.client`, replies and PMs in :mod:`.posting`, saved pages in :mod:`.snapshot`. Every
markup and protocol fact, with its source and whether it is verified, is in ``README.md``
beside this file. The registry entry below opens each lazily.
"""

from __future__ import annotations

from adapters.address import page_marks
from adapters.registry import lazy_engine
from adapters.vbulletin.urls import EXAMPLE, claims, parse_thread_url

claims_page = page_marks(
    r'<meta name="generator" content="vBulletin|Powered by <a[^>]+vbulletin\.com'
    r'|Powered by vBulletin|var SECURITYTOKEN\s*=|vbulletin_global\.js')
"""vBulletin's generator meta (verified on all three saved pages) or its scripts."""


def topic_id(url: str) -> int | None:
    return parse_thread_url(url).topic_id


ENGINE = lazy_engine(
    "vbulletin", "vBulletin 3.8/4.x", claims_url=claims, topic_id=topic_id,
    claims_page=claims_page, forum="client:VbulletinForum", poster="posting:VbulletinPoster",
    pages="snapshot:VbulletinPages", example=EXAMPLE)

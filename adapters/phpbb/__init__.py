"""phpBB 3.0–3.3 (prosilver and subsilver2, Russian and English packs).

Page parsers in :mod:`.topic`, :mod:`.pms` (and :mod:`.pm_export`), :mod:`.forms`,
:mod:`.body` over :mod:`.page`; the live board in :mod:`.client`, replies and PMs in
:mod:`.posting`, saved pages in :mod:`.snapshot`. The registry entry below opens each lazily,
so finding the engines costs no parser import.
"""

from __future__ import annotations

from adapters.address import page_marks
from adapters.phpbb.urls import EXAMPLE, claims_url
from adapters.registry import lazy_engine

claims_page = page_marks(r'<body[^>]+id="phpbb"|Powered by <a[^>]+phpbb\.com|phpBB Limited')

ENGINE = lazy_engine(
    "phpbb", "phpBB 3.x", claims_url=claims_url, claims_page=claims_page,
    forum="client:PhpbbForum", poster="posting:PhpbbPoster", pages="snapshot:PhpbbPages",
    example=EXAMPLE)

"""phpBB 3.0–3.3 (prosilver and subsilver2, Russian and English packs); what each module
reads: README.md. The registry entry below opens each lazily, so finding the engines costs
no parser import.
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

"""phpBB 3.0–3.3 (prosilver and subsilver2, Russian and English packs); what each module
reads: README.md. The registry entry below opens each lazily, so finding the engines costs
no parser import.
"""

from __future__ import annotations

import re

from adapters.phpbb.urls import claims_url, parse_topic_url
from adapters.registry import lazy_engine

__all__ = ["ENGINE", "claims_page", "claims_url", "topic_id"]

_MARKUP = re.compile(r'<body[^>]+id="phpbb"|Powered by <a[^>]+phpbb\.com|phpBB Limited',
                     re.IGNORECASE)


def claims_page(html: str) -> bool:
    return bool(_MARKUP.search(html))


def topic_id(url: str) -> int | None:
    return parse_topic_url(url)[1]


ENGINE = lazy_engine(
    "phpbb", "phpBB 3.x", claims_url=claims_url, topic_id=topic_id, claims_page=claims_page,
    forum="client:PhpbbForum", poster="posting:PhpbbPoster", pages="snapshot:PhpbbPages",
    example="https://forum.example.com/viewtopic.php?t=123")

"""A topic page's title and topic id.

The title: 3.1–3.3 ``h2.topic-title a``; 3.0 prosilver ``h2 > a`` (no class);
subsilver2 ``#pageheader h2 a.titles``; a style that prints none of them (prosilver_se moves
it into its header events) still has the ``<title>``: 3.1+ «{title} - Страница N -
{board}» (``PAGE_TITLE_NUMBER``), 3.0 «{board} • Просмотр темы - {title}». The id: the
title link's ``t=``, the canonical link (3.1+), the page's own address, or the search box's
hidden ``t``.
"""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser

from adapters.phpbb.page import _TOPIC_ID, _norm

_PAGE_PART = re.compile(r"^(?:Страница|Page)\s+\d+$", re.IGNORECASE)
_VIEW_TOPIC = re.compile(r"^(?:Просмотр темы|View topic)\s+-\s+", re.IGNORECASE)


def topic_title_and_id(tree: LexborHTMLParser, url: str) -> tuple[str, int | None]:
    link = tree.css_first("h2.topic-title a") or tree.css_first("#pageheader h2 a")
    if link is None:
        for candidate in tree.css("h2 a"):
            if "viewtopic" in (candidate.attributes.get("href") or ""):
                link = candidate
                break
    title = _norm(link.text()) if link is not None else ""
    if not title:
        heading = tree.css_first("h2.topic-title")
        title = _norm(heading.text()) if heading is not None else ""
    if not title:
        title = _head_title(tree)
    sources = [link.attributes.get("href") or "" if link is not None else ""]
    canonical = tree.css_first('link[rel="canonical"]')
    if canonical is not None:
        sources.append(canonical.attributes.get("href") or "")
    sources.append(url)
    for source in sources:
        match = _TOPIC_ID.search(source)
        if match:
            return title, int(match.group(1))
    hidden = tree.css_first('input[name="t"]')
    if hidden is not None and (hidden.attributes.get("value") or "").isdigit():
        return title, int(hidden.attributes["value"] or 0)
    return title, None


def _head_title(tree: LexborHTMLParser) -> str:
    node = tree.css_first("head title") or tree.css_first("title")
    text = _norm(node.text()) if node is not None else ""
    if not text:
        return ""
    if " • " in text:  # 3.0: «{board} • Просмотр темы - {title}»
        return _VIEW_TOPIC.sub("", text.split(" • ", 1)[1]).strip()
    parts = [p for p in text.split(" - ") if not _PAGE_PART.match(p.strip())]
    if len(parts) > 1:
        parts = parts[:-1]  # the board's name closes every 3.1+ title
    return " - ".join(parts).strip()

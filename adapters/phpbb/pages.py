"""Where a phpBB page sits among its pages: the pagination of topics and PM folders.

3.1+ (``pagination.html``): ``div.pagination`` with «70 сообщений», a ``ul`` of numbered
``a.button`` links, ``li.active span`` for the current page, ``rel="next"``, and the page
jump box (``data-per-page``) when there are more than 6 pages; one page prints «Страница
<strong>1</strong> из <strong>1</strong>». 3.0 (``generate_pagination()``): «Сообщений: 36
• Страница 4 из 4 • 1, 2, 3, <strong>4</strong>» in ``div.pagination`` (prosilver) or
``td.nav`` / ``td.gensmall`` cells of one table row (subsilver2, «На страницу»), and the
``var per_page = '25'`` JS variable in ``<head>``. The page size comes from the ``start=``
offsets of numbered links.
"""

from __future__ import annotations

from dataclasses import dataclass

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters.phpbb.page import (
    _JS_PER_PAGE,
    _PAGE_OF,
    _START,
    _TOTAL,
    _abs_url,
    _ancestor,
    _norm,
)

PAGINATION_BOXES = "div.pagination, li.pagination, td.nav"


@dataclass(frozen=True, slots=True)
class Pages:
    page: int
    total_pages: int
    per_page: int
    total_items: int | None
    next_url: str | None
    per_page_proven: bool = False
    """The page size was printed by the board (link offsets, the jump box, the JS variable),
    not guessed from the posts on this page."""


def pagination(tree: LexborHTMLParser, html: str, url: str, on_page: int,
               boxes: list[Node] | None = None) -> Pages:
    """Page number, page count, page size and next link, from whatever phpBB printed.

    ``on_page`` (the items this page shows) is only the lower bound of the page size when
    the board printed none (a topic of one page)."""
    containers = list(tree.css(PAGINATION_BOXES) if boxes is None else boxes)
    # prosilver keeps everything inside div.pagination; only subsilver2 needs the (costly,
    # whole-page) search for its scattered jump links.
    scattered = not any(c.tag in ("div", "li") for c in containers)
    for jump in tree.css('a[onclick*="jumpto"]') if scattered else ():
        # subsilver2 spreads one pagination over a table row: td.nav «Страница 2 из 3»,
        # td.gensmall «[ Сообщений: 25 ]» and the links.
        row = _ancestor(jump, "tr")
        if row is not None and row.css_first("div.postbody, div.content") is None:
            containers.append(row)
        elif jump.parent is not None:
            containers.append(jump.parent)
    current, total, items, links, next_href = _read_boxes(containers, scattered)
    per_page = _per_page(containers, html, links)
    proven = per_page is not None
    if current is None:
        start = _START.search(url)
        current = int(start.group(1)) // per_page + 1 if start and per_page else 1
    total_pages = max([total or 1, current, *links.keys()])
    if per_page is None:
        # A one-page topic does not reveal the board's page size; what is on the page is a
        # lower bound and keeps arithmetic on it safe.
        per_page = max(on_page, 1)
    if next_href is None:
        next_href = links.get(current + 1)
    next_url = _abs_url(url, next_href, drop_sid=True) if next_href else None
    return Pages(current, total_pages, per_page, items, next_url, proven)


def _read_boxes(
    containers: list[Node], scattered: bool
) -> tuple[int | None, int | None, int | None, dict[int, str], str | None]:
    """(current page, page count, item count, numbered links, rel=next link)."""
    current: int | None = None
    total: int | None = None
    items: int | None = None
    links: dict[int, str] = {}
    next_href: str | None = None
    for box in containers:
        if not scattered and current is not None and items is not None:
            break  # prosilver prints the same bar above and below the posts
        # A separator between elements: a minified page has no whitespace between
        # «70 сообщений» and the links.
        text = _norm(box.text(separator=" "))
        if items is None:
            match = _TOTAL.search(text)
            if match:
                items = int(match.group(1) or match.group(2))
        page_of = _PAGE_OF.search(text)
        if page_of:
            current = current or int(page_of.group(1))
            total = max(total or 0, int(page_of.group(2)))
        active = box.css_first("li.active span")
        if active is not None and _norm(active.text()).isdigit():
            current = int(_norm(active.text()))
        for link in box.css("a"):
            label = _norm(link.text())
            href = link.attributes.get("href") or ""
            if label.isdigit() and href and href != "#":
                links.setdefault(int(label), href)
            if next_href is None and (link.attributes.get("rel") or "") == "next":
                next_href = href
        if current is None:
            for strong in box.css("strong"):
                label = _norm(strong.text())
                # 3.0 lists the current page as a bare <strong> between the links.
                if label.isdigit() and strong.parent is not None and strong.parent.tag == "span":
                    current = int(label)
                    break
    return current, total, items, links, next_href


def _per_page(containers: list[Node], html: str, links: dict[int, str]) -> int | None:
    # The page-jump box (3.1+, more than 6 pages) sits inside div.pagination.
    for box in containers:
        marked = box.css_first("[data-per-page]")
        if marked is not None and (marked.attributes.get("data-per-page") or "").isdigit():
            return int(marked.attributes["data-per-page"] or 0) or None
    # Page N's link starts at (N-1)·size. Every link must agree; a link that does not (a page
    # that rewrote one of its own addresses) is outvoted by the others.
    sizes: list[int] = []
    for number, href in links.items():
        start = _START.search(href)
        offset = int(start.group(1)) if start else 0
        if number > 1 and offset > 0 and offset % (number - 1) == 0:
            sizes.append(offset // (number - 1))
    if sizes:
        return max(sorted(set(sizes)), key=sizes.count)
    script = _JS_PER_PAGE.search(html)
    if script:
        return int(script.group(1)) or None
    return None

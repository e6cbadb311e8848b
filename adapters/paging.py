"""Where a page sits among its pages, read once for every engine (issue 28): the page index
a board prints (the page shown, its numbered links, the «next» arrow, the page count of
«Страница N из M») and the page size that page offsets give. An engine says where its
index boxes are and what its links look like (selectors, a link's number, its «next»
arrow); the markup facts of each board's index are in its README. Pure."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from selectolax.lexbor import LexborNode as Node

from adapters.html import squash

PAGE_OF = re.compile(r"(?:Страница|Стр\.|Page)\s*(\d+)\s+(?:из|of)\s+(\d+)", re.IGNORECASE)
"""«Страница 2 из 3» / «Page 2 of 3» (phpBB, vBulletin; «Стр. 2 из 3»: vBulletin packs)."""


@dataclass(frozen=True, slots=True)
class PageIndex:
    """What a page index shows (addresses as the engine's ``address`` made them)."""

    current: int | None = None
    """The page shown: a number that is no link, else «Страница N из M»; None: neither."""
    links: dict[int, str] = field(default_factory=dict)
    """Each numbered page linked and its address (the first link of a number)."""
    next_href: str | None = None
    """The «next» arrow's address."""
    total: int = 1
    """The page count the index prints («… из M»), 1 when it prints none."""

    def last(self, page: int) -> int:
        """The last page, ``page`` being the one shown: the count printed or the highest
        page linked (a board always links its last page)."""
        return max([self.total, page, *self.links])

    def next_of(self, page: int) -> str | None:
        """The next page's address: the arrow's, else the link numbered ``page + 1``."""
        return self.next_href or self.links.get(page + 1)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a page sits among its pages, as an engine read it from its index."""

    page: int
    total: int
    per_page: int | None = None
    """Items a page, when the page tells it (never guessed from the items it shows)."""
    items: int | None = None
    """Items on all the pages, when the page prints it."""
    next_url: str | None = None


def label_number(link: Node) -> int | None:
    """A page link's number: its text, when it is a number and the link has an address (a
    ``#`` link only opens a script's page jump)."""
    label = squash(link.text())
    href = link.attributes.get("href") or ""
    return int(label) if label.isdigit() and href and href != "#" else None


def read_index(boxes: Iterable[Node], *, links: str = "a", here: str = "strong",
               page_of: re.Pattern[str] | None = PAGE_OF,
               number: Callable[[Node], int | None] = label_number,
               arrow: str | None = "a[rel=next]",
               address: Callable[[str], str] = str) -> PageIndex:
    """The page index in ``boxes`` (a board may print it above and below the posts): the
    first number among the ``here`` elements that is no link, else the first «Страница N
    из M» (``page_of``, read in the text with a space between elements: a minified page
    has none); the ``links`` elements with a ``number``; the first ``arrow`` link. Their
    ``href`` is kept as ``address`` makes it (absolute, without a session)."""
    current: int | None = None
    shown: int | None = None
    total = 1
    found: dict[int, str] = {}
    next_href: str | None = None
    for box in boxes:
        if page_of is not None and (match := page_of.search(squash(box.text(separator=" ")))):
            shown = shown or int(match.group(1))
            total = max(total, int(match.group(2)))
        current = current or unlinked_number(box, here)
        next_node = box.css_first(arrow) if arrow and next_href is None else None
        if next_node is not None:
            next_href = address(next_node.attributes.get("href") or "")
        for link in box.css(links):
            if (page := number(link)) is not None:
                found.setdefault(page, address(link.attributes.get("href") or ""))
    return PageIndex(current or shown, found, next_href, total)


def unlinked_number(box: Node, selector: str) -> int | None:
    """The first ``selector`` element of ``box`` whose text is a number and which is inside
    no link (a link's ``strong`` is a button's, «Вниз»; the page shown is no link)."""
    for node in box.css(selector):
        parent = node.parent
        while parent is not None and parent is not box and parent.tag != "a":
            parent = parent.parent
        label = squash(node.text())
        if label.isdigit() and (parent is None or parent.tag != "a"):
            return int(label)
    return None


def page_size(offsets: dict[int, int]) -> int | None:
    """Items a page from page offsets (page N starts after (N-1)·size items): every page
    must agree; one that does not (a page that rewrote one of its own addresses) is outvoted
    by the others. None when no page after the first shows an offset."""
    sizes = [offset // (number - 1) for number, offset in offsets.items()
             if number > 1 and offset > 0 and offset % (number - 1) == 0]
    return max(sorted(set(sizes)), key=sizes.count) if sizes else None


__all__ = ["PAGE_OF", "PageIndex", "Place", "label_number", "page_size", "read_index",
           "unlinked_number"]

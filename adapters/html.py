"""Small parsing helpers the engines' page readers share (issue 28): text as a page shows
it, numbers and instants in it, element children and fragments of selectolax/lexbor trees.
Pure."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node


def squash(text: str) -> str:
    """Whitespace (no-break spaces too) folded to single spaces, as a reader sees it."""
    return " ".join(text.split())


def int_or_none(value: str | None) -> int | None:
    """``value`` as a whole number (its digits alone), None for anything else."""
    text = (value or "").strip()
    return int(text) if text.isdecimal() else None


def iso_utc(value: str | None) -> datetime | None:
    """An ISO 8601 date-time that carries its offset (``…Z`` too: a ``<time datetime>``),
    as UTC; None for one without an offset or out of range."""
    try:
        parsed = datetime.fromisoformat((value or "").strip().replace("Z", "+00:00"))
        return parsed.astimezone(UTC) if parsed.tzinfo is not None else None
    except (ValueError, OverflowError):  # «9999-12-31T23:59:59-12:00» is no instant
        return None


def classes(node: Node) -> set[str]:
    """The element's classes."""
    return set((node.attributes.get("class") or "").split())


def element_children(node: Node) -> list[Node]:
    """The element children of ``node`` (text and comments left out)."""
    return [c for c in node.iter() if c.tag and not c.tag.startswith("-")]


def next_element(node: Node) -> Node | None:
    """The element after ``node`` among its siblings (text and comments passed over)."""
    sibling = node.next
    while sibling is not None and (sibling.tag or "").startswith("-"):
        sibling = sibling.next
    return sibling


def fragment(markup: str, selector: str) -> Node:
    """The element ``selector`` of an HTML fragment (the engine-neutral body's boxes are
    built so), ready to be put into another tree."""
    node = LexborHTMLParser(markup).css_first(selector)
    assert node is not None, selector  # the fragments are the engines' own, always whole
    return node


def first_text(node: Node | LexborHTMLParser, selectors: Iterable[str], *,
               separator: str = "") -> str:
    """The text (squashed) of the first of ``selectors`` that finds an element with text in
    ``node``, or '': a board's message box, a title, each looked for where its styles put
    it."""
    for selector in selectors:
        found = node.css_first(selector)
        if found is not None and (text := squash(found.text(separator=separator))):
            return text
    return ""


__all__ = ["classes", "element_children", "first_text", "fragment", "int_or_none", "iso_utc",
           "next_element", "squash"]

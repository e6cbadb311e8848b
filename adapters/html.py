"""Small parsing helpers the engines' page readers share (issue 28): text as a page shows
it, numbers in it, element children and fragments of selectolax/lexbor trees. Pure."""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node


def squash(text: str) -> str:
    """Whitespace (no-break spaces too) folded to single spaces, as a reader sees it."""
    return " ".join(text.split())


def int_or_none(value: str | None) -> int | None:
    """``value`` as a whole number (its digits alone), None for anything else."""
    text = (value or "").strip()
    return int(text) if text.isdecimal() else None


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


__all__ = ["classes", "element_children", "fragment", "int_or_none", "next_element", "squash"]

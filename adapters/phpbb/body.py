"""A post's or PM's content as the kernel's body contract wants it
(:class:`referee.core.kernel.Post`): phpBB's own markup already is the contract, except
where a board's [spoiler] BBCode borrows the look of a quote or a code box — such a box is
rewritten into a neutral ``<div class="spoiler">`` (the author's own text: a vote inside it
counts). Which boxes: README.md, «The body»."""

from __future__ import annotations

from selectolax.lexbor import LexborNode as Node

from adapters.html import element_children
from referee.core.markup import plain_text, plain_text_node

_HIDDEN = ("display:none", "display: none")


def body_of(content: Node) -> tuple[str, str]:
    """(body_html, body_text) of a content element (``div.content``, ``div.postbody``)."""
    html = content.inner_html or ""
    if "blockquote" not in html and "codebox" not in html and "quotecontent" not in html:
        return html, plain_text_node(content)  # the common post: nothing to look at
    rewritten = html
    for box in content.css("blockquote, .codebox, div.quotecontent"):
        if not _is_spoiler(box):
            continue
        title = box.prev
        while title is not None and (not title.tag or title.tag.startswith("-")):
            title = title.prev
        if box.tag == "div" and title is not None and "quotetitle" in (
                title.attributes.get("class") or ""):
            rewritten = _swap(rewritten, title, "spoiltitle")
        rewritten = _swap(rewritten, box, "spoiler")
    if rewritten == html:
        return html, plain_text_node(content)
    return rewritten, plain_text(rewritten)


def _swap(html: str, node: Node, cls: str) -> str:
    """``html`` with ``node`` (its serialisation, first occurrence) made a ``div.{cls}``."""
    outer = node.html or ""
    if not outer or outer not in html:
        return html
    return html.replace(outer, f'<div class="{cls}">{node.inner_html or ""}</div>', 1)


def _is_spoiler(box: Node) -> bool:
    if box.tag not in ("div", "blockquote"):
        return box.css_first("code") is None
    first = next(iter(element_children(box)), None)
    if box.tag == "div":  # subsilver2's quote box
        return _hides(box) or (first is not None and _hides(first))
    if "spoil" in (box.attributes.get("class") or "").lower() or _hides(box):
        return True
    return first is not None and first.tag != "cite" and _hides(first)


def _hides(node: Node) -> bool:
    style = (node.attributes.get("style") or "").lower()
    return any(mark in style for mark in _HIDDEN)

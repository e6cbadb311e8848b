"""A vBulletin post's content → the body every engine hands the core (``adapters/README.md``,
«The body»): vB 4/5 ``div.bbcode_container`` quotes and code boxes, vB 3's «Quote:» /
«Цитата:» tables and ``pre.alt2``, rewritten to ``<blockquote>`` with a ``<cite>`` and
``div.codebox``; everything else as vBulletin rendered it. The markup and its sources:
README.md, «Post body»."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

from selectolax.lexbor import LexborNode as Node

from adapters.html import classes as _classes
from adapters.html import squash

_VOID = frozenset({"br", "img", "hr", "input", "wbr", "area", "col", "embed", "source",
                   "track", "param", "meta", "link"})
_DROP = frozenset({"script", "style", "noscript", "iframe", "object"})
_VB3_QUOTE = re.compile(r"^(?:quote|цитата)\s*:?$", re.IGNORECASE)
_VB3_CODE = re.compile(r"^(?:php |html )?(?:code|код)\s*:?$", re.IGNORECASE)
_POSTED_BY = re.compile(r"^(?:originally posted by|сообщение от)\b", re.IGNORECASE)


def render_body(content: Node) -> str:
    """The normalised HTML of ``content``'s children (the post's own node is not kept)."""
    return "".join(_render(child) for child in content.iter(include_text=True))


def _render(node: Node) -> str:
    tag = node.tag
    if tag == "-text":
        return html.escape(node.text_content or "", quote=False)
    if tag is None or tag.startswith("-") or tag in _DROP:
        return ""
    if tag == "div":
        box = _vb4_box(node) if "bbcode_container" in _classes(node) else _vb3_box(node)
        if box is not None:
            return box
    return _element(node)


def _element(node: Node) -> str:
    tag = node.tag or "span"
    attrs = "".join(
        f" {name}" if value is None else f' {name}="{html.escape(value, quote=True)}"'
        for name, value in node.attributes.items()
    )
    if tag in _VOID:
        return f"<{tag}{attrs}>"
    return f"<{tag}{attrs}>{render_body(node)}</{tag}>"


def _blockquote(header: str, inner: str) -> str:
    cite = f"<cite>{html.escape(header, quote=False)}</cite>" if header else ""
    return f"<blockquote>{cite}{inner}</blockquote>"


def _codebox(code: Node) -> str:
    """Its text with ``<br>`` as line breaks (vB's highlighted [PHP] boxes break lines so)."""
    text = "".join(text_pieces(code, br="\n"))
    return f'<div class="codebox"><code>{html.escape(text, quote=False)}</code></div>'


def text_pieces(node: Node, *, skip: frozenset[str] = frozenset(),
                br: str | None = None) -> Iterator[str]:
    """The texts under ``node`` in page order, the elements named in ``skip`` left out
    (comments always), each ``<br>`` given as ``br`` when it is set."""
    for child in node.iter(include_text=True):
        if child.tag == "-text":
            yield child.text_content or ""
        elif br is not None and child.tag == "br":
            yield br
        elif child.tag and not child.tag.startswith("-") and child.tag not in skip:
            yield from text_pieces(child, skip=skip, br=br)


_HEADER_SKIP = frozenset({"a", "img"})


def _header(node: Node) -> str:
    """«Сообщение от NAME»: the box's words without its links («View Post») and icons."""
    return squash(" ".join(text_pieces(node, skip=_HEADER_SKIP)))


def _child(node: Node, tag: str, cls: str) -> Node | None:
    """A direct child ``tag.cls``: a nested quote's parts must not be taken for these."""
    return next((c for c in node.iter() if c.tag == tag and cls in _classes(c)), None)


def _vb4_box(box: Node) -> str | None:
    quote = _child(box, "div", "bbcode_quote")
    if quote is not None:
        holder = _child(quote, "div", "quote_container") or quote
        posted_by = _child(holder, "div", "bbcode_postedby")
        message = _child(holder, "div", "message") if posted_by is not None else None
        if message is not None:
            inner = render_body(message)
        else:
            inner = "".join(
                _render(child) for child in holder.iter(include_text=True)
                if not (child.tag == "div" and _classes(child) & {"bbcode_quote_container",
                                                                   "bbcode_postedby"}))
        return _blockquote(_header(posted_by) if posted_by is not None else "", inner)
    code = box.css_first("pre.bbcode_code, div.bbcode_code, code")
    return _codebox(code) if code is not None else None


def _vb3_box(box: Node) -> str | None:
    title = next(iter(box.iter()), None)  # the box's first element
    if title is None or title.tag != "div" or "smallfont" not in _classes(title):
        return None
    words = " ".join(title.text().split())
    if _VB3_QUOTE.match(words):
        cell = box.css_first("td.alt2") or box.css_first("td")
        return _vb3_quote(cell) if cell is not None else None
    if _VB3_CODE.match(words):
        code = box.css_first("pre") or box.css_first("code")
        return _codebox(code) if code is not None else None
    return None


def _vb3_quote(cell: Node) -> str:
    """The author line is the first of two ``div``s when it says «Сообщение от» /
    «Originally Posted by», or when the second is the italic text (a pack or style that
    words the line otherwise); anything else is quoted whole."""
    children = [c for c in cell.iter() if c.tag == "div"]
    if len(children) >= 2 and (
            _POSTED_BY.match(" ".join(children[0].text().split()))
            or "italic" in (children[1].attributes.get("style") or "").replace(" ", "")):
        return _blockquote(_header(children[0]), render_body(children[1]))
    return _blockquote("", render_body(cell))


__all__ = ["render_body", "text_pieces"]

"""A XenForo post body → the HTML the engine-neutral readers expect (engine guide): XF1's
quote boxes become their blockquote with the attribution inside, code boxes
``div.codebox``, chrome (buttons, «click to expand», link previews) goes, colours stay as
written. What and why: README.md («The body the vote reader gets»).
"""

from __future__ import annotations

from selectolax.lexbor import LexborNode as Node

from adapters.html import element_children
from referee.core.markup import plain_text_node

_CHROME = (
    "button",                       # spoiler buttons (XF2 .bbCodeSpoiler-button, XF1)
    ".bbCodeBlock-expandLink",      # XF2 «Click to expand...» under a long quote
    ".quoteExpand",                 # XF1 «Click to expand...»
    ".js-selectToQuoteEnd", ".messageTextEndMarker",
    # XF 2.1+ link previews: the linked page's title and snippet, fetched by the board,
    # never typed by the poster (who typed only the address).
    ".bbCodeBlock--unfurl",
    "script", "noscript", "style",
)


def _xf1_quotes(body: Node) -> None:
    # Innermost first: a quote inside a quote is rewritten before its container moves.
    for box in reversed(body.css("div.bbCodeQuote")):
        inner = box.css_first("blockquote")
        if inner is None:
            continue
        attribution = box.css_first("div.attribution")
        if attribution is not None:
            first = element_children(inner)
            if first:
                first[0].insert_before(attribution)
            else:
                inner.insert_child(attribution)
        if box.attributes.get("data-author") and "data-quote" not in inner.attributes:
            inner.attrs["data-quote"] = box.attributes.get("data-author") or ""
        box.replace_with(inner)


def _code_boxes(body: Node) -> None:
    # XF2 .bbCodeBlock--code, XF1 .bbCodeCode / .bbCodePHP / .bbCodeHtml: a title («Код:»)
    # and a <pre><code>; the vote reader reads only the <code> of a div.codebox.
    for box in body.css("div.bbCodeBlock--code, div.bbCodeCode, div.bbCodePHP, "
                        "div.bbCodeHtml"):
        for title in box.css("div.bbCodeBlock-title, div.type"):
            title.decompose()
        if box.css_first("code") is None:
            pre = box.css_first("pre")
            if pre is not None:
                pre.unwrap()
        box.attrs["class"] = "codebox"


def normalise_body(body: Node) -> tuple[str, str]:
    """Rewrite ``body`` (a ``div.bbWrapper`` or ``blockquote.messageText``) in place and
    return its ``(body_html, body_text)``."""
    for selector in _CHROME:
        for node in body.css(selector):
            node.decompose()
    _xf1_quotes(body)
    _code_boxes(body)
    return (body.inner_html or "").strip(), plain_text_node(body)


__all__ = ["normalise_body"]

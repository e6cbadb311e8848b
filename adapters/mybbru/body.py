"""A MyBB.ru post's rendered HTML → the body the shared vote reader expects: a quote box's
``<cite>`` moved into its blockquote, spoilers and hidden text unwrapped as the author's
own words (docs/rules.md V1 excludes quotes only), code boxes ``div.codebox``, colour as
rendered, the signature and the edit line dropped. Facts and their sources: README.md («The
post's body»).
"""

from __future__ import annotations

import html

from selectolax.lexbor import LexborHTMLParser, LexborNode

from adapters.html import classes, element_children, fragment
from referee.core.markup import plain_text_node

_ROOT = "__mybbru_body"
_CHROME = ".post-sig, .lastedit, script, noscript"


def normalise_body(html: str) -> tuple[str, str]:
    """``(body_html, body_text)`` of one post's rendered ``message``."""
    tree = LexborHTMLParser(f"<div id='{_ROOT}'>{html}</div>")
    root = tree.css_first(f"#{_ROOT}")
    if root is None:  # pragma: no cover - selectolax always builds the wrapper
        return "", ""
    normalise_node(root)
    return root.inner_html or "", plain_text_node(root)


def normalise_node(root: LexborNode) -> None:
    """Rewrite the boxes under ``root`` in place (a topic page's ``div.post-content``)."""
    for node in root.css(_CHROME):
        node.decompose()
    _code_boxes(root)
    while (box := root.css_first(".spoiler-box, .hide-box")) is not None:
        _open_hidden(box)
    while (box := root.css_first(".quote-box")) is not None:
        _quote(box)


def _code_boxes(root: LexborNode) -> None:
    for box in root.css(".code-box"):
        pre = box.css_first("pre")
        if pre is None:
            for legend in box.css(".legend"):
                legend.decompose()
            text = box.text(deep=True)
        else:
            text = pre.text(deep=True)
        box.replace_with(fragment(f'<div class="codebox"><code>{html.escape(text, quote=False)}'
                                  "</code></div>", "div"))


def _open_hidden(box: LexborNode) -> None:
    """A spoiler or hidden-text box: drop its header, keep its content as the author's. The
    content is the box's own ``blockquote`` (a quote nested deeper is someone else's and
    stays one); a box without one keeps all but a header line (a ``cite``, the clickable
    «Спойлер» ``div``)."""
    box.attrs["class"] = "spoiler"
    children = element_children(box)
    content = next((c for c in children if c.tag == "blockquote"), None)
    if content is None:
        head = children[0] if children else None
        if head is not None and len(children) > 1 and (
                head.tag == "cite" or "onclick" in head.attributes
                or any("head" in c or "title" in c for c in classes(head))):
            head.decompose()
        return
    for child in children:
        if child.mem_id != content.mem_id:
            child.decompose()
    content.unwrap()


def _quote(box: LexborNode) -> None:
    """``div.quote-box > cite + blockquote`` → ``blockquote > cite + …``."""
    quote = next((c for c in element_children(box) if c.tag == "blockquote"), None)
    if quote is None:
        # A box without its blockquote (a board's own template): the whole box is quoted.
        box.attrs["class"] = " ".join(sorted(classes(box) - {"quote-box"}))
        wrapper = fragment("<blockquote></blockquote>", "blockquote")
        for child in list(box.iter(include_text=True)):
            wrapper.insert_child(child)
            child.decompose()
        box.insert_child(wrapper)
        box.unwrap()
        return
    cite = next((c for c in element_children(box) if c.tag == "cite"), None)
    if cite is not None:
        first = quote.child
        if first is not None:
            first.insert_before(cite)  # a copy; the original goes below
        else:
            quote.insert_child(cite)
        cite.decompose()
    box.unwrap()


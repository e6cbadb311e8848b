"""A MyBB.ru post's rendered HTML → the body the shared vote reader expects.

MyBB.ru renders BBCode the PunBB way, with its own boxes (facts in README.md):

- ``[quote=Ник]`` → ``<div class="quote-box quote-main"><cite>Ник написал(а):</cite>
  <blockquote>…</blockquote></div>``. The vote reader and :mod:`referee.core.markup` treat a
  ``<blockquote>`` as someone else's words; the ``<cite>`` outside it would read as the
  author's own text, so it is moved inside (where phpBB prints its quote header).
- ``[spoiler]`` → ``<div class="quote-box spoiler-box"><div onclick=…>Спойлер</div>
  <blockquote>…</blockquote></div>``; ``[hide]`` → ``div.quote-box.hide-box`` with a
  ``<cite>`` header. Both hide the author's own text until clicked: the header goes, the
  ``<blockquote>`` is unwrapped so the content stays as the author's (a vote in a spoiler
  counts, docs/rules.md V1 excludes quotes only).
- ``[code]`` → ``div.code-box`` (a «Код:» legend, the text in ``<pre>``) → the engine-neutral
  ``<div class="codebox"><code>…</code></div>``.
- Colour is left as rendered: ``<span style="color: red">``;
  :mod:`referee.rules.day.colour` reads it.
- The signature (``.post-sig``) and the edit line (``.lastedit``) are chrome: removed when a
  topic page's content carries them (the API's ``message`` has neither).
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser, LexborNode

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


def _classes(node: LexborNode) -> list[str]:
    return (node.attributes.get("class") or "").split()


def _code_boxes(root: LexborNode) -> None:
    for box in root.css(".code-box"):
        pre = box.css_first("pre")
        if pre is None:
            for legend in box.css(".legend"):
                legend.decompose()
            text = box.text(deep=True)
        else:
            text = pre.text(deep=True)
        code = LexborHTMLParser('<div class="codebox"><code></code></div>').css_first("div")
        assert code is not None
        inner = code.css_first("code")
        assert inner is not None
        if text:
            inner.insert_child(text)
        box.replace_with(code)


def _open_hidden(box: LexborNode) -> None:
    """A spoiler or hidden-text box: drop its header, keep its content as the author's. The
    content is the box's own ``blockquote`` (a quote nested deeper is someone else's and
    stays one); a box without one keeps all but a header line (a ``cite``, the clickable
    «Спойлер» ``div``)."""
    box.attrs["class"] = "spoiler"
    children = _element_children(box)
    content = next((c for c in children if c.tag == "blockquote"), None)
    if content is None:
        head = children[0] if children else None
        if head is not None and len(children) > 1 and (
                head.tag == "cite" or "onclick" in head.attributes
                or any("head" in c or "title" in c for c in _classes(head))):
            head.decompose()
        return
    for child in children:
        if child.mem_id != content.mem_id:
            child.decompose()
    content.unwrap()


def _quote(box: LexborNode) -> None:
    """``div.quote-box > cite + blockquote`` → ``blockquote > cite + …``."""
    quote = next((c for c in _element_children(box) if c.tag == "blockquote"), None)
    if quote is None:
        # A box without its blockquote (a board's own template): the whole box is quoted.
        box.attrs["class"] = " ".join(c for c in _classes(box) if c != "quote-box")
        wrapper = LexborHTMLParser("<blockquote></blockquote>").css_first("blockquote")
        assert wrapper is not None
        for child in list(box.iter(include_text=True)):
            wrapper.insert_child(child)
            child.decompose()
        box.insert_child(wrapper)
        box.unwrap()
        return
    cite = next((c for c in _element_children(box) if c.tag == "cite"), None)
    if cite is not None:
        first = quote.child
        if first is not None:
            first.insert_before(cite)  # a copy; the original goes below
        else:
            quote.insert_child(cite)
        cite.decompose()
    box.unwrap()


def _element_children(node: LexborNode) -> list[LexborNode]:
    return [c for c in node.iter() if c.tag and not c.tag.startswith("-")]

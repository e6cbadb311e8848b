"""Post HTML → plain text, with quoted text marked.

phpBB renders quotes as ``<blockquote>`` (nested up to three deep). Votes and activity must
ignore what a player quoted from someone else (docs/rules.md V1), so every line of plain text
that came from inside a quote starts with :data:`QUOTE_MARK`. The mark is a control
character that cannot occur in HTML text, so a player cannot forge it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the parser loads with the first page read, not with the rules (issue 28)
    from selectolax.lexbor import LexborNode as Node

QUOTE_MARK = "\x1f"
"""Prefix of every plain-text line that was quoted from another post."""

_BLOCK_TAGS = frozenset(
    {"div", "p", "li", "ul", "ol", "dl", "dt", "dd", "pre", "table", "tr", "h1", "h2", "h3",
     "h4", "h5", "h6", "cite", "blockquote", "hr"}
)
_SKIP_TAGS = frozenset({"script", "style", "noscript"})


def plain_text(html: str) -> str:
    """Plain text of a post body; lines from quotes are prefixed with :data:`QUOTE_MARK`.

    Images contribute their ``alt`` text (smilies like ``:D``) so that a reason made only
    of a smiley is visible as such, not as an empty line.
    """
    from selectolax.lexbor import LexborHTMLParser  # noqa: PLC0415 — only when a post is read

    tree = LexborHTMLParser(f"<div id='__referee_root'>{html}</div>")
    root = tree.css_first("#__referee_root")
    if root is None:  # pragma: no cover - selectolax always builds the wrapper
        return ""
    return plain_text_node(root)


def plain_text_node(node: Node) -> str:
    """:func:`plain_text` of the children of an already parsed node (e.g. ``div.content``).

    Adapters use it to avoid serialising the post body and parsing it a second time.
    """
    lines: list[tuple[int, list[str]]] = [(0, [])]
    _walk(node, 0, lines)
    out: list[str] = []
    for depth, parts in lines:
        text = " ".join("".join(parts).split())
        if not text:
            continue
        out.append((QUOTE_MARK + text) if depth > 0 else text)
    return "\n".join(out)


def _walk(node: Node, depth: int, lines: list[tuple[int, list[str]]]) -> None:
    # The hot path of every page parse: local names, no helper calls for text.
    for child in node.iter(include_text=True):
        tag = child.tag
        if tag == "-text":
            if lines[-1][0] != depth:
                lines.append((depth, []))
            # A newline in HTML text is whitespace (collapsed when the line is joined);
            # phpBB marks real line breaks with <br>.
            lines[-1][1].append(child.text_content or "")
        elif tag == "br":
            lines.append((depth, []))
        elif tag in _SKIP_TAGS or tag == "-comment":
            continue
        elif tag == "img":
            alt = child.attributes.get("alt") or ""
            if alt:
                _append(lines, depth, alt)
        else:
            inner = depth + 1 if tag == "blockquote" or (tag == "div" and _is_quote_div(child)) \
                else depth
            if tag in _BLOCK_TAGS:
                lines.append((inner, []))
                _walk(child, inner, lines)
                lines.append((depth, []))
            else:
                _walk(child, inner, lines)


def _is_quote_div(node: Node) -> bool:
    # phpBB 3.0 subsilver2 renders [quote] as div.quotetitle («Ник писал(а):») followed by
    # div.quotecontent instead of a blockquote; both are someone else's words (docs/rules.md V1).
    if node.tag != "div":
        return False
    cls = node.attributes.get("class") or ""
    return "quotecontent" in cls or "quotetitle" in cls


def _append(lines: list[tuple[int, list[str]]], depth: int, text: str) -> None:
    # A newline in HTML text is whitespace (collapsed with the rest when the line is
    # joined); phpBB marks real line breaks with <br>.
    if lines[-1][0] != depth:
        lines.append((depth, []))
    lines[-1][1].append(text)


def unquoted_lines(text: str) -> list[str]:
    """The lines of :func:`plain_text` output that the author wrote himself."""
    return [line for line in text.split("\n") if not line.startswith(QUOTE_MARK)]
